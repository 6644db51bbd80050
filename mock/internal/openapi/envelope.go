package openapi

import "slices"

// EnvelopeProperty recognises the envelope of an answer, the one place
// that decides it: the property of answer (the answer's schema) that
// holds the resource of schema resource (the schema of what a
// collection stores: its create's request schema), or for a list (list
// true) the array of them. It returns "" when the answer is the
// resource (or the array) itself, or when no envelope is recognised.
//
// An answer is an envelope when it is an object that declares none of
// the resource's properties itself, and one of its properties holds the
// resource: an object for one resource, an array of them for a list.
// That property is the one that is the resource's schema (the same
// $ref), or declares every property the resource requires (and at least
// one); where several do, the one the answer requires, if it requires
// just one of them. Else it is the answer's only property, or its only
// required one, where that declares at least one of the resource's
// properties (a summary of it). Without a resource schema (a collection
// without a create) no envelope is recognised: answers are taken as
// they are.
func EnvelopeProperty(answer, resource *Schema, list bool) string {
	if answer == nil || resource == nil || !answer.Is("object") && len(answer.Properties) == 0 {
		return ""
	}
	if !list && overlaps(answer, resource) {
		return ""
	}
	held := func(s *Schema) *Schema {
		if list {
			if !s.Is("array") {
				return nil
			}
			return s.Items
		}
		return s
	}
	var strong []Property
	for _, p := range answer.Properties {
		if holds(held(p.Schema), resource) {
			strong = append(strong, p)
		}
	}
	if len(strong) > 1 {
		strong = slices.DeleteFunc(strong, func(p Property) bool { return !answer.Requires(p.Name) })
	}
	var found *Property
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
		return ""
	}
	return found.Name
}

// holds reports whether schema s surely holds a resource of schema r: it
// is r, or an object that declares every property r requires and at
// least one of r's properties.
func holds(s, r *Schema) bool {
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
func overlaps(s, r *Schema) bool {
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
