package verify_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock"
	"github.com/plantmock/plantmock/mock/verify"
)

// patchSpec updates notes by JSON Patch (RFC 6902).
const patchSpec = `openapi: 3.1.0
info: {title: notes, version: "1"}
paths:
  /notes:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
      responses:
        '201': {description: made, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
  /notes/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: note, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
        '404': {description: none}
    patch:
      requestBody:
        required: true
        content:
          application/json-patch+json:
            schema:
              type: array
              items:
                type: object
                required: [op, path]
                properties:
                  op: {enum: [add, remove, replace, move, copy, test]}
                  path: {type: string}
                  value: {}
                  from: {type: string}
      responses:
        '200': {description: patched, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
        '404': {description: none}
        '422': {description: cannot apply}
components:
  schemas:
    Note:
      type: object
      additionalProperties: false
      required: [text]
      properties:
        id: {type: integer, readOnly: true}
        text: {type: string, minLength: 1}
`

// TestJSONPatchUpdate: verify's PATCH in JSON Patch sets the item's
// properties and reads them back. plantmock, which applies JSON Patch,
// gives nothing at seeds 1-3; in front of it, a service that answers a
// patch with the note as it was, and keeps it so, is found by the read
// after the PATCH.
func TestJSONPatchUpdate(t *testing.T) {
	for _, ignore := range []bool{false, true} {
		for seed := uint64(1); seed <= 3; seed++ {
			m, err := mock.New(mock.Options{Spec: []byte(patchSpec), Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			h := http.Handler(m)
			if ignore {
				h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if r.Method != http.MethodPatch {
						m.ServeHTTP(w, r)
						return
					}
					// The note as it was before, where the patch is taken.
					before := httptest.NewRecorder()
					m.ServeHTTP(before, httptest.NewRequest(http.MethodGet, r.URL.String(), nil))
					patched := httptest.NewRecorder()
					m.ServeHTTP(patched, r)
					answer := patched
					if patched.Code == http.StatusOK && before.Code == http.StatusOK {
						// Put the text back, and answer the note as it was.
						var note struct{ Text string }
						json.Unmarshal(before.Body.Bytes(), &note)
						undo, _ := json.Marshal([]any{map[string]any{"op": "add", "path": "/text", "value": note.Text}})
						back := httptest.NewRequest(http.MethodPatch, r.URL.String(), bytes.NewReader(undo))
						back.Header.Set("Content-Type", "application/json-patch+json")
						m.ServeHTTP(httptest.NewRecorder(), back)
						answer = before
					}
					for k, v := range answer.Header() {
						w.Header()[k] = v
					}
					w.WriteHeader(answer.Code)
					w.Write(answer.Body.Bytes())
				})
			}
			srv := httptest.NewServer(h)
			rep, err := verify.Run(context.Background(), []byte(patchSpec), srv.URL, verify.Options{Seed: seed})
			srv.Close()
			m.Close()
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range append(rep.Failures, rep.Advice...) {
				got = append(got, f.String())
			}
			switch {
			case !ignore && len(got) > 0:
				t.Errorf("seed %d: problems with the mock: %q", seed, got)
			case ignore && (len(rep.Failures) != 1 || !strings.HasPrefix(got[0], "GET /notes/{id}: stateful: read after PATCH: state: the read of the item just updated has text ")):
				t.Errorf("seed %d: problems %q, want the patch not applied", seed, got)
			}
		}
	}
}
