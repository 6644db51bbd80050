package mock

import (
	"testing"
)

// notesSpec has a collection whose integer identifier is optional: the
// store assigns one to a note created without it.
const notesSpec = `openapi: 3.1.0
info: {title: Notes, version: '1'}
paths:
  /notes:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Note'}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Note'}
        '409':
          description: taken
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
  /notes/{id}:
    get:
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
      responses:
        '200':
          description: the note
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Note'}
        '404':
          description: none
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
components:
  schemas:
    Note:
      type: object
      required: [text]
      properties:
        id: {type: integer}
        text: {type: string}
    Error:
      type: object
      required: [error, message]
      properties:
        error: {type: integer}
        message: {type: string}
`

// TestSeedAssignsIdentifiersLikeCreate seeds resources with and without
// identifiers: those without get the identifiers a create would give,
// skipping the ones the seed data gives. (Regression: an item without an
// identifier was assigned 1 and refused as a repeat of a later item with
// id 1.)
func TestSeedAssignsIdentifiersLikeCreate(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(notesSpec)})
	doc := adminDoc(t)
	callAdmin(t, ts, doc, adminCall{name: "seed", method: "PUT", path: "/__admin/store/notes", body: `[{"text":"a"},{"id":1,"text":"b"}]`, status: 200,
		want: `{"collection":"/notes","count":2}`})
	callAdmin(t, ts, doc, adminCall{name: "store", method: "GET", path: "/__admin/store", status: 200,
		want: `{"collections":{"/notes":[{"id":2,"text":"a"},{"id":1,"text":"b"}]}}`})
	create := func(body string) call {
		return call{method: "POST", path: "/notes", header: map[string]string{"Content-Type": "application/json"}, body: body}
	}
	check(t, s, ts, create(`{"text":"c"}`).expect(201, `{"id":3,"text":"c"}`))
	check(t, s, ts, create(`{"id":3,"text":"d"}`).expect(409, `{"error":40900,"message":"id 3 already exists in /notes"}`))
	check(t, s, ts, call{method: "GET", path: "/notes/2"}.expect(200, `{"id":2,"text":"a"}`))

	// Seed data given at start goes the same way.
	s2, ts2 := newTestServer(t, Options{Spec: []byte(notesSpec), SeedData: []byte(`{"/notes":[{"text":"a"},{"id":1,"text":"b"}]}`)})
	check(t, s2, ts2, call{method: "GET", path: "/notes/2"}.expect(200, `{"id":2,"text":"a"}`))
	check(t, s2, ts2, create(`{"text":"c"}`).expect(201, `{"id":3,"text":"c"}`))
}
