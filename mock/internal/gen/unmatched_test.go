package gen

import (
	"slices"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// TestUnmatched holds which patterns are said at load to have no string
// generation can make. Short and Inside, which no valid string matches,
// are mistakes of the document that the loader leaves out of their
// schemas: nothing is said of them here.
func TestUnmatched(t *testing.T) {
	doc := components(t, "3.1.0", `
    Lookahead: {type: string, pattern: '^(?!aws:)[a-z:]+$'}
    Password: {type: string, pattern: '^(?=.*\d)(?=.*[A-Z])(?=.*[a-z]).{8,}$'}
    Never: {type: string, pattern: '^(?=x)y$'}
    Digits: {type: string, pattern: '^(?!.*[a-z])[0-9a-z]{4}$'}
    DigitsWithExample: {type: string, pattern: '^(?!.*[a-z])[0-9a-z]{4}$', example: '1234'}
    Nested: {type: object, properties: {code: {type: string, pattern: '^(?=a)b'}}}
    Plain: {type: string, pattern: '^[a-z]{3}$'}
    Other: {type: string, pattern: '\p{Print}+'}
    Short: {type: string, pattern: '[0-9a-f]{8}-[0-9a-f]{4}', minLength: 12, maxLength: 12}
    Fits: {type: string, pattern: '[0-9a-f]{8}', maxLength: 12}
    Inside: {type: string, pattern: '=\{3,\}$\{1,4\}'}`)
	var roots []*openapi.Schema
	for _, name := range []string{"Lookahead", "Password", "Never", "Digits", "DigitsWithExample", "Nested", "Plain", "Other", "Short", "Fits", "Inside"} {
		roots = append(roots, doc.Schemas[name])
	}
	got := Unmatched(roots)
	want := []string{
		"#/components/schemas/Digits: no string matching the pattern ^(?!.*[a-z])[0-9a-z]{4}$ could be made (5 tries): an answer that needs one carries the closest string made; an example in the schema would be used",
		"#/components/schemas/Nested/properties/code: no string matching the pattern ^(?=a)b could be made (5 tries): an answer that needs one carries the closest string made; an example in the schema would be used",
		"#/components/schemas/Never: no string matching the pattern ^(?=x)y$ could be made (5 tries): an answer that needs one carries the closest string made; an example in the schema would be used",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Unmatched:\n%q\nwant\n%q", got, want)
	}
}
