package openapi

import (
	"reflect"
	"strings"
	"testing"
)

// TestTwinAlternatives checks the warning for a oneOf two of whose
// alternatives accept the same values, and that alternatives differing in
// a keyword, or in a property named like an annotation, are not taken
// for twins.
func TestTwinAlternatives(t *testing.T) {
	doc, err := Load([]byte(`openapi: 3.0.3
info: {title: t, version: '1'}
paths: {}
components:
  schemas:
    Base:
      type: object
      properties: {message: {type: string}}
    Empty:
      allOf:
        - $ref: '#/components/schemas/Base'
        - {type: object, properties: {error: {type: string, default: EMPTY}}}
    NotFound:
      description: another
      allOf:
        - $ref: '#/components/schemas/Base'
        - {type: object, properties: {error: {type: string, default: NOTFOUND}}}
    Unauthorized:
      oneOf:
        - $ref: '#/components/schemas/Empty'
        - $ref: '#/components/schemas/NotFound'
    Distinct:
      oneOf:
        - {type: object, required: [a], properties: {a: {type: string}}}
        - {type: object, required: [b], properties: {b: {type: string}}}
    NamedLikeAnnotations:
      oneOf:
        - {type: object, properties: {description: {type: string}}, additionalProperties: false}
        - {type: object, properties: {title: {type: string}}, additionalProperties: false}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"#/components/schemas/Unauthorized/oneOf": "oneOf alternatives 0 and 1 accept the same values"}
	if !reflect.DeepEqual(doc.Impossible, want) {
		t.Errorf("Impossible = %q, want %q", doc.Impossible, want)
	}
	var lines []string
	for _, w := range doc.Warnings {
		if strings.Contains(w, "oneOf") {
			lines = append(lines, w)
		}
	}
	wantLine := "#/components/schemas/Unauthorized (line 19): no value satisfies the schema: its oneOf alternatives 0 and 1 accept the same values, and oneOf takes exactly one; answers with it break it"
	if len(lines) != 1 || lines[0] != wantLine {
		t.Errorf("warnings about oneOf = %q, want [%q]", lines, wantLine)
	}
}
