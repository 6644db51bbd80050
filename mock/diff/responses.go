package diff

import (
	"fmt"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// responseList is an operation's responses, default last, whose status
// is "DEFAULT".
func responseList(o *openapi.Operation) []*openapi.Response {
	out := append([]*openapi.Response(nil), o.Responses...)
	if o.Default != nil {
		out = append(out, o.Default)
	}
	return out
}

// statusName is how a reason names a response: "response 200",
// "default response".
func statusName(r *openapi.Response) string {
	if r.Status == "DEFAULT" {
		return "default response"
	}
	return "response " + r.Status
}

// responses compares the operation's responses by status.
func (d *opDiff) responses() {
	w := d.walk(Response)
	pairs(responseList(d.old), responseList(d.new), func(r *openapi.Response) string { return r.Status }, func(o, n *openapi.Response) {
		switch {
		case o == nil && strings.HasPrefix(n.Status, "2"):
			d.add("response-success-status-added", BreaksClients, Response, nil, loc(n.Place()),
				fmt.Sprintf("NEW may answer %s: a client of OLD may take a success it does not know for a failure, or read it as another", n.Status))
		case o == nil:
			d.add("response-status-added", Compatible, Response, nil, loc(n.Place()),
				fmt.Sprintf("NEW may answer %s: a client of OLD handles a status it does not know by its class (RFC 9110, section 15)", n.Status))
		case n == nil:
			d.add("response-status-removed", BreaksProviders, Response, loc(o.Place()), nil,
				fmt.Sprintf("NEW no longer declares the %s: a provider of OLD may still send it", statusName(o)))
		default:
			d.media(w, statusName(n), o.Content, n.Content)
			d.headers(w, n, o.Headers, n.Headers)
			d.links(n, o.Links, n.Links)
		}
	})
}

// headers compares the headers of a response, by name in any case.
func (d *opDiff) headers(w *walk, r *openapi.Response, olds, news []openapi.Header) {
	of := " of the " + statusName(r)
	defer func() { d.of = "" }()
	pairsOf(olds, news, func(h *openapi.Header) string { return strings.ToLower(h.Name) }, func(o, n *openapi.Header) {
		switch {
		case n == nil && o.Required:
			d.of = "header." + o.Name
			d.add("response-required-header-removed", BreaksClients, Response, loc(o.Place()), nil,
				fmt.Sprintf("NEW no longer declares the required header %s%s: a client of OLD may rely on it", o.Name, of))
			return
		case n == nil:
			d.of = "header." + o.Name
			d.add("response-header-removed", Compatible, Response, loc(o.Place()), nil,
				fmt.Sprintf("NEW no longer declares the optional header %s%s, which a client of OLD could not rely on", o.Name, of))
			return
		}
		d.of = "header." + n.Name
		switch {
		case o == nil && n.Required:
			d.add("response-required-header-added", BreaksProviders, Response, nil, loc(n.Place()),
				fmt.Sprintf("NEW requires header %s%s: a provider of OLD does not send it", n.Name, of))
			return
		case o == nil:
			d.add("response-header-added", Compatible, Response, nil, loc(n.Place()),
				fmt.Sprintf("NEW declares the optional header %s%s", n.Name, of))
			return
		case o.Required && !n.Required:
			d.add("response-header-became-optional", BreaksClients, Response, loc(o.Place()), loc(n.Place()),
				fmt.Sprintf("header %s%s became optional: a client of OLD may rely on it", n.Name, of))
		case !o.Required && n.Required:
			d.add("response-header-became-required", BreaksProviders, Response, loc(o.Place()), loc(n.Place()),
				fmt.Sprintf("header %s%s became required: a provider of OLD may leave it out", n.Name, of))
		}
		what := fmt.Sprintf("header %s%s", n.Name, of)
		w.schema(what, "response-header", "", o.Schema, n.Schema, false)
		d.examples(Response, "response-header", what, o.ExampleList(), n.ExampleList())
	})
}
