package openapi

// Finite reports whether some value of finite size may satisfy the
// schema, as far as the model tells: false for an object that requires,
// through required properties and arrays that need items, an object of
// its own kind, with no way out (no null, no other type, no alternative
// that ends). Such a schema is valid OpenAPI, but nothing can be answered
// with it.
//
// It is worked out as a least fixed point over the schemas s reaches
// through the parts that must be present: a schema is finite once its
// own rule holds with what is already known to be finite, until nothing
// changes. The cost is linear in that graph per round.
func (s *Schema) Finite() bool {
	if s == nil {
		return true
	}
	var graph []*Schema
	seen := map[*Schema]bool{}
	var walk func(*Schema)
	walk = func(t *Schema) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		graph = append(graph, t)
		for _, a := range t.AnyOf {
			walk(a)
		}
		if t.Is("array") {
			walk(t.Items)
		}
		for _, r := range t.Required {
			walk(t.Property(r))
		}
	}
	walk(s)
	finite := map[*Schema]bool{}
	for changed := true; changed; {
		changed = false
		for _, t := range graph {
			if !finite[t] && t.endsWith(finite) {
				finite[t], changed = true, true
			}
		}
	}
	return finite[s]
}

// endsWith reports whether s has a value of finite size, given which of
// the schemas it needs are known to have one.
func (s *Schema) endsWith(finite map[*Schema]bool) bool {
	ok := func(t *Schema) bool { return t == nil || finite[t] }
	switch {
	case s.Never:
		return false
	case s.HasConst || len(s.Enum) > 0 || s.HasExample:
		return true // a value is written down
	case len(s.AnyOf) > 0:
		for _, a := range s.AnyOf {
			if ok(a) {
				return true
			}
		}
		return false
	case len(s.Types) == 0 && len(s.Properties) == 0 && s.Items == nil:
		return true
	}
	for _, t := range s.Types {
		if t != "object" && t != "array" {
			return true // a scalar or null ends it
		}
	}
	if s.Is("array") && (s.MinItems == nil || *s.MinItems == 0 || ok(s.Items)) {
		return true
	}
	if !s.Is("object") && len(s.Types) > 0 {
		return false
	}
	for _, r := range s.Required {
		if !ok(s.Property(r)) {
			return false
		}
	}
	return true
}
