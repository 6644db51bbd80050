package openapi

import "strings"

// Hook is a request the document says the server sends: a webhook (an
// entry of OpenAPI 3.1's webhooks) or a callback of an operation. Its Op
// holds what is sent and answered as for any operation: parameters (the
// headers to send), body, security and responses.
type Hook struct {
	// Name is the key in webhooks, or the callback's name.
	Name string
	// URL is a callback's URL: a runtime expression such as
	// {$request.body#/callbackUrl}, a literal URL, or a mix of both. Empty
	// for a webhook, whose URL the subscriber gives.
	URL string
	Op  *Operation
}

// Webhook reports whether h is a webhook rather than a callback.
func (h *Hook) Webhook() bool { return h.URL == "" }

// hooks reads the operations of a Path Item Object that describes
// outgoing requests: a webhook's, or one callback expression's. Security
// is the operation's own: the document's top-level security is about
// calling the API, not about what it sends.
func (l *loader) hooks(name, url string, pn *node, ptr string) ([]*Hook, error) {
	kind := "webhook "
	if url != "" {
		kind = "callback "
	}
	var out []*Hook
	err := l.pathItem(pn, ptr, name, security{}, func(o *Operation, _ string) {
		o.Name = kind + name
		out = append(out, &Hook{Name: name, URL: url, Op: o})
	})
	if len(out) > 1 { // "webhook NAME POST": the methods tell them apart
		for _, h := range out {
			h.Op.Name += " " + h.Op.Method
		}
	}
	return out, err
}

// webhooks reads the document's webhooks (OpenAPI 3.1).
func (l *loader) webhooks() error {
	wh := l.root.get("webhooks")
	if wh == nil {
		return nil
	}
	if !wh.isObject() {
		return fail("/webhooks", wh, "webhooks is not an object")
	}
	for i, name := range wh.keys {
		hs, err := l.hooks(name, "", wh.vals[i], child("/webhooks", name))
		if err != nil {
			return err
		}
		l.doc.Webhooks = append(l.doc.Webhooks, hs...)
	}
	return nil
}

// callbacks reads an operation's callbacks: name to Callback Object, each
// a map of URL expression to Path Item Object.
func (l *loader) callbacks(o *Operation, on *node, optr string) error {
	cbs := on.get("callbacks")
	if cbs == nil {
		return nil
	}
	if !cbs.isObject() {
		return fail(child(optr, "callbacks"), cbs, "callbacks is not an object")
	}
	for i, name := range cbs.keys {
		cptr := child(child(optr, "callbacks"), name)
		cb, cptr, err := l.deref(cbs.vals[i], cptr)
		if err != nil {
			return err
		}
		if !cb.isObject() {
			return fail(cptr, cb, "the callback is not an object")
		}
		for j, expr := range cb.keys {
			if extension(expr) {
				continue
			}
			if strings.TrimSpace(expr) == "" {
				return fail(child(cptr, expr), cb.vals[j], "the callback's URL expression is empty")
			}
			hs, err := l.hooks(name, expr, cb.vals[j], child(cptr, expr))
			if err != nil {
				return err
			}
			o.Callbacks = append(o.Callbacks, hs...)
		}
	}
	return nil
}

// Webhook returns the hooks of the webhook called name, or nil.
func (d *Document) Webhook(name string) []*Hook {
	var out []*Hook
	for _, h := range d.Webhooks {
		if h.Name == name {
			out = append(out, h)
		}
	}
	return out
}

// WebhookNames lists the declared webhooks, for messages.
func (d *Document) WebhookNames() string {
	var names []string
	for _, h := range d.Webhooks {
		if len(names) == 0 || names[len(names)-1] != h.Name {
			names = append(names, h.Name)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
