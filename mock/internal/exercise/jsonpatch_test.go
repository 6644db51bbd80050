package exercise

import (
	"reflect"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// TestJSONPatchBody: a body of application/json-patch+json is a patch a
// client would send (RFC 6902 section 4.1: an "add" of each writable
// property of the item the operation answers, which sets a member
// whether or not it is there), not one made from the patch's own
// schema; PatchedValues reads back what it sets.
func TestJSONPatchBody(t *testing.T) {
	d, err := openapi.Load([]byte(`openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /genres/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: string}}]
    patch:
      requestBody:
        required: true
        content:
          application/json-patch+json:
            schema:
              type: array
              items:
                type: object
                required: [op, path]
                properties:
                  op: {enum: [add, remove, replace, move, copy, test]}
                  path: {type: string}
                  value: {}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [id, name]
                properties:
                  id: {type: string, readOnly: true}
                  name: {type: string, enum: [Fiction]}
                  a/b: {type: integer, enum: [3]}
    put:
      requestBody: {required: true, content: {application/json-patch+json: {schema: {type: array}}}}
      responses: {"204": {description: ok}}
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range d.Operations {
		c, err := Make(op, 1)
		if err != nil {
			t.Fatal(err)
		}
		switch op.Method {
		case "PATCH":
			want := []any{
				map[string]any{"op": "add", "path": "/a~1b", "value": c.Body.([]any)[0].(map[string]any)["value"]},
				map[string]any{"op": "add", "path": "/name", "value": "Fiction"},
			}
			if !reflect.DeepEqual(c.Body, want) {
				t.Fatalf("PATCH body %#v\nwant %#v", c.Body, want)
			}
			values, ok := PatchedValues(c.Body)
			if !ok || values["name"] != "Fiction" || len(values) != 2 || values["a/b"] == nil {
				t.Errorf("PatchedValues = %v, %v", values, ok)
			}
		case "PUT":
			// No object answered: the patch is the schema's own.
			if _, ok := PatchedValues(c.Body); ok && len(c.Body.([]any)) > 0 {
				t.Errorf("PUT body %#v, want one made from its schema", c.Body)
			}
		}
	}
	if _, ok := PatchedValues([]any{map[string]any{"op": "remove", "path": "/name"}}); ok {
		t.Error("PatchedValues read a remove")
	}
}
