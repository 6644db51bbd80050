package media

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

func TestMembers(t *testing.T) {
	s := object("P", prop("id", typed("integer")), prop("name", typed("string")), prop("tag", typed("string")))
	tests := []struct {
		name   string
		schema *openapi.Schema
		value  map[string]any
		want   []string
	}{
		{"declared order", s, map[string]any{"tag": 1, "id": 2, "name": 3}, []string{"id", "name", "tag"}},
		{"declared, then sorted", s, map[string]any{"z": 1, "name": 2, "b": 3, "a": 4}, []string{"name", "a", "b", "z"}},
		{"none declared", s, map[string]any{"z": 1, "y": 2}, []string{"y", "z"}},
		{"no schema", nil, map[string]any{"b": 1, "a": 2}, []string{"a", "b"}},
		{"empty", s, map[string]any{}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := []string{}
			for _, m := range members(tt.value, tt.schema) {
				got = append(got, m.name)
				if m.value != tt.value[m.name] {
					t.Errorf("%s: value %v, want %v", m.name, m.value, tt.value[m.name])
				}
				if want := tt.schema.Property(m.name); m.schema != want {
					t.Errorf("%s: schema %p, want %p", m.name, m.schema, want)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("order %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAppendCell(t *testing.T) {
	tests := []struct {
		name   string
		value  any
		want   string
		scalar bool
	}{
		{"string", "a \"b\"", `a "b"`, true},
		{"number", json.Number("1.50"), "1.50", true},
		{"int", 7, "7", true},
		{"float", 0.5, "0.5", true},
		{"true", true, "true", true},
		{"null", nil, "", true},
		{"object", map[string]any{"b": 1, "a": "x"}, `{"a":"x","b":1}`, false},
		{"array", []any{1, "x", nil}, `[1,"x",null]`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(appendCell([]byte("<"), tt.value)); got != "<"+tt.want {
				t.Errorf("appendCell = %q, want %q", got, "<"+tt.want)
			}
			got, ok := appendScalar([]byte("<"), tt.value)
			if ok != tt.scalar || ok && string(got) != "<"+tt.want || !ok && string(got) != "<" {
				t.Errorf("appendScalar = %q, %v", got, ok)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	cat := object("Cat", prop("meow", typed("boolean")), prop("name", typed("string")))
	dog := object("Dog", prop("bark", typed("boolean")), prop("name", typed("string")))
	list := array("List", typed("string"))
	num, str, null := typed("number"), typed("string"), typed("null")
	pets := &openapi.Schema{AnyOf: []*openapi.Schema{cat, dog, list, num, str, null}}
	tests := []struct {
		name   string
		schema *openapi.Schema
		value  any
		want   *openapi.Schema
	}{
		{"most properties", pets, map[string]any{"bark": true, "name": "x"}, dog},
		{"tie goes to the first", pets, map[string]any{"name": "x"}, cat},
		{"no property known", pets, map[string]any{"x": 1}, pets},
		{"array", pets, []any{}, list},
		{"number", pets, json.Number("1"), num},
		{"string", pets, "s", str},
		{"null", pets, nil, null},
		{"boolean fits none", pets, true, pets},
		{"no alternatives", cat, map[string]any{"bark": true}, cat},
		{"properties of its own", &openapi.Schema{Properties: cat.Properties, AnyOf: []*openapi.Schema{dog}}, map[string]any{"bark": true}, nil},
		{"nil", nil, "x", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			if want == nil {
				want = tt.schema
			}
			if got := resolve(tt.schema, tt.value); got != want {
				t.Errorf("resolve chose %v, want %v", got, want)
			}
		})
	}
}
