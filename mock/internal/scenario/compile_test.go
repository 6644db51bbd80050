package scenario_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// TestCompileProblems: each kind of rule that does not fit the document
// is refused, naming file, line and rule.
func TestCompileProblems(t *testing.T) {
	tests := []struct{ name, yml, want string }{
		{"no name", "rules: []\n", "test.yaml: the scenario has no name"},
		{"a name with a comma", "name: a,b\nrules: []\n", `test.yaml: scenario name "a,b" has spaces or commas`},
		{"unknown operation", "name: s\nrules:\n  - when: {operation: GET /plants}\n",
			`test.yaml:3: rule 1: operation "GET /plants" is not in the document (write it as METHOD /path/{template})`},
		{"undeclared status", "name: s\nrules:\n  - when: {operation: POST /plants}\n  - respond: {status: 404}\n",
			"test.yaml:4: rule 2: status 404 is not declared for POST /plants (declared: 200, 400); set off_contract: true to send it anyway"},
		{"not an HTTP status", "name: s\nrules:\n  - respond: {status: 99}\n", "test.yaml:3: rule 1: status 99 is not an HTTP status"},
		{"static body breaks the schema", "name: s\nrules:\n  - respond:\n      status: 400\n      body: {error: x}\n",
			"test.yaml:3: rule 1: POST /plants: body does not match the schema of status 400: error: expected integer, got string; message: required property is missing"},
		{"unknown fault", "name: s\nrules:\n  - respond: {fault: boom}\n",
			`test.yaml:3: rule 1: unknown fault "boom"; use connection_reset, empty_response, malformed_body, random_data_then_close`},
		{"bad regex in a header", "name: s\nrules:\n  - when: {headers: {X-A: '/[/'}}\n",
			"test.yaml:3: rule 1: when.headers.X-A: bad regular expression /[/: error parsing regexp: missing closing ]: `[`"},
		{"bad regex in the token", "name: s\nrules:\n  - when: {token: '/(/'}\n",
			"test.yaml:3: rule 1: when.token: bad regular expression /(/: error parsing regexp: missing closing ): `(`"},
		{"bad regex in the body", "name: s\nrules:\n  - when: {body: {a: [x, '/*/']}}\n",
			"test.yaml:3: rule 1: when.body.a[1]: bad regular expression /*/: error parsing regexp: missing argument to repetition operator: `*`"},
		{"bad template", "name: s\nrules:\n  - respond: {status: 400, body: {error: 1, message: '{{ .body.name '}}\n",
			"test.yaml:3: rule 1: respond.body.message: respond.body.message:1: unclosed action"},
		{"bad template in a list", "name: s\nrules:\n  - off_contract: true\n    respond: {body: [a, '{{ end }}']}\n",
			"test.yaml:3: rule 1: respond.body[1]: respond.body[1]:1: unexpected {{end}}"},
		{"bad template in a header", "name: s\nrules:\n  - respond: {headers: {X-A: '{{'}}\n",
			"test.yaml:3: rule 1: respond.headers.X-A: respond.headers.X-A:1: unclosed action"},
		{"unknown fake function", "name: s\nrules:\n  - respond: {status: 400, body: {error: 1, message: '{{ fake \"nope\" }}'}}\n",
			`test.yaml:3: rule 1: respond.body.message: fake "nope": gofakeit has no such function`},
		{"fake without its name", "name: s\nrules:\n  - respond: {headers: {X-A: '{{ if .token }}{{ fake }}{{ end }}'}}\n",
			`test.yaml:3: rule 1: respond.headers.X-A: fake takes one quoted gofakeit function name, e.g. fake "name"`},
		{"unknown fake in a with", "name: s\nrules:\n  - respond: {headers: {X-A: '{{ with .token }}{{ else }}{{ fake \"nope\" }}{{ end }}'}}\n",
			`test.yaml:3: rule 1: respond.headers.X-A: fake "nope": gofakeit has no such function`},
		{"unknown fake in a range's else", "name: s\nrules:\n  - respond: {headers: {X-A: '{{ range .body }}{{ . }}{{ else }}{{ fake \"nope\" }}{{ end }}'}}\n",
			`test.yaml:3: rule 1: respond.headers.X-A: fake "nope": gofakeit has no such function`},
		{"templates cannot reach the environment", "name: s\nrules:\n  - respond: {status: 400, body: {error: 1, message: '{{ env \"HOME\" }}'}}\n",
			`test.yaml:3: rule 1: respond.body.message: respond.body.message:1: function "env" not defined`},
		{"delay too long", "name: s\nrules:\n  - respond: {delay: 6m}\n", "test.yaml:3: rule 1: delay 6m0s is not between 0 and 5m0s"},
		{"negative times", "name: s\nrules:\n  - times: -1\n", "test.yaml:3: rule 1: times and every may not be negative"},
		{"negative every", "name: s\nrules:\n  - every: -2\n", "test.yaml:3: rule 1: times and every may not be negative"},
		{"bad header name", "name: s\nrules:\n  - respond: {headers: {'a b': x}}\n", `test.yaml:3: rule 1: respond.headers: "a b" is not a header name`},
		{"params without an operation", "name: s\nrules:\n  - when: {params: {id: '1'}}\n", "test.yaml:3: rule 1: when.params needs when.operation"},
		{"every problem of a rule", "name: s\nrules:\n  - when: {operation: POST /plants, headers: {X-A: '/[/'}}\n    times: -1\n    respond: {status: 404, fault: boom, headers: {'a b': x}}\n",
			`test.yaml:3: rule 1: times and every may not be negative
test.yaml:3: rule 1: unknown fault "boom"; use connection_reset, empty_response, malformed_body, random_data_then_close
test.yaml:3: rule 1: when.headers.X-A: bad regular expression /[/: error parsing regexp: missing closing ]: ` + "`[`" + `
test.yaml:3: rule 1: respond.headers: "a b" is not a header name`},
		{"every problem of every rule", "name: s\nrules:\n  - respond: {fault: boom}\n  - respond: {delay: 1h}\n",
			"test.yaml:3: rule 1: unknown fault \"boom\"; use connection_reset, empty_response, malformed_body, random_data_then_close\ntest.yaml:4: rule 2: delay 1h0m0s is not between 0 and 5m0s"},
	}
	doc := plants(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := compileErr(doc, parse(t, tt.yml)); got != tt.want {
				t.Errorf("err =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestCompileAgainstShop: what a rule names is checked against the
// document's operations, path parameters, webhooks and streams.
func TestCompileAgainstShop(t *testing.T) {
	doc := shop(t)
	tests := []struct{ name, rule, want string }{
		{"a path parameter the operation has not", "{when: {operation: 'GET /plants/{id}', params: {name: '1'}}}",
			"test.yaml:3: rule 1: when.params.name: /plants/{id} has no such path parameter"},
		{"a bad regex of a parameter", "{when: {operation: 'GET /plants/{id}', params: {id: '/[/'}}}",
			"test.yaml:3: rule 1: when.params.id: bad regular expression /[/: error parsing regexp: missing closing ]: `[`"},
		{"a webhook the document has not", "{respond: {webhooks: [/nope, {name: plantCreated, body: {id: x}, delay: -1ns}]}}",
			"test.yaml:3: rule 1: respond.webhooks[0]: \"/nope\" is not a webhook of the document (declared: plantCreated)\n" +
				"test.yaml:3: rule 1: respond.webhooks[1].delay: must not be negative\n" +
				"test.yaml:3: rule 1: respond.webhooks[1].body does not match the schema of webhook plantCreated: request id: expected integer, got string; request name: required property is missing"},
		{"a bad template of a webhook's body", "{respond: {webhooks: [{name: plantCreated, body: {name: '{{'}}]}}",
			"test.yaml:3: rule 1: respond.webhooks[0].body.name: respond.webhooks[0].body.name:1: unclosed action"},
		{"a stream out of bounds", "{when: {operation: GET /events}, respond: {stream: {count: -1, interval: 6m, drop: -2}}}",
			"test.yaml:3: rule 1: respond.stream.count -1 is not between 0 and 1000000\n" +
				"test.yaml:3: rule 1: respond.stream.interval 6m0s is not between 0 and 5m0s\n" +
				"test.yaml:3: rule 1: respond.stream.drop may not be negative"},
		{"a stream and a body", "{when: {operation: GET /events}, respond: {body: {}, stream: {count: 1}}}",
			"test.yaml:3: rule 1: GET /events: status 200 declares no JSON body\n" +
				"test.yaml:3: rule 1: respond.stream and respond.body cannot both be given: the stream is the body"},
		{"a stream and a fault", "{when: {operation: GET /events}, respond: {fault: empty_response, stream: {}}}",
			"test.yaml:3: rule 1: respond.stream and respond.fault cannot both be given; respond.stream.drop breaks a stream"},
		{"a bad template of an item and of the error", "{when: {operation: GET /events}, respond: {stream: {items: [{data: '{{'}], error: {data: '{{ end }}'}}}}",
			"test.yaml:3: rule 1: respond.stream.items[0].data: respond.stream.items[0].data:1: unclosed action\n" +
				"test.yaml:3: rule 1: respond.stream.error.data: respond.stream.error.data:1: unexpected {{end}}"},
		{"a stream of a JSON answer", "{when: {operation: GET /plain}, respond: {stream: {count: 2}}}",
			"test.yaml:3: rule 1: respond.stream: GET /plain declares no streamed answer (text/event-stream, JSON Lines or application/json-seq) for status 200"},
		{"the end marker of JSON Lines", "{when: {operation: GET /export}, respond: {stream: {done: true}}}",
			"test.yaml:3: rule 1: respond.stream.done: GET /export streams application/jsonl for status 200; only server-sent events end with data: [DONE]"},
		{"a stream of every operation, some streaming", "{respond: {stream: {done: true}}}", ""},
		{"a templated body is checked only once rendered", "{when: {operation: POST /plants}, respond: {body: {id: '{{ .seq }}'}}}", ""},
		{"off contract, a static body is not checked", "{when: {operation: POST /plants}, off_contract: true, respond: {status: 599, body: {id: x}}}", ""},
		{"a fault's body is not checked", "{when: {operation: POST /plants}, respond: {status: 400, fault: malformed_body, body: {id: x}}}", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := compileErr(doc, parse(t, "name: s\nrules:\n  - "+tt.rule+"\n")); got != tt.want {
				t.Errorf("err =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestCompileScript: a compiled rule holds what the request path
// reads: status, delay, fault, headers, body, stream and webhooks.
func TestCompileScript(t *testing.T) {
	doc := shop(t)
	sc := compileOne(t, doc, `
name: s
rules:
  - when: {operation: POST /plants}
    respond:
      status: 400
      delay: 250ms
      headers: {x-b: '2', X-A: '{{ .seq }}'}
      body: {error: 1, message: m}
      webhooks: [plantCreated, {name: plantCreated, body: {id: 1, name: a}, delay: 1s}]
  - when: {operation: GET /plain}
    respond: {fault: connection_reset}
  - when: {operation: GET /events}
    off_contract: true
    respond:
      stream: {items: [{data: a}, {data: '{{ .item }}'}], count: 5, interval: 2ms, ids: true, error: {event: error, data: x}, drop: 3, done: true}
`)
	sess := newSession(t)
	rl, _, _ := sc.Match(t.Context(), request(t, doc, "POST /plants", "{}", nil), sess)
	if rl == nil || rl.Index != 0 || rl.Name != "scenario s, rule 1" || rl.StatusFor(201) != 400 || rl.Delay != 250*time.Millisecond ||
		rl.Fault != nil || rl.OffContract || !rl.HasRespBody || rl.Stream != nil {
		t.Fatalf("rule 1: %+v", rl)
	}
	var names []string
	for _, h := range rl.RespHeaders {
		names = append(names, h.Name)
	}
	if strings.Join(names, " ") != "X-A X-B" {
		t.Errorf("answer headers %q, want X-A X-B, canonical and sorted", names)
	}
	if len(rl.Webhooks) != 2 || rl.Webhooks[0].HasBody || rl.Webhooks[0].Delay != 0 || len(rl.Webhooks[0].Hooks) != 1 ||
		rl.Webhooks[0].Hooks[0].Name != "plantCreated" || !rl.Webhooks[1].HasBody || rl.Webhooks[1].Delay != time.Second {
		t.Errorf("webhooks: %+v", rl.Webhooks)
	}
	rl, _, _ = sc.Match(t.Context(), request(t, doc, "GET /plain", "", nil), sess)
	if rl == nil || rl.Index != 1 || rl.Fault == nil || rl.Fault.Name != scenario.FaultConnectionReset || rl.Stream != nil {
		t.Fatalf("rule 2: %+v", rl)
	}
	rl, _, _ = sc.Match(t.Context(), request(t, doc, "GET /events", "", nil), sess)
	if rl == nil || rl.Index != 2 || rl.StatusFor(200) != 200 || rl.Fault != nil || !rl.OffContract || rl.HasRespBody {
		t.Fatalf("rule 3: %+v", rl)
	}
	st := rl.Stream
	if st == nil || len(st.Items) != 2 || st.Count != 5 || st.Interval != 2*time.Millisecond || !st.IDs || !st.HasError || st.Drop != 3 || !st.Done {
		t.Errorf("stream: %+v", st)
	}
}

// TestCompileScenarioInGo: a scenario built from Go values is checked
// like a YAML one, named by its name where it has no file.
func TestCompileScenarioInGo(t *testing.T) {
	doc := plants(t)
	type refusal struct {
		Error   int32  `json:"error"`
		Message string `json:"message"`
	}
	good := &scenario.Scenario{Name: "go", Rules: []scenario.Rule{
		{When: scenario.When{Operation: "POST /plants", Body: map[string]any{"id": 1}},
			Respond: scenario.Respond{Status: 400, Body: refusal{Error: 7, Message: "no plant {{ .body.id }}"}}},
		{When: scenario.When{Body: map[string]any{"id": int64(2)}},
			Respond: scenario.Respond{Status: 400, Body: map[string]any{"error": 8, "message": "two"}}},
	}}
	if got := compileErr(doc, good); got != "" {
		t.Fatalf("good: %s", got)
	}
	set, _ := scenario.CompileScenarios(compiling(doc, nil), nil, []*scenario.Scenario{good}, "go")
	sess := newSession(t)
	for _, c := range []struct{ body, want string }{
		{`{"id":1,"name":"a"}`, `{"error":7,"message":"no plant 1"}`},
		{`{"id":2,"name":"a"}`, `{"error":8,"message":"two"}`},
		{`{"id":3,"name":"a"}`, `none`},
	} {
		rl, n, err := set.Initial.Match(t.Context(), request(t, doc, "POST /plants", c.body, nil), sess)
		if got := render(t, rl, n, c.body); got != c.want || err != nil {
			t.Errorf("%s: %s, %v; want %s", c.body, got, err, c.want)
		}
	}
	for _, c := range []struct {
		sc   *scenario.Scenario
		want string
	}{
		{&scenario.Scenario{Name: "bad", Rules: []scenario.Rule{{Respond: scenario.Respond{Status: 400, Body: map[string]any{"error": "x", "message": "m"}}}}},
			"scenario bad: rule 1: POST /plants: body does not match the schema of status 400: error: expected integer, got string"},
		{&scenario.Scenario{Name: "chan", Rules: []scenario.Rule{{Respond: scenario.Respond{Body: make(chan int)}}}},
			"scenario chan: rule 1: respond.body: json: unsupported type: chan int"},
		{&scenario.Scenario{Name: "chan", Rules: []scenario.Rule{{When: scenario.When{Body: make(chan int)}}}},
			"scenario chan: rule 1: when.body: json: unsupported type: chan int"},
		{&scenario.Scenario{Rules: []scenario.Rule{{}}}, "scenario : the scenario has no name"},
	} {
		if got := compileErr(doc, c.sc); got != c.want {
			t.Errorf("err =\n%s\nwant\n%s", got, c.want)
		}
	}
}

// render renders the body of the rule a match gave, over a create of
// body: its JSON, or "none" when no rule matched.
func render(t *testing.T, rl *scenario.Script, seq int64, body string) string {
	t.Helper()
	if rl == nil {
		return "none"
	}
	v, err := scenario.RenderBody(rl.RespBody, scenario.TemplateData(decode(t, body), nil, "", seq), nil)
	if err != nil {
		t.Fatal(err)
	}
	return marshal(v)
}

// TestCompileSet: the names of a set, shipped scenarios that do not fit
// left out (and said at debug level), user ones that do not fit or
// repeat a name refused.
func TestCompileSet(t *testing.T) {
	// A document without POST /plants, which three shipped scenarios name.
	doc := load(t, "openapi: 3.1.0\ninfo: {title: Other, version: '1'}\npaths:\n  /plain:\n    get:\n      responses: {'200': {description: ok}}\n")
	var logs bytes.Buffer
	ok := parse(t, "name: mine\nrules: []\n")
	set, err := scenario.CompileScenarios(compiling(doc, &logs), scenario.ShippedScenarios(), []*scenario.Scenario{nil, ok}, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := set.Names(); got != "first-call-fails, flaky, mine, slow" {
		t.Errorf("Names() = %s", got)
	}
	if set.Initial != nil {
		t.Errorf("no scenario active, yet Initial is %s", set.Initial.Name)
	}
	var wantLog strings.Builder
	for _, n := range []string{"first-create-fails", "store-busy", "tag-policy"} {
		wantLog.WriteString(`level=DEBUG msg="shipped scenario does not fit this document; left out" scenario=` + n +
			` why="scenarios/` + n + `.yaml:4: rule 1: operation \"POST /plants\" is not in the document (write it as METHOD /path/{template})"` + "\n")
	}
	if logs.String() != wantLog.String() {
		t.Errorf("log:\n%s\nwant\n%s", logs.String(), wantLog.String())
	}
	empty, err := scenario.CompileScenarios(compiling(doc, nil), nil, nil, "")
	if err != nil || empty.Names() != "(none)" || len(empty.Sorted()) != 0 {
		t.Errorf("no scenarios: %q %q %v", empty.Names(), empty.Sorted(), err)
	}

	again := parse(t, "name: mine\nrules: []\n")
	again.File = "other.yaml"
	inGo := &scenario.Scenario{Name: "mine"}
	want := `other.yaml: scenario name "mine" is already used by test.yaml` + "\n" +
		`scenario mine: scenario name "mine" is already used by test.yaml`
	if got := compileErr(doc, ok, again, inGo); got != want {
		t.Errorf("repeated names:\n%s\nwant\n%s", got, want)
	}
}

// TestActivate: one name, several with commas (their rules in that
// order), and prefixes ending in *; unknown names are refused unless
// lenient.
func TestActivate(t *testing.T) {
	doc := plants(t)
	var scs []*scenario.Scenario
	for _, n := range []string{"a5", "a3", "a1", "a4", "a2", "b"} {
		scs = append(scs, &scenario.Scenario{Name: n, Rules: []scenario.Rule{{Times: 1}}})
	}
	set, err := scenario.CompileScenarios(compiling(doc, nil), nil, scs, "")
	if err != nil {
		t.Fatal(err)
	}
	rules := func() string {
		if set.Initial == nil {
			return "none"
		}
		return set.Initial.Name + ": " + strings.Join(compiledRules(t, set.Initial), ", ")
	}
	tests := []struct {
		active  string
		lenient bool
		want    string
		err     string
	}{
		{"", false, "none", ""},
		{"b", false, "b: b", ""},
		{"b,a1", false, "b,a1: b, a1", ""},
		{"a*", false, "a*: a1, a2, a3, a4, a5", ""},
		// b's rule, listed twice, counts once.
		{"b,*", false, "b,*: b, a1, a2, a3, a4, a5", ""},
		{"nope", false, "", `no scenario is named "nope"; known: a1, a2, a3, a4, a5, b`},
		{"b,nope", false, "", `no scenario is named "nope"; known: a1, a2, a3, a4, a5, b`},
		{"c*", false, "", `no scenario name starts with "c"; known: a1, a2, a3, a4, a5, b`},
		{"nope,b", true, "nope,b: b", ""},
		{"c*", true, "", ""},
		{"nope", true, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.active, func(t *testing.T) {
			set.Initial = nil
			err := set.Activate(tt.active, tt.lenient)
			if got := errText(err); got != tt.err {
				t.Errorf("err = %s, want %s", got, tt.err)
			}
			want := tt.want
			if want == "" {
				want = "none"
			}
			if got := rules(); got != want {
				t.Errorf("active %s\nwant %s", got, want)
			}
		})
	}
	if err := set.Activate("a2", false); err != nil || set.Initial != set.ByName["a2"] || set.Named("a2") != set.ByName["a2"] {
		t.Errorf("one name activates the loaded scenario itself: %v", err)
	}
	if err := set.Activate("a2,b", false); err != nil || set.Named("a2,b") != set.Initial || set.Named("b,a2") != nil || set.Named("a2") != set.ByName["a2"] {
		t.Errorf("Named finds the initial combination by its name only: %v", err)
	}
	if _, err := scenario.CompileScenarios(compiling(doc, nil), nil, scs, "zzz"); errText(err) != `no scenario is named "zzz"; known: a1, a2, a3, a4, a5, b` {
		t.Errorf("CompileScenarios with an unknown active name: %v", err)
	}
}

// compiledRules names the scenarios whose rules a compiled scenario
// answers with, in order: each scenario of TestActivate has one rule
// that answers once, so that matching requests in a fresh session walks
// them.
func compiledRules(t *testing.T, sc *scenario.Compiled) []string {
	t.Helper()
	var out []string
	sess := newSession(t)
	req := request(t, plants(t), "POST /plants", "{}", nil)
	for range 20 {
		rl, _, err := sc.Match(t.Context(), req, sess)
		if err != nil {
			t.Fatal(err)
		}
		if rl == nil {
			break
		}
		out = append(out, strings.TrimSuffix(strings.TrimPrefix(rl.Name, "scenario "), ", rule 1"))
	}
	return out
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
