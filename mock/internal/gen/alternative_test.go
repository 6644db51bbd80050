package gen

import (
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

const altSpec = `openapi: 3.0.3
info: {title: alternatives, version: '1'}
paths: {}
components:
  schemas:
    Pet:
      oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]
      discriminator: {propertyName: kind}
    Cat:
      type: object
      required: [kind, lives]
      properties: {kind: {type: string}, lives: {type: integer, minimum: 1, maximum: 9}}
    Dog:
      type: object
      required: [kind, bark]
      properties: {kind: {type: string}, bark: {type: string, enum: [woof, yap]}}
    Id:
      anyOf: [{type: integer, minimum: 1}, {type: string, minLength: 3}]
    Mixed:
      allOf:
        - {type: object, properties: {name: {type: string}}}
        - anyOf: [{required: [a]}, {required: [b]}]
    Plain: {type: string}
`

// TestAlternative: Alternative makes a value of each alternative in
// turn, the discriminator's value with it, and refuses an index out of
// range and a schema without alternatives.
func TestAlternative(t *testing.T) {
	doc, err := openapi.Load([]byte(altSpec))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		schema string
		i      int
		ok     bool
		check  func(v any) bool
	}{
		{"Pet", 0, true, func(v any) bool { m, _ := v.(map[string]any); return m["kind"] == "Cat" && m["lives"] != nil }},
		{"Pet", 1, true, func(v any) bool { m, _ := v.(map[string]any); return m["kind"] == "Dog" && m["bark"] != nil }},
		{"Pet", 2, false, nil},
		{"Id", 0, true, func(v any) bool { _, isString := v.(string); return !isString }},
		{"Id", 1, true, func(v any) bool { s, isString := v.(string); return isString && len(s) >= 3 }},
		{"Mixed", 0, true, func(v any) bool { m, _ := v.(map[string]any); _, has := m["a"]; return has }},
		{"Mixed", 1, true, func(v any) bool { m, _ := v.(map[string]any); _, has := m["b"]; return has }},
		{"Plain", 0, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.schema+"/"+string(rune('0'+tt.i)), func(t *testing.T) {
			s := doc.Schemas[tt.schema]
			v, ok := Alternative(s, tt.i, Faker(5, uint64(tt.i)))
			if ok != tt.ok {
				t.Fatalf("Alternative made %v, ok %v; want ok %v", v, ok, tt.ok)
			}
			if !ok {
				return
			}
			if vs := s.Validate(v); len(vs) > 0 {
				t.Errorf("%v breaks %s: %v", v, tt.schema, vs)
			}
			if !tt.check(v) {
				t.Errorf("%v is not alternative %d of %s", v, tt.i, tt.schema)
			}
		})
	}
	for name, want := range map[string]int{"Pet": 2, "Id": 2, "Mixed": 2, "Plain": 0} {
		if got := len(Alternatives(doc.Schemas[name])); got != want {
			t.Errorf("%s has %d alternatives, want %d", name, got, want)
		}
	}
}
