package answer

import (
	"bytes"
	"net/http"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/media"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// encodeResource returns the answer to send for resource v: v projected
// onto the answer's schema (only the properties it declares, writeOnly
// ones left out at any depth), checked against it unless that is valid by
// construction, and written in the answer's media type.
func (s *Answerer) encodeResource(x *Turn, v any) ([]byte, *problem.Problem) {
	if x.Offer == nil {
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
		filled = complete(filled, x.resourceSchema(), x.Fake(s), x.budget(s))
		if out, p = s.shape(x, filled); p != nil {
			return nil, p
		}
		if len(schema.Validate(out)) > 0 {
			return nil, problem.Internal("the resource does not fit the declared response schema: %s", vs[0])
		}
		x.Note("the stored resource does not fit this answer (%s): what it lacks is made up", vs[0])
	}
	return s.encode(x, out, schema)
}

// shape puts a resource in an answer's shape: the answer's properties,
// in its envelope, without writeOnly properties where it drops them.
func (s *Answerer) shape(x *Turn, v any) (any, *problem.Problem) {
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
func (x *Turn) proven() bool {
	return x.Plan.proven && !x.unproven && x.firstOffer() && x.kind == media.JSON
}

// firstOffer reports whether the answer is written in the success
// answer's first offer, for which the plan works things out at start.
func (x *Turn) firstOffer() bool {
	return x.Offer != nil && len(x.Plan.offers) > 0 && x.Offer == &x.Plan.offers[0]
}

// dropsWriteOnly reports whether the answer's schema declares writeOnly
// properties.
func (x *Turn) dropsWriteOnly() bool {
	if x.firstOffer() {
		return x.Plan.dropWriteOnly
	}
	return x.schema().HasWriteOnly()
}

// SentAs returns the final status and body writeStatus sends for status
// and body: an operation that declares only an informational status is
// answered 204 No Content without a body, after the 1xx as an interim
// answer, since HTTP has no final 1xx.
func SentAs(status int, body []byte) (int, []byte) {
	if status < 200 {
		return http.StatusNoContent, nil
	}
	return status, body
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
