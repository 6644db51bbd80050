package mock

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestReplaceAppliesDefaults: a replace fills in defaults as a create does,
// so its answer fits the schema that requires them.
func TestReplaceAppliesDefaults(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: readSpec(t, "../examples/tasks.yaml"), Tokens: []string{"k1"}})
	h := map[string]string{"X-API-Key": "k1", "Content-Type": "application/json"}
	send(t, ts, call{method: "POST", path: "/tasks", header: h, body: `{"taskId":"t-1","title":"a","done":true}`})
	want := `{"done":false,"taskId":"t-1","title":"b"}`
	check(t, s, ts, call{method: "PUT", path: "/tasks/t-1", header: h, body: `{"taskId":"t-1","title":"b"}`,
		status: 200, wantHeader: jsonHeader(want), wantBody: want})
	check(t, s, ts, call{method: "GET", path: "/tasks", header: map[string]string{"X-API-Key": "k1"},
		status: 200, wantHeader: jsonHeader("[" + want + "]"), wantBody: "[" + want + "]"})
}

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
	s, ts := newTestServer(t, Options{Spec: []byte(readOnlySpec)})
	lamp := `{"label":"lamp","thingId":42}`
	check(t, s, ts, call{method: "GET", path: "/things/42", status: 200, wantHeader: jsonHeader(lamp), wantBody: lamp})
	check(t, s, ts, call{method: "GET", path: "/things/42", status: 200, wantHeader: jsonHeader(lamp), wantBody: lamp})
	check(t, s, ts, call{method: "DELETE", path: "/things/42", status: 204, wantHeader: map[string]string{}})
	gone := `{"error":40401,"message":"no resource with thingId 42 in /things"}`
	check(t, s, ts, call{method: "GET", path: "/things/42", status: 404, wantHeader: jsonHeader(gone), wantBody: gone})
	check(t, s, ts, call{method: "DELETE", path: "/things/42", status: 404, wantHeader: jsonHeader(gone), wantBody: gone})
	if cols := s.Collections(); strings.Join(cols, ",") != "" {
		t.Errorf("Collections() = %q, want none: the deleted item leaves nothing to show", cols)
	}

	req, resp, got := send(t, ts, call{method: "GET", path: "/things"})
	var list []map[string]any
	if err := json.Unmarshal(got, &list); err != nil || resp.StatusCode != 200 || len(list) != 2 {
		t.Errorf("GET /things with nothing stored = %d %s, want 200 with the 2 items minItems needs", resp.StatusCode, got)
	}
	assertConforms(t, s, req, resp, got)

	req, resp, got = send(t, ts, call{method: "POST", path: "/things", header: map[string]string{"Content-Type": "application/json"}, body: `{}`})
	if resp.StatusCode != 405 {
		t.Errorf("POST /things = %d %s, want the only declared status, 405", resp.StatusCode, got)
	}
	assertConforms(t, s, req, resp, got)
}

// TestListLeavesOutUnfitItems: an item stored before the document changed
// is left out of lists and named in the journal, and the rest is answered.
func TestListLeavesOutUnfitItems(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(petstoreExpanded)})
	send(t, ts, call{method: "POST", path: "/pets", header: map[string]string{"Content-Type": "application/json"}, body: `{"name":"Rex"}`})
	if _, err := s.e.Store.Create(context.Background(), "", "/pets", "9", func(string) ([]byte, error) { return []byte(`{"id":9,"name":7}`), nil }); err != nil {
		t.Fatal(err)
	}
	want := `[{"id":1,"name":"Rex"}]`
	check(t, s, ts, call{method: "GET", path: "/pets", status: 200, wantHeader: jsonHeader(want), wantBody: want})
	j := s.Journal()
	if notes := j[len(j)-1].Notes; len(notes) != 1 || !strings.HasPrefix(notes[0], "left out id 9: it does not fit the list's item schema: name: ") {
		t.Errorf("journal notes = %q, want one naming id 9", notes)
	}
}

// TestListMinItemsOfMember: a list whose minItems is an allOf member's
// (AWS's {allOf: [{$ref: List}, {description: ...}]}), in an envelope, is
// made up to it while the store holds fewer.
func TestListMinItemsOfMember(t *testing.T) {
	spec := `openapi: 3.0.3
info: {title: integrations, version: '1'}
paths:
  /integrations:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Integration'}
      responses:
        '200':
          description: made
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Integration'}
    get:
      responses:
        '200':
          description: all
          content:
            application/json:
              schema:
                type: object
                properties:
                  Integrations:
                    allOf: [{$ref: '#/components/schemas/List'}, {description: the integrations}]
components:
  schemas:
    List: {type: array, items: {$ref: '#/components/schemas/Integration'}, minItems: 1, maxItems: 2}
    Integration:
      type: object
      required: [name]
      properties:
        name: {type: string, example: bus}
`
	s, ts := newTestServer(t, Options{Spec: []byte(spec)})
	h := map[string]string{"Content-Type": "application/json"}
	for _, tt := range []call{
		{name: "none stored", method: "GET", path: "/integrations", status: 200, wantBody: `{"Integrations":[{"name":"bus"}]}`},
		{name: "one stored", method: "POST", path: "/integrations", header: h, body: `{"name":"a"}`, status: 200, wantBody: `{"name":"a"}`},
		{name: "the stored one", method: "GET", path: "/integrations", status: 200, wantBody: `{"Integrations":[{"name":"a"}]}`},
		{name: "two more stored", method: "POST", path: "/integrations", header: h, body: `{"name":"b"}`, status: 200, wantBody: `{"name":"b"}`},
		{name: "third", method: "POST", path: "/integrations", header: h, body: `{"name":"c"}`, status: 200, wantBody: `{"name":"c"}`},
		{name: "at most maxItems", method: "GET", path: "/integrations", status: 200, wantBody: `{"Integrations":[{"name":"a"},{"name":"b"}]}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.wantHeader = jsonHeader(tt.wantBody)
			check(t, s, ts, tt)
		})
	}
}

// TestClosestAnswer: an answer whose schema no value generation makes
// satisfies, where load cannot prove that none does (a required code
// whose lookahead asks for what the rest refuses), is the closest value
// there is, in the declared success status, and the journal says it
// breaks the schema; the start-up warnings name it. What load can prove
// is a mistake of the document instead (TestContradictions).
func TestClosestAnswer(t *testing.T) {
	// No answer to it conforms: the comment first keeps TestConformance,
	// which holds every document starting with openapi to that, from it
	// (see inlineDocuments).
	spec := `# no answer conforms
openapi: 3.0.3
info: {title: streams, version: '1'}
paths:
  /stream:
    get:
      responses:
        '200':
          description: the stream
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Stream'}
components:
  schemas:
    Stream:
      type: object
      required: [name, code]
      properties:
        name: {type: string, example: s1}
        code: {type: string, pattern: '^(?=x)y$'}
`
	s, ts := newTestServer(t, Options{Spec: []byte(spec)})
	wantWarning := "#/components/schemas/Stream/properties/code: no string matching the pattern ^(?=x)y$ could be made (5 tries): an answer that needs one carries the closest string made; an example in the schema would be used"
	if w := s.Warnings(); !slices.Contains(w, wantWarning) {
		t.Errorf("Warnings() = %q, want it to hold %q", w, wantWarning)
	}
	_, resp, body := send(t, ts, call{method: "GET", path: "/stream"})
	var got map[string]any
	if err := json.Unmarshal(body, &got); err != nil || resp.StatusCode != 200 || got["name"] != "s1" || got["code"] == nil {
		t.Errorf("GET /stream = %d %s, want 200 with name s1 and a code", resp.StatusCode, body)
	}
	j := s.Journal()
	notes := j[len(j)-1].Notes
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "answered with generated data that breaks the schema: code: ") ||
		!strings.HasSuffix(notes[0], " does not match the pattern ^(?=x)y$: no value that fits could be made") {
		t.Errorf("journal notes = %q, want one saying code breaks the pattern", notes)
	}
}

// TestContentWithoutSchema: a stateful answer whose response declares
// content without a schema (Zuora's deletes declare application/json
// with an example only) carries that example, as a canned answer does,
// rather than no body; the store changes as the operation says.
func TestContentWithoutSchema(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(`openapi: 3.0.3
info: {title: codes, version: '1'}
paths:
  /codes:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Code'}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Code'}}}}
    get:
      responses:
        '200':
          description: the codes
          content: {application/json: {examples: {all: {value: [{id: c0, name: none}]}}}}
  /codes/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: string}}]
    get:
      responses:
        '200': {description: a code, content: {application/json: {schema: {$ref: '#/components/schemas/Code'}}}}
        '404': {description: no such code}
    delete:
      responses:
        '200':
          description: deleted
          content: {application/json: {examples: {response: {value: {success: true}}}}}
        '404': {description: no such code}
components:
  schemas:
    Code:
      type: object
      required: [id, name]
      properties: {id: {type: string}, name: {type: string}}
`)})
	code := `{"id":"c1","name":"sales"}`
	for _, c := range []call{
		{name: "create", method: "POST", path: "/codes", header: map[string]string{"Content-Type": "application/json"}, body: code,
			status: 201, wantHeader: jsonHeader(code), wantBody: code},
		{name: "list: the example", method: "GET", path: "/codes",
			status: 200, wantHeader: jsonHeader(`[{"id":"c0","name":"none"}]`), wantBody: `[{"id":"c0","name":"none"}]`},
		{name: "delete: the example", method: "DELETE", path: "/codes/c1",
			status: 200, wantHeader: jsonHeader(`{"success":true}`), wantBody: `{"success":true}`},
		{name: "deleted", method: "GET", path: "/codes/c1", status: 404, wantHeader: map[string]string{"Content-Length": "0"}},
		{name: "delete again: unknown", method: "DELETE", path: "/codes/c1", status: 404, wantHeader: map[string]string{"Content-Length": "0"}},
	} {
		t.Run(c.name, func(t *testing.T) { check(t, s, ts, c) })
	}
}
