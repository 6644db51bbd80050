package answer_test

import (
	"strings"
	"testing"
)

// readOnlySpec is an API that lists and reads things but creates none,
// with a list schema that needs at least two items and an operation that
// declares only a 405.
const readOnlySpec = `openapi: 3.0.3
info: {title: catalogue, version: '1'}
paths:
  /things:
    get:
      responses:
        '200':
          description: all
          content:
            application/json:
              schema: {type: array, minItems: 2, items: {$ref: '#/components/schemas/Thing'}}
    post:
      requestBody:
        content:
          application/json:
            schema: {type: object}
      responses:
        '405':
          description: the catalogue is read-only
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
  /things/{thingId}:
    parameters:
      - {name: thingId, in: path, required: true, schema: {type: integer}}
    get:
      responses:
        '200':
          description: one
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Thing'}
        '404':
          description: none
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
    delete:
      responses:
        '204': {description: gone}
        '404':
          description: none
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
components:
  schemas:
    Thing:
      type: object
      required: [thingId, label]
      properties:
        thingId: {type: integer}
        label: {type: string, example: lamp}
    Error:
      type: object
      required: [error, message]
      properties:
        error: {type: integer}
        message: {type: string}
`

// TestReadOnlyAPI: without a create, an item GET answers made-up data
// under the path's identifier, the same every time, until it is deleted;
// a list that needs items gets generated ones; an operation that declares
// only a 405 answers it.
func TestReadOnlyAPI(t *testing.T) {
	m := newMock(t, readOnlySpec)
	lamp := `{"label":"lamp","thingId":42}`
	m.do("GET", "/things/42", "").want(t, 200, lamp, "made up thingId 42: the collection has no create operation")
	m.do("GET", "/things/42", "").want(t, 200, lamp)
	m.do("DELETE", "/things/42", "").want(t, 204, "")
	gone := errorBody(40401, "no resource with thingId 42 in /things")
	m.do("GET", "/things/42", "").want(t, 404, gone)
	m.do("DELETE", "/things/42", "").want(t, 404, gone)
	if got := m.stored("/things"); got != "[]" {
		t.Errorf("/things holds %s, want nothing", got)
	}
	list := m.do("GET", "/things", "")
	if list.status != 200 || strings.Count(list.body, `"label":"lamp"`) != 2 {
		t.Errorf("GET /things with nothing stored = %d %s, want the 2 items minItems needs", list.status, list.body)
	}
	if want := []string{"generated 2 items: the list schema needs at least 2"}; strings.Join(list.notes, "|") != want[0] {
		t.Errorf("notes = %q, want %q", list.notes, want)
	}
	m.do("POST", "/things", `{}`).want(t, 405, `{"error":8762,"message":"Salt relaxation from teacher rush run."}`)
}
