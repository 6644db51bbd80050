package verify_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/mock/verify"
)

// seedsSpec is a collection whose list pages two at a time with no
// parameter verify can ask a size of: ANSWER is replaced by the list's
// answer schema.
const seedsSpec = `openapi: 3.0.3
info: {title: Seeds, version: '1'}
paths:
  /seeds:
    get:
      parameters: [PARAM]
      responses:
        '200': {description: a page, content: {application/json: {schema: ANSWER}}}
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Seed'}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Seed'}}}}
        '400': {description: refused}
  /seeds/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: a seed, content: {application/json: {schema: {$ref: '#/components/schemas/Seed'}}}}
        '404': {description: no such seed}
components:
  schemas:
    Seed: {type: object, required: [name], properties: {id: {type: integer, readOnly: true}, name: {type: string}}}
`

// seeds serves seedsSpec, naming the next page by a Link header (link
// true) or the envelope's next URL, or none (silent); its pages start
// at the item offset from, or at the page number page (number true,
// a bare array as with link).
// lose is how many of the last pages it never names, and answers
// empty; elsewhere names the next page on another host; ignore answers
// the first page whatever the offset or number.
type seeds struct {
	link      bool
	silent    bool
	number    bool
	ignore    bool
	lose      int
	elsewhere bool

	mu    sync.Mutex // guards names
	names []any
}

func (s *seeds) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.URL.Path == "/seeds" && r.Method == http.MethodPost:
		var in map[string]any
		if r.Header.Get("Content-Type") != "application/json" || json.NewDecoder(r.Body).Decode(&in) != nil || in == nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		if _, ok := in["name"].(string); !ok {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		s.names = append(s.names, in["name"])
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]any{"id": len(s.names), "name": in["name"]})
	case r.URL.Path == "/seeds":
		param, first := "from", 0
		if s.number {
			param, first = "page", 1
		}
		at, err := strconv.Atoi(r.URL.Query().Get(param))
		if !r.URL.Query().Has(param) {
			at, err = first, nil
		}
		if err != nil || at < first {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		if s.ignore {
			at = first
		}
		from := at
		if s.number {
			from = 2 * (at - 1)
		}
		page := []any{}
		for i := from; i < len(s.names) && i < from+2 && (s.lose == 0 || i < len(s.names)-2*s.lose); i++ {
			page = append(page, map[string]any{"id": i + 1, "name": s.names[i]})
		}
		var next any
		if from+2 < len(s.names)-2*s.lose && !s.silent {
			host := "http://" + r.Host
			if s.elsewhere {
				host = "http://192.0.2.1"
			}
			next = fmt.Sprintf("%s/seeds?from=%d", host, from+2)
		}
		if s.link && next != nil {
			w.Header().Set("Link", fmt.Sprintf(`<%s>; rel="next", </seeds>; rel="first"`, next))
		}
		if s.link || s.number {
			json.NewEncoder(w).Encode(page)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"items": page, "next": next})
	default:
		id, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/seeds/"))
		if err != nil || id < 1 || id > len(s.names) {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"id": id, "name": s.names[id-1]})
	}
}

// TestListPages: verify finds the item just created in a list that
// names its next page by a Link header or by its envelope's next URL,
// or names none but pages by an item offset or a page number, reading
// page after page; where the list loses its last pages, it reports the
// item missing, after reading every page named (or numbered); a next
// page on another host than the target is not followed, nor replaced
// by the offset.
func TestListPages(t *testing.T) {
	const (
		array    = `{type: array, items: {$ref: '#/components/schemas/Seed'}}`
		envelope = `{type: object, required: [items], properties: {items: {type: array, items: {$ref: '#/components/schemas/Seed'}}, next: {type: string, nullable: true}}}`
	)
	tests := []struct {
		name    string
		answer  string
		service *seeds
		missing bool // the item is reported missing
	}{
		{"Link header", array, &seeds{link: true}, false},
		{"next URL", envelope, &seeds{}, false},
		{"Link header losing pages", array, &seeds{link: true, lose: 1}, true},
		{"next URL losing pages", envelope, &seeds{lose: 1}, true},
		{"next URL on another host", envelope, &seeds{elsewhere: true}, true},
		{"offset, no next", envelope, &seeds{silent: true}, false},
		{"page number, no next", array, &seeds{silent: true, number: true}, false},
		{"offset, no next, losing pages", envelope, &seeds{silent: true, lose: 1}, true},
		{"page number, no next, losing pages", array, &seeds{silent: true, number: true, lose: 1}, true},
		{"page number ignored", array, &seeds{silent: true, number: true, ignore: true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.service)
			defer srv.Close()
			param := `{name: from, in: query, schema: {type: integer, minimum: 0}}`
			if tt.service.number {
				param = `{name: page, in: query, schema: {type: integer, minimum: 1}}`
			}
			spec := strings.NewReplacer("ANSWER", tt.answer, "PARAM", param).Replace(seedsSpec)
			rep, err := verify.Run(context.Background(), []byte(spec), srv.URL, verify.Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			pages := 0
			for _, c := range rep.Checks {
				if strings.HasPrefix(c.Name, "list after create") {
					pages++
				}
			}
			var failures []string
			for _, f := range rep.Failures {
				failures = append(failures, f.String())
			}
			switch {
			case !tt.missing && (len(failures) != 0 || pages < 2):
				t.Errorf("%d pages read, failures %q; want more than one page and none", pages, failures)
			case tt.missing && (len(failures) != 1 || !strings.Contains(failures[0], "GET /seeds: stateful: list after create")):
				t.Errorf("failures %q; want the item missing from the list", failures)
			}
			if tt.service.elsewhere && pages != 1 {
				t.Errorf("%d pages read: the next page on another host was followed", pages)
			}
			if tt.service.ignore && pages != 2 {
				t.Errorf("%d pages read of a list that ignores its page number; want 2", pages)
			}
		})
	}
}
