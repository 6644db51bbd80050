package verify_test

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"regexp"
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
          links: {item: {operationId: getItem, parameters: {id: '$response.body#/id'}}}
        '400': {$ref: '#/components/responses/Error'}
  /items/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer, minimum: 1}}]
    get:
      operationId: getItem
      responses:
        '200': {description: item, content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
        '404': {$ref: '#/components/responses/Error'}
    put:
      operationId: replaceItem
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
      responses:
        '200': {description: item, content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
        '400': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
    delete:
      operationId: deleteItem
      responses:
        '204': {description: deleted}
        '404': {$ref: '#/components/responses/Error'}
  /tags:
    post:
      operationId: createTag
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Tag'}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Tag'}}}}
        '400': {$ref: '#/components/responses/Error'}
        '409': {$ref: '#/components/responses/Error'}
  /tags/{name}:
    get:
      operationId: getTag
      parameters: [{name: name, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: tag, content: {application/json: {schema: {$ref: '#/components/schemas/Tag'}}}}
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
    Tag:
      type: object
      required: [name]
      properties:
        name: {type: string, pattern: '^[a-z]{8,20}$'}
        color: {type: string, enum: [red, green]}
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
	listOmits        bug = "a list that omits the created item"
	updateIgnored    bug = "an update that is not applied"
	duplicateCreated bug = "a duplicate create accepted"
	enumRefused      bug = "a declared enum value refused"
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

	mu    sync.Mutex // guards items, next and tags
	items map[int]item
	next  int
	tags  map[string]map[string]any
}

func newProvider(b bug) *provider {
	return &provider{bug: b, slow: make(chan struct{}), items: map[int]item{}, tags: map[string]map[string]any{}}
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
	case r.URL.Path == "/tags" && r.Method == http.MethodPost:
		p.createTag(w, r)
	case strings.HasPrefix(r.URL.Path, "/tags/") && r.Method == http.MethodGet:
		p.mu.Lock()
		t, found := p.tags[strings.TrimPrefix(r.URL.Path, "/tags/")]
		p.mu.Unlock()
		if !found {
			p.fail(w, http.StatusNotFound, "no such tag", false)
			return
		}
		p.answer(w, http.StatusOK, t)
	case strings.HasPrefix(r.URL.Path, "/items/") && r.Method == http.MethodPut:
		p.replace(w, r)
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
	for id, it := range p.items {
		if p.bug == listOmits && id == p.next {
			continue // the newest
		}
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
	it, ok := p.decodeItem(w, r, true)
	if !ok {
		return
	}
	p.mu.Lock()
	p.next++
	it.ID = p.next
	if it.Kind == "tool" || it.Kind == "seed" {
		p.items[it.ID] = it // an invalid kind accepted is answered, not kept
	}
	p.mu.Unlock()
	if p.bug != missingLocation {
		w.Header().Set("Location", fmt.Sprintf("/items/%d", it.ID))
	}
	out := map[string]any{"id": it.ID, "name": it.Name, "kind": it.Kind}
	if p.bug == missingRequired {
		delete(out, "kind")
	}
	if p.bug == leakedWriteOnly && it.Secret != "" {
		out["secret"] = it.Secret
	}
	p.answer(w, http.StatusCreated, out)
}

// replace stores the body in place of an item (but for the planted
// update that is not applied), and answers with it.
func (p *provider) replace(w http.ResponseWriter, r *http.Request) {
	it, ok := p.decodeItem(w, r, false)
	if !ok {
		return
	}
	id, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/items/"))
	p.mu.Lock()
	_, found := p.items[id]
	if found && err == nil && p.bug != updateIgnored {
		it.ID = id
		p.items[id] = it
	}
	p.mu.Unlock()
	if err != nil || !found {
		p.fail(w, http.StatusNotFound, "no such item", false)
		return
	}
	p.answer(w, http.StatusOK, map[string]any{"id": id, "name": it.Name, "kind": it.Kind})
}

// decodeItem reads an Item body, or answers why it cannot; the bugs of
// the create's checks apply where create is true.
func (p *provider) decodeItem(w http.ResponseWriter, r *http.Request, create bool) (item, bool) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		p.fail(w, http.StatusBadRequest, "the body must be JSON", create)
		return item{}, false
	}
	var in map[string]any
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		p.fail(w, http.StatusBadRequest, "the body is not a JSON object", create)
		return item{}, false
	}
	name, ok := in["name"].(string)
	if !ok || name == "" {
		p.fail(w, http.StatusBadRequest, "name must be a string", create)
		return item{}, false
	}
	if create && p.bug == enumRefused && in["kind"] == "seed" {
		p.fail(w, http.StatusBadRequest, "kind seed is not taken yet", create)
		return item{}, false
	}
	if create && p.bug == refusedValid && strings.Contains(name, " ") {
		p.fail(w, http.StatusBadRequest, "name may not contain spaces", create)
		return item{}, false
	}
	kind, ok := in["kind"].(string)
	if !ok || kind != "tool" && kind != "seed" && !(create && p.bug == acceptedEnum) {
		p.fail(w, http.StatusBadRequest, "kind must be tool or seed", create)
		return item{}, false
	}
	secret, isString := in["secret"].(string)
	if _, has := in["secret"]; has && !isString {
		p.fail(w, http.StatusBadRequest, "secret must be a string", create)
		return item{}, false
	}
	return item{Name: name, Kind: kind, Secret: secret}, true
}

// createTag stores a tag under the name its body gives, which must be
// new (but for the planted duplicate accepted).
func (p *provider) createTag(w http.ResponseWriter, r *http.Request) {
	var in map[string]any
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" || json.NewDecoder(r.Body).Decode(&in) != nil {
		p.fail(w, http.StatusBadRequest, "the body must be a JSON object", false)
		return
	}
	name, ok := in["name"].(string)
	if !ok || !tagName.MatchString(name) {
		p.fail(w, http.StatusBadRequest, "name must be 8 to 20 letters a to z", false)
		return
	}
	color, has := in["color"]
	if c, ok := color.(string); has && (!ok || c != "red" && c != "green") {
		p.fail(w, http.StatusBadRequest, "color must be red or green", false)
		return
	}
	t := map[string]any{"name": name}
	if has {
		t["color"] = color
	}
	p.mu.Lock()
	_, taken := p.tags[name]
	if !taken || p.bug == duplicateCreated {
		p.tags[name] = t
	}
	p.mu.Unlock()
	if taken && p.bug != duplicateCreated {
		p.fail(w, http.StatusConflict, "the tag exists", false)
		return
	}
	p.answer(w, http.StatusCreated, t)
}

// tagName is the pattern of a tag's name.
var tagName = regexp.MustCompile(`^[a-z]{8,20}$`)

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
