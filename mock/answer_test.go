package mock

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestClosestAnswer: an answer whose schema no value generation makes
// satisfies, where load cannot prove that none does (a required code
// whose lookahead asks for what the rest refuses), is served: the
// start-up warnings name it, and it is the closest value there is, in the
// declared success status (what the answer notes is answer's
// TestClosestAnswer). What load can prove
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
}
