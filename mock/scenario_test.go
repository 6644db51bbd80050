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
	"sync"
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

// TestScenarioRules covers the keys of the format, one scenario per case;
// the exchanges of a case run in order on one mock.
func TestScenarioRules(t *testing.T) {
	tests := []struct {
		name      string
		yml       string
		exchanges []call
	}{
		{"times limits a rule, then the usual answer", `
name: s
rules:
  - when: {operation: POST /plants}
    times: 1
    respond: {status: 400, body: {error: 1, message: refused}}`, []call{
			post(`{"id":1,"name":"a"}`).expect(400, `{"error":1,"message":"refused"}`),
			post(`{"id":1,"name":"a"}`).expect(200, `{"name":"a"}`),
		}},
		{"every answers every n-th match", `
name: s
rules:
  - every: 2
    respond: {status: 400, body: {error: 2, message: second}}`, []call{
			post(`{"id":1,"name":"a"}`).expect(200, `{"name":"a"}`),
			post(`{"id":2,"name":"b"}`).expect(400, `{"error":2,"message":"second"}`),
			post(`{"id":3,"name":"c"}`).expect(200, `{"name":"c"}`),
			post(`{"id":4,"name":"d"}`).expect(400, `{"error":2,"message":"second"}`),
		}},
		{"headers match exactly or by regex", `
name: s
rules:
  - when: {headers: {X-Request-Id: abc, x-client: '/^web-[0-9]+$/'}}
    respond: {status: 400, body: {error: 3, message: matched}}`, []call{
			post(`{"id":1,"name":"a"}`, "X-Request-Id", "abc", "X-Client", "web-12").expect(400, `{"error":3,"message":"matched"}`),
			post(`{"id":2,"name":"b"}`, "X-Request-Id", "abc", "X-Client", "app-12").expect(200, `{"name":"b"}`),
			post(`{"id":3,"name":"c"}`, "X-Client", "web-1").expect(200, `{"name":"c"}`),
		}},
		{"token matches the bearer token", `
name: s
rules:
  - when: {token: expired-token}
    respond: {status: 400, body: {error: 4, message: expired}}
  - when: {token: '/^admin-/'}
    respond: {status: 400, body: {error: 5, message: admin}}`, []call{
			post(`{"id":1,"name":"a"}`, "Authorization", "Bearer expired-token").expect(400, `{"error":4,"message":"expired"}`),
			post(`{"id":1,"name":"a"}`, "Authorization", "bearer admin-7").expect(400, `{"error":5,"message":"admin"}`),
			post(`{"id":1,"name":"a"}`, "Authorization", "Bearer fresh").expect(200, `{"name":"a"}`),
		}},
		{"body is a JSON subset with regexes", `
name: s
rules:
  - when: {body: {tag: '/^poison/', id: 7}}
    respond: {status: 400, body: {error: 6, message: subset}}
  - when: {body: {id: '/^9+$/'}}
    respond: {status: 400, body: {error: 7, message: regex on a number}}`, []call{
			post(`{"id":7,"name":"a","tag":"poison ivy"}`).expect(400, `{"error":6,"message":"subset"}`),
			post(`{"id":7,"name":"a","tag":"ivy"}`).expect(200, `{"name":"a","tag":"ivy"}`),
			post(`{"id":8,"name":"a","tag":"poison"}`).expect(200, `{"name":"a","tag":"poison"}`),
			post(`{"id":999,"name":"a"}`).expect(400, `{"error":7,"message":"regex on a number"}`),
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
		{"typed output only for a single action", `
name: s
rules:
  - off_contract: true
    respond:
      body: {ok: '{{ eq .body.name "a" }}', n: '{{ .seq }}', nothing: '{{ "null" }}', text: 'x{{ .seq }}', quoted: '{{ printf "%q" .body.name }}'}`, []call{
			post(`{"id":1,"name":"a"}`).expect(200, `{"n":1,"nothing":null,"ok":true,"quoted":"\"a\"","text":"x1"}`),
			post(`{"id":1,"name":"b"}`).expect(200, `{"n":2,"nothing":null,"ok":false,"quoted":"\"b\"","text":"x2"}`),
		}},
		{"arrays in a body pattern match element by element", `
name: s
rules:
  - when: {body: {list: [1, '/^a/']}}
    respond: {status: 400, body: {error: 11, message: list}}`, []call{
			post(`{"id":1,"name":"a","list":[1,"abc"]}`).expect(400, `{"error":11,"message":"list"}`),
			post(`{"id":1,"name":"a","list":[1,"abc",3]}`).expect(200, `{"name":"a"}`),
			post(`{"id":2,"name":"a","list":[2,"abc"]}`).expect(200, `{"name":"a"}`),
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
		{"the first matching rule answers", `
name: s
rules:
  - when: {operation: POST /plants, body: {name: first}}
    respond: {status: 400, body: {error: 8, message: first rule}}
  - when: {operation: POST /plants}
    respond: {status: 400, body: {error: 9, message: second rule}}`, []call{
			post(`{"id":1,"name":"first"}`).expect(400, `{"error":8,"message":"first rule"}`),
			post(`{"id":1,"name":"other"}`).expect(400, `{"error":9,"message":"second rule"}`),
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

// TestCountersUnderConcurrency sends 200 matching requests at once to a
// rule with times: 50: exactly 50 are scripted, every seq from 1 to 50
// once.
func TestCountersUnderConcurrency(t *testing.T) {
	_, ts := scenarioServer(t, `
name: s
rules:
  - times: 50
    respond: {status: 400, body: {error: '{{ .seq }}', message: scripted}}`, Options{})
	const n = 200
	var wg sync.WaitGroup
	var mu sync.Mutex // guards seqs and created
	seqs := map[string]int{}
	created := 0
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			req, _ := http.NewRequest("POST", ts.URL+"/plants", strings.NewReader(fmt.Sprintf(`{"id":%d,"name":"p"}`, i)))
			req.Header.Set("Authorization", "Bearer a")
			req.Header.Set("Content-Type", "application/json")
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			mu.Lock()
			defer mu.Unlock()
			switch resp.StatusCode {
			case 400:
				seqs[string(b)]++
			case 200:
				created++
			default:
				t.Errorf("status %d: %s", resp.StatusCode, b)
			}
		}(i)
	}
	wg.Wait()
	if created != n-50 || len(seqs) != 50 {
		t.Fatalf("%d created and %d distinct scripted answers, want %d and 50", created, len(seqs), n-50)
	}
	for i := 1; i <= 50; i++ {
		if k := fmt.Sprintf(`{"error":%d,"message":"scripted"}`, i); seqs[k] != 1 {
			t.Errorf("seq %d answered %d times", i, seqs[k])
		}
	}
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

// TestScenarioRejections checks that each kind of broken scenario is
// refused when the mock is made, naming file, line and rule.
func TestScenarioRejections(t *testing.T) {
	tests := []struct{ name, yml, want string }{
		{"unknown key", "name: s\nrules:\n  - when:\n      operation: POST /plants\n      bodyy: {}\n", `test.yaml:5: rule 1: unknown key "bodyy" (known: operation, headers, token, params, body)`},
		{"duplicate key", "name: s\nname: t\nrules: []\n", `test.yaml:2: key "name" is written twice (first at line 1)`},
		{"wrong type", "name: s\nrules:\n  - times: many\n", `test.yaml:3: rule 1: times must be an integer, not "many"`},
		{"no name", "rules: []\n", "test.yaml: the scenario has no name"},
		{"unknown operation", "name: s\nrules:\n  - when: {operation: GET /plants}\n", `test.yaml:3: rule 1: operation "GET /plants" is not in the document`},
		{"undeclared status", "name: s\nrules:\n  - when: {operation: POST /plants}\n  - respond: {status: 404}\n", "test.yaml:4: rule 2: status 404 is not declared for POST /plants (declared: 200, 400); set off_contract: true to send it anyway"},
		{"static body breaks the schema", "name: s\nrules:\n  - respond:\n      status: 400\n      body: {error: x}\n", "test.yaml:3: rule 1: POST /plants: body does not match the schema of status 400: error: expected integer, got string; message: required property is missing"},
		{"unknown fault", "name: s\nrules:\n  - respond: {fault: boom}\n", `test.yaml:3: rule 1: unknown fault "boom"`},
		{"bad regex", "name: s\nrules:\n  - when: {headers: {X-A: '/[/'}}\n", "test.yaml:3: rule 1: when.headers.X-A: bad regular expression /[/"},
		{"bad template", "name: s\nrules:\n  - respond: {status: 400, body: {error: 1, message: '{{ .body.name '}}\n", "test.yaml:3: rule 1: respond.body.message:"},
		{"unknown fake function", "name: s\nrules:\n  - respond: {status: 400, body: {error: 1, message: '{{ fake \"nope\" }}'}}\n", `test.yaml:3: rule 1: respond.body.message: fake "nope": gofakeit has no such function`},
		{"templates cannot reach the environment", "name: s\nrules:\n  - respond: {status: 400, body: {error: 1, message: '{{ env \"HOME\" }}'}}\n", `test.yaml:3: rule 1: respond.body.message: respond.body.message:1: function "env" not defined`},
		{"delay too long", "name: s\nrules:\n  - respond: {delay: 6m}\n", "test.yaml:3: rule 1: delay 6m0s is not between 0 and 5m0s"},
		{"negative times", "name: s\nrules:\n  - times: -1\n", "test.yaml:3: rule 1: times and every may not be negative"},
		{"bad header name", "name: s\nrules:\n  - respond: {headers: {'a b': x}}\n", `test.yaml:3: rule 1: respond.headers: "a b" is not a header name`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, err := scenario.ParseScenario("test.yaml", []byte(tt.yml))
			if err == nil {
				_, err = New(Options{Scenarios: []*scenario.Scenario{sc}})
				var se *ScenarioError
				if err != nil && !errors.As(err, &se) {
					t.Errorf("New: %T, want a *ScenarioError", err)
				}
			}
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("err = %v\nwant prefix %s", err, tt.want)
			}
		})
	}
	t.Run("every problem is listed", func(t *testing.T) {
		sc, _ := scenario.ParseScenario("test.yaml", []byte("name: s\nrules:\n  - respond: {fault: boom}\n  - respond: {delay: 1h}\n"))
		_, err := New(Options{Scenarios: []*scenario.Scenario{sc}})
		want := "test.yaml:3: rule 1: unknown fault \"boom\"; use connection_reset, empty_response, malformed_body, random_data_then_close\ntest.yaml:4: rule 2: delay 1h0m0s is not between 0 and 5m0s"
		if err == nil || err.Error() != want {
			t.Errorf("err = %v\nwant %s", err, want)
		}
	})
	t.Run("every problem of a file is listed in its own words", func(t *testing.T) {
		yml := `name: s
rules:
  - when: {operation: POST /plants}
    respnd: {status: 400}
  - times: many
    every: 2
    every: 3
    respond:
      delay: soon
      status: "400"
  - off_contract: maybe
`
		_, err := scenario.ParseScenario("test.yaml", []byte(yml))
		want := `test.yaml:4: rule 1: unknown key "respnd" (known: when, times, every, respond, off_contract)
test.yaml:5: rule 2: times must be an integer, not "many"
test.yaml:7: rule 2: key "every" is written twice (first at line 6)
test.yaml:9: rule 2: respond.delay must be a duration such as 250ms or 1.5s, not "soon"
test.yaml:10: rule 2: respond.status must be an integer, not "400"
test.yaml:11: rule 3: off_contract must be true or false, not "maybe"`
		if err == nil || err.Error() != want {
			t.Errorf("err =\n%v\nwant\n%s", err, want)
		}
	})
	t.Run("every problem of a rule is listed", func(t *testing.T) {
		yml := "name: s\nrules:\n  - when: {operation: POST /plants, headers: {X-A: '/[/'}}\n    times: -1\n    respond: {status: 404, fault: boom, headers: {'a b': x}}\n"
		sc, err := scenario.ParseScenario("test.yaml", []byte(yml))
		if err != nil {
			t.Fatal(err)
		}
		_, err = New(Options{Scenarios: []*scenario.Scenario{sc}})
		want := `test.yaml:3: rule 1: times and every may not be negative
test.yaml:3: rule 1: unknown fault "boom"; use connection_reset, empty_response, malformed_body, random_data_then_close
test.yaml:3: rule 1: when.headers.X-A: bad regular expression /[/: error parsing regexp: missing closing ]: ` + "`[`" + `
test.yaml:3: rule 1: respond.headers: "a b" is not a header name`
		if err == nil || err.Error() != want {
			t.Errorf("err =\n%v\nwant\n%s", err, want)
		}
	})
	t.Run("unknown active scenario", func(t *testing.T) {
		_, err := New(Options{Scenario: "nope"})
		if err == nil || err.Error() != `no scenario is named "nope"; known: first-call-fails, first-create-fails, flaky, slow, store-busy, tag-policy` {
			t.Errorf("err = %v", err)
		}
	})
}

// TestScenarioInGo builds a scenario from Go values: it is checked like a
// YAML one and answers the same.
func TestScenarioInGo(t *testing.T) {
	type refusal struct {
		Error   int32  `json:"error"`
		Message string `json:"message"`
	}
	sc := &scenario.Scenario{Name: "go", Rules: []scenario.Rule{
		{When: scenario.When{Operation: "POST /plants", Body: map[string]any{"id": 1}},
			Respond: scenario.Respond{Status: 400, Body: refusal{Error: 7, Message: "no plant {{ .body.id }}"}}},
		{When: scenario.When{Body: map[string]any{"id": int64(2)}},
			Respond: scenario.Respond{Status: 400, Body: map[string]any{"error": 8, "message": "two"}}},
	}}
	s, ts := newTestServer(t, Options{Scenarios: []*scenario.Scenario{sc}, Scenario: "go"})
	check(t, s, ts, post(`{"id":1,"name":"a"}`).expect(400, `{"error":7,"message":"no plant 1"}`))
	check(t, s, ts, post(`{"id":2,"name":"a"}`).expect(400, `{"error":8,"message":"two"}`))
	check(t, s, ts, post(`{"id":3,"name":"a"}`).expect(200, `{"name":"a"}`))

	bad := &scenario.Scenario{Name: "bad", Rules: []scenario.Rule{{Respond: scenario.Respond{Status: 400, Body: map[string]any{"error": "x", "message": "m"}}}}}
	_, err := New(Options{Scenarios: []*scenario.Scenario{bad}})
	if want := "scenario bad: rule 1: POST /plants: body does not match the schema of status 400: error: expected integer, got string"; err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
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

// TestTemplateRangeWithoutElse is a regression test: checking the fake
// calls of a range, if or with without an else branch dereferenced nil.
func TestTemplateRangeWithoutElse(t *testing.T) {
	_, ts := scenarioServer(t, "name: s\nrules:\n  - respond: {status: 400, body: {error: 1, message: '{{ range .body.tags }}{{ . }}{{ end }}{{ if .token }}!{{ end }}'}}\n", Options{})
	_, resp, got := send(t, ts, post(`{"id":1,"name":"a","tags":["x","y"]}`))
	if resp.StatusCode != 400 || string(got) != `{"error":1,"message":"xy!"}` {
		t.Errorf("got %d %s", resp.StatusCode, got)
	}
}

// TestScenarioParams: when.params matches path parameters by name, and
// is checked against the operation's path.
func TestScenarioParams(t *testing.T) {
	yml := "name: p\nrules:\n  - when: {operation: 'GET /plants/{id}', params: {id: '/^1[0-9]$/'}}\n    respond: {status: 404, body: {error: 1, message: teen}}\n"
	_, ts := newTestServer(t, Options{Spec: []byte(replicaSpec), Scenarios: []*scenario.Scenario{mustParse(t, yml)}, Scenario: "p"})
	do(t, ts, "POST", "/plants", `{"id":7,"name":"a"}`)
	do(t, ts, "POST", "/plants", `{"id":17,"name":"b"}`)
	st, body := do(t, ts, "GET", "/plants/7", "")
	expect(t, "id 7", st, body, 200, `{"id":7,"name":"a"}`)
	st, body = do(t, ts, "GET", "/plants/17", "")
	expect(t, "id 17", st, body, 404, `{"error":1,"message":"teen"}`)
	for _, c := range []struct{ yml, want string }{
		{"name: q\nrules:\n  - when: {params: {id: '1'}}\n", "when.params needs when.operation"},
		{"name: q\nrules:\n  - when: {operation: 'GET /plants/{id}', params: {name: '1'}}\n", "when.params.name: /plants/{id} has no such path parameter"},
	} {
		_, err := New(Options{Spec: []byte(replicaSpec), Scenarios: []*scenario.Scenario{mustParse(t, c.yml)}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v; want %s", c.yml, err, c.want)
		}
	}
}

func mustParse(t *testing.T, yml string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.ParseScenario("test.yaml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}
