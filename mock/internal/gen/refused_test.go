package gen

import (
	"slices"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// TestRefused holds which object schemas are said at load to require a
// property that additionalProperties false refuses.
func TestRefused(t *testing.T) {
	doc := components(t, "3.1.0", `
    Stream: {type: object, required: [name, json_schema], properties: {name: {type: string}, jsonSchema: {type: object}}, additionalProperties: false}
    Closed: {type: object, properties: {content: {type: string}}, additionalProperties: false}
    Props: {type: object, allOf: [$ref: '#/components/schemas/Closed'], required: [name], properties: {name: {type: string}}}
    Fine: {type: object, allOf: [$ref: '#/components/schemas/Closed'], required: [content]}
    Open: {type: object, required: [extra], properties: {name: {type: string}}}
    Patterned: {type: object, required: [x-a], patternProperties: {'^x-': {type: string}}, additionalProperties: false}
    Holder: {type: object, properties: {stream: {$ref: '#/components/schemas/Stream'}}}`)
	var roots []*openapi.Schema
	for _, name := range []string{"Props", "Fine", "Open", "Holder"} {
		roots = append(roots, doc.Schemas[name])
	}
	roots = append(roots, doc.Schemas["Patterned"])
	got := Refused(roots)
	want := []string{
		"#/components/schemas/Props: no object satisfies the schema: it requires name, which additionalProperties false at #/components/schemas/Closed refuses; an answer that needs one carries the closest object made, and lists of them are answered without them",
		"#/components/schemas/Stream: no object satisfies the schema: it requires json_schema, which additionalProperties false at #/components/schemas/Stream refuses; an answer that needs one carries the closest object made, and lists of them are answered without them",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Refused:\n%q\nwant\n%q", got, want)
	}
}
