package mock

import "testing"

// errorHeadersSpec declares required headers on error responses: on a
// 404, and on the default response that answers a bad parameter.
const errorHeadersSpec = `openapi: 3.0.3
info: {title: error headers, version: '1'}
paths:
  /items:
    post:
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}
      responses:
        '201': {description: made, content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
  /items/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200':
          description: one
          headers: {X-Server-Id: {$ref: '#/components/headers/ServerId'}}
          content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}
        '404':
          description: none
          headers:
            X-Server-Id: {$ref: '#/components/headers/ServerId'}
            X-Optional: {schema: {type: string}}
          content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}
        default:
          description: bad
          headers:
            X-Retry-In: {required: true, schema: {type: integer, minimum: 5, maximum: 5}}
          content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}
components:
  headers:
    ServerId: {required: true, schema: {type: string, enum: [eu-1]}}
  schemas:
    Item:
      type: object
      properties: {id: {type: integer, readOnly: true}, name: {type: string}}
    Error:
      type: object
      properties: {message: {type: string}}
`

// TestErrorAnswersCarryRequiredHeaders: an error answer with a status
// whose response requires headers carries them, as a success does.
func TestErrorAnswersCarryRequiredHeaders(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(errorHeadersSpec)})
	for _, tt := range []struct {
		name, path string
		status     int
		want       string
		header     []string
	}{
		{name: "404 with its headers", path: "/items/7", status: 404,
			want:   `{"message":"no resource with id 7 in /items"}`,
			header: []string{"X-Server-Id", "eu-1"}},
		{name: "default with its headers", path: "/items/seven", status: 400,
			want:   `{"message":"invalid parameters: path.id: expected integer, got string"}`,
			header: []string{"X-Retry-In", "5"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			check(t, s, ts, call{method: "GET", path: tt.path, status: tt.status,
				wantHeader: jsonHeader(tt.want, tt.header...), wantBody: tt.want})
		})
	}
}
