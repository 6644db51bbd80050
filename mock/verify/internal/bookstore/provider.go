package bookstore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// genre is a stored genre; its id is the slug of its path.
type genre struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Description *string `json:"description,omitempty"`
}

// book is a stored book.
type book struct {
	ID     int    `json:"id"`
	Genre  string `json:"genre"`
	Title  string `json:"title"`
	Author string `json:"author"`
	Year   *int64 `json:"year,omitempty"`
}

// A Provider keeps Spec's document but for its bug. It is an
// http.Handler.
type Provider struct {
	bug Bug

	mu     sync.Mutex // guards what follows
	genres map[string]*genre
	order  []string // genre ids, in the order they were made
	books  map[string][]*book
	next   int
	tokens map[string][]string // token -> scopes
}

// New returns a provider built with bug b (None for none), holding
// nothing, taking ReaderToken and WriterToken.
func New(b Bug) *Provider {
	return &Provider{bug: b, genres: map[string]*genre{}, books: map[string][]*book{},
		tokens: map[string][]string{ReaderToken: {"read"}, WriterToken: {"read", "write"}}}
}

var slug = regexp.MustCompile(`^[a-z][a-z0-9-]{2,30}$`)

// ServeHTTP answers the document's operations and the token endpoint.
func (p *Provider) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/oauth/token" {
		p.token(w, r)
		return
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if parts[0] != "genres" || len(parts) > 4 || len(parts) == 3 && parts[2] != "books" || len(parts) == 4 && parts[2] != "books" {
		fail(w, http.StatusNotFound, "no such path")
		return
	}
	allowed := [...]string{1: "GET", 2: "GET, PUT, PATCH, DELETE", 3: "GET, POST", 4: "GET, DELETE"}[len(parts)]
	if !slices.Contains(strings.Split(allowed, ", "), r.Method) {
		w.Header().Set("Allow", allowed)
		fail(w, http.StatusMethodNotAllowed, "method not allowed")
		return
	}
	need := "write"
	if r.Method == http.MethodGet {
		need = "read"
	}
	if !(p.bug == AuthIgnored && len(parts) == 1) {
		scopes, ok := p.scopes(r)
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="bookstore"`)
			fail(w, http.StatusUnauthorized, "no valid token")
			return
		}
		if !slices.Contains(scopes, need) && !(p.bug == ScopeIgnored && len(parts) == 2 && r.Method == http.MethodPut) {
			fail(w, http.StatusForbidden, "the token has no "+need+" scope")
			return
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch len(parts) {
	case 1:
		out := make([]*genre, 0, len(p.order))
		for _, id := range p.order {
			out = append(out, p.genres[id])
		}
		answer(w, http.StatusOK, out)
	case 2:
		p.genre(w, r, parts[1])
	case 3:
		p.bookList(w, r, parts[1])
	case 4:
		p.book(w, r, parts[1], parts[3])
	}
}

// scopes returns the scopes of the request's bearer token.
func (p *Provider) scopes(r *http.Request) ([]string, bool) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return nil, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.tokens[tok]
	return s, ok
}

// token is the OAuth 2 token endpoint, for the client credentials grant
// (RFC 6749 4.4) with the client authenticated by HTTP Basic.
func (p *Provider) token(w http.ResponseWriter, r *http.Request) {
	id, secret, ok := r.BasicAuth()
	if r.Method != http.MethodPost || r.ParseForm() != nil || r.PostForm.Get("grant_type") != "client_credentials" {
		answer(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	if !ok || id != ClientID || secret != ClientSecret {
		answer(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
		return
	}
	scopes := strings.Fields(r.PostForm.Get("scope"))
	if len(scopes) == 0 {
		scopes = []string{"read", "write"}
	}
	for _, s := range scopes {
		if s != "read" && s != "write" {
			answer(w, http.StatusBadRequest, map[string]string{"error": "invalid_scope"})
			return
		}
	}
	p.mu.Lock()
	p.next++
	tok := "issued-" + strconv.Itoa(p.next)
	p.tokens[tok] = scopes
	p.mu.Unlock()
	answer(w, http.StatusOK, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600, "scope": strings.Join(scopes, " ")})
}

// genre answers the operations of /genres/{id}.
func (p *Provider) genre(w http.ResponseWriter, r *http.Request, id string) {
	g := p.genres[id]
	if !slug.MatchString(id) {
		status := http.StatusNotFound
		if r.Method == http.MethodPut {
			status = http.StatusUnprocessableEntity // PUT declares no 404
		}
		fail(w, status, "genreId is not a slug")
		return
	}
	switch r.Method {
	case http.MethodGet:
		if g == nil {
			fail(w, http.StatusNotFound, "no genre "+id)
			return
		}
		answer(w, http.StatusOK, g)
	case http.MethodPut:
		obj, msg := body(r, "application/json")
		if msg == "" {
			msg = check(obj, fields{"name": text(1, 60), "description": text(0, 200), "id": anything}, "name")
		}
		if msg != "" {
			fail(w, http.StatusUnprocessableEntity, msg)
			return
		}
		ng := &genre{ID: id, Name: obj["name"].(string)}
		if d, ok := obj["description"].(string); ok {
			ng.Description = &d
		}
		status := http.StatusOK
		switch {
		case g == nil:
			status = http.StatusCreated
			p.order = append(p.order, id)
			p.genres[id] = ng
		case p.bug != PutKeeps:
			p.genres[id] = ng
		}
		answer(w, status, ng)
	case http.MethodPatch:
		obj, msg := body(r, "application/merge-patch+json")
		if msg == "" {
			msg = check(obj, fields{"name": text(1, 60), "description": nullable(text(0, 200))})
		}
		switch {
		case g == nil:
			fail(w, http.StatusNotFound, "no genre "+id)
		case msg != "":
			fail(w, http.StatusUnprocessableEntity, msg)
		case p.bug == PatchRefused:
			fail(w, http.StatusUnprocessableEntity, "the genre cannot be changed")
		default:
			if n, ok := obj["name"].(string); ok {
				g.Name = n
			}
			if d, has := obj["description"]; has {
				if s, ok := d.(string); ok {
					g.Description = &s
				} else {
					g.Description = nil
				}
			}
			answer(w, http.StatusOK, g)
		}
	case http.MethodDelete:
		if g == nil {
			fail(w, http.StatusNotFound, "no genre "+id)
			return
		}
		if p.bug != DeleteKeeps {
			delete(p.genres, id)
			delete(p.books, id)
			p.order = slices.DeleteFunc(p.order, func(s string) bool { return s == id })
		}
		w.WriteHeader(http.StatusNoContent)
	}
}

// bookList answers /genres/{id}/books.
func (p *Provider) bookList(w http.ResponseWriter, r *http.Request, id string) {
	if p.genres[id] == nil || p.bug == BookRefused && r.Method == http.MethodPost {
		fail(w, http.StatusNotFound, "no genre "+id)
		return
	}
	if r.Method == http.MethodGet {
		answer(w, http.StatusOK, append([]*book{}, p.books[id]...))
		return
	}
	obj, msg := body(r, "application/json")
	if msg == "" {
		msg = check(obj, fields{"title": text(1, 100), "author": text(1, 60), "year": whole(1450, 2100), "id": anything, "genre": anything}, "title", "author")
	}
	if msg != "" {
		fail(w, http.StatusUnprocessableEntity, msg)
		return
	}
	p.next++
	b := &book{ID: p.next, Genre: id, Title: obj["title"].(string), Author: obj["author"].(string)}
	if y, ok := obj["year"].(json.Number); ok {
		n, _ := y.Float64()
		year := int64(n)
		b.Year = &year
	}
	p.books[id] = append(p.books[id], b)
	w.Header().Set("Location", fmt.Sprintf("/genres/%s/books/%d", id, b.ID))
	answer(w, http.StatusCreated, b)
}

// book answers /genres/{id}/books/{bookId}.
func (p *Provider) book(w http.ResponseWriter, r *http.Request, id, bookID string) {
	n, err := strconv.Atoi(bookID)
	i := slices.IndexFunc(p.books[id], func(b *book) bool { return b.ID == n })
	if err != nil || n < 1 || i < 0 {
		fail(w, http.StatusNotFound, "no book "+bookID+" in "+id)
		return
	}
	if r.Method == http.MethodGet {
		answer(w, http.StatusOK, p.books[id][i])
		return
	}
	p.books[id] = slices.Delete(p.books[id], i, i+1)
	w.WriteHeader(http.StatusNoContent)
}

// body reads a JSON object of media type mt; the message says what is
// wrong with it.
func body(r *http.Request, mt string) (map[string]any, string) {
	got, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || got != mt {
		return nil, "the body is not " + mt
	}
	dec := json.NewDecoder(r.Body)
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, "the body is not JSON"
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, "the body is not an object"
	}
	return obj, ""
}

// fields are the properties an object may have, each with its check,
// which says what is wrong with a value ("" for nothing).
type fields map[string]func(any) string

// check says what is wrong with obj: a property it may not have, a
// required one missing, a value its check refuses; "" for nothing.
func check(obj map[string]any, f fields, required ...string) string {
	for _, name := range required {
		if _, ok := obj[name]; !ok {
			return name + " is required"
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		c, ok := f[k]
		if !ok {
			return k + " is not a property"
		}
		if msg := c(obj[k]); msg != "" {
			return k + ": " + msg
		}
	}
	return ""
}

// text checks a string of min to max characters.
func text(min, max int) func(any) string {
	return func(v any) string {
		s, ok := v.(string)
		if n := utf8.RuneCountInString(s); !ok || n < min || n > max {
			return fmt.Sprintf("want a string of %d to %d characters", min, max)
		}
		return ""
	}
}

// whole checks a whole number from min to max.
func whole(min, max float64) func(any) string {
	return func(v any) string {
		n, ok := v.(json.Number)
		f, err := n.Float64()
		if !ok || err != nil || f != float64(int64(f)) || f < min || f > max {
			return fmt.Sprintf("want a whole number from %g to %g", min, max)
		}
		return ""
	}
}

// nullable lets null through c.
func nullable(c func(any) string) func(any) string {
	return func(v any) string {
		if v == nil {
			return ""
		}
		return c(v)
	}
}

// anything takes any value: a readOnly property a client sent, ignored.
func anything(any) string { return "" }

// answer writes v as JSON with status.
func answer(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	json.NewEncoder(&buf).Encode(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// fail writes the document's error body.
func fail(w http.ResponseWriter, status int, msg string) {
	answer(w, status, map[string]string{"message": msg})
}
