package verify_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/mock/verify"
)

// linkedSpec makes titles on shelves named by an author's key, which
// only the link of the author's create says: /shelves/{authorKey} is
// no path of an author.
const linkedSpec = `openapi: 3.1.0
info: {title: shelves, version: "1"}
paths:
  /authors:
    post:
      operationId: createAuthor
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Named'}}}}
      responses:
        '201':
          description: created
          content: {application/json: {schema: {$ref: '#/components/schemas/Named'}}}
          links:
            titles: {operationId: createTitle, parameters: {authorKey: '$response.body#/key'}}
  /authors/{authorId}:
    get:
      operationId: getAuthor
      parameters: [{name: authorId, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: author, content: {application/json: {schema: {$ref: '#/components/schemas/Named'}}}}
        '404': {description: none}
  /shelves/{authorKey}/titles:
    post:
      operationId: createTitle
      parameters: [{name: authorKey, in: path, required: true, schema: {type: string}}]
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Named'}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Named'}}}}
        '404': {description: no such author}
  /shelves/{authorKey}/titles/{titleId}:
    get:
      operationId: getTitle
      parameters:
        - {name: authorKey, in: path, required: true, schema: {type: string}}
        - {name: titleId, in: path, required: true, schema: {type: integer}}
      responses:
        '200': {description: title, content: {application/json: {schema: {$ref: '#/components/schemas/Named'}}}}
        '404': {description: none}
  /reviews:
    post:
      operationId: createReview
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              additionalProperties: false
              required: [authorId, text]
              properties:
                id: {type: integer, readOnly: true}
                authorId: {type: integer}
                text: {type: string, minLength: 1}
      responses:
        '201': {description: created, content: {application/json: {schema: {type: object}}}}
        '422': {description: no such author}
  /reviews/{reviewId}:
    get:
      operationId: getReview
      parameters: [{name: reviewId, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: review, content: {application/json: {schema: {type: object}}}}
        '404': {description: none}
components:
  schemas:
    Named:
      type: object
      additionalProperties: false
      required: [name]
      properties:
        id: {type: integer, readOnly: true}
        key: {type: string, readOnly: true}
        name: {type: string, minLength: 1}
`

// shelves serves linkedSpec: a title can only be made on the shelf of
// an author that exists.
type shelves struct {
	mu      sync.Mutex
	next    int
	authors map[int]map[string]any
	keys    map[string]bool
	titles  map[string]map[string]any // by authorKey/titleId
	reviews map[int]map[string]any
}

func (s *shelves) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	answer := func(status int, v any) {
		if v == nil {
			w.WriteHeader(status)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(v)
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if parts[0] == "reviews" {
		s.review(w, r, parts, answer)
		return
	}
	allowed := map[int]string{1: "POST", 2: "GET", 3: "POST", 4: "GET"}[len(parts)]
	if allowed == "" || parts[0] != "authors" && parts[0] != "shelves" || (parts[0] == "authors") != (len(parts) <= 2) || len(parts) >= 3 && parts[2] != "titles" {
		answer(http.StatusNotFound, nil)
		return
	}
	if r.Method != allowed {
		w.Header().Set("Allow", allowed)
		answer(http.StatusMethodNotAllowed, nil)
		return
	}
	var named map[string]any
	if r.Method == http.MethodPost {
		if r.Header.Get("Content-Type") != "application/json" || json.NewDecoder(r.Body).Decode(&named) != nil || named == nil {
			answer(http.StatusBadRequest, nil)
			return
		}
		name, ok := named["name"].(string)
		for k := range named {
			if k != "name" && k != "id" && k != "key" {
				ok = false
			}
		}
		if !ok || name == "" {
			answer(http.StatusBadRequest, nil)
			return
		}
		s.next++
		named = map[string]any{"id": s.next, "name": name}
	}
	switch len(parts) {
	case 1:
		named["key"] = "k" + strconv.Itoa(s.next)
		s.authors[s.next], s.keys["k"+strconv.Itoa(s.next)] = named, true
		answer(http.StatusCreated, named)
	case 2:
		n, _ := strconv.Atoi(parts[1])
		if a := s.authors[n]; a != nil {
			answer(http.StatusOK, a)
			return
		}
		answer(http.StatusNotFound, nil)
	case 3:
		if !s.keys[parts[1]] {
			answer(http.StatusNotFound, nil)
			return
		}
		s.titles[parts[1]+"/"+strconv.Itoa(s.next)] = named
		answer(http.StatusCreated, named)
	case 4:
		if t := s.titles[parts[1]+"/"+parts[3]]; t != nil {
			answer(http.StatusOK, t)
			return
		}
		answer(http.StatusNotFound, nil)
	}
}

// review answers /reviews and /reviews/{reviewId}: a review names an
// author that exists, else it is refused with 422.
func (s *shelves) review(w http.ResponseWriter, r *http.Request, parts []string, answer func(int, any)) {
	allowed := map[int]string{1: "POST", 2: "GET"}[len(parts)]
	if allowed == "" {
		answer(http.StatusNotFound, nil)
		return
	}
	if r.Method != allowed {
		w.Header().Set("Allow", allowed)
		answer(http.StatusMethodNotAllowed, nil)
		return
	}
	if len(parts) == 2 {
		n, _ := strconv.Atoi(parts[1])
		if rv := s.reviews[n]; rv != nil {
			answer(http.StatusOK, rv)
			return
		}
		answer(http.StatusNotFound, nil)
		return
	}
	var body map[string]any
	if r.Header.Get("Content-Type") != "application/json" || json.NewDecoder(r.Body).Decode(&body) != nil || body == nil {
		answer(http.StatusUnprocessableEntity, nil)
		return
	}
	author, _ := body["authorId"].(float64)
	text, _ := body["text"].(string)
	for k := range body {
		if k != "authorId" && k != "text" && k != "id" {
			text = ""
		}
	}
	if s.authors[int(author)] == nil || author != float64(int(author)) || text == "" {
		answer(http.StatusUnprocessableEntity, nil)
		return
	}
	s.next++
	rv := map[string]any{"id": s.next, "authorId": int(author), "text": text}
	s.reviews[s.next] = rv
	answer(http.StatusCreated, rv)
}

// TestLinkedParents: a create whose path names an item only a link of
// another create's answer says how to get (authorKey, from an author's
// key, not its id) is made after that create, on the value the link
// gives; a create whose body names an item by a property called as its
// identifier parameter (a review's authorId) is made after that item,
// on its identifier. The service keeps its document: verify finds no
// failure, and the positive checks' refusals of a made-up authorId are
// advice.
func TestLinkedParents(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			srv := httptest.NewServer(&shelves{authors: map[int]map[string]any{}, keys: map[string]bool{}, titles: map[string]map[string]any{}, reviews: map[int]map[string]any{}})
			defer srv.Close()
			rep, err := verify.Run(context.Background(), []byte(linkedSpec), srv.URL, verify.Options{Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range rep.Failures {
				t.Errorf("a failure: %s", f)
			}
			// The positive checks send a made-up authorId, which the
			// service rightly refuses: advice, with why.
			for _, f := range rep.Advice {
				if f.Operation != "POST /reviews" || f.Rule != "valid input refused" || !strings.HasPrefix(f.Why, "the body's authorId names an item made up here") {
					t.Errorf("advice %s (%s)", f, f.Why)
				}
			}
			want := []string{"POST /authors", "POST /reviews, after POST /authors for authorId (body)", "POST /shelves/{authorKey}/titles, after POST /authors for authorKey"}
			if !slices.Equal(rep.Order, want) {
				t.Errorf("order %q, want %q", rep.Order, want)
			}
			title, review := false, false
			for _, c := range rep.Checks {
				switch {
				case c.Operation == "GET /shelves/{authorKey}/titles/{titleId}" && c.Kind == "stateful":
					title = c.Status == 200 && strings.Contains(c.Curl, "/shelves/k")
				case c.Operation == "GET /reviews/{reviewId}" && c.Kind == "stateful":
					review = c.Status == 200
				}
			}
			if !title {
				t.Error("no title was read back from an author's shelf")
			}
			if !review {
				t.Error("no review of an author that exists was read back")
			}
		})
	}
}
