package mock

import (
	"strings"
	"testing"
)

// silentSpec is a collection whose item operations declare no answer for
// an unknown item: only their success.
const silentSpec = `openapi: 3.0.3
info: {title: silent, version: '1'}
paths:
  /things:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Thing'}
      responses:
        '201':
          description: made
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Thing'}
    get:
      responses:
        '200':
          description: all
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/Thing'}}
  /things/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: integer}}
    get:
      responses:
        '200':
          description: one
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Thing'}
    put:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Thing'}
      responses:
        '200':
          description: replaced
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Thing'}
    patch:
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, properties: {label: {type: string}}}
      responses:
        '200':
          description: patched
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Thing'}
    delete:
      responses:
        '204': {description: gone}
components:
  schemas:
    Thing:
      type: object
      required: [label]
      properties:
        id: {type: integer, readOnly: true}
        label: {type: string, example: lamp}
`

// TestStandIn: an item operation that declares no answer for an unknown
// item answers a deleted one as if it were there, with one made up for
// that answer alone: its GET, PUT, PATCH and DELETE answer their
// declared success, store nothing, and the journal says why.
func TestStandIn(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(silentSpec)})
	j := jsonHeader("")
	delete(j, "Content-Length")
	made := `{"id":1,"label":"a"}`
	check(t, s, ts, call{method: "POST", path: "/things", header: j, body: `{"label":"a"}`,
		status: 201, wantHeader: jsonHeader(made), wantBody: made})
	check(t, s, ts, call{method: "DELETE", path: "/things/1", status: 204, wantHeader: map[string]string{}})
	note := "made up id 1 for this answer alone: the store does not hold it, and %s declares no answer for an unknown item"
	for _, tc := range []struct {
		call
		op string
	}{
		{call{name: "read", method: "GET", path: "/things/1", status: 200, wantBody: `{"id":1,"label":"lamp"}`}, "GET /things/{id}"},
		{call{name: "replace", method: "PUT", path: "/things/1", header: j, body: `{"label":"b"}`, status: 200, wantBody: `{"id":1,"label":"b"}`}, "PUT /things/{id}"},
		{call{name: "merge", method: "PATCH", path: "/things/1", header: j, body: `{"label":"c"}`, status: 200, wantBody: `{"id":1,"label":"c"}`}, "PATCH /things/{id}"},
		{call{name: "remove again", method: "DELETE", path: "/things/1", status: 204}, "DELETE /things/{id}"},
		{call{name: "read after all that", method: "GET", path: "/things/1", status: 200, wantBody: `{"id":1,"label":"lamp"}`}, "GET /things/{id}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.wantHeader = map[string]string{}
			if tc.wantBody != "" {
				tc.wantHeader = jsonHeader(tc.wantBody)
			}
			check(t, s, ts, tc.call)
			entries := s.Journal()
			want := strings.ReplaceAll(note, "%s", tc.op)
			if notes := entries[len(entries)-1].Notes; len(notes) != 1 || notes[0] != want {
				t.Errorf("journal notes = %q, want [%q]", notes, want)
			}
		})
	}
	check(t, s, ts, call{method: "GET", path: "/things", status: 200, wantHeader: jsonHeader("[]"), wantBody: "[]"})
	if cols := s.Collections(); len(cols) != 0 {
		t.Errorf("Collections() = %q, want none: a stand-in is never stored", cols)
	}
}
