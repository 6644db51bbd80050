package verify_test

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// providerSpec is the contract of the provider below.
const providerSpec = `openapi: 3.1.0
info: {title: Planted, version: '1'}
security: [{bearer: []}]
paths:
  /items:
    get:
      operationId: listItems
      parameters:
        - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 100}}
        - {name: X-Tenant, in: header, required: true, schema: {type: string}}
      responses:
        '200': {description: items, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Item'}}}}}
        '400': {$ref: '#/components/responses/Error'}
    post:
      operationId: createItem
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
      responses:
        '201':
          description: created
          headers: {Location: {required: true, schema: {type: string}}}
          content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}
        '400': {$ref: '#/components/responses/Error'}
  /items/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer, minimum: 1}}]
    get:
      operationId: getItem
      responses:
        '200': {description: item, content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
        '404': {$ref: '#/components/responses/Error'}
    delete:
      operationId: deleteItem
      responses:
        '204': {description: deleted}
        '404': {$ref: '#/components/responses/Error'}
components:
  securitySchemes: {bearer: {type: http, scheme: bearer}}
  responses:
    Error: {description: error, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
  schemas:
    Item:
      type: object
      required: [name, kind]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string, minLength: 1}
        kind: {type: string, enum: [tool, seed]}
        secret: {type: string, writeOnly: true}
    Error:
      type: object
      required: [code, message]
      properties: {code: {type: integer}, message: {type: string}}
`

// A bug is a contract bug the provider can be built with.
type bug string

const (
	noBug            bug = ""
	undeclaredStatus bug = "an undeclared status"
	missingRequired  bug = "a missing required property"
	wrongType        bug = "a wrong type"
	leakedWriteOnly  bug = "a leaked writeOnly field"
	boundary500      bug = "a 500 on a valid boundary value"
	missingLocation  bug = "a missing Location"
	acceptedEnum     bug = "an accepted invalid enum"
	ignoredHeader    bug = "an ignored required header"
	wrongErrorShape  bug = "a wrong error shape"
	readDisagrees    bug = "a read that disagrees with the create"
	slowAnswer       bug = "an answer slower than the timeout"
	refusedValid     bug = "a valid value refused"
)

// item is a stored item.
type item struct {
	ID     int    `json:"id"`
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Secret string `json:"-"`
}

// provider is a small service that keeps providerSpec, but for its bug.
type provider struct {
	bug  bug
	slow chan struct{} // closed when the test ends; a slow answer waits for it

	mu    sync.Mutex // guards items and next
	items map[int]item
	next  int
}

func newProvider(b bug) *provider {
	return &provider{bug: b, slow: make(chan struct{}), items: map[int]item{}}
}

func (p *provider) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || auth == "" {
		p.fail(w, http.StatusUnauthorized, "no credentials", false)
		return
	}
	switch {
	case r.URL.Path == "/items" && r.Method == http.MethodGet:
		p.list(w, r)
	case r.URL.Path == "/items" && r.Method == http.MethodPost:
		p.create(w, r)
	case strings.HasPrefix(r.URL.Path, "/items/"):
		id, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/items/"))
		p.mu.Lock()
		it, found := p.items[id]
		if found && err == nil && r.Method == http.MethodDelete {
			delete(p.items, id)
		}
		p.mu.Unlock()
		switch {
		case err != nil || !found:
			p.fail(w, http.StatusNotFound, "no such item", false)
		case r.Method == http.MethodGet:
			if p.bug == readDisagrees {
				it.Name += " (copy)"
			}
			p.answer(w, http.StatusOK, it)
		case r.Method == http.MethodDelete:
			w.WriteHeader(http.StatusNoContent)
		default:
			p.fail(w, http.StatusMethodNotAllowed, "no such method", false)
		}
	default:
		p.fail(w, http.StatusNotFound, "no such path", false)
	}
}

func (p *provider) list(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("X-Tenant") == "" && p.bug != ignoredHeader {
		p.fail(w, http.StatusBadRequest, "X-Tenant is required", false)
		return
	}
	if l := r.URL.Query().Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 100 {
			p.fail(w, http.StatusBadRequest, "limit must be 1 to 100", false)
			return
		}
		if n == 100 && p.bug == boundary500 {
			http.Error(w, "index out of range", http.StatusInternalServerError)
			return
		}
		if n == 1 && p.bug == slowAnswer {
			<-p.slow
		}
	}
	p.mu.Lock()
	var out []any
	for _, it := range p.items {
		out = append(out, it)
	}
	p.mu.Unlock()
	if p.bug == wrongType {
		out = append(out, map[string]any{"id": "seven", "name": "rake", "kind": "tool"})
	}
	status := http.StatusOK
	if p.bug == undeclaredStatus {
		status = http.StatusNonAuthoritativeInfo
	}
	if out == nil {
		out = []any{}
	}
	p.answer(w, status, out)
}

func (p *provider) create(w http.ResponseWriter, r *http.Request) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		p.fail(w, http.StatusBadRequest, "the body must be JSON", true)
		return
	}
	var in map[string]any
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		p.fail(w, http.StatusBadRequest, "the body is not a JSON object", true)
		return
	}
	name, ok := in["name"].(string)
	if !ok || name == "" {
		p.fail(w, http.StatusBadRequest, "name must be a string", true)
		return
	}
	if p.bug == refusedValid && strings.Contains(name, " ") {
		p.fail(w, http.StatusBadRequest, "name may not contain spaces", true)
		return
	}
	kind, ok := in["kind"].(string)
	if !ok || kind != "tool" && kind != "seed" && p.bug != acceptedEnum {
		p.fail(w, http.StatusBadRequest, "kind must be tool or seed", true)
		return
	}
	secret, _ := in["secret"].(string)
	if _, ok := in["secret"]; ok && secret == "" {
		if _, isString := in["secret"].(string); !isString {
			p.fail(w, http.StatusBadRequest, "secret must be a string", true)
			return
		}
	}
	p.mu.Lock()
	p.next++
	it := item{ID: p.next, Name: name, Kind: kind, Secret: secret}
	p.items[it.ID] = it
	p.mu.Unlock()
	if p.bug != missingLocation {
		w.Header().Set("Location", fmt.Sprintf("/items/%d", it.ID))
	}
	out := map[string]any{"id": it.ID, "name": it.Name, "kind": it.Kind}
	if p.bug == missingRequired {
		delete(out, "kind")
	}
	if p.bug == leakedWriteOnly && secret != "" {
		out["secret"] = secret
	}
	p.answer(w, http.StatusCreated, out)
}

// fail answers an error in the declared shape (but for the planted
// wrong shape, on the create's refusals: create true).
func (p *provider) fail(w http.ResponseWriter, status int, message string, create bool) {
	if create && p.bug == wrongErrorShape {
		p.answer(w, status, map[string]any{"error": message})
		return
	}
	p.answer(w, status, map[string]any{"code": status, "message": message})
}

func (p *provider) answer(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
