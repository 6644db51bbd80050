package openapi

import (
	"fmt"
	"strings"
	"testing"
)

// TestPlace holds each piece's Place to its JSON pointer and line, after
// a $ref where the piece is one, and a schema's keyword to the keyword's
// line, or to the schema's where its text lacks it.
func TestPlace(t *testing.T) {
	const doc = `openapi: 3.1.0
info: {title: T, version: "1"}
paths:
  /plants/{id}:
    post:
      parameters:
        - $ref: '#/components/parameters/Id'
      requestBody:
        content:
          application/json:
            schema:
              type: string
              maxLength: 20
      responses:
        "201":
          description: made
          headers:
            ETag: {schema: {type: string}, example: abc}
          links:
            self: {$ref: '#/components/links/Self'}
          content:
            application/json:
              schema: {type: string, example: fern, examples: [moss, ivy]}
              example: fern
              examples:
                short: {value: f}
                remote: {externalValue: https://example.com/x}
                named: {$ref: '#/components/examples/Named'}
components:
  securitySchemes:
    bearer: {type: http, scheme: bearer}
  parameters:
    Id:
      name: id
      in: path
      schema: {type: string}
      examples:
        one: {value: p1}
  links:
    Self: {operationId: make}
  examples:
    Named: {value: n}
`
	d, err := Load([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	o := d.Operations[0]
	schema := o.Body.Content[0].Schema
	show := func(ptr string, line int) string { return fmt.Sprintf("%s:%d", ptr, line) }
	for _, tt := range []struct{ what, got, want string }{
		{"operation", show(o.Place()), "/paths/~1plants~1{id}/post:6"},
		{"parameter", show(o.Params[0].Place()), "/components/parameters/Id:34"},
		{"request body", show(o.Body.Place()), "/paths/~1plants~1{id}/post/requestBody:9"},
		{"media type", show(o.Body.Content[0].Place()), "/paths/~1plants~1{id}/post/requestBody/content/application~1json:11"},
		{"response", show(o.Responses[0].Place()), "/paths/~1plants~1{id}/post/responses/201:16"},
		{"header", show(o.Responses[0].Headers[0].Place()), "/paths/~1plants~1{id}/post/responses/201/headers/ETag:18"},
		{"security scheme", show(d.SecuritySchemes[0].Place()), "/components/securitySchemes/bearer:31"},
		{"link", show(o.Responses[0].Links[0].Place()), "/components/links/Self:40"},
		{"schema keyword", show(schema.Place("maxLength")), "/paths/~1plants~1{id}/post/requestBody/content/application~1json/schema/maxLength:13"},
		{"schema without the keyword", show(schema.Place("pattern")), "/paths/~1plants~1{id}/post/requestBody/content/application~1json/schema:12"},
		{"schema", show(schema.Place("")), "/paths/~1plants~1{id}/post/requestBody/content/application~1json/schema:12"},
	} {
		if tt.got != tt.want {
			t.Errorf("%s at %s, want %s", tt.what, tt.got, tt.want)
		}
	}
	// Examples: the example keyword first, then the named ones (one
	// with only an externalValue is left out), each with its place.
	examples := func(exs []Example) string {
		var out []string
		for i := range exs {
			out = append(out, fmt.Sprintf("%s=%v %s", exs[i].Name, exs[i].Value, show(exs[i].Place())))
		}
		return strings.Join(out, ", ")
	}
	media := "/paths/~1plants~1{id}/post/responses/201/content/application~1json"
	for _, tt := range []struct{ what, got, want string }{
		{"media type", examples(o.Responses[0].Content[0].ExampleList()),
			"=fern " + media + "/example:24, short=f " + media + "/examples/short:26, named=n /components/examples/Named:42"},
		{"schema", examples(o.Responses[0].Content[0].Schema.ExampleList()),
			"=fern " + media + "/schema/example:23, 0=moss " + media + "/schema/examples/0:23, 1=ivy " + media + "/schema/examples/1:23"},
		{"parameter", examples(o.Params[0].ExampleList()), "one=p1 /components/parameters/Id/examples/one:38"},
		{"header", examples(o.Responses[0].Headers[0].ExampleList()), "=abc /paths/~1plants~1{id}/post/responses/201/headers/ETag/example:18"},
	} {
		if tt.got != tt.want {
			t.Errorf("%s at %s, want %s", tt.what, tt.got, tt.want)
		}
	}
}

// TestPropertyPlace holds a property's place to where its schema's own
// text declares it, a $ref in it not followed, and a property only an
// allOf member declares to none.
func TestPropertyPlace(t *testing.T) {
	const doc = `openapi: 3.1.0
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    Plant:
      allOf:
        - properties: {kind: {type: string}}
      properties:
        name: {type: string}
        owner:
          $ref: '#/components/schemas/Owner'
    Owner: {type: object}
`
	d, err := Load([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	plant := d.Schemas["Plant"]
	for _, tt := range []struct{ name, want string }{
		{"name", "/components/schemas/Plant/properties/name:10"},
		{"owner", "/components/schemas/Plant/properties/owner:12"},
		{"kind", ":0"},
		{"absent", ":0"},
	} {
		ptr, line := plant.PropertyPlace(tt.name)
		if got := fmt.Sprintf("%s:%d", ptr, line); got != tt.want {
			t.Errorf("%s at %s, want %s", tt.name, got, tt.want)
		}
	}
}
