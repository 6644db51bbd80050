package mock

import (
	"testing"
)

// notStorableSpec has item operations whose bodies are no resource: a
// JSON Patch array, a list of parts, and a body of any type. None
// declares an error status.
const notStorableSpec = `openapi: 3.0.3
info: {title: patches, version: '1'}
paths:
  /items:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Item'}
          application/xml:
            schema: {$ref: '#/components/schemas/Item'}
      responses:
        '201':
          description: made
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Item'}
  /items/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: integer}}
    get:
      responses:
        '200':
          description: one
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Item'}
    patch:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: array
              items:
                type: object
                required: [op, path]
                properties:
                  op: {type: string, enum: [add, remove, replace]}
                  path: {type: string}
                  value: {}
      responses:
        '200':
          description: patched
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Item'}
    put:
      requestBody:
        required: true
        content:
          application/json:
            schema: {}
      responses:
        '200':
          description: replaced
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Item'}
  /jobs/{jobId}:
    parameters:
      - {name: jobId, in: path, required: true, schema: {type: string}}
    put:
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: array, items: {type: string}}
      responses:
        '200':
          description: the job
          content:
            application/json:
              schema: {type: object, required: [state], properties: {state: {type: string, enum: [queued]}}}
components:
  schemas:
    Item:
      type: object
      required: [label]
      properties:
        id: {type: integer, readOnly: true, example: 7}
        label: {type: string, example: lamp}
`

// TestNotStorableBody: a POST, PUT or PATCH whose body is no JSON
// object (a JSON Patch array, a list, a string its schema allows, XML)
// answers its declared success with its canned answer, leaves the
// stored items as they were, and the journal says so; an object body
// still replaces.
func TestNotStorableBody(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(notStorableSpec)})
	h := map[string]string{"Content-Type": "application/json"}
	stored := `{"id":1,"label":"a"}`
	check(t, s, ts, call{method: "POST", path: "/items", header: h, body: `{"label":"a"}`, status: 201, wantHeader: jsonHeader(stored), wantBody: stored})
	const note = "answered as declared, storing nothing: the body is not a JSON object to store"
	for _, tt := range []struct {
		call
		notes []string
	}{
		{call{name: "JSON Patch", method: "PATCH", path: "/items/1", header: h, body: `[{"op":"replace","path":"/label","value":"b"}]`,
			status: 200, wantBody: `{"id":7,"label":"lamp"}`}, nil},
		{call{name: "a string where any value goes", method: "PUT", path: "/items/1", header: h, body: `"b"`,
			status: 200, wantBody: `{"id":7,"label":"lamp"}`}, []string{note}},
		{call{name: "an XML create", method: "POST", path: "/items", header: map[string]string{"Content-Type": "application/xml"}, body: `<Item><label>b</label></Item>`,
			status: 201, wantBody: `{"id":7,"label":"lamp"}`}, []string{note}},
		{call{name: "the item is as stored", method: "GET", path: "/items/1", status: 200, wantBody: stored}, nil},
		{call{name: "an object replaces", method: "PUT", path: "/items/1", header: h, body: `{"label":"c"}`,
			status: 200, wantBody: `{"id":1,"label":"c"}`}, nil},
		{call{name: "a list", method: "PUT", path: "/jobs/j-1", header: h, body: `["disk-1"]`,
			status: 200, wantBody: `{"state":"queued"}`}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.wantHeader = jsonHeader(tt.wantBody)
			check(t, s, ts, tt.call)
			entries := s.Journal()
			if notes := entries[len(entries)-1].Notes; len(notes) != len(tt.notes) || len(notes) == 1 && notes[0] != tt.notes[0] {
				t.Errorf("journal notes = %q, want %q", notes, tt.notes)
			}
		})
	}
}

// notObjectAnswersSpec has item operations whose answers are lists: a
// GET of a route's hops, a PUT that answers with every route.
const notObjectAnswersSpec = `openapi: 3.0.3
info: {title: routes, version: '1'}
paths:
  /routes/{name}:
    parameters:
      - {name: name, in: path, required: true, schema: {type: string}}
    get:
      responses:
        '200':
          description: the route's hops
          content:
            application/json:
              schema: {type: array, items: {type: string}, example: [a, b]}
    put:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Route'}
      responses:
        '200':
          description: every route
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/Route'}, example: [{name: r0, hop: z}]}
    patch:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Route'}
      responses:
        '200':
          description: patched
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Route'}
components:
  schemas:
    Route:
      type: object
      properties:
        name: {type: string}
        hop: {type: string}
`

// TestItemAnswerNotObject: an item GET or PUT whose answer is no object
// is canned; a PATCH of an item that no answer describes merges into an
// empty object, kept for the next PATCH.
func TestItemAnswerNotObject(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(notObjectAnswersSpec)})
	h := map[string]string{"Content-Type": "application/json"}
	for _, tt := range []call{
		{name: "patch first", method: "PATCH", path: "/routes/r1", header: h, body: `{"hop":"b"}`, status: 200, wantBody: `{"hop":"b"}`},
		{name: "put answers its list", method: "PUT", path: "/routes/r1", header: h, body: `{"hop":"c"}`, status: 200, wantBody: `[{"hop":"z","name":"r0"}]`},
		{name: "get answers its list", method: "GET", path: "/routes/r1", status: 200, wantBody: `["a","b"]`},
		{name: "patch again", method: "PATCH", path: "/routes/r1", header: h, body: `{}`, status: 200, wantBody: `{"hop":"b"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.wantHeader = jsonHeader(tt.wantBody)
			check(t, s, ts, tt)
		})
	}
}
