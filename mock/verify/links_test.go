package verify_test

import (
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/mock/verify"
)

// notesSpec is a collection whose create answers neither Location nor
// a property named as the read's parameter: only a link says which
// property of the answer the read takes. LINKS is replaced by each
// case's links.
const notesSpec = `openapi: 3.0.3
info: {title: Notes, version: '1'}
paths:
  /notes:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
      responses:
        '201':
          description: created
          content: {application/json: {schema: {$ref: '#/components/schemas/Created'}}}
          LINKS
  /notes/{key}:
    get:
      operationId: getNote
      parameters: [{name: key, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: note, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
        '404': {description: no such note}
components:
  schemas:
    Note: {type: object, required: [text], properties: {text: {type: string}}}
    Created: {type: object, required: [ref], properties: {ref: {type: string}}}
`

// notes keeps notesSpec: a create answers {"ref": "nN"}.
type notes struct {
	mu    sync.Mutex // guards texts
	texts map[string]any
}

func (n *notes) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.URL.Path == "/notes" && r.Method == http.MethodPost:
		var in map[string]any
		if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" || json.NewDecoder(r.Body).Decode(&in) != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		if _, ok := in["text"].(string); !ok {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		n.mu.Lock()
		ref := fmt.Sprintf("n%d", len(n.texts)+1)
		n.texts[ref] = in["text"]
		n.mu.Unlock()
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]any{"ref": ref})
	case strings.HasPrefix(r.URL.Path, "/notes/") && r.Method == http.MethodGet:
		n.mu.Lock()
		text, ok := n.texts[strings.TrimPrefix(r.URL.Path, "/notes/")]
		n.mu.Unlock()
		if !ok {
			w.Header().Del("Content-Type")
			w.WriteHeader(http.StatusNotFound)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"text": text})
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

// TestLinkedIdentifier: a create's links name the property of its
// answer that identifies the item, by operationId or operationRef; the
// read after create reads that item. Without a link, verify says it
// found no identifier and sends no read after create.
func TestLinkedIdentifier(t *testing.T) {
	tests := []struct {
		name  string
		links string
		read  bool // a read after create is sent, answered 200
	}{
		{"operationId", `links: {note: {operationId: getNote, parameters: {key: '$response.body#/ref'}}}`, true},
		{"operationRef", `links: {note: {operationRef: '#/paths/~1notes~1{key}/get', parameters: {path.key: '$response.body#/ref'}}}`, true},
		{"no link", ``, false},
		{"link to another operation", `links: {note: {operationId: nothing, parameters: {key: '$response.body#/ref'}}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(&notes{texts: map[string]any{}})
			defer srv.Close()
			spec := strings.Replace(notesSpec, "LINKS", tt.links, 1)
			rep, err := verify.Run(context.Background(), []byte(spec), srv.URL, verify.Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range rep.Failures {
				t.Errorf("%s\n%s", f, f.Curl)
			}
			var reads []int
			for _, c := range rep.Checks {
				if c.Title() == "stateful: read after create" {
					reads = append(reads, c.Status)
				}
			}
			unmade := strings.Join(rep.Unmade, "\n")
			if tt.read {
				if len(reads) != 1 || reads[0] != http.StatusOK || unmade != "" {
					t.Errorf("reads after create answered %v, unmade %q; want one 200 and nothing unmade", reads, unmade)
				}
				return
			}
			if len(reads) != 0 || !strings.Contains(unmade, "POST /notes: stateful: no identifier of the created item in a link, Location, the answer or the request (key)") {
				t.Errorf("reads after create answered %v, unmade %q; want none, and why", reads, unmade)
			}
		})
	}
}
