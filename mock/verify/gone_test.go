package verify_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/mock/verify"
)

// goneSpec is a collection of things whose read declares STATUSES
// besides 200.
const goneSpec = `openapi: 3.1.0
info: {title: Things, version: '1'}
paths:
  /things:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name]
              properties: {name: {type: string, enum: [fern]}}
      responses:
        '201': {description: made, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
  /things/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: the thing, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
STATUSES
    delete:
      responses:
        '204': {description: deleted}
components:
  schemas:
    Thing:
      type: object
      required: [id, name]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
    Error:
      type: object
      required: [message]
      properties: {message: {type: string}}
`

// things serves goneSpec, its reads and deletes as the test needs, not
// every rule (it takes ids that are no numbers, say): it keeps what it
// makes, and answers a read of a thing it does not hold with gone, else
// 404; with gone 0 its delete deletes nothing.
type things struct {
	gone int
	mu   sync.Mutex // guards the fields below
	next int
	kept map[string]bool
}

func (s *things) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.kept == nil {
		s.kept = map[string]bool{}
	}
	id, item := strings.CutPrefix(r.URL.Path, "/things/")
	switch {
	case r.URL.Path == "/things" && r.Method == http.MethodPost:
		var in struct{ Name string }
		if json.NewDecoder(r.Body).Decode(&in) != nil || in.Name != "fern" {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		s.next++
		s.kept[fmt.Sprint(s.next)] = true
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"id":%d,"name":"fern"}`, s.next)
	case item && r.Method == http.MethodDelete:
		if s.gone != 0 {
			delete(s.kept, id)
		}
		w.WriteHeader(http.StatusNoContent)
	case item && r.Method == http.MethodGet && s.kept[id]:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":%s,"name":"fern"}`, id)
	case item && r.Method == http.MethodGet:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(cmp.Or(s.gone, http.StatusNotFound))
		fmt.Fprint(w, `{"message":"no such thing"}`)
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

// TestReadAfterDelete verifies services that answer the read of a thing
// they deleted in several ways: any 4xx the read declares is right, and
// 404 is preferred where declared (another is advice); a success is a
// failure where the read declares a status for an item that is not
// there, else advice: the document gives it no way to say so.
func TestReadAfterDelete(t *testing.T) {
	const (
		e404 = "        '404': {description: none, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}\n"
		e403 = "        '403': {description: hidden, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}\n"
		e400 = "        '400': {description: refused, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}\n"
		e429 = "        '429': {description: slow down, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}\n"
	)
	tests := []struct {
		name     string
		statuses string
		gone     int
		failure  string // a part of the one failure's text, "" for none
		advice   string // a part of the one advice's text, "" for none
	}{
		{"404 declared, 404", e404, 404, "", ""},
		{"only 400 declared, 400", e400, 400, "", ""},
		{"only 403 declared, 403", e403, 403, "", ""},
		{"404 and 403 declared, 403", e404 + e403, 403, "", "answered 403; the read declares 404"},
		{"404 declared, not deleted", e404, 0, "answered 200, not the declared 404", ""},
		{"only 403 declared, not deleted", e403, 0, "answered 200, not the declared 403", ""},
		{"only 429 declared, not deleted", e429, 0, "", "answered 200"},
		{"nothing declared, not deleted", "", 0, "", "answered 200"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(&things{gone: tt.gone})
			defer srv.Close()
			spec := strings.Replace(goneSpec, "STATUSES\n", tt.statuses, 1)
			rep, err := verify.Run(context.Background(), []byte(spec), srv.URL, verify.Options{Seed: 1, Only: []string{"POST /things", "GET /things/{id}", "DELETE /things/{id}"}})
			if err != nil {
				t.Fatal(err)
			}
			// Only the read after delete's: things keeps no other rule.
			checkOne := func(what string, all []*verify.Failure, want string) {
				t.Helper()
				var fs []*verify.Failure
				for _, f := range all {
					if f.Check == "stateful: read after delete" {
						fs = append(fs, f)
					}
				}
				if want == "" {
					for _, f := range fs {
						t.Errorf("%s: %s", what, f)
					}
					return
				}
				if len(fs) != 1 || fs[0].Check != "stateful: read after delete" || fs[0].Rule != "state" || !strings.Contains(fs[0].Text, want) {
					t.Errorf("%s = %v, want one of the read after delete saying %q", what, fs, want)
				}
			}
			checkOne("failures", rep.Failures, tt.failure)
			checkOne("advice", rep.Advice, tt.advice)
			for _, f := range rep.Advice {
				if f.Why == "" {
					t.Errorf("advice %s says not why", f)
				}
			}
			deleted := false
			for _, c := range rep.Checks {
				deleted = deleted || c.Title() == "stateful: read after delete"
			}
			if !deleted {
				t.Error("no read after delete was sent")
			}
		})
	}
}
