package diff

import (
	"strings"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// roles swaps the parties a reason names, for a change to a hook's
// operation: every reason of an operation's change names them in one of
// these phrases.
var roles = strings.NewReplacer(
	"a client of OLD", "a provider of OLD", "a provider of OLD", "a client of OLD",
	"a provider ignores", "a client ignores",
)

// swapped is the level of a change to a hook's operation that, made to
// an operation, is at l: the change breaks the other party.
func swapped(l Level) Level {
	switch l {
	case BreaksClients:
		return BreaksProviders
	case BreaksProviders:
		return BreaksClients
	}
	return l
}

// hookKey is how hooks of OLD and NEW are matched: by name, URL
// expression (a callback's; a webhook has none) and method.
func hookKey(h *openapi.Hook) string { return h.Name + "\x00" + h.URL + "\x00" + h.Op.Method }

// kind is "webhook" or "callback", which starts the rules of a hook's
// changes.
func kind(h *openapi.Hook) string {
	if h.Webhook() {
		return "webhook"
	}
	return "callback"
}

// hookName is how reasons name a hook: "webhook plantSold POST",
// "callback sold POST {$request.body#/url}".
func hookName(h *openapi.Hook) string {
	name := kind(h) + " " + h.Name + " " + h.Op.Method
	if h.Webhook() {
		return name
	}
	return name + " " + h.URL
}

// webhooks compares the documents' webhooks. A webhook's changes are of
// its own operation, "METHOD name".
func (c *comparer) webhooks(od, nd *openapi.Document) { c.hooks("", od.Webhooks, nd.Webhooks) }

// callbacks compares the operation's callbacks, whose changes are the
// operation's.
func (d *opDiff) callbacks() { d.c.hooks(d.name, d.old.Callbacks, d.new.Callbacks) }

// hooks compares the hooks of OLD with NEW's: those of NEW in its order,
// then those NEW removed. Their changes are of operation, else (a
// webhook's) of "METHOD name". A hook removed breaks clients, as an
// operation removed does: a client of OLD waits for a request that no
// longer comes. A hook added breaks providers, as an operation added
// does: a provider of OLD does not send it, and a client of OLD, which
// never asked for it, is not concerned.
func (c *comparer) hooks(operation string, olds, news []*openapi.Hook) {
	of := func(h *openapi.Hook) string {
		if operation != "" {
			return operation
		}
		return h.Op.Method + " " + h.Name
	}
	pairs(olds, news, hookKey, func(o, n *openapi.Hook) {
		switch {
		case o == nil:
			c.add(Change{Rule: kind(n) + "-added", Level: BreaksProviders, Side: Document, Operation: of(n),
				New: loc(n.Op.Place()), Reason: "NEW declares " + hookName(n) + ", which a provider of OLD does not send", hook: true})
		case n == nil:
			c.add(Change{Rule: kind(o) + "-removed", Level: BreaksClients, Side: Document, Operation: of(o),
				Old: loc(o.Op.Place()), Reason: "NEW no longer declares " + hookName(o) + ": a client of OLD that waits for it receives it no more", hook: true})
		default:
			d := &opDiff{c: c, name: of(n), old: o.Op, new: n.Op, hook: kind(n)}
			if !n.Webhook() {
				d.about = hookName(n) + ": "
			}
			d.exchange()
		}
	})
}
