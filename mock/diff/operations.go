package diff

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// templateName matches a path template's parameter, {plantId}.
var templateName = regexp.MustCompile(`\{[^}/]*\}`)

// operations compares the operations of od and nd, matched by their
// Key (/plants/{id} is /plants/{plantId}): those of NEW in its
// order, then those NEW removed.
func (c *comparer) operations(od, nd *openapi.Document) {
	pairs(od.Operations, nd.Operations, (*openapi.Operation).Key, func(o, n *openapi.Operation) {
		switch {
		case o == nil:
			c.add(Change{Rule: "operation-added", Level: BreaksProviders, Side: Document, Operation: n.Name,
				New: loc(n.Place()), Reason: "NEW declares " + n.Name + ", which a provider of OLD does not serve"})
		case n == nil:
			c.add(Change{Rule: "operation-removed", Level: BreaksClients, Side: Document, Operation: o.Name,
				Old: loc(o.Place()), Reason: "NEW no longer declares " + o.Name + ": a client of OLD that calls it is refused"})
		default:
			c.operation(o, n)
		}
	})
}

// operation compares one operation of both documents, then its
// callbacks.
func (c *comparer) operation(o, n *openapi.Operation) {
	op := &opDiff{c: c, name: n.Name, old: o, new: n}
	op.exchange()
	op.callbacks()
}

// opDiff compares one operation of OLD with NEW's: an operation of the
// API, or a hook's (a webhook's or a callback's).
type opDiff struct {
	c        *comparer
	name     string
	old, new *openapi.Operation
	// of is the parameter or header the changes being found are of, as
	// a violation's path names it ("query.limit"), while they are.
	of string
	// hook is "webhook" or "callback" for a hook's operation, whose
	// roles are the reverse of an operation's (see add); "" otherwise.
	hook string
	// about starts the reasons of a callback's changes, naming it:
	// their operation is the one that declares it.
	about string
}

// exchange compares what the operation is sent and answers: its
// security, parameters, request body and responses.
func (d *opDiff) exchange() {
	d.security()
	d.params()
	d.body()
	d.responses()
}

// add appends a change of the operation. A hook's provider sends the
// request and its client answers it, so a change to a hook's operation
// breaks the other party than the same change to an operation: its rule
// starts with the hook's kind, its level and the parties its reason
// names swap.
func (d *opDiff) add(rule string, level Level, side Side, old, new *Location, reason string) {
	d.addFound(rule, level, side, old, new, reason, found{})
}

// addFound is add for a change whose violations may be found elsewhere
// too (see Change.found).
func (d *opDiff) addFound(rule string, level Level, side Side, old, new *Location, reason string, f found) {
	if d.hook != "" {
		rule, level, reason = d.hook+"-"+rule, swapped(level), d.about+roles.Replace(reason)
	}
	d.c.add(Change{Rule: rule, Level: level, Side: side, Operation: d.name, Old: old, New: new, Reason: reason, of: d.of, hook: d.hook != "", found: f})
}

// probe returns a copy of the operation's comparison that gathers its
// changes apart, for a comparison whose changes are weighed before any
// is kept: they are made as the operation's own are (a hook's rules,
// levels and reasons, the parameter they are of).
func (d *opDiff) probe() *opDiff {
	p := *d
	p.c = &comparer{old: d.c.old, new: d.c.new}
	return &p
}

// walk returns a schema walk of the operation on side.
func (d *opDiff) walk(side Side) *walk {
	return &walk{op: d, side: side, seen: map[pair]bool{}}
}

// paramKey is how parameters are matched: a path parameter by its place
// in the template, a header by its name in lower case, the others by
// where they are and their name.
func paramKey(o *openapi.Operation, p *openapi.Param) string {
	switch p.In {
	case "path":
		for i, m := range templateName.FindAllString(o.Path, -1) {
			if m == "{"+p.Name+"}" {
				return fmt.Sprintf("path#%d", i)
			}
		}
	case "header":
		return "header:" + strings.ToLower(p.Name)
	}
	return p.In + ":" + p.Name
}

// params compares the operation's parameters.
func (d *opDiff) params() {
	olds := map[string]*openapi.Param{}
	for i := range d.old.Params {
		olds[paramKey(d.old, &d.old.Params[i])] = &d.old.Params[i]
	}
	seen := map[string]bool{}
	w := d.walk(Request)
	defer func() { d.of = "" }()
	for i := range d.new.Params {
		n := &d.new.Params[i]
		d.of = n.In + "." + n.Name
		k := paramKey(d.new, n)
		seen[k] = true
		o := olds[k]
		what := fmt.Sprintf("%s parameter %s", n.In, n.Name)
		switch {
		case o == nil && n.Required:
			d.add("request-parameter-added-required", BreaksClients, Request, nil, loc(n.Place()),
				"NEW requires "+what+": a request of a client of OLD, which does not send it, is refused")
			continue
		case o == nil:
			d.add("request-parameter-added", BreaksProviders, Request, nil, loc(n.Place()),
				"NEW declares the optional "+what+": a provider of OLD does not read it")
			continue
		case !o.Required && n.Required:
			d.add("request-parameter-became-required", BreaksClients, Request, loc(o.Place()), loc(n.Place()),
				what+" became required: a request without it, which OLD accepted, is refused")
		case o.Required && !n.Required:
			d.add("request-parameter-became-optional", BreaksProviders, Request, loc(o.Place()), loc(n.Place()),
				what+" became optional: a provider of OLD may refuse a request without it")
		}
		if style(o) != style(n) {
			d.add("request-parameter-style-changed", BreaksClients, Request, loc(o.Place()), loc(n.Place()),
				fmt.Sprintf("%s is written as %s, no longer %s: a client of OLD writes it the old way", what, style(n), style(o)))
		}
		subject := "parameter " + n.Name
		switch {
		case o.Schema != nil && n.Schema != nil && !d.becameArray(subject, o, n):
			w.schema(subject, "request-parameter", "", o.Schema, n.Schema, false)
		case o.Content != nil && n.Content != nil:
			w.schema(subject, "request-parameter", "", o.Content.Schema, n.Content.Schema, false)
			d.examples(Request, "request-parameter", subject, o.Content.ExampleList(), n.Content.ExampleList())
		}
		d.examples(Request, "request-parameter", subject, o.ExampleList(), n.ExampleList())
	}
	for i := range d.old.Params {
		o := &d.old.Params[i]
		if !seen[paramKey(d.old, o)] {
			d.of = o.In + "." + o.Name
			d.add("request-parameter-removed", BreaksClients, Request, loc(o.Place()), nil,
				fmt.Sprintf("NEW no longer declares %s parameter %s: what a client of OLD sends in it is not read", o.In, o.Name))
		}
	}
}

// style is how a parameter is written: its style and explode, each
// taking its default when not declared ("form, exploded").
func style(p *openapi.Param) string {
	s, explode := p.Styled()
	if explode {
		return s + ", exploded"
	}
	return s
}

// body compares the operation's request body.
func (d *opDiff) body() {
	o, n := d.old.Body, d.new.Body
	switch {
	case o == nil && n == nil:
		return
	case o == nil && n.Required:
		d.add("request-body-added-required", BreaksClients, Request, nil, loc(n.Place()),
			"NEW requires a request body: a request of a client of OLD, which sends none, is refused")
		return
	case o == nil:
		d.add("request-body-added", BreaksProviders, Request, nil, loc(n.Place()),
			"NEW declares an optional request body: a provider of OLD does not read it")
		return
	case n == nil:
		d.add("request-body-removed", BreaksClients, Request, loc(o.Place()), nil,
			"NEW declares no request body: what a client of OLD sends in it is not read")
		return
	case !o.Required && n.Required:
		d.add("request-body-became-required", BreaksClients, Request, loc(o.Place()), loc(n.Place()),
			"the request body became required: a request without one, which OLD accepted, is refused")
	case o.Required && !n.Required:
		d.add("request-body-became-optional", BreaksProviders, Request, loc(o.Place()), loc(n.Place()),
			"the request body became optional: a provider of OLD may refuse a request without one")
	}
	w := d.walk(Request)
	d.media(w, "request body", o.Content, n.Content)
}

// media compares the media types of a body, on the walk's side: those
// removed, those added, and the schemas and examples of those in both.
func (d *opDiff) media(w *walk, subject string, olds, news []*openapi.Media) {
	side := string(w.side)
	pairs(olds, news, func(m *openapi.Media) string { return m.Type }, func(o, n *openapi.Media) {
		switch {
		case o == nil && side == "request":
			d.add("request-media-type-added", BreaksProviders, Request, nil, loc(n.Place()),
				fmt.Sprintf("the request body may be %s: a provider of OLD refuses it", n.Type))
		case o == nil:
			d.add("response-media-type-added", Compatible, Response, nil, loc(n.Place()),
				fmt.Sprintf("the %s may be %s: a client of OLD does not ask for it in Accept", subject, n.Type))
		case n == nil && side == "request":
			d.add("request-media-type-removed", BreaksClients, Request, loc(o.Place()), nil,
				fmt.Sprintf("the request body may no longer be %s: a client of OLD that sends it is refused", o.Type))
		case n == nil:
			d.add("response-media-type-removed", BreaksClients, Response, loc(o.Place()), nil,
				fmt.Sprintf("the %s is no longer %s: a client of OLD that asks for it is not answered with it", subject, o.Type))
		default:
			what := fmt.Sprintf("%s (%s)", subject, n.Type)
			w.schema(what, side+"-body", "", o.Schema, n.Schema, false)
			d.examples(w.side, side+"-body", what, o.ExampleList(), n.ExampleList())
		}
	})
}
