package pipeline

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/event"
	"github.com/plantmock/plantmock/mock/internal/journal"
)

// driftEngine returns an engine serving newSpec, with oldSpec as its
// previous document, over a real connection, and the journal entries it
// makes, as its listeners are told of them.
func driftEngine(t *testing.T, newSpec, oldSpec []byte) (*httptest.Server, func() []journal.Entry) {
	t.Helper()
	e := engineOf(t, newSpec)
	previous, err := Judging(oldSpec)
	if err != nil {
		t.Fatal(err)
	}
	e.Previous = previous
	var mu sync.Mutex // guards entries, written on the handler's goroutine
	var entries []journal.Entry
	e.Listen(Told{Answered: func(a *event.Answered) {
		mu.Lock()
		defer mu.Unlock()
		entries = append(entries, a.E)
	}})
	ts := httptest.NewServer(e)
	t.Cleanup(ts.Close)
	return ts, func() []journal.Entry {
		mu.Lock()
		defer mu.Unlock()
		out := entries
		entries = nil
		return out
	}
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDrift sends requests to a mock of examples/diff/new.yaml whose
// previous document is examples/diff/old.yaml: a request the new one
// refuses and the old one accepts is answered as the new one answers,
// and its journal entry has a drift; one both refuse, or the new one
// accepts, has none, nor one refused for the mock's own headers, which
// no document's contract has.
func TestDrift(t *testing.T) {
	ts, journaled := driftEngine(t, readFile(t, "../../../examples/diff/new.yaml"), readFile(t, "../../../examples/diff/old.yaml"))
	const refused = "accepted by the previous document (Greenhouse 1.0), refused by the served one: "
	for _, tt := range []struct {
		name, method, path, body string
		header                   []string
		status                   int
		answer, drift            string
	}{
		{"a name OLD allows, too long for NEW", "POST", "/plants", `{"name":"Monstera deliciosa Thai"}`, nil,
			422, `{"error":40004,"message":"request body does not match the schema: name: longer than the maximum length 20"}`,
			refused + "request body does not match the schema: name: longer than the maximum length 20"},
		{"a light level NEW dropped", "POST", "/plants", `{"name":"Fern","light":"partial"}`, nil,
			422, `{"error":40004,"message":"request body does not match the schema: light: value is not one of the allowed values"}`,
			refused + "request body does not match the schema: light: value is not one of the allowed values"},
		{"an operation NEW removed", "DELETE", "/plants/p1", "", nil,
			404, `{"error":40400,"message":"no path of the OpenAPI document matches /plants/p1"}`,
			refused + "no path of the OpenAPI document matches /plants/p1"},
		{"a name both refuse", "POST", "/plants", `{"name":"` + strings.Repeat("x", 41) + `"}`, nil,
			422, `{"error":40004,"message":"request body does not match the schema: name: longer than the maximum length 20"}`, ""},
		{"a body both refuse", "POST", "/plants", `{"light":"sun"}`, nil,
			422, `{"error":40004,"message":"request body does not match the schema: name: required property is missing"}`, ""},
		{"a valid plant", "POST", "/plants", `{"name":"Fern","light":"shade"}`, nil,
			201, `{"light":"shade","name":"Fern"}`, ""},
		{"a scenario no document has", "POST", "/plants", `{"name":"Fern","light":"shade"}`, []string{"X-Mock-Scenario", "nope"},
			400, `{"error":40006,"message":"X-Mock-Scenario names no loaded scenario: \"nope\"; known: (none)"}`, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, answer := send(t, ts, tt.method, tt.path, tt.body, tt.header...)
			if status != tt.status || answer != tt.answer {
				t.Errorf("answer %d %s, want %d %s", status, answer, tt.status, tt.answer)
			}
			es := journaled()
			if len(es) != 1 {
				t.Fatalf("%d entries, want 1", len(es))
			}
			if es[0].Drift != tt.drift {
				t.Errorf("drift %q, want %q", es[0].Drift, tt.drift)
			}
		})
	}
}

// TestDriftReadsTheBody: a request the new document refuses before its
// body (no such path) has its body read and judged by the old one, which
// accepts it or not, and kept in the journal either way.
func TestDriftReadsTheBody(t *testing.T) {
	const old = `openapi: 3.1.0
info: {title: Notes, version: '1'}
paths:
  /notes:
    put:
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, required: [text], properties: {text: {type: string}}}
      responses:
        '204': {description: kept}
`
	const now = `openapi: 3.1.0
info: {title: Notes, version: '2'}
paths:
  /memos:
    put:
      responses:
        '204': {description: kept}
`
	ts, journaled := driftEngine(t, []byte(now), []byte(old))
	for _, tt := range []struct{ name, body, drift string }{
		{"OLD accepts the body", `{"text":"water the fern"}`, "accepted by the previous document (Notes 1), refused by the served one: no path of the OpenAPI document matches /notes"},
		{"OLD refuses the body", `{"text":7}`, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, answer := send(t, ts, "PUT", "/notes", tt.body)
			if want := `{"error":40400,"message":"no path of the OpenAPI document matches /notes"}`; status != 404 || answer != want {
				t.Errorf("answer %d %s, want 404 %s", status, answer, want)
			}
			es := journaled()
			if len(es) != 1 {
				t.Fatalf("%d entries, want 1", len(es))
			}
			if es[0].Drift != tt.drift || string(es[0].Body) != tt.body {
				t.Errorf("entry with drift %q and body %s, want %q and %s", es[0].Drift, es[0].Body, tt.drift, tt.body)
			}
		})
	}
}

// send sends a request with a JSON body (none when body is empty) and
// header's names and values, and returns the answer's status and body.
func send(t *testing.T, ts *httptest.Server, method, path, body string, header ...string) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, ts.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(b)
}

// TestDriftSecurity: a request without the credentials the new document
// asks, which the old one did not, is refused as the new one refuses it,
// with a drift.
func TestDriftSecurity(t *testing.T) {
	const old = `openapi: 3.1.0
info: {title: Notes, version: '1'}
paths:
  /notes:
    delete:
      responses:
        '204': {description: gone}
`
	now := strings.Replace(old, "version: '1'", "version: '2'", 1) +
		"      security: [{bearer: []}]\ncomponents:\n  securitySchemes:\n    bearer: {type: http, scheme: bearer}\n"
	ts, journaled := driftEngine(t, []byte(now), []byte(old))
	status, answer := send(t, ts, "DELETE", "/notes", "")
	if want := `{"error":40100,"message":"missing credentials: send \"Authorization: Bearer <token>\""}`; status != 401 || answer != want {
		t.Errorf("answer %d %s, want 401 %s", status, answer, want)
	}
	es := journaled()
	if want := `accepted by the previous document (Notes 1), refused by the served one: missing credentials: send "Authorization: Bearer <token>"`; len(es) != 1 || es[0].Drift != want {
		t.Errorf("entries %+v, want one with drift %q", es, want)
	}
}

// TestExplainDrift: Explain judges a request the new document refuses
// against the previous one as a request served is judged, and says so
// in its Drift; nothing is journaled.
func TestExplainDrift(t *testing.T) {
	e := engineOf(t, readFile(t, "../../../examples/diff/new.yaml"))
	previous, err := Judging(readFile(t, "../../../examples/diff/old.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	e.Previous = previous
	told := 0
	e.Listen(Told{Answered: func(*event.Answered) { told++ }})
	for _, tt := range []struct {
		name, method, path, body string
		status                   int
		drift                    string
	}{
		{"a name OLD allows, too long for NEW", "POST", "/plants", `{"name":"Monstera deliciosa Thai"}`,
			422, "accepted by the previous document (Greenhouse 1.0), refused by the served one: request body does not match the schema: name: longer than the maximum length 20"},
		{"an operation NEW removed", "DELETE", "/plants/p1", "",
			404, "accepted by the previous document (Greenhouse 1.0), refused by the served one: no path of the OpenAPI document matches /plants/p1"},
		{"a name both refuse", "POST", "/plants", `{"name":"` + strings.Repeat("x", 41) + `"}`, 422, ""},
		{"a valid plant", "POST", "/plants", `{"name":"Fern","light":"shade"}`, 201, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, tt.path, strings.NewReader(tt.body))
			if tt.body != "" {
				r.Header.Set("Content-Type", "application/json")
			}
			ex := e.Explain(r)
			if ex.Status != tt.status || ex.Drift != tt.drift {
				t.Errorf("status %d, drift %q\nwant %d, %q", ex.Status, ex.Drift, tt.status, tt.drift)
			}
		})
	}
	if told != 0 {
		t.Errorf("%d answers told of, want none: Explain answers nothing", told)
	}
}
