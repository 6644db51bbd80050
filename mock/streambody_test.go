package mock

import (
	"testing"

	"github.com/plantmock/plantmock/mock/internal/problem"
)

// batchSpec takes a batch of plants as a stream: JSON Lines, a JSON
// text sequence or multipart/mixed, each item a plant.
const batchSpec = `openapi: 3.2.0
info: {title: batch, version: '1'}
paths:
  /batch:
    post:
      requestBody:
        required: true
        content:
          application/jsonl:
            itemSchema: {$ref: '#/components/schemas/Plant'}
          application/json-seq:
            itemSchema: {$ref: '#/components/schemas/Plant'}
          multipart/mixed:
            itemSchema: {$ref: '#/components/schemas/Plant'}
      responses:
        '202': {description: taken}
        '400':
          description: refused
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
components:
  schemas:
    Plant:
      type: object
      required: [id, name]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
    Error:
      type: object
      required: [error, message]
      properties:
        error: {type: integer}
        message: {type: string}
`

// batchSpec31 says the same in OpenAPI 3.1, whose streams are described
// by the schema of the whole: an array of plants.
const batchSpec31 = `openapi: 3.1.0
info: {title: batch, version: '1'}
paths:
  /batch:
    post:
      requestBody:
        required: true
        content:
          application/x-ndjson:
            schema: {type: array, items: {$ref: '#/components/schemas/Plant'}}
      responses:
        '202': {description: taken}
        '400':
          description: refused
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
components:
  schemas:
    Plant:
      type: object
      required: [id, name]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
    Error:
      type: object
      required: [error, message]
      properties:
        error: {type: integer}
        message: {type: string}
`

// TestStreamedRequestBody: a request body of a sequential media type is
// checked item by item against the item schema, and the first broken
// item is refused by its place, in the document's error shape.
func TestStreamedRequestBody(t *testing.T) {
	refused := func(why string) call {
		b := errorBody(problem.CodeSchema, "request body does not match the item schema: "+why)
		return call{status: 400, wantHeader: jsonHeader(b), wantBody: b}
	}
	taken := call{status: 202, wantHeader: map[string]string{"Content-Length": "0"}}
	mixed := "multipart/mixed; boundary=b"
	part := func(body string) string { return "--b\r\nContent-Type: application/json\r\n\r\n" + body + "\r\n" }
	for _, c := range []struct {
		spec, ct, body string
		want           call
	}{
		{batchSpec, "application/jsonl", "{\"name\":\"fern\"}\n{\"name\":\"moss\",\"id\":2}\n", taken},
		{batchSpec, "application/jsonl", "{\"name\":\"fern\"}\n{\"name\":\"moss\"}\n{\"id\":3}\n{}\n", refused("item[3].name: required property is missing")},
		{batchSpec, "application/jsonl", "{\"name\":\"fern\"}\n{\"name\":\n", refused("item[2]: invalid JSON: unexpected end of input")},
		{batchSpec, "application/json-seq", "\x1e{\"name\":\"fern\"}\n\x1e{\"name\":7}\n", refused("item[2].name: expected string, got number")},
		{batchSpec, mixed, part(`{"name":"fern"}`) + part(`{"name":"moss"}`) + "--b--\r\n", taken},
		{batchSpec, mixed, part(`{"name":"fern"}`) + part(`{"name":"moss"}`) + part(`{"name":false}`) + "--b--\r\n", refused("item[3].name: expected string, got boolean")},
		{batchSpec, "multipart/mixed", part(`{"name":"fern"}`) + "--b--\r\n", refused(`header.Content-Type: multipart/mixed without a boundary: "multipart/mixed"`)},
		{batchSpec31, "application/x-ndjson", "{\"name\":\"fern\"}\n{\"name\":\"moss\"}\n", taken},
		{batchSpec31, "application/x-ndjson", "{\"name\":\"fern\"}\n[{\"name\":\"moss\"}]\n", refused("item[2]: expected object, got array")},
	} {
		s, ts := newTestServer(t, Options{Spec: []byte(c.spec)})
		ex := c.want
		ex.name, ex.method, ex.path, ex.header, ex.body = c.ct, "POST", "/batch", map[string]string{"Content-Type": c.ct}, c.body
		t.Run(c.ct, func(t *testing.T) { check(t, s, ts, ex) })
	}
}
