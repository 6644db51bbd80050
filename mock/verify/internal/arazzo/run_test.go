package arazzo

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/plantmock/plantmock/internal/jsonx"
)

// fakeSender answers each call by its operationId with answer, and
// keeps what it was sent.
type fakeSender struct {
	answer func(c *Call, n int) (int, string) // status and JSON body
	sent   []string
}

func (f *fakeSender) Send(_ context.Context, c *Call) (*Exchange, error) {
	if c.OperationID == "gone" {
		return nil, &Unsent{Reason: "no operation of the document has operationId gone"}
	}
	f.sent = append(f.sent, fmt.Sprintf("%s/%s#%d %s %v %s", c.Workflow, c.Step, c.Attempt, c.OperationID, c.Params, jsonx.Marshal(c.Body)))
	code, body := f.answer(c, len(f.sent))
	v, _ := jsonx.Decode([]byte(body))
	return &Exchange{Method: "GET", Status: code, Header: http.Header{}, Body: v}, nil
}

func parse(t *testing.T, workflows string) *Document {
	t.Helper()
	d, err := Parse([]byte("arazzo: 1.0.1\ninfo: {title: t, version: '1'}\nsourceDescriptions: [{name: store, url: openapi.yaml, type: openapi}]\n" + workflows))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestRun runs workflows against a fake service: the order of steps,
// values passed between them (Step Object outputs, Runtime
// Expressions), success and failure actions (Success Action Object,
// Failure Action Object: end, goto, retry with retryLimit), dependsOn
// (Workflow Object) and a step that calls a workflow.
func TestRun(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		answer    func(c *Call, n int) (int, string)
		inputs    map[string]string
		sent      []string
		results   []string
	}{{
		name: "outputs flow to the next step",
		doc: `workflows:
- workflowId: w
  inputs: {type: object, properties: {name: {type: string, default: Fern}}}
  steps:
  - stepId: create
    operationId: createPlant
    requestBody: {payload: {name: $inputs.name}}
    successCriteria: [{condition: $statusCode == 201}]
    outputs: {id: $response.body#/id}
  - stepId: read
    operationId: getPlant
    parameters: [{name: plantId, in: path, value: $steps.create.outputs.id}]
    successCriteria: [{condition: "$response.body#/name == $inputs.name"}]
  outputs: {id: $steps.create.outputs.id}
`,
		answer: func(c *Call, n int) (int, string) {
			if c.Step == "create" {
				return 201, `{"id": 9}`
			}
			return 200, `{"id": 9, "name": "fern"}`
		},
		sent:    []string{"w/create#1 createPlant [] {\"name\":\"Fern\"}", "w/read#1 getPlant [{plantId path 9}] null"},
		results: []string{`w ok {"id":9}`},
	}, {
		name: "a criterion not met names the step",
		doc: `workflows:
- workflowId: w
  steps:
  - stepId: create
    operationId: createPlant
    successCriteria: [{condition: $statusCode == 201}]
  - stepId: read
    operationId: getPlant
    successCriteria:
    - condition: $statusCode == 200
    - condition: $response.body#/name == 'Fern'
  - stepId: never
    operationId: listPlants
`,
		answer: func(c *Call, n int) (int, string) {
			if c.Step == "create" {
				return 201, `{"id": 9}`
			}
			return 200, `{"id": 9, "name": "Oak"}`
		},
		sent:    []string{"w/create#1 createPlant [] null", "w/read#1 getPlant [] null"},
		results: []string{`w failed at read (line 14, call 1): criterion: $response.body#/name == 'Fern' is not met ($response.body#/name = "Oak")`},
	}, {
		name: "retry until met",
		doc: `workflows:
- workflowId: w
  steps:
  - stepId: poll
    operationId: getJob
    successCriteria: [{condition: $response.body#/done == true}]
    onFailure: [{name: again, type: retry, retryAfter: 0, retryLimit: 3}]
`,
		answer: func(c *Call, n int) (int, string) {
			return 200, fmt.Sprintf(`{"done": %v}`, n == 3)
		},
		sent:    []string{"w/poll#1 getJob [] null", "w/poll#2 getJob [] null", "w/poll#3 getJob [] null"},
		results: []string{`w ok {}`},
	}, {
		name: "retry exhausted, then the next failure action",
		doc: `workflows:
- workflowId: w
  steps:
  - stepId: poll
    operationId: getJob
    successCriteria: [{condition: $statusCode == 200}]
    onFailure:
    - {name: again, type: retry, retryLimit: 1}
    - {name: other, type: goto, stepId: fallback}
  - stepId: fallback
    operationId: listJobs
`,
		answer: func(c *Call, n int) (int, string) {
			if c.Step == "poll" {
				return 503, `{}`
			}
			return 200, `[]`
		},
		sent:    []string{"w/poll#1 getJob [] null", "w/poll#2 getJob [] null", "w/fallback#1 listJobs [] null"},
		results: []string{`w ok {}`},
	}, {
		name: "goto on success and end",
		doc: `workflows:
- workflowId: w
  steps:
  - stepId: first
    operationId: a
    onSuccess: [{name: skip, type: goto, stepId: third, criteria: [{condition: $statusCode == 200}]}]
  - stepId: second
    operationId: b
  - stepId: third
    operationId: c
    onSuccess: [{name: stop, type: end}]
  - stepId: fourth
    operationId: d
`,
		answer:  func(c *Call, n int) (int, string) { return 200, `{}` },
		sent:    []string{"w/first#1 a [] null", "w/third#1 c [] null"},
		results: []string{`w ok {}`},
	}, {
		name: "dependsOn runs first, and a failed one fails the dependent",
		doc: `workflows:
- workflowId: use
  dependsOn: [login]
  steps:
  - stepId: get
    operationId: getPlant
    parameters: [{name: Authorization, in: header, value: "Bearer {$workflows.login.outputs.token}"}]
- workflowId: login
  steps:
  - stepId: post
    operationId: login
    successCriteria: [{condition: $statusCode == 200}]
    outputs: {token: $response.body#/token}
  outputs: {token: $steps.post.outputs.token}
- workflowId: after
  dependsOn: [broken]
  steps: [{stepId: x, operationId: x}]
- workflowId: broken
  steps: [{stepId: y, operationId: gone}]
`,
		answer: func(c *Call, n int) (int, string) { return 200, `{"token": "t0k"}` },
		sent:   []string{"login/post#1 login [] null", "use/get#1 getPlant [{Authorization header Bearer t0k}] null"},
		results: []string{`use ok {}`, `login ok {"token":"t0k"}`,
			`after failed at  (line 18, call -1): workflow: it depends on workflow broken, which failed`,
			`broken failed at y (line 22, call 2): workflow: no operation of the document has operationId gone`},
	}, {
		name: "a step that calls a workflow",
		doc: `workflows:
- workflowId: outer
  steps:
  - stepId: call
    workflowId: inner
    parameters: [{name: n, value: 5}]
    outputs: {got: $outputs.echoed}
  - stepId: use
    operationId: b
    parameters: [{name: q, in: query, value: $steps.call.outputs.got}]
- workflowId: inner
  inputs: {type: object, required: [n], properties: {n: {type: integer}}}
  steps:
  - stepId: echo
    operationId: a
    parameters: [{name: n, in: query, value: $inputs.n}]
  outputs: {echoed: $inputs.n}
`,
		answer:  func(c *Call, n int) (int, string) { return 200, `{}` },
		inputs:  map[string]string{"n": "7"},
		sent:    []string{"inner/echo#1 a [{n query 5}] null", "outer/use#1 b [{q query 5}] null", "inner/echo#1 a [{n query 7}] null"},
		results: []string{`outer ok {}`, `inner ok {"echoed":7}`},
	}, {
		name: "a required input without a value",
		doc: `workflows:
- workflowId: w
  inputs: {type: object, required: [token], properties: {token: {type: string}}}
  steps: [{stepId: x, operationId: x}]
`,
		answer:  func(c *Call, n int) (int, string) { return 200, `{}` },
		results: []string{`w failed at  (line 5, call -1): workflow: input token is required and has no value: give it (--input token=VALUE), or a default in the inputs schema`},
	}, {
		name: "a goto loop is stopped",
		doc: `workflows:
- workflowId: w
  steps:
  - stepId: x
    operationId: x
    onSuccess: [{name: again, type: goto, stepId: x}]
`,
		answer:  func(c *Call, n int) (int, string) { return 200, `{}` },
		results: []string{`w failed at x (line 7, call -1): workflow: more than 5 steps were run: a goto that loops?`},
	}} {
		t.Run(c.name, func(t *testing.T) {
			d := parse(t, c.doc)
			f := &fakeSender{answer: c.answer}
			var waited []time.Duration
			res, err := Run(context.Background(), d, f, Options{Inputs: c.inputs, MaxSteps: 5, Wait: func(_ context.Context, d time.Duration) error {
				waited = append(waited, d)
				return nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range res {
				if r.OK {
					got = append(got, fmt.Sprintf("%s ok %s", r.Workflow, jsonx.Marshal(r.Outputs)))
				} else {
					got = append(got, fmt.Sprintf("%s failed at %s (line %d, call %d): %s: %s", r.Workflow, r.Step, r.Line, r.Call, r.Rule, r.Reason))
				}
			}
			if c.name != "a goto loop is stopped" && strings.Join(f.sent, "\n") != strings.Join(c.sent, "\n") {
				t.Errorf("sent:\n%s\nwant:\n%s", strings.Join(f.sent, "\n"), strings.Join(c.sent, "\n"))
			}
			if strings.Join(got, "\n") != strings.Join(c.results, "\n") {
				t.Errorf("results:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.results, "\n"))
			}
		})
	}
}

// TestParseProblems refuses descriptions that break the Arazzo
// Specification's rules that need no service: the version (Arazzo
// Specification Object), unique ids (Workflow Object, Step Object),
// one of operationId, operationPath and workflowId (Step Object),
// targets of actions (Success and Failure Action Objects) and of
// dependsOn (Workflow Object), unknown keys.
func TestParseProblems(t *testing.T) {
	head := "info: {title: t, version: '1'}\nsourceDescriptions: [{name: store, url: openapi.yaml}]\n"
	for _, c := range []struct{ name, doc, want string }{
		{"version", "arazzo: 2.0.0\n" + head + "workflows: [{workflowId: w, steps: [{stepId: s, operationId: x}]}]", `arazzo "2.0.0": want a version 1.0.x or 1.1.x`},
		{"unknown key", "arazzo: 1.0.1\n" + head + "workflows: [{workflowId: w, stepz: []}]", `the Arazzo description: line 4: field stepz not found in type arazzo.Workflow`},
		{"extension kept out", "arazzo: 1.1.0\n" + head + "x-team: plants\nworkflows: [{workflowId: w, x-owner: me, steps: [{stepId: s, operationId: x}]}]", ``},
		{"duplicate step", "arazzo: 1.0.1\n" + head + "workflows:\n- workflowId: w\n  steps:\n  - {stepId: s, operationId: x}\n  - {stepId: s, operationId: y}\n", `line 8: workflow w: stepId "s" is used twice`},
		{"two targets", "arazzo: 1.0.1\n" + head + "workflows:\n- workflowId: w\n  steps:\n  - {stepId: s, operationId: x, workflowId: w}\n", `line 7: workflow w step s: want one of operationId, operationPath and workflowId, not 2`},
		{"goto nowhere", "arazzo: 1.0.1\n" + head + "workflows:\n- workflowId: w\n  steps:\n  - stepId: s\n    operationId: x\n    onSuccess: [{name: n, type: goto, stepId: nope}]\n", `line 7: workflow w step s: onSuccess n: stepId "nope": no step of workflow w has that id`},
		{"depends on nothing", "arazzo: 1.0.1\n" + head + "workflows:\n- workflowId: w\n  dependsOn: [v]\n  steps: [{stepId: s, operationId: x}]\n", `line 5: workflow w: dependsOn "v": no workflow has that id`},
		{"bad expression", "arazzo: 1.0.1\n" + head + "workflows:\n- workflowId: w\n  steps:\n  - stepId: s\n    operationId: x\n    parameters: [{name: id, in: path, value: $steps.s.id}]\n", `line 7: workflow w step s: parameter id: "$steps.s.id" is not a runtime expression: want $steps.ID.outputs.NAME`},
		{"operationPath", "arazzo: 1.0.1\n" + head + "workflows:\n- workflowId: w\n  steps:\n  - {stepId: s, operationPath: '{$sourceDescriptions.other.url}#/paths/~1plants/get'}\n", `line 7: workflow w step s: operationPath "{$sourceDescriptions.other.url}#/paths/~1plants/get": no source description is named "other"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.doc))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != c.want {
				t.Errorf("Parse: %s\nwant: %s", got, c.want)
			}
		})
	}
}
