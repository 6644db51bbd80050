package answer_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/openapi"
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

// owner finds every collection in m's one document.
func (m *mock) owner() answer.Owner {
	return func(path string) (*openapi.Document, answer.Plans, string) { return m.doc, m.plans, path }
}

// TestSeedAssignsIdentifiersLikeCreate seeds resources with and without
// identifiers: those without get the identifiers a create would give,
// skipping the ones the seed data gives. (Regression: an item without an
// identifier was assigned 1 and refused as a repeat of a later item with
// id 1.)
func TestSeedAssignsIdentifiersLikeCreate(t *testing.T) {
	m := newMock(t, notesSpec)
	var seed any = []any{map[string]any{"text": "a"}, map[string]any{"id": json.Number("1"), "text": "b"}}
	if n, p := m.a.SeedCollection(context.Background(), m.doc, m.plans, m.sess, "/notes", seed); n != 2 || p != nil {
		t.Fatalf("SeedCollection = %d, %v; want 2", n, p)
	}
	if got := m.stored("/notes"); got != `[{"id":2,"text":"a"},{"id":1,"text":"b"}]` {
		t.Errorf("stored %s", got)
	}
	m.do("POST", "/notes", `{"text":"c"}`).want(t, 201, `{"id":3,"text":"c"}`)
	m.do("POST", "/notes", `{"id":3,"text":"d"}`).want(t, 409, `{"error":40900,"message":"id 3 already exists in /notes"}`)
	m.do("GET", "/notes/2", "").want(t, 200, `{"id":2,"text":"a"}`)

	// Seed data given at start goes the same way.
	m2 := newMock(t, notesSpec)
	if err := m2.a.SeedData(m2.owner(), m2.sess, []byte(`{"/notes":[{"text":"a"},{"id":1,"text":"b"}]}`)); err != nil {
		t.Fatal(err)
	}
	m2.do("GET", "/notes/2", "").want(t, 200, `{"id":2,"text":"a"}`)
	m2.do("POST", "/notes", `{"text":"c"}`).want(t, 201, `{"id":3,"text":"c"}`)
}

// TestSeededIdentifiersFromTheMinimum: seed data with integer identifiers
// above the minimum keeps them, those without get the next, and creates
// go on above the highest.
func TestSeededIdentifiersFromTheMinimum(t *testing.T) {
	m := newMock(t, petShopIn("3.1.0"))
	if err := m.a.SeedData(m.owner(), m.sess, []byte(`{"/orders":[{"id":1005,"quantity":1},{"quantity":2}]}`)); err != nil {
		t.Fatal(err)
	}
	m.do("GET", "/orders/1005", "").want(t, 200, `{"id":1005,"quantity":1}`)
	m.do("GET", "/orders/1006", "").want(t, 200, `{"id":1006,"quantity":2}`)
	r := m.do("POST", "/orders", `{}`)
	r.want(t, 201, `{"id":1007}`)
	if r.location != "/orders/1007" {
		t.Errorf("Location = %q, want /orders/1007", r.location)
	}
}

// TestSeedDataRefused: seed data that is no object of arrays, names a
// collection the document does not create in, or holds items that break
// the create schema or repeat an identifier, fills nothing.
func TestSeedDataRefused(t *testing.T) {
	m := newMock(t, notesSpec)
	for _, tt := range []struct{ data, err string }{
		{`[1]`, "seed data must be a JSON object of collection paths to arrays of resources"},
		{`{`, "seed data: invalid JSON: unexpected end of input"},
		{`{"/notes":{"text":"a"}}`, "seed data: /notes: seed data must be a JSON array of resources"},
		{`{"/notes/1":[]}`, "seed data: /notes/1 is not a collection the document creates resources in (POST with a JSON object body)"},
		{`{"/notes":[{"text":"a"},{"text":1},{"id":4,"text":"b"},{"id":4,"text":"c"}]}`,
			"seed data: /notes: seed data does not match the create schema: [1].text: expected string, got number; [3]: id 4 repeats item 2"},
	} {
		if err := m.a.SeedData(m.owner(), m.sess, []byte(tt.data)); err == nil || err.Error() != tt.err {
			t.Errorf("SeedData(%s) = %v\nwant %s", tt.data, err, tt.err)
		}
	}
	if got := m.stored("/notes"); got != "[]" {
		t.Errorf("refused seed data stored %s", got)
	}
}
