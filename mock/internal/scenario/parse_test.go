package scenario_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// TestParse reads every key of the format into the Scenario it stands
// for.
func TestParse(t *testing.T) {
	sc := parse(t, `
name: every-key
description: all of them
document: Shop
rules:
  - when:
      operation: POST /plants
      headers: {X-A: a}
      token: t
      params: {id: '7'}
      body: {name: '/^F/', n: 1.5}
    times: 2
    every: 3
    off_contract: true
    respond:
      status: 503
      headers: {Retry-After: '1'}
      body: [1, x]
      delay: 1.5s
      fault: empty_response
      stream: {items: [{data: a}], count: 4, interval: 200ms, ids: true, error: {data: e}, drop: 2, done: true}
      webhooks:
        - plantCreated
        - {name: other, body: {id: 1}, delay: 10ms}
`)
	want := &scenario.Scenario{
		Name: "every-key", Description: "all of them", Document: "Shop", File: "test.yaml",
		Rules: []scenario.Rule{{
			When: scenario.When{Operation: "POST /plants", Headers: map[string]string{"X-A": "a"}, Token: "t",
				Params: map[string]string{"id": "7"}, Body: map[string]any{"name": "/^F/", "n": 1.5}},
			Times: 2, Every: 3, OffContract: true,
			Respond: scenario.Respond{
				Status: 503, Headers: map[string]string{"Retry-After": "1"}, Body: []any{1, "x"},
				Delay: 1500 * time.Millisecond, Fault: scenario.FaultEmptyResponse,
				Stream: &scenario.Stream{Items: []any{map[string]any{"data": "a"}}, Count: 4, Interval: 200 * time.Millisecond,
					IDs: true, Error: map[string]any{"data": "e"}, Drop: 2, Done: true},
				Webhooks: []scenario.WebhookCall{{Name: "plantCreated"}, {Name: "other", Body: map[string]any{"id": 1}, Delay: 10 * time.Millisecond}},
			},
		}},
	}
	// The scenario keeps its rules' lines besides: compare the rest.
	if !reflect.DeepEqual(sc.Rules, want.Rules) || sc.Name != want.Name || sc.Description != want.Description ||
		sc.Document != want.Document || sc.File != want.File {
		g, _ := json.Marshal(sc)
		w, _ := json.Marshal(want)
		t.Errorf("parsed:\n%s\nwant\n%s", g, w)
	}
}

// TestParseProblems: every problem of a file is reported, one line
// each, in the format's own words, with its line and rule.
func TestParseProblems(t *testing.T) {
	tests := []struct{ name, yml, want string }{
		{"unknown key", "name: s\nrules:\n  - when:\n      operation: POST /plants\n      bodyy: {}\n",
			`test.yaml:5: rule 1: unknown key "bodyy" (known: operation, headers, token, params, body)`},
		{"unknown key of the scenario", "name: s\nrulez: []\n",
			`test.yaml:2: unknown key "rulez" (known: name, description, document, rules)`},
		{"unknown key of respond", "name: s\nrules:\n  - respond: {sttus: 1}\n",
			`test.yaml:3: rule 1: unknown key "sttus" (known: status, headers, body, delay, fault, stream, webhooks)`},
		{"unknown key of a webhook", "name: s\nrules:\n  - respond: {webhooks: [{name: a, bdy: 1}]}\n",
			`test.yaml:3: rule 1: unknown key "bdy"`},
		{"duplicate key", "name: s\nname: t\nrules: []\n",
			`test.yaml:2: key "name" is written twice (first at line 1)`},
		{"wrong type", "name: s\nrules:\n  - times: many\n",
			`test.yaml:3: rule 1: times must be an integer, not "many"`},
		{"rules not a list", "name: s\nrules: x\n",
			`test.yaml:2: rules must be a list of rules, not "x"`},
		{"when not a mapping", "name: s\nrules:\n  - when: x\n",
			`test.yaml:3: rule 1: when must be a mapping, not "x"`},
		{"headers not a mapping", "name: s\nrules:\n  - when: {headers: x}\n",
			`test.yaml:3: rule 1: when.headers must be a mapping of names to strings, not "x"`},
		// A list where a string or the scenario is wanted is still said
		// in the decoder's words, with Go's type names (reported).
		{"fault not a string", "name: s\nrules:\n  - respond: {fault: [x]}\n",
			`test.yaml:3: rule 1: cannot construct !!seq into scenario.Fault`},
		{"not a mapping", "- a\n", `test.yaml:1: cannot construct !!seq into scenario.Scenario`},
		{"not YAML", "name: [s\n", `test.yaml: line 2: did not find expected ',' or ']'`},
		{"every problem, in line order", `name: s
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
`, `test.yaml:4: rule 1: unknown key "respnd" (known: when, times, every, respond, off_contract)
test.yaml:5: rule 2: times must be an integer, not "many"
test.yaml:7: rule 2: key "every" is written twice (first at line 6)
test.yaml:9: rule 2: respond.delay must be a duration such as 250ms or 1.5s, not "soon"
test.yaml:10: rule 2: respond.status must be an integer, not "400"
test.yaml:11: rule 3: off_contract must be true or false, not "maybe"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, err := scenario.ParseScenario("test.yaml", []byte(tt.yml))
			if err == nil || sc != nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("ParseScenario: %v, %v\nwant the error %s", sc, err, tt.want)
			}
		})
	}
}

// TestParseAliasBomb: a billion laughs in the one free-form place of a
// scenario is refused, not expanded.
func TestParseAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("name: bomb\nrules:\n  - when:\n      body:\n")
	b.WriteString("        a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		fmt.Fprintf(&b, "        %s: &%s [%s*%s]\n", n, n, strings.Repeat("*"+prev+", ", 8), prev)
		prev = n
	}
	_, err := scenario.ParseScenario("bomb.yaml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "excessive aliasing") {
		t.Errorf("alias bomb: err = %v", err)
	}
}

// TestLoadScenarios: the YAML files of a directory, in name order;
// every broken file is reported, and the good ones still returned.
func TestLoadScenarios(t *testing.T) {
	fsys := fstest.MapFS{
		"s/b.yml":        {Data: []byte("name: b\nrules: []\n")},
		"s/a.yaml":       {Data: []byte("name: a\nrules: []\n")},
		"s/c.yaml":       {Data: []byte("name: c\nnope: 1\n")},
		"s/d.yaml":       {Data: []byte("name: d\nrules: []\n" + strings.Repeat("#", scenario.MaxScenarioFile))},
		"s/notes.txt":    {Data: []byte("not a scenario")},
		"s/sub/e.yaml":   {Data: []byte("name: e\nrules: []\n")},
		"s/dir.yaml/x":   {Data: []byte("")},
		"elsewhere.yaml": {Data: []byte("name: f\nrules: []\n")},
	}
	scs, err := scenario.LoadScenarios(fsys, "s")
	var got []string
	for _, sc := range scs {
		got = append(got, sc.Name+" "+sc.File)
	}
	if want := "a s/a.yaml, b s/b.yml"; strings.Join(got, ", ") != want {
		t.Errorf("loaded %q, want %s", got, want)
	}
	want := `s/c.yaml:2: unknown key "nope" (known: name, description, document, rules)` + "\n" +
		"s/d.yaml: file of 1048594 bytes is over the limit of 1048576 bytes"
	if err == nil || err.Error() != want {
		t.Errorf("err =\n%v\nwant\n%s", err, want)
	}
	if _, err := scenario.LoadScenarios(fsys, "missing"); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("a missing directory: %v", err)
	}
}

// TestShippedScenarios: the shipped scenarios parse, sorted by file,
// each named for where it ships.
func TestShippedScenarios(t *testing.T) {
	var got []string
	for _, sc := range scenario.ShippedScenarios() {
		got = append(got, sc.Name+" "+sc.File)
	}
	want := "first-call-fails scenarios/first-call-fails.yaml, first-create-fails scenarios/first-create-fails.yaml, " +
		"flaky scenarios/flaky.yaml, slow scenarios/slow.yaml, store-busy scenarios/store-busy.yaml, tag-policy scenarios/tag-policy.yaml"
	if strings.Join(got, ", ") != want {
		t.Errorf("shipped: %s\nwant %s", strings.Join(got, ", "), want)
	}
}

// TestScenarioJSON: the JSON form uses the YAML keys, with durations
// written as YAML writes them, and leaves out what is not set.
func TestScenarioJSON(t *testing.T) {
	sc := parse(t, `
name: j
rules:
  - when: {operation: POST /plants}
    respond:
      status: 400
      delay: 1.5s
      stream: {count: 2, interval: 200ms}
      webhooks: [a, {name: b, delay: 10ms}]
  - respond: {}
  - respond: {stream: {}}
  - respond: {delay: 1s}
`)
	b, err := json.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"j","rules":[` +
		`{"when":{"operation":"POST /plants"},"respond":{"status":400,"stream":{"count":2,"interval":"200ms"},"webhooks":[{"name":"a"},{"name":"b","delay":"10ms"}],"delay":"1.5s"}},` +
		`{"when":{},"respond":{}},` +
		`{"when":{},"respond":{"stream":{}}},` +
		`{"when":{},"respond":{"delay":"1s"}}],"file":"test.yaml"}`
	if string(b) != want {
		t.Errorf("JSON:\n%s\nwant\n%s", b, want)
	}
}
