package media

import (
	"encoding/json"
	"sort"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// member is one property of an object value with its schema, nil for a
// property the schema does not declare.
type member struct {
	name   string
	value  any
	schema *openapi.Schema
}

// members returns the properties of m in the order bodies write them: the
// ones s declares, in the schema's order, then the others sorted by name.
func members(m map[string]any, s *openapi.Schema) []member {
	out := make([]member, 0, len(m))
	declared := 0
	if s != nil {
		for _, p := range s.Properties {
			if v, ok := m[p.Name]; ok {
				out = append(out, member{p.Name, v, p.Schema})
				declared++
			}
		}
	}
	if declared == len(m) {
		return out
	}
	rest := len(out)
	for k, v := range m {
		if declared == 0 || s.Property(k) == nil {
			out = append(out, member{name: k, value: v})
		}
	}
	sort.Slice(out[rest:], func(i, j int) bool { return out[rest+i].name < out[rest+j].name })
	return out
}

// appendScalar appends the text of a scalar: a string as it is, numbers
// and booleans as their JSON text, nothing for null. It reports false,
// appending nothing, for objects and arrays.
func appendScalar(dst []byte, v any) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return dst, true
	case string:
		return append(dst, x...), true
	case json.Number:
		return append(dst, x...), true
	case map[string]any, []any:
		return dst, false
	}
	return jsonx.Append(dst, v), true
}

// resolve returns the alternative of s (anyOf or oneOf) that describes v
// when s itself declares no properties or items: for an object the
// alternative declaring most of its properties, for an array the first
// with items, for others the first allowing the value's type. It returns
// s when there is no such alternative.
func resolve(s *openapi.Schema, v any) *openapi.Schema {
	if s == nil || len(s.AnyOf) == 0 || len(s.Properties) > 0 || s.Items != nil {
		return s
	}
	best, score := s, 0
	for _, a := range s.AnyOf {
		if a == nil {
			continue
		}
		var n int
		switch x := v.(type) {
		case map[string]any:
			for _, p := range a.Properties {
				if _, ok := x[p.Name]; ok {
					n++
				}
			}
		case []any:
			if a.Items != nil {
				n = 1
			}
		default:
			if allows(a, v) {
				n = 1
			}
		}
		if n > score {
			best, score = a, n
		}
	}
	return best
}

// allows reports whether s's types admit the scalar v; no types admit
// all.
func allows(s *openapi.Schema, v any) bool {
	if len(s.Types) == 0 {
		return true
	}
	switch v.(type) {
	case nil:
		return s.Is("null") || s.Nullable
	case string:
		return s.Is("string")
	case bool:
		return s.Is("boolean")
	}
	return s.Is("number") || s.Is("integer")
}

// appendCell appends the text of a scalar as appendScalar does, and the
// JSON text of an object or array.
func appendCell(dst []byte, v any) []byte {
	if out, ok := appendScalar(dst, v); ok {
		return out
	}
	return jsonx.Append(dst, v)
}
