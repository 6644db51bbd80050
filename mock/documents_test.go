package mock_test

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/plantmock/plantmock"
	"github.com/plantmock/plantmock/mock"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// threeDocuments are the Plant Store at /, a tasks API whose server
// assigns identifiers at /tasks, and a document with webhooks at /hooks.
func threeDocuments(t *testing.T) []mock.Document {
	t.Helper()
	read := func(name string) []byte {
		b, err := os.ReadFile("../examples/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	return []mock.Document{
		{Spec: []byte(plantmock.OpenAPI)},
		{Spec: read("tasks.yaml"), Base: "/tasks"},
		{Spec: read("webhooks.yaml"), Base: "/hooks"},
	}
}

// TestDocumentsConformTogether runs the conformance checks against each
// of three documents alone, then against all three mounted side by side
// in one mock, each at its base path.
func TestDocumentsConformTogether(t *testing.T) {
	docs := threeDocuments(t)
	for _, d := range docs {
		doc, err := openapi.Load(d.Spec)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(doc.Title+" alone", func(t *testing.T) { conform(t, d.Spec) })
	}
	srv, err := mock.New(mock.Options{Documents: docs, Seed: 1})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	for _, d := range docs {
		doc, err := openapi.Load(d.Spec)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(doc.Title+" mounted at "+d.Base, func(t *testing.T) { conformAt(t, doc, ts.URL+d.Base, ts.Client()) })
	}
}

// TestDocumentsOverlapRefused: documents that could be given the same
// request are refused at start, naming both and a path.
func TestDocumentsOverlapRefused(t *testing.T) {
	docs := threeDocuments(t)
	for _, c := range []struct {
		name string
		docs []mock.Document
		want string
	}{
		{"one document twice at its server's /", []mock.Document{{Spec: docs[0].Spec, Source: "a.yaml", Name: "a"}, {Spec: docs[0].Spec, Source: "b.yaml", Name: "b"}},
			"documents a (a.yaml at /) and b (b.yaml at /) could both be given /plants: both declare /plants; mount them at base paths that do not overlap (--spec /name=file)"},
		{"a path under another's base", []mock.Document{{Spec: docs[0].Spec}, {Spec: docs[1].Spec, Base: "/plants"}},
			"documents OpenAPI Plant Store (at /) and plants (at /plants) could both be given /plants: OpenAPI Plant Store declares /plants, which the longer base path of plants takes; mount them at base paths that do not overlap (--spec /name=file)"},
		{"one name twice", []mock.Document{{Spec: docs[1].Spec, Base: "/a", Name: "x"}, {Spec: docs[2].Spec, Base: "/b", Name: "x"}},
			`documents x (at /a) and x (at /b) are both named "x"; name each with --spec NAME:/b=FILE`},
		{"one name at one base", []mock.Document{{Spec: docs[1].Spec, Base: "/sms", Source: "bulk.json"}, {Spec: docs[2].Spec, Base: "/sms", Source: "works.json"}},
			`documents sms (bulk.json at /sms) and sms (works.json at /sms) are both named "sms"; name each with --spec NAME:/sms=FILE`},
		{"a file that is no document", []mock.Document{{Spec: docs[1].Spec, Base: "/a"}, {Spec: []byte("{}"), Base: "/b", Source: "empty.json"}},
			`empty.json: not an OpenAPI document: no openapi field`},
		{"a base under the admin API", []mock.Document{{Spec: docs[1].Spec, Base: "/__admin/tasks"}, {Spec: docs[2].Spec, Base: "/b"}},
			"path /__admin/tasks/tasks is under /__admin/, which plantmock keeps for its admin API"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := mock.New(mock.Options{Documents: c.docs})
			var se *mock.SpecError
			if !errors.As(err, &se) || !strings.HasSuffix(err.Error(), c.want) {
				t.Fatalf("New error = %v\nwant a *SpecError ending %q", err, c.want)
			}
		})
	}
}

// TestDocumentsOptionsRefused: Documents beside Spec, or with a proxy,
// are refused with the option named.
func TestDocumentsOptionsRefused(t *testing.T) {
	docs := threeDocuments(t)
	for _, c := range []struct {
		name string
		opts mock.Options
		want string
	}{
		{"with Spec", mock.Options{Spec: docs[0].Spec, Documents: docs[1:]}, "spec: give Spec or Documents, not both"},
		{"with a proxy", mock.Options{Documents: docs[1:], Proxy: mock.ProxyOptions{URL: "http://127.0.0.1:9"}}, "proxy: a mock of Documents proxies none: serve the document --proxy checks alone, as Spec"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := mock.New(c.opts)
			var oe *mock.OptionError
			if !errors.As(err, &oe) || !strings.HasSuffix(err.Error(), c.want) {
				t.Fatalf("New error = %v\nwant an *OptionError ending %q", err, c.want)
			}
		})
	}
}

// TestDocumentsKeepTheirOwn: each document has its own resources and
// identifiers, the journal names the document of each exchange, a
// Location names the mounted path, and a path under no base path is
// answered 404.
func TestDocumentsKeepTheirOwn(t *testing.T) {
	docs := threeDocuments(t)
	docs[0].Base = "/store"
	srv, err := mock.New(mock.Options{Documents: docs, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	do := func(method, path, body string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer t")
		req.Header.Set("X-API-Key", "k")
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	resp, body := do("POST", "/store/plants", `{"id":1,"name":"Monstera"}`)
	if resp.StatusCode != 200 || body != `{"name":"Monstera"}` {
		t.Fatalf("store create: %d %s", resp.StatusCode, body)
	}
	resp, body = do("POST", "/hooks/plants", `{"id":1,"name":"Fern"}`)
	if resp.StatusCode != 200 || body != `{"name":"Fern"}` {
		t.Fatalf("hooks create: %d %s", resp.StatusCode, body)
	}
	if got := srv.Resources("/store/plants"); len(got) != 1 || !strings.Contains(string(got[0]), `"Monstera"`) {
		t.Errorf("the Plant Store's plants: %s", got)
	}
	if got := srv.Resources("/hooks/plants"); len(got) != 1 || !strings.Contains(string(got[0]), `"Fern"`) {
		t.Errorf("the webhooks document's plants: %s", got)
	}
	resp, body = do("POST", "/tasks/notes", `{"text":"water the fern"}`)
	if resp.StatusCode != 201 || body != `{"noteId":1,"text":"water the fern"}` {
		t.Errorf("tasks create: %d %s; want 201 with noteId 1", resp.StatusCode, body)
	}
	if resp, body = do("GET", "/tasks/notes/1", ""); resp.StatusCode != 200 || body != `{"noteId":1,"text":"water the fern"}` {
		t.Errorf("tasks read: %d %s", resp.StatusCode, body)
	}
	resp, body = do("GET", "/plants", "")
	want := `{"error":40400,"message":"no document is mounted at /plants; mounted at: /store, /tasks, /hooks"}`
	if resp.StatusCode != 404 || body != want {
		t.Errorf("unmounted: %d %s\nwant 404 %s", resp.StatusCode, body, want)
	}
	var docsOf []string
	for _, e := range srv.Journal() {
		docsOf = append(docsOf, e.Method+" "+e.Path+" "+e.Document)
	}
	wantDocs := []string{"POST /store/plants store", "POST /hooks/plants hooks", "POST /tasks/notes tasks", "GET /tasks/notes/1 tasks", "GET /plants "}
	if strings.Join(docsOf, "; ") != strings.Join(wantDocs, "; ") {
		t.Errorf("journal: %q\nwant %q", docsOf, wantDocs)
	}
	n, err := srv.Find(mock.Match{Document: "tasks"})
	if err != nil || len(n) != 2 {
		t.Errorf("Find(document tasks) = %d entries, %v; want 2", len(n), err)
	}
	if _, err := srv.Find(mock.Match{Document: "billing"}); err == nil || err.Error() != `document "billing" is not served (documents: store, tasks, hooks)` {
		t.Errorf("Find(document billing) error = %v", err)
	}
	var e struct{ Document string }
	if err := json.Unmarshal(mustJSON(t, srv.Journal()[0]), &e); err != nil || e.Document != "store" {
		t.Errorf("the entry's JSON names document %q (%v), want store", e.Document, err)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDocumentsLocation: the Location of a create names the item at the
// path the client sees, base path included.
func TestDocumentsLocation(t *testing.T) {
	const billing = `openapi: 3.1.0
info: {title: Billing, version: '1'}
servers: [{url: 'https://example.com/billing/v1'}]
paths:
  /invoices:
    post:
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/Invoice'}}}
      responses:
        '201':
          description: made
          headers: {Location: {required: true, schema: {type: string}}}
          content: {application/json: {schema: {$ref: '#/components/schemas/Invoice'}}}
  /invoices/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200':
          description: the invoice
          content: {application/json: {schema: {$ref: '#/components/schemas/Invoice'}}}
        '404': {description: none}
components:
  schemas:
    Invoice:
      type: object
      required: [id, total]
      properties:
        id: {type: integer, readOnly: true}
        total: {type: integer}
`
	srv, err := mock.New(mock.Options{Documents: []mock.Document{{Spec: []byte(plantmock.OpenAPI)}, {Spec: []byte(billing)}}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	resp, err := ts.Client().Post(ts.URL+"/billing/v1/invoices", "application/json", strings.NewReader(`{"total":12}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 201 || resp.Header.Get("Location") != "/billing/v1/invoices/1" || string(b) != `{"id":1,"total":12}` {
		t.Fatalf("create: %d Location %q %s; want 201 at /billing/v1/invoices/1", resp.StatusCode, resp.Header.Get("Location"), b)
	}
	resp, err = ts.Client().Get(ts.URL + resp.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != `{"id":1,"total":12}` {
		t.Errorf("read at the Location: %d %s", resp.StatusCode, b)
	}
	if e := srv.Journal()[0]; e.Document != "billing/v1" {
		t.Errorf("the document is named %q, want billing/v1 (its base path, from its first server URL)", e.Document)
	}
}

// TestDocumentsScenarios: a scenario is for the document it names, or
// the one that declares its operations; one for no document, or for
// operations two documents declare, is refused; an active scenario
// scripts the document that has it, and X-Mock-Session spans documents.
func TestDocumentsScenarios(t *testing.T) {
	docs := threeDocuments(t)
	parse := func(src string) *mock.Scenario {
		t.Helper()
		sc, err := mock.ParseScenario("test.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	notesDown := parse("name: notes-down\nrules:\n  - when: {operation: GET /notes}\n    respond: {status: 503}\n    off_contract: true\n")
	hooksDown := parse("name: hooks-down\ndocument: hooks\nrules:\n  - when: {operation: POST /plants}\n    respond: {status: 400}\n")
	for _, c := range []struct {
		name string
		sc   *mock.Scenario
		want string
	}{
		{"operations of two documents", parse("name: both\nrules:\n  - when: {operation: POST /plants}\n    respond: {status: 400}\n"),
			`scenario "both": its operations are declared by more than one document (OpenAPI Plant Store, hooks); say which it is for with document:`},
		{"no document's operations", parse("name: none\nrules:\n  - when: {operation: GET /nothing}\n    respond: {status: 400}\n"),
			`scenario "none": no document served declares all its operations; say which it is for with document: (one of OpenAPI Plant Store, tasks, hooks)`},
		{"a document not served", parse("name: billing\ndocument: billing\nrules:\n  - respond: {status: 400}\n"),
			`scenario "billing": document "billing" is none of the documents served (OpenAPI Plant Store, tasks, hooks)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := mock.New(mock.Options{Documents: docs, Scenarios: []*mock.Scenario{c.sc}, NoShippedScenarios: true})
			var se *mock.ScenarioError
			if !errors.As(err, &se) || !strings.HasSuffix(err.Error(), c.want) {
				t.Fatalf("New error = %v\nwant a *ScenarioError ending %q", err, c.want)
			}
		})
	}
	srv, err := mock.New(mock.Options{Documents: docs, Scenarios: []*mock.Scenario{notesDown, hooksDown}, Scenario: "notes-down", NoShippedScenarios: true})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	status := func(method, path, session, scenario string) int {
		t.Helper()
		body := `{"id":7,"name":"Fern"}`
		if strings.HasPrefix(path, "/tasks/") {
			body = `{"text":"water"}`
		}
		var r io.Reader
		if method == "POST" {
			r = strings.NewReader(body)
		}
		req, _ := http.NewRequest(method, ts.URL+path, r)
		if r != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		req.Header.Set("Authorization", "Bearer t")
		req.Header.Set("X-API-Key", "k")
		if session != "" {
			req.Header.Set("X-Mock-Session", session)
		}
		if scenario != "" {
			req.Header.Set("X-Mock-Scenario", scenario)
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, c := range []struct {
		method, path, session, scenario string
		want                            int
	}{
		{"GET", "/tasks/notes", "", "", 503},              // notes-down, active from the start
		{"POST", "/hooks/plants", "", "", 200},            // hooks-down is not active
		{"POST", "/hooks/plants", "", "hooks-down", 400},  // selected by the header
		{"POST", "/plants", "", "", 200},                  // the Plant Store has no scenario of that name
		{"POST", "/tasks/notes", "a", "", 201},            // a session of its own
		{"GET", "/tasks/notes/1", "a", "", 200},           // which keeps what it made
		{"GET", "/tasks/notes/1", "", "", 404},            // apart from the default session
		{"GET", "/tasks/notes", "b", "", 503},             // a new session starts with the active scenario
		{"POST", "/hooks/plants", "a", "hooks-down", 400}, // and spans the documents
	} {
		if got := status(c.method, c.path, c.session, c.scenario); got != c.want {
			t.Errorf("%s %s (session %q, scenario %q): %d, want %d", c.method, c.path, c.session, c.scenario, got, c.want)
		}
	}
}

// TestDocumentsReloadTheChanged: a reload reads again only the documents
// that changed, and each keeps serving with its state.
func TestDocumentsReloadTheChanged(t *testing.T) {
	docs := threeDocuments(t)
	srv, err := mock.New(mock.Options{Documents: docs})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	req, _ := http.NewRequest("POST", ts.URL+"/tasks/notes", strings.NewReader(`{"text":"water"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-Key", "k")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	changed := append([]mock.Document(nil), docs...)
	changed[2].Spec = []byte(strings.Replace(string(docs[2].Spec), "version: 1.0.0", "version: 1.0.1", 1))
	st, err := srv.Reload(func() (mock.Content, error) { return mock.Content{Documents: changed}, nil })
	if err != nil || strings.Join(st.Read, ",") != "hooks" {
		t.Fatalf("Reload = %+v, %v; want the hooks document read again, alone", st, err)
	}
	if got := srv.Title(); got != "OpenAPI Plant Store 1.0.0, Task Board 2.1.0, Plants with webhooks 1.0.1" {
		t.Errorf("Title after the reload = %q", got)
	}
	if got := srv.Resources("/tasks/notes"); len(got) != 1 {
		t.Errorf("the tasks document's notes after the reload: %s", got)
	}
	var seen int
	for _, o := range srv.Contract().Operations {
		if o.Document == "tasks" && o.Operation == "POST /notes" {
			seen = o.Exchanges
		}
	}
	if seen != 1 {
		t.Errorf("the contract report's count of POST /notes after the reload: %d, want 1", seen)
	}
	if st, err = srv.Reload(func() (mock.Content, error) { return mock.Content{Documents: changed}, nil }); err != nil || st.Read != nil {
		t.Errorf("a reload of nothing changed read %q (%v), want none", st.Read, err)
	}
}

// TestDocumentsGenerateApart: a document's generated values do not
// depend on another document's requests, and the same seed gives the
// same values, whether the document is served alone or mounted.
func TestDocumentsGenerateApart(t *testing.T) {
	const gen = `openapi: 3.1.0
info: {title: Gen, version: '1'}
paths:
  /word:
    get:
      responses:
        '200':
          description: a made-up word
          content: {application/json: {schema: {type: object, required: [word], properties: {word: {type: string, minLength: 8}}}}}
`
	docs := []mock.Document{{Spec: []byte(gen), Base: "/a"}, {Spec: []byte(gen), Base: "/b"}}
	get := func(ts *httptest.Server, path string) string {
		t.Helper()
		resp, err := ts.Client().Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
		}
		return string(b)
	}
	serve := func() *httptest.Server {
		srv, err := mock.New(mock.Options{Documents: docs, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(srv)
		t.Cleanup(ts.Close)
		return ts
	}
	one, two := serve(), serve()
	get(one, "/b/word")
	get(one, "/b/word")
	first, second := get(one, "/a/word"), get(two, "/a/word")
	if first != second {
		t.Errorf("document a's first value: %s after two of b's, %s alone; want the same", first, second)
	}
	alone, err := mock.New(mock.Options{Spec: []byte(gen), Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(alone)
	defer ts.Close()
	if a := get(ts, "/word"); a != first {
		t.Errorf("the document alone first gives %s, mounted at /a %s; want the same", a, first)
	}
}

// TestDocumentsPreflightAndSubscribe: a CORS preflight names the methods
// of the path in the document it goes to, and Subscribe takes a webhook
// of any document.
func TestDocumentsPreflightAndSubscribe(t *testing.T) {
	docs := threeDocuments(t)
	srv, err := mock.New(mock.Options{Documents: docs[1:], CORS: true})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	req, _ := http.NewRequest("OPTIONS", ts.URL+"/tasks/notes", nil)
	req.Header.Set("Origin", "http://app.test")
	req.Header.Set("Access-Control-Request-Method", "POST")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Access-Control-Allow-Methods"); got != "GET, POST" {
		t.Errorf("preflight of /tasks/notes allows %q, want the path's GET, POST", got)
	}
	if err := srv.Subscribe("/plant/webhook", mock.Subscriber{URL: "http://127.0.0.1:9/in"}); err != nil {
		t.Errorf("Subscribe to the second document's webhook: %v", err)
	}
	if err := srv.Subscribe("/nope", mock.Subscriber{}); err == nil || err.Error() != `webhook "/nope" is not declared by the document (declared: none)` {
		t.Errorf("Subscribe to no webhook: %v", err)
	}
}

// TestDocumentsJournalFullPath: the journal and the request log give
// the path the client asked for, base path included, not the path
// within the document.
func TestDocumentsJournalFullPath(t *testing.T) {
	docs := threeDocuments(t)
	var logs strings.Builder
	var mu sync.Mutex
	steady := func(_ []string, a slog.Attr) slog.Attr {
		switch a.Key {
		case slog.TimeKey:
			return slog.Attr{}
		case "duration":
			return slog.Int("duration", 1)
		}
		return a
	}
	logger := slog.New(slog.NewTextHandler(lockedWriter{&mu, &logs}, &slog.HandlerOptions{ReplaceAttr: steady}))
	srv, err := mock.New(mock.Options{Documents: docs[1:], LogRequests: true, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	req, _ := http.NewRequest("GET", ts.URL+"/tasks/notes", nil)
	req.Header.Set("X-API-Key", "k")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "[]" {
		t.Fatalf("GET /tasks/notes: %d %s", resp.StatusCode, body)
	}
	if j := srv.Journal(); len(j) != 1 || j[0].Path != "/tasks/notes" {
		t.Errorf("journal: %+v; want one entry for /tasks/notes", j)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := "level=INFO msg=request method=GET path=/tasks/notes status=200 duration=1\n"; logs.String() != want {
		t.Errorf("log:\n%s\nwant:\n%s", logs.String(), want)
	}
}

// lockedWriter writes to w under mu.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestDocumentsShareABase: two documents of one provider mounted at one
// base path with disjoint paths (as Task Board's and the webhooks
// document's) each answer their own paths, under the names given.
func TestDocumentsShareABase(t *testing.T) {
	docs := threeDocuments(t)
	srv, err := mock.New(mock.Options{Documents: []mock.Document{
		{Spec: docs[1].Spec, Base: "/api", Name: "tasks"},
		{Spec: docs[2].Spec, Base: "/api", Name: "plants"},
	}})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	for _, c := range []struct{ method, path, body, want string }{
		{"POST", "/api/notes", `{"text":"water"}`, `201 {"noteId":1,"text":"water"}`},
		{"POST", "/api/plants", `{"id":1,"name":"Fern"}`, `200 {"name":"Fern"}`},
		{"GET", "/api/notes/1", "", `200 {"noteId":1,"text":"water"}`},
		{"GET", "/api/nothing", "", `404 {"code":40400,"title":"Not Found","detail":"no path of the OpenAPI document matches /nothing"}`},
		{"GET", "/other", "", `404 {"code":40400,"title":"Not Found","detail":"no document is mounted at /other; mounted at: /api"}`},
	} {
		req, _ := http.NewRequest(c.method, ts.URL+c.path, strings.NewReader(c.body))
		req.Header.Set("X-API-Key", "k")
		req.Header.Set("Authorization", "Bearer t")
		if c.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if got := resp.Status[:3] + " " + string(b); got != c.want {
			t.Errorf("%s %s: %s\nwant %s", c.method, c.path, got, c.want)
		}
	}
	var got []string
	for _, e := range srv.Journal() {
		got = append(got, e.Path+" "+e.Document)
	}
	if want := "/api/notes tasks; /api/plants plants; /api/notes/1 tasks; /api/nothing tasks; /other "; strings.Join(got, "; ") != want {
		t.Errorf("journal: %s\nwant %s", strings.Join(got, "; "), want)
	}
}
