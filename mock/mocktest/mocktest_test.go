package mocktest

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/plantmock/plantmock/mock"
)

// fakeT records what the helper reports, to test the helper itself.
type fakeT struct {
	mu       sync.Mutex // guards errors and fatal
	errors   []string
	fatal    string
	cleanups []func()
}

func (f *fakeT) Helper()           {}
func (f *fakeT) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }
func (f *fakeT) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fatal = fmt.Sprintf(format, args...)
}

// finish runs the cleanups, last first, as a test's end does.
func (f *fakeT) finish() {
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
}

func create(t *testing.T, url, token, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url+"/plants", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestAssertUnknownOperation checks that a Match naming an operation the
// document does not declare fails the test instead of passing quietly.
func TestAssertUnknownOperation(t *testing.T) {
	ft := &fakeT{}
	srv := NewServer(ft)
	if srv.AssertNotCalled(mock.Match{Operation: "POST /plant"}) {
		t.Error("AssertNotCalled passed for an operation the document does not have")
	}
	ft.finish()
	want := `mocktest: operation "POST /plant" is not in the document (write it as METHOD /path/{template}; declared: POST /plants)`
	if ft.fatal != want {
		t.Errorf("fatal = %q\nwant    %q", ft.fatal, want)
	}
	if srv.AssertCalled(mock.Match{Operation: "GET /plants"}) || srv.AssertCount(mock.Match{Body: map[string]any{"name": "/[/"}}, 0) {
		t.Error("an unusable Match passed")
	}
}

func TestAssertCountShowsWhatWasReceived(t *testing.T) {
	ft := &fakeT{}
	srv := NewServer(ft)
	create(t, srv.URL, "a", `{"id":8,"name":"Fern"}`)
	if srv.AssertCount(mock.Match{Operation: "POST /plants", Body: map[string]any{"id": 7}}, 1) {
		t.Error("AssertCount passed without a matching request")
	}
	if !srv.AssertCount(mock.Match{Operation: "POST /plants", Body: map[string]any{"id": 8}}, 1) {
		t.Error("AssertCount failed with a matching request")
	}
	srv.AssertCalled(mock.Match{Status: 400})
	srv.AssertNotCalled(mock.Match{Status: 200})
	ft.finish()
	want := []string{
		"expected 1 request(s) POST /plants with body {\"id\":7}, got 0; received:\n  POST /plants {\"id\":8,\"name\":\"Fern\"} -> 200 {\"name\":\"Fern\"}",
		"expected at least 1 request(s) answered 400, got 0; received:\n  POST /plants {\"id\":8,\"name\":\"Fern\"} -> 200 {\"name\":\"Fern\"}",
		"expected 0 request(s) answered 200, got 1; received:\n  POST /plants {\"id\":8,\"name\":\"Fern\"} -> 200 {\"name\":\"Fern\"}",
	}
	if fmt.Sprint(ft.errors) != fmt.Sprint(want) {
		t.Errorf("reported:\n%q\nwant:\n%q", ft.errors, want)
	}
}

func TestContractFailuresFailTheTest(t *testing.T) {
	ft := &fakeT{}
	srv := NewServer(ft)
	create(t, srv.URL, "a", `{"id":"7","name":"Fern"}`)
	create(t, srv.URL, "a", `{"id":7,"name":"Fern"}`)
	create(t, srv.URL, "a", `{"id":7,"name":"Again"}`) // a duplicate is state, not a contract failure
	if len(ft.errors) != 0 {
		t.Fatalf("reported before the end: %q", ft.errors)
	}
	ft.finish()
	want := "plantmock: the client sent 1 request(s) that break the contract:\n" +
		"  POST /plants {\"id\":\"7\",\"name\":\"Fern\"} -> 400 {\"error\":40004,\"message\":\"request body does not match the schema: id: expected integer, got string\"}\n" +
		"      id: expected integer, got string\n" +
		"(set Options.AllowContractFailures to allow them)"
	if len(ft.errors) != 1 || ft.errors[0] != want {
		t.Errorf("reported:\n%q\nwant:\n%q", ft.errors, want)
	}

	ft = &fakeT{}
	srv = NewServer(ft, Options{AllowContractFailures: true})
	create(t, srv.URL, "a", `{"id":"7","name":"Fern"}`)
	ft.finish()
	if len(ft.errors) != 0 {
		t.Errorf("reported although allowed: %q", ft.errors)
	}
}

func TestBrokenSetupFailsAtOnce(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("name: bad\nrules:\n  - respond: {status: 404}\n"), 0o644)
	empty := filepath.Join(dir, "empty.yaml")
	os.WriteFile(empty, nil, 0o644)
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"missing spec file", Options{SpecFile: filepath.Join(dir, "none.yaml")}, "mocktest: open " + filepath.Join(dir, "none.yaml") + ": no such file or directory"},
		{"empty spec file", Options{SpecFile: empty}, "mocktest: " + empty + ": an empty file, not a document"},
		{"empty file among Specs", Options{Specs: []string{"/a=" + empty}}, "mocktest: " + empty + ": an empty file, not a document"},
		{"scenario off the contract", Options{ScenarioFiles: []string{bad}}, "mocktest: " + bad + ":3: rule 1: status 404 is not declared for POST /plants (declared: 200, 400); set off_contract: true to send it anyway"},
		{"scenario built in Go off the contract", Options{Options: mock.Options{Scenarios: []*mock.Scenario{{Name: "go", Rules: []mock.Rule{{Respond: mock.Respond{Status: 400, Body: map[string]any{"error": "x"}}}}}}}},
			"mocktest: scenario go: rule 1: POST /plants: body does not match the schema of status 400: error: expected integer, got string; message: required property is missing"},
		{"unknown key in an fs.FS", Options{ScenarioFS: fstest.MapFS{"x.yaml": {Data: []byte("name: x\nrulez: []\n")}}}, `mocktest: x.yaml:2: unknown key "rulez" (known: name, description, document, rules)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ft := &fakeT{}
			if srv := NewServer(ft, tt.opts); srv != nil {
				t.Error("NewServer returned a server")
			}
			if ft.fatal != tt.want {
				t.Errorf("fatal = %q\nwant    %q", ft.fatal, tt.want)
			}
		})
	}
}

func TestOptionsLikeFlags(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "cactus.yaml")
	os.WriteFile(f, []byte("name: cactus\nrules:\n  - when: {body: {name: Cactus}}\n    respond: {status: 400, body: {error: 1, message: no cacti}}\n"), 0o644)
	srv := NewServer(t, Options{
		Options:       mock.Options{Tokens: []string{"t1"}, Scenario: "cactus"},
		ScenarioFiles: []string{f},
		ScenarioFS:    fstest.MapFS{"fern.yaml": {Data: []byte("name: fern\nrules:\n  - when: {body: {name: Fern}}\n    respond: {status: 400, body: {error: 2, message: no ferns}}\n")}},
	})
	if code, body := create(t, srv.URL, "t1", `{"id":1,"name":"Cactus"}`); code != 400 || body != `{"error":1,"message":"no cacti"}` {
		t.Errorf("scenario from a file: %d %s", code, body)
	}
	req, _ := http.NewRequest("POST", srv.URL+"/plants", strings.NewReader(`{"id":1,"name":"Fern"}`))
	req.Header.Set("Authorization", "Bearer t1")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(mock.ScenarioHeader, "fern")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || string(b) != `{"error":2,"message":"no ferns"}` {
		t.Errorf("scenario from an fs.FS: %d %s", resp.StatusCode, b)
	}
	spec := NewServer(t, Options{SpecFile: "../../examples/tasks.yaml"})
	r2, err := http.Get(spec.URL + "/health")
	if err != nil {
		t.Fatal(err)
	}
	r2.Body.Close()
	if r2.StatusCode != 200 {
		t.Errorf("SpecFile: GET /health = %d", r2.StatusCode)
	}
}

func TestStoreAndReset(t *testing.T) {
	srv := NewServer(t)
	create(t, srv.URL, "a", `{"id":1,"name":"Fern","tag":"green"}`)
	create(t, srv.URL, "a", `{"id":2,"name":"Ivy"}`)
	type plant struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
		Tag  string `json:"tag"`
	}
	var all []plant
	srv.DecodeResources("/plants", &all)
	if fmt.Sprint(all) != "[{1 Fern green} {2 Ivy }]" {
		t.Errorf("DecodeResources = %v", all)
	}
	var one plant
	if !srv.Resource("/plants", "2", &one) || one.Name != "Ivy" {
		t.Errorf("Resource = %v", one)
	}
	if srv.Resource("/plants", "3", &one) {
		t.Error("Resource found a plant that was never created")
	}
	srv.Reset()
	if n := len(srv.Resources("/plants")); n != 0 || len(srv.Requests()) != 0 {
		t.Errorf("after Reset: %d plants, %d requests", n, len(srv.Requests()))
	}
}

// TestParallelServers runs mocks side by side: none sees another's plants.
func TestParallelServers(t *testing.T) {
	for i := 0; i < 4; i++ {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			srv := NewServer(t)
			for j := 0; j < 20; j++ {
				if code, body := create(t, srv.URL, "a", fmt.Sprintf(`{"id":%d,"name":"p%d"}`, j, i)); code != 200 {
					t.Fatalf("create %d: %d %s", j, code, body)
				}
			}
			var all []map[string]any
			srv.DecodeResources("/plants", &all)
			if len(all) != 20 || all[0]["name"] != fmt.Sprintf("p%d", i) {
				t.Errorf("server %d holds %d plants, first %v", i, len(all), all[0])
			}
			srv.AssertCount(mock.Match{Operation: "POST /plants", Status: 200}, 20)
		})
	}
}

// TestProxy: in front of a real service, the helper reports the
// service's answers that break the document, and the client's requests
// that do, each on its side.
func TestProxy(t *testing.T) {
	real := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		b, _ := io.ReadAll(r.Body)
		if strings.Contains(string(b), "Broken") {
			io.WriteString(w, `{"tag":7}`)
			return
		}
		io.WriteString(w, `{"name":"Fern"}`)
	}))
	defer real.Close()

	ft := &fakeT{}
	srv := NewProxy(ft, real.URL)
	create(t, srv.URL, "a", `{"id":7,"name":"Fern"}`)
	if !srv.AssertNoAnswerViolations() || len(ft.errors) != 0 {
		t.Fatalf("a conforming service reported: %q", ft.errors)
	}
	create(t, srv.URL, "a", `{"id":8,"name":"Broken"}`)
	create(t, srv.URL, "a", `{"id":"9","name":"Fern"}`)
	if srv.AssertNoAnswerViolations() {
		t.Errorf("AssertNoAnswerViolations passed on a broken answer")
	}
	ft.finish()
	want := []string{
		"plantmock: the service answered 1 exchange(s) against the contract:\n" +
			"  POST /plants {\"id\":8,\"name\":\"Broken\"} -> 200 {\"tag\":7}\n" +
			"      response name: required property is missing\n" +
			"      response tag: expected string, got number",
		"plantmock: the client sent 1 request(s) that break the contract:\n" +
			"  POST /plants {\"id\":\"9\",\"name\":\"Fern\"} -> 200 {\"name\":\"Fern\"}\n" +
			"      request id: expected integer, got string\n" +
			"(set Options.AllowContractFailures to allow them)",
	}
	if fmt.Sprint(ft.errors) != fmt.Sprint(want) {
		t.Errorf("reported:\n%q\nwant:\n%q", ft.errors, want)
	}
}

// TestRequestsSeeCredentials: the test's own journal keeps the
// credentials the client sent, for assertions, unless the test asks for
// them masked.
func TestRequestsSeeCredentials(t *testing.T) {
	for _, c := range []struct{ creds, want string }{
		{"", "Bearer abcdefghijwxyz"},
		{mock.CredentialsClear, "Bearer abcdefghijwxyz"},
		{mock.CredentialsMasked, "Bearer ****wxyz"},
	} {
		t.Run("creds="+c.creds, func(t *testing.T) {
			srv := NewServer(t, Options{Options: mock.Options{Journal: mock.JournalOptions{Credentials: c.creds}}})
			req, _ := http.NewRequest("POST", srv.URL+"/plants", strings.NewReader(`{"id":1,"name":"Fern"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer abcdefghijwxyz")
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			es := srv.Requests()
			if len(es) != 1 || resp.StatusCode != 200 {
				t.Fatalf("status %d, journal %v", resp.StatusCode, es)
			}
			if got := es[0].Header.Get("Authorization"); got != c.want {
				t.Errorf("Authorization %q, want %q", got, c.want)
			}
		})
	}
}

// TestSeveralDocuments: Specs serves documents side by side, assertions
// name a document, and what was received names each request's.
func TestSeveralDocuments(t *testing.T) {
	ft := &fakeT{}
	srv := NewServer(ft, Options{Specs: []string{"/tasks=../../examples/tasks.yaml", "/hooks=../../examples/webhooks.yaml"}})
	if srv == nil {
		t.Fatalf("NewServer: %s", ft.fatal)
	}
	defer ft.finish()
	req, _ := http.NewRequest("POST", srv.URL+"/tasks/notes", strings.NewReader(`{"text":"water"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-Key", "k")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 201 {
		t.Fatalf("POST /tasks/notes: %d", resp.StatusCode)
	}
	if !srv.AssertCalled(mock.Match{Document: "tasks", Operation: "POST /notes"}) {
		t.Errorf("AssertCalled failed: %q", ft.errors)
	}
	if srv.AssertCalled(mock.Match{Document: "hooks", Operation: "POST /plants"}) {
		t.Error("AssertCalled passed for a document not called")
	}
	want := "expected at least 1 request(s) POST /plants of document hooks, got 0; received:\n  tasks: POST /tasks/notes {\"text\":\"water\"} -> 201 {\"noteId\":1,\"text\":\"water\"}"
	if len(ft.errors) != 1 || ft.errors[0] != want {
		t.Errorf("errors %q\nwant %q", ft.errors, want)
	}
	ft2 := &fakeT{}
	if NewServer(ft2, Options{Specs: []string{"/tasks="}}) != nil || ft2.fatal != `mocktest: Specs: "/tasks=" names no file after /tasks=` {
		t.Errorf("fatal = %q", ft2.fatal)
	}
}
