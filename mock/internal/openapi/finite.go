package openapi

// Finite reports whether some value of finite size may satisfy the
// schema, as far as the model tells: false for an object that requires,
// through required properties and arrays that need items, an object of
// its own kind, with no way out (no null, no other type, no alternative
// that ends). Such a schema is valid OpenAPI, but nothing can be answered
// with it.
func (s *Schema) Finite() bool {
	return s.finite(map[*Schema]bool{})
}

func (s *Schema) finite(stack map[*Schema]bool) bool {
	if s == nil {
		return true
	}
	if s.Never {
		return false
	}
	if stack[s] {
		return false
	}
	if s.HasConst || len(s.Enum) > 0 || s.HasExample {
		return true // a value is written down
	}
	stack[s] = true
	defer delete(stack, s)
	if len(s.AnyOf) > 0 {
		for _, a := range s.AnyOf {
			if a.finite(stack) {
				return true
			}
		}
		return false
	}
	if len(s.Types) == 0 && len(s.Properties) == 0 && s.Items == nil {
		return true
	}
	for _, t := range s.Types {
		if t != "object" && t != "array" {
			return true // a scalar or null ends it
		}
	}
	if s.Is("array") && (s.MinItems == nil || *s.MinItems == 0 || s.Items.finite(stack)) {
		return true
	}
	if !s.Is("object") && len(s.Types) > 0 {
		return false
	}
	for _, r := range s.Required {
		if !s.Property(r).finite(stack) {
			return false
		}
	}
	return true
}
