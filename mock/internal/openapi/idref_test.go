package openapi

import (
	"reflect"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
)

// TestRefWithinID loads 3.1 documents whose schemas have their own $id
// and refer to the document's components from within it, as Scalar's
// Galaxy does: a JSON pointer found nowhere under the $id is read as one
// into the document, with a caveat; one found under the $id keeps
// JSON Schema's reading; one found nowhere is a mistake, left out;
// $dynamicRef is resolved as JSON Schema 2020-12 says. Each schema S is a response body, so it is compiled at load, and
// each value is judged by S.
func TestRefWithinID(t *testing.T) {
	cases := []struct {
		name string
		// root is more of the document at its top level; schemas its
		// components' schemas (YAML, indented by four spaces).
		root, schemas string
		// judged holds the values S accepts (nothing wrong) and those it
		// refuses, each with its violations as "path: reason (schema)".
		judged   map[string][]string
		warnings []string
		mistakes []string
		// model says what is wrong with the model of the document, or "".
		model func(d *Document) string
	}{{
		name: "pointer into the components, nothing under the $id",
		schemas: `
    S: {$id: 'https://plantmock.test/s', $ref: '#/components/schemas/Name'}
    Name: {type: string, minLength: 2}`,
		judged: map[string][]string{
			`"ab"`: nil,
			`"a"`:  {"body: shorter than the minimum length 2 (#/components/schemas/Name/minLength)"},
			`3`:    {"body: expected string, got number (#/components/schemas/Name/type)"},
		},
		warnings: []string{
			`#/components/schemas/S/$ref (line 9): $ref "#/components/schemas/Name" finds nothing under $id "https://plantmock.test/s", against which JSON Schema resolves it: it is read as a reference into the OpenAPI document`,
		},
		model: func(d *Document) string {
			if s := d.Schemas["S"]; s.Opaque || !s.Is("string") || len(s.AllOf) != 1 || s.AllOf[0] != d.Schemas["Name"] {
				return "S is not Name's string: the model did not follow the reference into the document"
			}
			return ""
		},
	}, {
		name: "pointer found under the $id and in the document: the $id's",
		root: `$defs: {n: {type: string}}`,
		schemas: `
    S: {$id: 'https://plantmock.test/s', $ref: '#/$defs/n', $defs: {n: {type: integer}}}`,
		judged: map[string][]string{
			`3`:   nil,
			`"a"`: {"body: expected integer, got string (#/components/schemas/S/$defs/n/type)"},
		},
		model: func(d *Document) string {
			if s := d.Schemas["S"]; s.Opaque || !s.Is("integer") {
				return "S is not the integer of its own $defs"
			}
			return ""
		},
	}, {
		name: "$dynamicRef binds the item of a generic page",
		schemas: `
    S:
      $id: 'https://plantmock.test/names'
      $defs: {item: {$dynamicAnchor: item, $ref: '#/components/schemas/Name'}}
      $ref: '#/components/schemas/Page'
    Page:
      $id: 'https://plantmock.test/page'
      $defs: {item: {$dynamicAnchor: item, not: {}}}
      type: object
      properties: {data: {type: array, items: {$dynamicRef: '#item'}}}
    Name: {type: string, minLength: 2}`,
		judged: map[string][]string{
			`{"data": []}`:     nil,
			`{"data": ["ab"]}`: nil,
			`{"data": ["a"]}`:  {"data[0]: shorter than the minimum length 2 (#/components/schemas/Name/minLength)"},
			`{"data": [3]}`:    {"data[0]: expected string, got number (#/components/schemas/Name/type)"},
		},
		warnings: []string{
			`#/components/schemas/S/$defs/item/$ref (line 11): $ref "#/components/schemas/Name" finds nothing under $id "https://plantmock.test/names", against which JSON Schema resolves it: it is read as a reference into the OpenAPI document (and 1 more places)`,
		},
		model: func(d *Document) string {
			// The model does not follow $dynamicRef: only the validator
			// knows what the items are.
			if s := d.Schemas["S"]; s.Property("data") == nil || !s.Property("data").Items.Opaque {
				return "S's data items are not opaque"
			}
			return ""
		},
	}, {
		name: "the document's schema reached from within an $id reads its own references",
		schemas: `
    S: {$id: 'https://plantmock.test/s', $ref: '#/components/schemas/Wrap', $defs: {n: {type: integer}}}
    Wrap: {$ref: '#/$defs/n'}`,
		judged: map[string][]string{
			`"a"`: nil,
			`3`:   nil,
		},
		warnings: []string{
			`#/components/schemas/S/$ref (line 9): $ref "#/components/schemas/Wrap" finds nothing under $id "https://plantmock.test/s", against which JSON Schema resolves it: it is read as a reference into the OpenAPI document`,
		},
		mistakes: []string{
			`#/components/schemas/Wrap (line 10): $ref "#/$defs/n" points at nothing: the reference is left out, and the schema is read without it`,
		},
		model: func(d *Document) string {
			if w := d.Schemas["Wrap"]; w.Is("integer") || len(w.AllOf) > 0 {
				return "Wrap took S's $defs as its own"
			}
			return ""
		},
	}, {
		name: "pointer found nowhere: a mistake, left out",
		schemas: `
    S: {$id: 'https://plantmock.test/s', $ref: '#/components/schemas/None', type: string}`,
		judged: map[string][]string{
			`"a"`: nil,
			`3`:   {"body: expected string, got number (#/components/schemas/S/type)"},
		},
		mistakes: []string{
			`#/components/schemas/S (line 9): $ref "#/components/schemas/None" points at nothing: the reference is left out, and the schema is read without it`,
		},
		model: func(d *Document) string {
			if s := d.Schemas["S"]; s.Opaque || !s.Is("string") {
				return "S is not its own string without the reference"
			}
			return ""
		},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := Load([]byte(`openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /s:
    get:
      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/S'}}}}}
components:
  schemas:` + c.schemas + "\n" + c.root))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(d.Warnings, c.warnings) {
				t.Errorf("warnings %q\nwant %q", d.Warnings, c.warnings)
			}
			if !reflect.DeepEqual(d.Mistakes, c.mistakes) {
				t.Errorf("mistakes %q\nwant %q", d.Mistakes, c.mistakes)
			}
			for text, want := range c.judged {
				v, err := jsonx.Decode([]byte(text))
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, v := range d.Schemas["S"].Validate(v) {
					got = append(got, v.String()+" ("+v.Schema+")")
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: %q\nwant %q", text, got, want)
				}
			}
			if problem := c.model(d); problem != "" {
				t.Error(problem)
			}
		})
	}
}
