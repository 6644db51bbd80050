package mock

import (
	"maps"
	"slices"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// envelope is how an answer holds what the store keeps when it is not the
// resource itself: the resource (or, for a list, the array of them) under
// one property of an object, beside fields of the envelope's own:
// {"firewall": {...}}, {"data": {...}}, {"data": [...], "meta": {...}}.
type envelope struct {
	schema *openapi.Schema // the answer's schema: the envelope
	prop   string          // the property that holds the resource, or the list
	inner  *openapi.Schema // its schema: the resource's, or the list's array
	meta   []metaField     // a list's declared total, count and next fields (paging.go)
}

// envelopeOf recognises the envelope of an answer, the one place that
// decides it; buildPlans calls it once per operation and media type, so
// requests only read what it found. resource is the schema of what the
// collection stores (its create's request schema); list is true for a
// list's answer. It returns nil when the answer is the resource (or the
// array) itself, or when no envelope is recognised.
//
// An answer is an envelope when it is an object that declares none of
// the resource's properties itself, and one of its properties holds the
// resource: an object for one resource, an array of them for a list.
// That property is the one that is the resource's schema (the same
// $ref), or declares every property the resource requires (and at least
// one); where several do, the one the answer requires, if it requires
// just one of them. Else it is the answer's only property, or its only
// required one, where that declares at least one of the resource's
// properties (a summary of it). A collection without a create has no
// resource schema to recognise envelopes by: its answers are taken as
// they are.
func envelopeOf(answer, resource *openapi.Schema, list bool) *envelope {
	if answer == nil || resource == nil || !answer.Is("object") && len(answer.Properties) == 0 {
		return nil
	}
	if !list && overlaps(answer, resource) {
		return nil
	}
	held := func(s *openapi.Schema) *openapi.Schema {
		if list {
			if !s.Is("array") {
				return nil
			}
			return s.Items
		}
		return s
	}
	var strong []openapi.Property
	for _, p := range answer.Properties {
		if holds(held(p.Schema), resource) {
			strong = append(strong, p)
		}
	}
	if len(strong) > 1 {
		strong = slices.DeleteFunc(strong, func(p openapi.Property) bool { return !answer.Requires(p.Name) })
	}
	var found *openapi.Property
	switch {
	case len(strong) == 1:
		found = &strong[0]
	case len(strong) == 0 && len(answer.Properties) == 1:
		found = &answer.Properties[0]
	case len(strong) == 0 && len(answer.Required) == 1:
		for i := range answer.Properties {
			if answer.Properties[i].Name == answer.Required[0] {
				found = &answer.Properties[i]
			}
		}
	}
	if found == nil || len(strong) == 0 && !overlaps(held(found.Schema), resource) {
		return nil
	}
	e := &envelope{schema: answer, prop: found.Name, inner: found.Schema}
	if list {
		e.meta = metaFields(answer, e.prop)
	}
	return e
}

// holds reports whether schema s surely holds a resource of schema r: it
// is r, or an object that declares every property r requires and at
// least one of r's properties.
func holds(s, r *openapi.Schema) bool {
	if s == nil || r == nil {
		return false
	}
	if s.Same(r) || s.Name != "" && s.Name == r.Name {
		return true
	}
	for _, name := range r.Required {
		if s.Property(name) == nil {
			return false
		}
	}
	return overlaps(s, r)
}

// overlaps reports whether s is an object that declares at least one of
// r's properties.
func overlaps(s, r *openapi.Schema) bool {
	if s == nil || !s.Is("object") && len(s.Properties) == 0 {
		return false
	}
	for _, p := range r.Properties {
		if s.Property(p.Name) != nil {
			return true
		}
	}
	return false
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
func (s *Server) wrap(x *exchange, e *envelope, v any) (map[string]any, *problem) {
	out := make(map[string]any, len(e.schema.Required)+1)
	for _, name := range e.schema.Required {
		if name == e.prop {
			continue
		}
		ps := e.schema.Property(name)
		if ps == nil {
			continue
		}
		pv, p := generateValue(x.budget(s), ps, x.fake(s), x.note)
		if p != nil {
			return nil, p
		}
		out[name] = pv
	}
	out[e.prop] = v
	if vs := e.schema.Validate(out); len(vs) == 0 || within(vs, e.prop) {
		return out, nil // fits, or only the resource does not: the caller's check says why
	}
	// The envelope asks more than its required fields (a minProperties,
	// a condition): a made-up envelope with the resource put in.
	made, p := generateValue(x.budget(s), e.schema, x.fake(s), x.note)
	if p != nil {
		return nil, p
	}
	m, ok := made.(map[string]any)
	if !ok {
		return out, nil // the caller's check says why it does not fit
	}
	m = maps.Clone(m)
	m[e.prop] = v
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
func (x *exchange) envelope() *envelope {
	if x.offer == nil {
		return nil
	}
	return x.offer.env
}

// resourceSchema returns the schema of the stored resource (or list) in
// the answer: inside its envelope, if it has one.
func (x *exchange) resourceSchema() *openapi.Schema {
	return x.envelope().innerOr(x.schema())
}
