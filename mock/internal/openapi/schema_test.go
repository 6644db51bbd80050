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
	if len(op.Security) != 1 || len(op.Security[0]) != 1 || *op.Security[0][0] != (SecurityScheme{Name: "bearerAuth", Type: "http", Scheme: "bearer"}) {
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

// TestValidate checks violations of the Plant Store's schemas.
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
		{np, `{"id":1,"name":"a","tag":null}`, []Violation{{"tag", "expected string, got null"}}},
		{np, `{"id":1e2,"name":"a"}`, nil}, // an integer in JSON Schema 2020-12
		{np, `{"id":1.5,"name":"a"}`, []Violation{{"id", "expected integer, got number"}}},
		{np, `{"id":9223372036854775808,"name":"a"}`, []Violation{{"id", "9223372036854775808 is over the int64 maximum 9223372036854775807"}}},
		{np, `{"id":true}`, []Violation{{"id", "expected integer, got boolean"}, {"name", "required property is missing"}}},
		{np, `"x"`, []Violation{{"", "expected object, got string"}}},
		{errSchema, `{"error":2147483647,"message":"m"}`, nil},
		{errSchema, `{"error":2147483648,"message":"m"}`, []Violation{{"error", "2147483648 is over the int32 maximum 2147483647"}}},
		{errSchema, `{"error":-2147483649,"message":"m"}`, []Violation{{"error", "-2147483649 is under the int32 minimum -2147483648"}}},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			got := tt.schema.Validate(decode(t, tt.body))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Validate = %v, want %v", got, tt.want)
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
