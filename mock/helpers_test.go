package mock

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// call is one request and the exact answer expected for it.
type call struct {
	name   string
	method string
	path   string
	header map[string]string // request headers; Content-Type is not implied
	body   string

	status     int
	wantHeader map[string]string // every response header but Date
	// matchHeader holds headers whose values vary (a request id): each
	// must match its regular expression, and wantHeader leaves them out.
	matchHeader map[string]string
	wantBody    string
}

// bearer and json are the usual request headers of a valid create.
var bearerJSON = map[string]string{"Authorization": "Bearer abc", "Content-Type": "application/json"}

func with(h map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range h {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			delete(out, kv[i])
			continue
		}
		out[kv[i]] = kv[i+1]
	}
	return out
}

// jsonHeader is the header set of a JSON answer with a body of n bytes.
func jsonHeader(body string, kv ...string) map[string]string {
	return with(map[string]string{"Content-Type": "application/json", "Content-Length": itoa(len(body))}, kv...)
}

// newTestServer starts s on a loopback listener, closed at cleanup.
func newTestServer(t testing.TB, opts Options) (*Server, *httptest.Server) {
	t.Helper()
	s, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

// answerSpec returns a document of the answer package's testdata/, whose
// tests read it too.
func answerSpec(name string) string {
	b, err := os.ReadFile("internal/answer/testdata/" + name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func readSpec(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// send performs an call and returns the answer.
func send(t testing.TB, ts *httptest.Server, ex call) (*http.Request, *http.Response, []byte) {
	t.Helper()
	var body io.Reader
	if ex.body != "" {
		body = strings.NewReader(ex.body)
	}
	req, err := http.NewRequest(ex.method, ts.URL+ex.path, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range ex.header {
		req.Header.Set(k, v)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", ex.method, ex.path, err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return req, resp, got
}

// check performs an call, asserts the exact status, headers and body,
// and that the answer conforms to the document.
func check(t *testing.T, s *Server, ts *httptest.Server, ex call) {
	t.Helper()
	req, resp, got := send(t, ts, ex)
	if resp.StatusCode != ex.status {
		t.Errorf("status = %d, want %d (body %s)", resp.StatusCode, ex.status, got)
	}
	h := headerMap(resp.Header)
	for name, re := range ex.matchHeader {
		if v, ok := h[name]; !ok || !regexp.MustCompile(re).MatchString(v) {
			t.Errorf("header %s = %q, want a match for %s", name, v, re)
		}
		delete(h, name)
	}
	if !equalMaps(h, ex.wantHeader) {
		t.Errorf("headers = %v\nwant      %v", h, ex.wantHeader)
	}
	if string(got) != ex.wantBody {
		t.Errorf("body = %s\nwant   %s", got, ex.wantBody)
	}
	assertConforms(t, s, req, resp, got)
}

// assertConforms checks an answer against the document: with the
// validator's response check where the status is declared, else against
// the operation's error schema (401, 404 and 405 are not declared).
func assertConforms(t testing.TB, s *Server, req *http.Request, resp *http.Response, body []byte) {
	t.Helper()
	doc := documentOf(t, s)
	route, _, rest := doc.Find(req.URL.EscapedPath(), req.Method)
	if rest != "" {
		r2 := *req
		u := *req.URL
		u.Path, u.RawPath = rest, ""
		r2.URL = &u
		req = &r2
	}
	var op *openapi.Operation
	if route != nil {
		if op = route.Operation(req.Method); op == nil {
			op = anyOperation(route)
		}
	}
	if op != nil && op.Method == req.Method && op.Response(resp.StatusCode) != nil {
		r2 := *resp
		r2.Body = io.NopCloser(bytes.NewReader(body))
		if vs := doc.CheckResponse(req, &r2); len(vs) > 0 {
			t.Errorf("answer %d breaks the contract: %v", resp.StatusCode, vs)
		}
		return
	}
	if resp.StatusCode < 400 {
		t.Errorf("success status %d is not declared", resp.StatusCode)
		return
	}
	var m = firstErrorMedia(doc)
	if op != nil {
		m = answer.PrimaryError(op)
	}
	if m == nil || m.Schema == nil {
		return
	}
	if ct := resp.Header.Get("Content-Type"); ct != m.Type {
		t.Errorf("error Content-Type = %q, want %q", ct, m.Type)
	}
	v, err := jsonx.Decode(body)
	if err != nil {
		t.Fatalf("error body is not JSON: %v", err)
	}
	if vs := m.Schema.Validate(v); len(vs) > 0 {
		t.Errorf("error body %s breaks the error schema: %v", body, vs)
	}
}

// anyOperation returns the first operation of route, in the order the
// mock takes one for an answer of the route's (a 405's error shape).
func anyOperation(route *openapi.Route) *openapi.Operation {
	for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "QUERY"} {
		if op := route.Operation(m); op != nil {
			return op
		}
	}
	return nil
}

// documents holds the document each Server serves, as documentOf loaded
// it.
var documents sync.Map // *Server -> *openapi.Document

// documentOf returns the document s serves as GET /__admin/document
// gives it, loaded anew: answers are checked against the document, not
// against the model the mock made of it.
func documentOf(t testing.TB, s *Server) *openapi.Document {
	t.Helper()
	if d, ok := documents.Load(s); ok {
		return d.(*openapi.Document)
	}
	rec := httptest.NewRecorder()
	s.Admin().ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost/__admin/document", nil))
	if rec.Code != 200 {
		t.Fatalf("GET /__admin/document: %d %s", rec.Code, rec.Body)
	}
	d, err := openapi.Load(rec.Body.Bytes())
	if err != nil {
		t.Fatalf("the served document: %v", err)
	}
	documents.Store(s, d)
	return d
}

func headerMap(h http.Header) map[string]string {
	out := map[string]string{}
	for k, v := range h {
		if k == "Date" {
			continue
		}
		out[k] = strings.Join(v, ", ")
	}
	return out
}

func equalMaps(got, want map[string]string) bool {
	if len(got) != len(want) {
		return false
	}
	for k, v := range want {
		if g, ok := got[http.CanonicalHeaderKey(k)]; !ok || g != v {
			return false
		}
	}
	return true
}

// firstErrorMedia is the document-level error media: the first
// operation's main error response.
func firstErrorMedia(doc *openapi.Document) *openapi.Media {
	for _, op := range doc.Operations {
		if m := answer.PrimaryError(op); m != nil {
			return m
		}
	}
	return nil
}

// stored returns how many resources a collection of the default session
// holds.
func stored(s *Server, col string) int { return len(s.Resources(col)) }

// storedDoc returns the resource of the default session under key.
func storedDoc(s *Server, col, key string) ([]byte, bool) {
	doc, ok := s.Resource(col, key)
	return doc, ok
}

func itoa(n int) string { return strconv.Itoa(n) }

// given is a Reload's load function that gives c.
func given(c Content) func() (Content, error) {
	return func() (Content, error) { return c, nil }
}

// example returns a document of the repository's examples/ folder.
func example(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../examples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
