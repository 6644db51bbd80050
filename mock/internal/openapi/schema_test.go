package openapi

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/plantmock/plantmock"
)

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestPlantStoreModel checks what Load makes of the Plant Store document.
func TestPlantStoreModel(t *testing.T) {
	doc, err := Load([]byte(plantmock.OpenAPI))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Title != "OpenAPI Plant Store" || doc.Version != "1.0.0" || doc.OpenAPI != "3.1.0" || len(doc.Operations) != 1 {
		t.Fatalf("doc = %q %q %q, %d operations", doc.Title, doc.Version, doc.OpenAPI, len(doc.Operations))
	}
	op := doc.Operations[0]
	if op.Method != "POST" || op.Path != "/plants" || op.ID != "createPlant" || !op.Body.Required {
		t.Errorf("operation = %s %s %s required=%v", op.Method, op.Path, op.ID, op.Body.Required)
	}
	if len(op.Security) != 1 || len(op.Security[0]) != 1 || !reflect.DeepEqual(*op.Security[0][0], SecurityScheme{Name: "bearerAuth", Type: "http", Scheme: "bearer", place: op.Security[0][0].place}) {
		t.Errorf("security = %+v", op.Security)
	}
	np := op.Body.JSON().Schema
	var names []string
	for _, p := range np.Properties {
		names = append(names, p.Name)
	}
	if !reflect.DeepEqual(names, []string{"name", "tag", "id"}) || !reflect.DeepEqual(np.Required, []string{"name", "id"}) || np.Name != "NewPlant" {
		t.Errorf("NewPlant merged = %v required %v name %q", names, np.Required, np.Name)
	}
	if code, resp := op.Success(); code != 200 || resp.JSON().Schema.Name != "Plant" {
		t.Errorf("success = %d", code)
	}
	if !np.Property("name").Same(doc.Schemas["Plant"].Property("name")) {
		t.Errorf("NewPlant.name and Plant.name are not the same schema")
	}
	if !doc.Schemas["Plant"].Structural || !doc.Schemas["Error"].Structural {
		t.Errorf("Plant and Error should be structural")
	}
}

// TestValidate checks violations of the Plant Store's schemas, with
// where in the document the broken keyword is.
func TestValidate(t *testing.T) {
	doc, err := Load([]byte(plantmock.OpenAPI))
	if err != nil {
		t.Fatal(err)
	}
	np := doc.Operations[0].Body.JSON().Schema
	errSchema := doc.Schemas["Error"]
	tests := []struct {
		schema *Schema
		body   string
		want   []Violation
	}{
		{np, `{"id":1,"name":"a"}`, nil},
		{np, `{"id":-9223372036854775808,"name":"a"}`, nil},
		{np, `{"id":1,"name":"a","tag":null}`, []Violation{{"tag", "expected string, got null", "#/components/schemas/Plant/properties/tag/type"}}},
		{np, `{"id":1e2,"name":"a"}`, nil}, // an integer in JSON Schema 2020-12
		{np, `{"id":1.5,"name":"a"}`, []Violation{{"id", "expected integer, got number", "#/components/schemas/NewPlant/allOf/1/properties/id/type"}}},
		{np, `{"id":9223372036854775808,"name":"a"}`, []Violation{{"id", "9223372036854775808 is over the int64 maximum 9223372036854775807", "#/components/schemas/NewPlant/allOf/1/properties/id/format"}}},
		{np, `{"id":true}`, []Violation{{"id", "expected integer, got boolean", "#/components/schemas/NewPlant/allOf/1/properties/id/type"}, {"name", "required property is missing", "#/components/schemas/Plant/required"}}},
		{np, `"x"`, []Violation{{"", "expected object, got string", "#/components/schemas/Plant/type"}}},
		{errSchema, `{"error":2147483647,"message":"m"}`, nil},
		{errSchema, `{"error":2147483648,"message":"m"}`, []Violation{{"error", "2147483648 is over the int32 maximum 2147483647", "#/components/schemas/Error/properties/error/format"}}},
		{errSchema, `{"error":-2147483649,"message":"m"}`, []Violation{{"error", "-2147483649 is under the int32 minimum -2147483648", "#/components/schemas/Error/properties/error/format"}}},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			got := tt.schema.Validate(decode(t, tt.body))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Validate = %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestFinite(t *testing.T) {
	for _, tt := range []struct {
		name, schemas string
		want          bool
	}{
		{"requires itself", `T: {type: object, required: [parent], properties: {parent: {$ref: '#/components/schemas/T'}}}`, false},
		{"optional self", `T: {type: object, properties: {parent: {$ref: '#/components/schemas/T'}}}`, true},
		{"nullable self", `T: {type: object, nullable: true, required: [parent], properties: {parent: {$ref: '#/components/schemas/T'}}}`, true},
		{"through a needed array", `T: {type: object, required: [kids], properties: {kids: {type: array, minItems: 1, items: {$ref: '#/components/schemas/T'}}}}`, false},
		{"through an empty array", `T: {type: object, required: [kids], properties: {kids: {type: array, items: {$ref: '#/components/schemas/T'}}}}`, true},
		{"an alternative ends", `T: {oneOf: [{type: string}, {type: object, required: [t], properties: {t: {$ref: '#/components/schemas/T'}}}]}`, true},
		{"mutual", "A: {type: object, required: [b], properties: {b: {$ref: '#/components/schemas/B'}}}\n    B: {type: object, required: [a], properties: {a: {$ref: '#/components/schemas/A'}}}", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Load([]byte("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    " + tt.schemas + "\n"))
			if err != nil {
				t.Fatal(err)
			}
			for name, s := range doc.Schemas {
				if got := s.Finite(); got != tt.want {
					t.Errorf("%s.Finite() = %v, want %v", name, got, tt.want)
				}
			}
		})
	}
}

// TestModelKeywords checks what the model reads of the keywords beyond
// properties and items, in each dialect.
func TestModelKeywords(t *testing.T) {
	const schemas = `
    Cat: {type: object, properties: {kind: {type: string}}}
    S:
      allOf: [{$ref: '#/components/schemas/Cat'}, {minProperties: 1}]
      anyOf: [{type: object}]
      oneOf: [{required: [kind]}, {required: [name]}]
      discriminator: {propertyName: kind, mapping: {cat: '#/components/schemas/Cat'}}
      not: {type: string}
      if: {required: [a]}
      then: {required: [b]}
      else: {required: [c]}
      minProperties: 1
      maxProperties: 9
      additionalProperties: {type: integer}
      patternProperties: {'^x-': {type: string}}
      propertyNames: {maxLength: 8}
      dependentRequired: {a: [b, c]}
      dependentSchemas: {b: {required: [d]}}
      dependencies: {e: [f], g: {required: [h]}}
    A:
      type: array
      prefixItems: [{type: string}]
      items: {type: integer}
      contains: {minimum: 1}
      minContains: 2
      maxContains: 3
    T: {type: array, items: [{type: string}, {type: integer}]}
    O: {$id: 'https://plantmock.test/o', $ref: '#x', $defs: {a: {$anchor: x}}}
    U: {unevaluatedProperties: false}`
	doc31 := loadComponents(t, "3.1.0", schemas)
	s, cat := doc31.Schemas["S"], doc31.Schemas["Cat"]
	if len(s.AllOf) != 2 || s.AllOf[0] != cat || s.Property("kind") == nil {
		t.Errorf("AllOf %v, kind %v: want Cat and the other member, Cat's kind merged", s.AllOf, s.Property("kind"))
	}
	if len(s.AnyOf) != 3 || len(s.OneOf) != 2 || s.AnyOf[1] != s.OneOf[0] || s.AnyOf[2] != s.OneOf[1] {
		t.Errorf("AnyOf %d, OneOf %d: want 3 and 2, the oneOf alternatives last in AnyOf", len(s.AnyOf), len(s.OneOf))
	}
	if d := s.Discriminator; d == nil || d.PropertyName != "kind" || d.Value(cat) != "cat" || d.Value(s.OneOf[0]) != "" {
		t.Errorf("Discriminator %+v: want kind, cat for Cat, nothing for an unnamed alternative", d)
	}
	if s.Not == nil || !s.Not.Is("string") || s.If == nil || s.Then == nil || s.Else == nil {
		t.Errorf("Not %v If %v Then %v Else %v", s.Not, s.If, s.Then, s.Else)
	}
	if *s.MinProperties != 1 || *s.MaxProperties != 9 || !s.AdditionalProperties.Is("integer") || s.NoAdditionalProperties {
		t.Errorf("MinProperties %d MaxProperties %d AdditionalProperties %v", *s.MinProperties, *s.MaxProperties, s.AdditionalProperties)
	}
	if len(s.PatternProperties) != 1 || s.PatternProperties[0].Name != "^x-" || s.PropertyNames == nil || *s.PropertyNames.MaxLength != 8 {
		t.Errorf("PatternProperties %v PropertyNames %v", s.PatternProperties, s.PropertyNames)
	}
	wantDeps := []Dependency{{"a", []string{"b", "c"}}, {"e", []string{"f"}}}
	if !reflect.DeepEqual(s.DependentRequired, wantDeps) {
		t.Errorf("DependentRequired %v, want %v", s.DependentRequired, wantDeps)
	}
	if len(s.DependentSchemas) != 2 || s.DependentSchemas[0].Name != "b" || s.DependentSchemas[1].Name != "g" {
		t.Errorf("DependentSchemas %v, want b's and g's", s.DependentSchemas)
	}
	if s.Structural || s.Opaque {
		t.Errorf("Structural %v Opaque %v, want false false", s.Structural, s.Opaque)
	}
	a := doc31.Schemas["A"]
	if len(a.PrefixItems) != 1 || !a.Items.Is("integer") || a.Contains == nil || *a.MinContains != 2 || *a.MaxContains != 3 {
		t.Errorf("PrefixItems %v Items %v Contains %v", a.PrefixItems, a.Items, a.Contains)
	}
	if o, u := doc31.Schemas["O"], doc31.Schemas["U"]; !o.Opaque || !u.Opaque {
		t.Errorf("Opaque %v %v, want a $ref to an anchor and unevaluatedProperties opaque", o.Opaque, u.Opaque)
	}

	// 3.0 reads its own keywords only, and an items array as a tuple.
	doc30 := loadComponents(t, "3.0.3", strings.ReplaceAll(schemas, "\n    O: {$id: 'https://plantmock.test/o', $ref: '#x', $defs: {a: {$anchor: x}}}\n    U: {unevaluatedProperties: false}", ""))
	s = doc30.Schemas["S"]
	if s.If != nil || s.PropertyNames != nil || len(s.PatternProperties) > 0 || len(s.DependentRequired) > 0 || len(s.DependentSchemas) > 0 {
		t.Errorf("3.0 read keywords it lacks: If %v PropertyNames %v PatternProperties %v Dependent %v %v",
			s.If, s.PropertyNames, s.PatternProperties, s.DependentRequired, s.DependentSchemas)
	}
	if s.Not == nil || len(s.OneOf) != 2 || s.Discriminator == nil || *s.MaxProperties != 9 || s.AdditionalProperties == nil {
		t.Errorf("3.0 lost keywords it has")
	}
	if a := doc30.Schemas["A"]; a.Contains != nil || len(a.PrefixItems) != 0 {
		t.Errorf("3.0 read contains or prefixItems")
	}
	if tu := doc30.Schemas["T"]; len(tu.PrefixItems) != 2 || tu.Items != nil || tu.Structural {
		t.Errorf("3.0 tuple: PrefixItems %v Items %v Structural %v, want 2, nil, false", tu.PrefixItems, tu.Items, tu.Structural)
	}
}

// loadComponents loads a document whose components/schemas are schemas
// (YAML, indented by four spaces).
func loadComponents(t testing.TB, version, schemas string) *Document {
	t.Helper()
	doc, err := Load([]byte("openapi: " + version + "\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n" + schemas))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestStructuralThroughReference checks that a 3.1 schema with a $ref
// and sibling keywords is structural only when its target is.
func TestStructuralThroughReference(t *testing.T) {
	doc := loadComponents(t, "3.1.0", `
    Pattern: {type: string, pattern: '^a'}
    Plain: {type: string}
    OnPattern: {$ref: '#/components/schemas/Pattern', type: string}
    OnPlain: {$ref: '#/components/schemas/Plain', type: string}`)
	for name, want := range map[string]bool{"Pattern": false, "Plain": true, "OnPattern": false, "OnPlain": true} {
		if got := doc.Schemas[name].Structural; got != want {
			t.Errorf("%s: Structural %v, want %v", name, got, want)
		}
	}
}
