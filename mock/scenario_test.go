package mock

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// scenarioServer starts a mock with one scenario parsed from YAML, active
// for every request.
func scenarioServer(t *testing.T, yml string, opts Options) (*Server, *httptest.Server) {
	t.Helper()
	sc, err := scenario.ParseScenario("test.yaml", []byte(yml))
	if err != nil {
		t.Fatalf("ParseScenario: %v", err)
	}
	opts.Scenarios = append(opts.Scenarios, sc)
	opts.Scenario = sc.Name
	return newTestServer(t, opts)
}

func post(body string, kv ...string) call {
	return call{method: "POST", path: "/plants", header: with(bearerJSON, kv...), body: body}
}

// expect sets the expected answer of an call.
func (ex call) expect(status int, body string, kv ...string) call {
	ex.status, ex.wantBody = status, body
	ex.wantHeader = jsonHeader(body, kv...)
	if body == "" {
		ex.wantHeader = with(map[string]string{"Content-Length": "0"}, kv...)
	}
	return ex
}

// TestScenarioRules covers what the request path does with a rule, one
// scenario per case, the exchanges of a case in order on one mock: the
// request's facts reach the match and the templates, and the answer
// keeps or replaces the usual one. The format, matching and templates
// themselves are tested in package scenario.
func TestScenarioRules(t *testing.T) {
	tests := []struct {
		name      string
		yml       string
		exchanges []call
	}{
		{"a rule matches the request's token, headers and body", `
name: s
rules:
  - when: {token: abc, headers: {X-Client: '/^web-/'}, body: {tag: '/^poison/'}}
    respond: {status: 400, body: {error: 3, message: matched}}`, []call{
			post(`{"id":1,"name":"a","tag":"poison ivy"}`, "X-Client", "web-12").expect(400, `{"error":3,"message":"matched"}`),
			post(`{"id":2,"name":"b","tag":"poison ivy"}`, "X-Client", "app-12").expect(200, `{"name":"b","tag":"poison ivy"}`),
		}},
		{"templates read body, headers, token and seq; typed output", `
name: s
rules:
  - respond:
      status: 400
      headers: {X-Echo: '{{ index .headers "X-Trace" }}', Retry-After: '{{ .seq }}'}
      body: {error: '{{ .seq }}', message: '{{ .body.name }} by {{ .token }}'}`, []call{
			post(`{"id":1,"name":"Fern"}`, "X-Trace", "t-1").expect(400, `{"error":1,"message":"Fern by abc"}`, "X-Echo", "t-1", "Retry-After", "1"),
			post(`{"id":1,"name":"Ivy"}`, "X-Trace", "t-2").expect(400, `{"error":2,"message":"Ivy by abc"}`, "X-Echo", "t-2", "Retry-After", "2"),
		}},
		{"omitted body at the success status keeps the stateful answer", `
name: s
rules:
  - respond: {headers: {X-Scripted: "yes"}}`, []call{
			post(`{"id":1,"name":"a"}`).expect(200, `{"name":"a"}`, "X-Scripted", "yes"),
			post(`{"id":1,"name":"a"}`).expect(400, `{"error":40900,"message":"id 1 already exists in /plants"}`, "X-Scripted", "yes"),
		}},
		{"a static body at the success status does not create", `
name: s
rules:
  - times: 1
    respond: {body: {name: Scripted}}`, []call{
			post(`{"id":1,"name":"a"}`).expect(200, `{"name":"Scripted"}`),
			post(`{"id":1,"name":"a"}`).expect(200, `{"name":"a"}`),
		}},
		{"off_contract sends an undeclared status and body", `
name: s
rules:
  - off_contract: true
    respond: {status: 503, body: {oops: true}}`, []call{
			post(`{"id":1,"name":"a"}`).expect(503, `{"oops":true}`),
		}},
		{"a templated body that breaks the contract is a 500 naming the rule", `
name: s
rules:
  - respond: {status: 400, body: {error: '{{ .body.name }}', message: m}}`, []call{
			post(`{"id":1,"name":"a"}`).expect(500, `{"error":50000,"message":"scenario s, rule 1: the rendered answer breaks the contract: body does not match the schema of status 400: error: expected integer, got string"}`),
		}},
		{"validation comes before scripting", `
name: s
rules:
  - respond: {status: 400, body: {error: 10, message: scripted}}`, []call{
			post(`{"id":"x","name":"a"}`).expect(400, `{"error":40004,"message":"request body does not match the schema: id: expected integer, got string"}`),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ts := scenarioServer(t, tt.yml, Options{})
			for i, ex := range tt.exchanges {
				ex.name = fmt.Sprint(i + 1)
				t.Run(ex.name, func(t *testing.T) {
					if ex.status >= 500 || strings.Contains(tt.yml, "off_contract") {
						// an off-contract or failed answer cannot conform; check it exactly
						_, resp, got := send(t, ts, ex)
						if resp.StatusCode != ex.status || string(got) != ex.wantBody || !equalMaps(headerMap(resp.Header), ex.wantHeader) {
							t.Errorf("got %d %v %s\nwant %d %v %s", resp.StatusCode, headerMap(resp.Header), got, ex.status, ex.wantHeader, ex.wantBody)
						}
						return
					}
					check(t, s, ts, ex)
				})
			}
		})
	}
}

// TestScriptFailureIsLogged checks that a templated answer that breaks the
// contract is logged as it is answered.
func TestScriptFailureIsLogged(t *testing.T) {
	var logs syncBuffer
	_, ts := scenarioServer(t, "name: s\nrules:\n  - respond: {status: 400, body: {error: '{{ .body.name }}', message: m}}\n",
		Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	send(t, ts, post(`{"id":1,"name":"a"}`))
	want := `message="scenario s, rule 1: the rendered answer breaks the contract: body does not match the schema of status 400: error: expected integer, got string"`
	if !strings.Contains(logs.String(), want) {
		t.Errorf("log:\n%s\nwant it to contain %s", logs.String(), want)
	}
}

// TestFakeIsDeterministic checks the fake template function under a seed.
func TestFakeIsDeterministic(t *testing.T) {
	yml := `
name: s
rules:
  - respond: {status: 400, body: {error: 1, message: '{{ fake "firstname" }} {{ fake "LastName" }}'}}`
	answer := func(seed int64) string {
		_, ts := scenarioServer(t, yml, Options{Seed: seed})
		_, _, b := send(t, ts, post(`{"id":1,"name":"a"}`))
		return string(b)
	}
	a, b, c := answer(5), answer(5), answer(6)
	if a != b || a == c || !strings.HasPrefix(a, `{"error":1,"message":"`) || strings.Contains(a, "{{") {
		t.Errorf("answers for seeds 5, 5, 6: %s %s %s", a, b, c)
	}
}

// TestDelay checks that a scripted delay is waited before the answer.
func TestDelay(t *testing.T) {
	s, ts := scenarioServer(t, `
name: s
rules:
  - respond: {delay: 300ms}`, Options{})
	start := time.Now()
	check(t, s, ts, post(`{"id":1,"name":"a"}`).expect(200, `{"name":"a"}`))
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Errorf("answered after %v, before the scripted 300ms", d)
	}
}

// rawCreate sends a create on a fresh connection and returns what the
// client reads, for faults that break HTTP.
func rawCreate(t *testing.T, ts *httptest.Server) ([]byte, error) {
	t.Helper()
	return rawCreateAt(t, ts.Listener.Addr().String())
}

// rawCreateAt sends a create to addr over a connection of its own and
// reads until the mock closes it.
func rawCreateAt(t *testing.T, addr string) ([]byte, error) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"id":1,"name":"a"}`
	fmt.Fprintf(conn, "POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	return io.ReadAll(conn)
}

func mustRequest(t *testing.T, ts *httptest.Server) *http.Request {
	t.Helper()
	return jsonRequest(t, ts, `{"id":1,"name":"a"}`)
}

// jsonRequest is a create with a bearer token.
func jsonRequest(t *testing.T, ts *httptest.Server, body string) *http.Request {
	t.Helper()
	req, err := http.NewRequest("POST", ts.URL+"/plants", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer a")
	req.Header.Set("Content-Type", "application/json")
	return req
}

// TestScenarioHeader checks selecting a scenario per request.
func TestScenarioHeader(t *testing.T) {
	s, ts := newTestServer(t, Options{})
	busy := post(`{"id":1,"name":"a"}`, ScenarioHeader, "store-busy")
	_, resp, got := send(t, ts, busy)
	if resp.StatusCode != 400 || !strings.HasPrefix(string(got), `{"error":`) {
		t.Errorf("store-busy: %d %s", resp.StatusCode, got)
	}
	check(t, s, ts, post(`{"id":1,"name":"a"}`).expect(200, `{"name":"a"}`))
	msg := `{"error":40006,"message":"X-Mock-Scenario names no loaded scenario: \"nope\"; known: first-call-fails, first-create-fails, flaky, slow, store-busy, tag-policy"}`
	check(t, s, ts, post(`{"id":2,"name":"b"}`, ScenarioHeader, "nope").expect(400, msg))
	// The mock's own headers are read after the contract's checks: a bad
	// body is reported as such, whatever X-Mock-Scenario or X-Mock-Session say.
	check(t, s, ts, post(`{"id":"x","name":"b"}`, ScenarioHeader, "nope").expect(400,
		`{"error":40004,"message":"request body does not match the schema: id: expected integer, got string"}`))
	check(t, s, ts, post(`{"id":"x","name":"b"}`, SessionHeader, "has space").expect(400,
		`{"error":40004,"message":"request body does not match the schema: id: expected integer, got string"}`))
}

// TestScenarioRejections: New refuses a scenario that does not fit the
// document with a *ScenarioError saying why, and an active name it does
// not load. What each problem says is tested in package scenario.
func TestScenarioRejections(t *testing.T) {
	sc := mustParse(t, "name: s\nrules:\n  - when: {operation: GET /plants}\n")
	_, err := New(Options{Scenarios: []*scenario.Scenario{sc}})
	var se *ScenarioError
	want := `test.yaml:3: rule 1: operation "GET /plants" is not in the document (write it as METHOD /path/{template})`
	if !errors.As(err, &se) || err.Error() != want {
		t.Errorf("New: %T %v\nwant a *ScenarioError: %s", err, err, want)
	}
	_, err = New(Options{Scenario: "nope"})
	if err == nil || err.Error() != `no scenario is named "nope"; known: first-call-fails, first-create-fails, flaky, slow, store-busy, tag-policy` {
		t.Errorf("err = %v", err)
	}
}

func TestScenarioNames(t *testing.T) {
	mine := &scenario.Scenario{Name: "a-mine", Rules: []scenario.Rule{{Respond: scenario.Respond{Status: 200}}}}
	for _, c := range []struct {
		name string
		opts Options
		want []string
	}{
		{"none loaded", Options{NoShippedScenarios: true}, []string{}},
		{"one of its own, sorted", Options{NoShippedScenarios: true, Scenarios: []*scenario.Scenario{mine}}, []string{"a-mine"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := New(c.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			got := s.ScenarioNames()
			if !slices.Equal(got, c.want) {
				t.Errorf("ScenarioNames() = %q, want %q", got, c.want)
			}
			if len(got) > 0 {
				got[0] = "changed"
				if s.ScenarioNames()[0] == "changed" {
					t.Error("ScenarioNames gave the mock's own slice")
				}
			}
		})
	}
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	shipped := scenario.ShippedScenarios()
	if got := s.ScenarioNames(); len(got) != len(shipped) || !slices.IsSorted(got) {
		t.Errorf("with the shipped scenarios: ScenarioNames() = %q, want the %d shipped ones, sorted", got, len(shipped))
	}
}

// TestScenarioParams: the request's path parameters reach when.params.
func TestScenarioParams(t *testing.T) {
	yml := "name: p\nrules:\n  - when: {operation: 'GET /plants/{id}', params: {id: '/^1[0-9]$/'}}\n    respond: {status: 404, body: {error: 1, message: teen}}\n"
	_, ts := newTestServer(t, Options{Spec: []byte(replicaSpec), Scenarios: []*scenario.Scenario{mustParse(t, yml)}, Scenario: "p"})
	do(t, ts, "POST", "/plants", `{"id":7,"name":"a"}`)
	do(t, ts, "POST", "/plants", `{"id":17,"name":"b"}`)
	st, body := do(t, ts, "GET", "/plants/7", "")
	expect(t, "id 7", st, body, 200, `{"id":7,"name":"a"}`)
	st, body = do(t, ts, "GET", "/plants/17", "")
	expect(t, "id 17", st, body, 404, `{"error":1,"message":"teen"}`)
}

func mustParse(t *testing.T, yml string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.ParseScenario("test.yaml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}
