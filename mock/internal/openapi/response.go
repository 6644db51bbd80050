package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"

	"github.com/plantmock/plantmock/mock/internal/wire"
)

// CheckResponse checks a response to req against the document, by its
// dialect: the status must be declared (exactly, by range or by default),
// the content type must be one the response declares, the body must
// satisfy that media type's schema, and required headers must be present
// and valid. It consumes resp.Body: a stream (see Operation.Stream) item
// by item, each item against the item schema, to its end or its first
// broken item. It is meant for tests and diagnostics, not the request
// path.
func (d *Document) CheckResponse(req *http.Request, resp *http.Response) []Violation {
	route, _ := d.router.FindFor(req.URL.EscapedPath(), req.Method)
	if route == nil {
		return []Violation{{Path: "response", Reason: "no path of the document matches " + req.URL.Path}}
	}
	op := route.Operation(req.Method)
	if op == nil {
		return []Violation{{Path: "response", Reason: req.Method + " is not declared on " + route.Path}}
	}
	ct := resp.Header.Get("Content-Type")
	if m := op.Stream(resp.StatusCode, ct); m != nil {
		// Item by item, holding one at a time: the answer's stream.
		out := op.CheckResponse(resp.StatusCode, resp.Header, nil, false)
		vs, err := m.CheckItems(resp.Body, ct, false)
		if err != nil {
			return append(out, Violation{Path: "response", Reason: "the body cannot be read: " + err.Error()})
		}
		return append(out, vs...)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return []Violation{{Path: "response", Reason: "the body cannot be read: " + err.Error()}}
	}
	return op.CheckResponse(resp.StatusCode, resp.Header, body, true)
}

// Bodiless reports whether an answer with status carries no content,
// whatever the document declares for it: a 1xx, 204 No Content or 304
// Not Modified (RFC 9110, sections 15.2, 15.3.5 and 15.4.5). Documents
// declare content for a 204 (AWS's, for many of their deletes), which no
// server can send.
func Bodiless(status int) bool {
	return status >= 100 && status < 200 || status == http.StatusNoContent || status == http.StatusNotModified
}

// CheckResponse checks an answer of o with status, header and body, as
// Document.CheckResponse does; with checkBody false, the body is taken
// as valid (too long to be read whole, or a stream its caller checks
// item by item with Media.Items, say). A body of a sequential media type
// with an item schema is checked item by item: the violations are those
// of its first broken item, item[3].name.
func (o *Operation) CheckResponse(status int, header http.Header, body []byte, checkBody bool) []Violation {
	r := o.Response(status)
	if r == nil {
		return []Violation{{Path: "response", Reason: fmt.Sprintf("status %d is not declared by %s", status, o.Name)}}
	}
	var out []Violation
	for _, h := range r.Headers {
		v := header.Get(h.Name)
		switch {
		case v == "" && h.Required:
			out = append(out, Violation{Path: "header." + h.Name, Reason: "required header is missing"})
		case v != "" && h.Schema != nil:
			for _, vi := range h.Schema.Validate(wire.Coerce(v, shapes{}.of(h.Schema))) {
				vi.Path = joinParam("header."+h.Name, vi.Path)
				out = append(out, vi)
			}
		}
	}
	if len(r.Content) == 0 || Bodiless(status) && len(body) == 0 && checkBody {
		if len(body) > 0 || !checkBody {
			out = append(out, Violation{Path: "response", Reason: "the response declares no content, but has a body"})
		}
		return out
	}
	ct := header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return append(out, Violation{Path: "response", Reason: fmt.Sprintf("Content-Type %q is malformed", ct)})
	}
	m := r.media(mt)
	if m == nil {
		return append(out, Violation{Path: "response", Reason: fmt.Sprintf("Content-Type %s is not declared for %d", mt, status)})
	}
	if !checkBody {
		return out
	}
	if m.Itemized() {
		vs, _ := m.CheckItems(bytes.NewReader(body), ct, false)
		return append(out, vs...)
	}
	if m.Schema == nil || !IsJSON(mt) {
		return out
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return append(out, Violation{Path: "response", Reason: "the body is not JSON: " + err.Error()})
	}
	return append(out, m.Schema.Validate(v)...)
}
