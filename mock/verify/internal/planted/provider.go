package planted

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// item is a stored item.
type item struct {
	ID     int    `json:"id"`
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Secret string `json:"-"`
}

// A Provider keeps Spec's document but for its bug. It is an
// http.Handler that wants a bearer token on every request.
type Provider struct {
	bug       Bug
	requests  atomic.Int64
	slow      chan struct{} // closed by Close; a slow answer waits for it
	closeOnce sync.Once

	mu    sync.Mutex // guards items, next and tags
	items map[int]item
	next  int
	tags  map[string]map[string]any
}

// New returns a provider built with bug b (None for none), holding no
// items.
func New(b Bug) *Provider {
	return &Provider{bug: b, slow: make(chan struct{}), items: map[int]item{}, tags: map[string]map[string]any{}}
}

// Bug is the bug the provider was built with.
func (p *Provider) Bug() Bug { return p.bug }

// Requests is how many requests the provider has been sent, whatever
// their path or answer.
func (p *Provider) Requests() int64 { return p.requests.Load() }

// Close lets the answers SlowAnswer holds back go. It may be called
// more than once.
func (p *Provider) Close() { p.closeOnce.Do(func() { close(p.slow) }) }

// ServeHTTP answers the document's seven operations.
func (p *Provider) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.requests.Add(1)
	auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || auth == "" {
		p.fail(w, http.StatusUnauthorized, "no credentials", false)
		return
	}
	if allow := allowed(r.URL.Path); allow != "" && !strings.Contains(", "+allow+", ", ", "+r.Method+", ") {
		w.Header().Set("Allow", allow)
		p.fail(w, http.StatusMethodNotAllowed, r.Method+" is not a method of "+r.URL.Path, false)
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
		p.readTag(w, r)
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
			if p.bug == ReadDisagrees {
				it.Name += " (copy)"
			}
			p.answer(w, http.StatusOK, it)
		case r.Method == http.MethodDelete:
			w.WriteHeader(http.StatusNoContent)
		}
	default:
		p.fail(w, http.StatusNotFound, "no such path", false)
	}
}

// allowed lists the methods the document declares for a request path,
// "" for a path it does not declare.
func allowed(path string) string {
	switch {
	case path == "/items":
		return "GET, POST"
	case path == "/tags":
		return "POST"
	case strings.HasPrefix(path, "/items/") && !strings.Contains(path[len("/items/"):], "/"):
		return "DELETE, GET, PUT"
	case strings.HasPrefix(path, "/tags/") && !strings.Contains(path[len("/tags/"):], "/"):
		return "GET"
	}
	return ""
}

func (p *Provider) list(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("X-Tenant") == "" && p.bug != IgnoredHeader {
		p.fail(w, http.StatusBadRequest, "X-Tenant is required", false)
		return
	}
	if l := r.URL.Query().Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 100 {
			p.fail(w, http.StatusBadRequest, "limit must be 1 to 100", false)
			return
		}
		if n == 100 && p.bug == Boundary500 {
			http.Error(w, "index out of range", http.StatusInternalServerError)
			return
		}
		if n == 1 && p.bug == SlowAnswer {
			<-p.slow
		}
	}
	p.mu.Lock()
	var out []any
	for id, it := range p.items {
		if p.bug == ListOmits && id == p.next {
			continue // the newest
		}
		out = append(out, it)
	}
	p.mu.Unlock()
	if p.bug == WrongType {
		out = append(out, map[string]any{"id": "seven", "name": "rake", "kind": "tool"})
	}
	status := http.StatusOK
	if p.bug == UndeclaredStatus {
		status = http.StatusNonAuthoritativeInfo
	}
	if out == nil {
		out = []any{}
	}
	p.answer(w, status, out)
}

func (p *Provider) create(w http.ResponseWriter, r *http.Request) {
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
	if p.bug != MissingLocation {
		w.Header().Set("Location", fmt.Sprintf("/items/%d", it.ID))
	}
	out := map[string]any{"id": it.ID, "name": it.Name, "kind": it.Kind}
	if p.bug == MissingRequired {
		delete(out, "kind")
	}
	if p.bug == LeakedWriteOnly && it.Secret != "" {
		out["secret"] = it.Secret
	}
	p.answer(w, http.StatusCreated, out)
}

// replace stores the body in place of an item (but for the planted
// update that is not applied), and answers with it.
func (p *Provider) replace(w http.ResponseWriter, r *http.Request) {
	it, ok := p.decodeItem(w, r, false)
	if !ok {
		return
	}
	id, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/items/"))
	p.mu.Lock()
	_, found := p.items[id]
	if found && err == nil && p.bug != UpdateIgnored {
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
func (p *Provider) decodeItem(w http.ResponseWriter, r *http.Request, create bool) (item, bool) {
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
	if create && p.bug == EnumRefused && in["kind"] == "seed" {
		p.fail(w, http.StatusBadRequest, "kind seed is not taken yet", create)
		return item{}, false
	}
	if create && p.bug == RefusedValid && strings.Contains(name, " ") {
		p.fail(w, http.StatusBadRequest, "name may not contain spaces", create)
		return item{}, false
	}
	kind, ok := in["kind"].(string)
	if !ok || kind != "tool" && kind != "seed" && !(create && p.bug == AcceptedEnum) {
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

// fail answers an error in the declared shape (but for the planted
// wrong shape, on the create's refusals: create true).
func (p *Provider) fail(w http.ResponseWriter, status int, message string, create bool) {
	if create && p.bug == WrongErrorShape {
		p.answer(w, status, map[string]any{"error": message})
		return
	}
	p.answer(w, status, map[string]any{"code": status, "message": message})
}

func (p *Provider) answer(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
