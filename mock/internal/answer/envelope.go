package answer

import (
	"maps"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// envelope is how an answer holds what the store keeps when it is not the
// resource itself: the resource (or, for a list, the array of them) under
// one property of an object, beside fields of the envelope's own:
// {"firewall": {...}}, {"data": {...}}, {"data": [...], "meta": {...}}.
type envelope struct {
	schema *openapi.Schema // the answer's schema: the envelope
	Prop   string          // the property that holds the resource, or the list
	inner  *openapi.Schema // its schema: the resource's, or the list's array
	Meta   []metaField     // a list's declared total, count and next fields (paging.go)
}

// EnvelopeOf returns the envelope of an answer as
// openapi.EnvelopeProperty recognises it; buildPlans calls it once per
// operation and media type, so requests only read what it found.
// resource is the schema of what the collection stores (its create's
// request schema); list is true for a list's answer. It returns nil
// when the answer is the resource (or the array) itself, or when no
// envelope is recognised.
func EnvelopeOf(answer, resource *openapi.Schema, list bool) *envelope {
	prop := openapi.EnvelopeProperty(answer, resource, list)
	if prop == "" {
		return nil
	}
	e := &envelope{schema: answer, Prop: prop, inner: answer.Property(prop)}
	if list {
		e.Meta = metaFields(answer, e.Prop)
	}
	return e
}

// envelopeOf returns the envelope of an answer of the collection: one
// that holds a resource of the create's schema, else one of the item's.
// The parameters of a form create can share no property with what they
// make (Stripe's POST /v1/files takes file and purpose and makes a file
// with an id, a size and a purpose, not required): its list holds items.
func (c *collection) envelopeOf(answer *openapi.Schema, list bool) *envelope {
	e := EnvelopeOf(answer, c.Schema, list)
	if e == nil && c.item != nil && c.item != c.Schema {
		e = EnvelopeOf(answer, c.item, list)
	}
	return e
}

// innerOr returns the schema of what an answer with schema s holds: the
// envelope's inner schema, else s.
func (e *envelope) innerOr(s *openapi.Schema) *openapi.Schema {
	if e == nil {
		return s
	}
	return e.inner
}

// wrap returns v in the envelope: the envelope's other required fields
// are made up (fields of the answer, not of the resource, so they are
// not stored), within the exchange's budget.
func (s *Answerer) wrap(x *Turn, e *envelope, v any) (map[string]any, *problem.Problem) {
	out := make(map[string]any, len(e.schema.Required)+1)
	for _, name := range e.schema.Required {
		if name == e.Prop {
			continue
		}
		ps := e.schema.Property(name)
		if ps == nil {
			continue
		}
		pv, p := generateValue(x.budget(s), ps, x.Fake(s), x.Note)
		if p != nil {
			return nil, p
		}
		out[name] = pv
	}
	out[e.Prop] = v
	if vs := e.schema.Validate(out); len(vs) == 0 || within(vs, e.Prop) {
		return out, nil // fits, or only the resource does not: the caller's check says why
	}
	// The envelope asks more than its required fields (a minProperties,
	// a condition): a made-up envelope with the resource put in.
	made, p := generateValue(x.budget(s), e.schema, x.Fake(s), x.Note)
	if p != nil {
		return nil, p
	}
	m, ok := made.(map[string]any)
	if !ok {
		return out, nil // the caller's check says why it does not fit
	}
	m = maps.Clone(m)
	m[e.Prop] = v
	return m, nil
}

// within reports whether every violation is inside property prop.
func within(vs []openapi.Violation, prop string) bool {
	for _, v := range vs {
		rest, ok := strings.CutPrefix(v.Path, prop)
		if !ok || rest != "" && rest[0] != '.' && rest[0] != '[' {
			return false
		}
	}
	return true
}

// envelope returns the envelope of the answer's media type, or nil.
func (x *Turn) envelope() *envelope {
	if x.Offer == nil {
		return nil
	}
	return x.Offer.env
}

// resourceSchema returns the schema of the stored resource (or list) in
// the answer: inside its envelope, if it has one.
func (x *Turn) resourceSchema() *openapi.Schema {
	return x.envelope().innerOr(x.schema())
}
