package pipeline

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/media"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// encodeResource returns the answer to send for resource v: v projected
// onto the answer's schema (only the properties it declares, writeOnly
// ones left out at any depth), checked against it unless that is valid by
// construction, and written in the answer's media type.
func (s *answerer) encodeResource(x *turn, v any) ([]byte, *problem.Problem) {
	if x.offer == nil {
		return nil, nil
	}
	if p := x.overBudget(); p != nil {
		return nil, p // completing it ran out of budget
	}
	schema := x.schema()
	if x.proven() {
		// Written on the stack (while it fits), then copied out at the
		// size it came to: a plant's answer takes 24 bytes of heap, not
		// 256.
		var room [256]byte
		return bytes.Clone(AppendProjected(room[:0], v, schema)), nil
	}
	out, p := s.shape(x, v)
	if p != nil {
		return nil, p
	}
	if vs := schema.Validate(out); len(vs) > 0 {
		// A stored resource that does not fit this answer (made by a
		// write whose own answer disagrees with it on a field's type):
		// answered with what it lacks made up, as a create completes.
		m, ok := v.(map[string]any)
		if !ok {
			return nil, problem.Internal("the resource does not fit the declared response schema: %s", vs[0])
		}
		filled, _ := jsonx.Clone(m).(map[string]any)
		filled = complete(filled, x.resourceSchema(), x.fake(s), x.budget(s))
		if out, p = s.shape(x, filled); p != nil {
			return nil, p
		}
		if len(schema.Validate(out)) > 0 {
			return nil, problem.Internal("the resource does not fit the declared response schema: %s", vs[0])
		}
		x.note("the stored resource does not fit this answer (%s): what it lacks is made up", vs[0])
	}
	return s.encode(x, out, schema)
}

// shape puts a resource in an answer's shape: the answer's properties,
// in its envelope, without writeOnly properties where it drops them.
func (s *answerer) shape(x *turn, v any) (any, *problem.Problem) {
	out := Project(v, x.resourceSchema())
	if env := x.envelope(); env != nil {
		var p *problem.Problem
		if out, p = s.wrap(x, env, out); p != nil {
			return nil, p
		}
	}
	if x.dropsWriteOnly() {
		out = x.schema().WithoutWriteOnly(out)
	}
	return out, nil
}

// proven reports whether the plan's proof that stored resources fit the
// answer holds for this answer: it is written in the first offer, as JSON.
func (x *turn) proven() bool {
	return x.Plan.proven && !x.unproven && x.firstOffer() && x.kind == media.JSON
}

// firstOffer reports whether the answer is written in the success
// answer's first offer, for which the plan works things out at start.
func (x *turn) firstOffer() bool {
	return x.offer != nil && len(x.Plan.offers) > 0 && x.offer == &x.Plan.offers[0]
}

// dropsWriteOnly reports whether the answer's schema declares writeOnly
// properties.
func (x *turn) dropsWriteOnly() bool {
	if x.firstOffer() {
		return x.Plan.dropWriteOnly
	}
	return x.schema().HasWriteOnly()
}

// writeBody sends the success status with the operation's required
// headers and body; a nil body sends none.
func (s *Engine) writeBody(x *exchange, body []byte) {
	pl := x.Plan
	h := x.W.Header()
	for i := range pl.headers {
		h.Set(pl.headers[i].name, pl.headers[i].value(&s.answerer, &x.turn))
	}
	if pl.location {
		// A create names the new item (set by create); a redirect points
		// elsewhere (a client following it must not come back here);
		// other answers name what they are about: the request's own path.
		loc := h.Get("Location")
		if loc == "" {
			loc = x.R.URL.EscapedPath()
			if pl.Success >= 300 && pl.Success < 400 {
				loc = "https://example.com" + loc
			}
		}
		if pl.locationURI && strings.HasPrefix(loc, "/") {
			scheme := "http"
			if x.R.TLS != nil {
				scheme = "https"
			}
			loc = scheme + "://" + x.R.Host + loc
		}
		h.Set("Location", loc)
	}
	s.writeStatus(x, pl.Success, body)
}

// sentAs returns the final status and body writeStatus sends for status
// and body: an operation that declares only an informational status is
// answered 204 No Content without a body, after the 1xx as an interim
// answer, since HTTP has no final 1xx.
func sentAs(status int, body []byte) (int, []byte) {
	if status < 200 {
		return http.StatusNoContent, nil
	}
	return status, body
}

// writeStatus sends a status and body in the answer's media type; a nil
// body sends none.
func (s *Engine) writeStatus(x *exchange, status int, body []byte) {
	if status < 200 {
		x.W.WriteHeader(status) // an interim answer
		status, body = sentAs(status, body)
	}
	h := x.W.Header()
	if body != nil && x.offer != nil {
		if x.ct == x.offer.ct {
			h["Content-Type"] = x.offer.cth
		} else {
			h.Set("Content-Type", x.ct)
		}
		setLength(h, len(body), x.flushes(status))
	}
	x.W.WriteHeader(status)
	if body != nil {
		x.W.Write(body)
	}
}

// writeJSON sends a status with a JSON body of the given content type;
// flushed says whether the answer is flushed before the handler returns
// (see setLength).
func writeJSON(w http.ResponseWriter, status int, contentType string, body []byte, flushed bool) {
	h := w.Header()
	h["Content-Type"] = []string{contentType}
	setLength(h, len(body), flushed)
	w.WriteHeader(status)
	w.Write(body)
}

// HeldBody is the most of a body net/http holds until the handler returns
// (its bufferBeforeChunkingSize): it then sends such a body with its
// Content-Length, worked out itself.
const HeldBody = 2048

// setLength puts the Content-Length of a body of n bytes in h where
// net/http would not send it itself: a body longer than it holds, or an
// answer flushed before the handler returns (one that webhooks follow,
// see afterAnswer), which would go chunked. Every other answer leaves it
// to net/http, which then has one header less to copy, sort and write.
func setLength(h http.Header, n int, flushed bool) {
	if n > HeldBody || flushed {
		h["Content-Length"] = []string{strconv.Itoa(n)}
	}
}

// AppendProjected appends what project(v, schema) would give, as JSON,
// without building it; declared properties come in schema order.
func AppendProjected(buf []byte, v any, schema *openapi.Schema) []byte {
	if schema == nil {
		return jsonx.Append(buf, v)
	}
	switch x := v.(type) {
	case map[string]any:
		if len(schema.Properties) == 0 && !schema.NoAdditionalProperties {
			return jsonx.Append(buf, x)
		}
		buf = append(buf, '{')
		first := true
		for _, p := range schema.Properties {
			pv, ok := x[p.Name]
			if !ok || p.Schema != nil && p.Schema.WriteOnly {
				continue
			}
			if !first {
				buf = append(buf, ',')
			}
			first = false
			buf = jsonx.AppendString(buf, p.Name)
			buf = append(buf, ':')
			buf = AppendProjected(buf, pv, p.Schema)
		}
		for _, r := range schema.Required {
			if pv, ok := x[r]; ok && schema.Property(r) == nil {
				// Required, though not declared.
				if !first {
					buf = append(buf, ',')
				}
				first = false
				buf = jsonx.AppendString(buf, r)
				buf = append(buf, ':')
				buf = jsonx.Append(buf, pv)
			}
		}
		return append(buf, '}')
	case []any:
		if schema.Items == nil {
			return jsonx.Append(buf, x)
		}
		buf = append(buf, '[')
		for i, e := range x {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = AppendProjected(buf, e, schema.Items)
		}
		return append(buf, ']')
	}
	return jsonx.Append(buf, v)
}

// Project keeps only what schema declares: the declared properties of
// objects (writeOnly ones left out) and the required ones, recursively
// through arrays.
func Project(v any, schema *openapi.Schema) any {
	if schema == nil {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		if len(schema.Properties) == 0 && !schema.NoAdditionalProperties {
			return x
		}
		out := make(map[string]any, len(schema.Properties))
		for _, p := range schema.Properties {
			if pv, ok := x[p.Name]; ok && (p.Schema == nil || !p.Schema.WriteOnly) {
				out[p.Name] = Project(pv, p.Schema)
			}
		}
		for _, r := range schema.Required {
			if pv, ok := x[r]; ok && schema.Property(r) == nil {
				out[r] = pv // required, though not declared
			}
		}
		return out
	case []any:
		if schema.Items == nil {
			return x
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Project(e, schema.Items)
		}
		return out
	}
	return v
}
