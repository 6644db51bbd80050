package answer_test

import (
	"strconv"
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

// TestItemNoValueFits: an item of a collection without a create, made
// up on its first read, whose schema no value fits in a way load cannot
// tell (a oneOf whose alternatives require the same properties, so that
// every value matches both, as ix-api's product offerings do), is
// answered with the operation's declared 404 saying why, not a 500 it
// does not declare; without a declared answer for an unknown item, the
// 500 stays.
func TestItemNoValueFits(t *testing.T) {
	spec := func(notFound string) string {
		return `openapi: 3.0.3
info: {title: offerings, version: '1'}
paths:
  /offerings/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200':
          description: an offering
          content: {application/json: {schema: {$ref: '#/components/schemas/Offering'}}}` + notFound + `
components:
  schemas:
    Offering:
      oneOf:
        - {$ref: '#/components/schemas/Port'}
        - {$ref: '#/components/schemas/Link'}
    Port: {type: object, required: [id, type], properties: {id: {type: string}, type: {type: string}}}
    Link: {type: object, required: [id, type], properties: {id: {type: string}, type: {type: string}}}
    Error: {type: object, required: [detail], properties: {detail: {type: string}}}
`
	}
	const why = `could not generate data that matches the response schema: body: matches oneOf alternatives 0 and 1, but must match exactly one`
	const unmade = `id "o1" in /offerings could not be made up, and the mock keeps none: ` + why
	m := newMock(t, spec(`
        '404':
          description: no such offering
          content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}`))
	m.do("GET", "/offerings/o1", "").want(t, 404, `{"detail":`+strconv.Quote(unmade)+`}`)
	m = newMock(t, spec(""))
	m.do("GET", "/offerings/o1", "").want(t, 500, `{"error":50000,"message":`+strconv.Quote(why)+`}`)
}
