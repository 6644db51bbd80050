package answer_test

import (
	"os"
	"strings"
	"testing"
)

// tasks is the repository's second example document (examples/tasks.yaml).
func tasks(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../../examples/tasks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReplaceAppliesDefaults: a replace fills in defaults as a create does,
// so its answer fits the schema that requires them.
func TestReplaceAppliesDefaults(t *testing.T) {
	m := newMock(t, tasks(t))
	m.do("POST", "/tasks", `{"taskId":"t-1","title":"a","done":true}`)
	want := `{"done":false,"taskId":"t-1","title":"b"}`
	m.do("PUT", "/tasks/t-1", `{"taskId":"t-1","title":"b"}`).want(t, 200, want)
	m.do("GET", "/tasks", "").want(t, 200, "["+want+"]")
}

// TestListLeavesOutUnfitItems: an item stored before the document changed
// is left out of lists, named in the journal's notes and the log, and the
// rest is answered.
func TestListLeavesOutUnfitItems(t *testing.T) {
	m := newMock(t, petstoreExpanded)
	m.do("POST", "/pets", `{"name":"Rex"}`)
	m.put("/pets", "9", `{"id":9,"name":7}`)
	m.do("GET", "/pets", "").want(t, 200, `[{"id":1,"name":"Rex"}]`,
		"left out id 9: it does not fit the list's item schema: name: expected string, got number")
	want := `level=WARN msg="a stored resource does not fit the list's item schema; it is left out" operation="GET /pets" resource="id 9" violation="name: expected string, got number"` + "\n"
	if got := m.log.String(); got != want {
		t.Errorf("log = %q\nwant  %q", got, want)
	}
}

// TestListMinItemsOfMember: a list whose minItems is an allOf member's
// (AWS's {allOf: [{$ref: List}, {description: ...}]}), in an envelope, is
// made up to it while the store holds fewer, and cut to maxItems.
func TestListMinItemsOfMember(t *testing.T) {
	m := newMock(t, `openapi: 3.0.3
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
`)
	m.do("GET", "/integrations", "").want(t, 200, `{"Integrations":[{"name":"bus"}]}`, "generated 1 items: the list schema needs at least 1")
	m.do("POST", "/integrations", `{"name":"a"}`).want(t, 200, `{"name":"a"}`)
	m.do("GET", "/integrations", "").want(t, 200, `{"Integrations":[{"name":"a"}]}`)
	m.do("POST", "/integrations", `{"name":"b"}`)
	m.do("POST", "/integrations", `{"name":"c"}`)
	m.do("GET", "/integrations", "").want(t, 200, `{"Integrations":[{"name":"a"},{"name":"b"}]}`)
}

// TestClosestAnswer: an answer whose schema no value generation makes
// satisfies, where load cannot prove that none does (a required code
// whose lookahead asks for what the rest refuses), is the closest value
// there is, in the declared success status, and the notes say it breaks
// the schema.
func TestClosestAnswer(t *testing.T) {
	m := newMock(t, `openapi: 3.0.3
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
`)
	m.t = nopTB{t} // the answer breaks the contract, as it says
	r := m.do("GET", "/stream", "")
	if r.status != 200 || !strings.HasPrefix(r.body, `{"code":"`) || !strings.HasSuffix(r.body, `","name":"s1"}`) {
		t.Errorf("GET /stream = %d %s, want 200 with name s1 and a code", r.status, r.body)
	}
	if len(r.notes) != 1 || !strings.HasPrefix(r.notes[0], "answered with generated data that breaks the schema: code: ") ||
		!strings.HasSuffix(r.notes[0], " does not match the pattern ^(?=x)y$: no value that fits could be made") {
		t.Errorf("notes = %q, want one saying code breaks the pattern", r.notes)
	}
}

// nopTB is a testing.TB whose Errorf does nothing, for answers known to
// break the contract; Fatalf still fails.
type nopTB struct{ *testing.T }

func (nopTB) Errorf(string, ...any) {}

// TestContentWithoutSchema: a stateful answer whose response declares
// content without a schema (Zuora's deletes declare application/json
// with an example only) carries that example, as a canned answer does,
// rather than no body; the store changes as the operation says.
func TestContentWithoutSchema(t *testing.T) {
	m := newMock(t, `openapi: 3.0.3
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
`)
	code := `{"id":"c1","name":"sales"}`
	m.do("POST", "/codes", code).want(t, 201, code)
	m.do("GET", "/codes", "").want(t, 200, `[{"id":"c0","name":"none"}]`)
	m.do("DELETE", "/codes/c1", "").want(t, 200, `{"success":true}`)
	m.do("GET", "/codes/c1", "").want(t, 404, `{"error":40401,"message":"no resource with id \"c1\" in /codes"}`)
	m.do("DELETE", "/codes/c1", "").want(t, 404, `{"error":40401,"message":"no resource with id \"c1\" in /codes"}`)
	if got := m.stored("/codes"); got != "[]" {
		t.Errorf("/codes holds %s, want nothing", got)
	}
}
