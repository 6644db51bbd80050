package answer_test

import "testing"

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
// stored items as they were, and notes so; an object body still
// replaces.
func TestNotStorableBody(t *testing.T) {
	m := newMock(t, notStorableSpec)
	const note = "answered as declared, storing nothing: the body is not a JSON object to store"
	m.do("POST", "/items", `{"label":"a"}`).want(t, 201, `{"id":1,"label":"a"}`)
	m.do("PATCH", "/items/1", `[{"op":"replace","path":"/label","value":"b"}]`).want(t, 200, `{"id":7,"label":"lamp"}`)
	m.do("PUT", "/items/1", `"b"`).want(t, 200, `{"id":7,"label":"lamp"}`, note)
	m.send(req{method: "POST", target: "/items", body: `<Item><label>b</label></Item>`, header: []string{"Content-Type", "application/xml"}}).
		want(t, 201, `{"id":7,"label":"lamp"}`, note)
	m.do("GET", "/items/1", "").want(t, 200, `{"id":1,"label":"a"}`)
	m.do("PUT", "/items/1", `{"label":"c"}`).want(t, 200, `{"id":1,"label":"c"}`)
	m.do("PUT", "/jobs/j-1", `["disk-1"]`).want(t, 200, `{"state":"queued"}`)
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
	m := newMock(t, notObjectAnswersSpec)
	m.do("PATCH", "/routes/r1", `{"hop":"b"}`).want(t, 200, `{"hop":"b"}`, `made up id "r1": the collection has no create operation`)
	m.do("PUT", "/routes/r1", `{"hop":"c"}`).want(t, 200, `[{"hop":"z","name":"r0"}]`)
	m.do("GET", "/routes/r1", "").want(t, 200, `["a","b"]`)
	m.do("PATCH", "/routes/r1", `{}`).want(t, 200, `{"hop":"b"}`)
}
