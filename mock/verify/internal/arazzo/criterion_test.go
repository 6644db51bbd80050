package arazzo

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
)

// testScope is a step's scope: a create's request and answer, inputs,
// and the outputs of a step run before.
func testScope(t *testing.T) *scope {
	t.Helper()
	body, err := jsonx.Decode([]byte(`{"id": 7, "name": "Fern", "tags": ["green", "indoor"], "pets": [{"n": 1}], "done": true, "none": null}`))
	if err != nil {
		t.Fatal(err)
	}
	return &scope{
		doc: &Document{Sources: []Source{{Name: "store", URL: "openapi.yaml", Type: "openapi"}}},
		x: &Exchange{
			URL: "http://127.0.0.1/plants?limit=5", Method: "POST", Status: 201,
			RequestHeader: http.Header{"X-Trace": {"abc"}}, Query: url.Values{"limit": {"5"}},
			Path: map[string]string{"plantId": "7"}, RequestBody: map[string]any{"name": "Fern"},
			Header: http.Header{"Location": {"/plants/7"}, "X-Rate-Limit": {"10"}}, Body: body,
		},
		inputs:    map[string]any{"name": "Fern", "order": map[string]any{"id": json.Number("3")}},
		outputs:   map[string]any{},
		steps:     map[string]map[string]any{"create": {"id": json.Number("7"), "plant": body}},
		workflows: map[string]*workflowValues{"seed": {inputs: map[string]any{"n": json.Number("2")}, outputs: map[string]any{"token": "t0k"}}},
	}
}

// TestExpressions evaluates runtime expressions, each of the forms of
// Arazzo 1.0.1's "Runtime Expressions" section (its ABNF and examples
// table) and 1.1.0's additions (a pointer after $inputs).
func TestExpressions(t *testing.T) {
	for _, c := range []struct {
		expr, want string // want is the value as JSON; "" for no value
	}{
		{"$url", `"http://127.0.0.1/plants?limit=5"`},
		{"$method", `"POST"`},
		{"$statusCode", `201`},
		{"$request.header.x-trace", `"abc"`}, // token is case-insensitive
		{"$request.query.limit", `"5"`},
		{"$request.path.plantId", `"7"`},
		{"$request.body#/name", `"Fern"`},
		{"$request.body", `{"name":"Fern"}`},
		{"$response.header.Location", `"/plants/7"`},
		{"$response.header.X-Rate-Limit", `"10"`},
		{"$response.header.Missing", ``},
		{"$response.body#/id", `7`},            // types preserved
		{"$response.body#/tags/1", `"indoor"`}, // array element by index
		{"$response.body#/nope", ``},           // a pointer into nothing
		{"$response.body.name", `"Fern"`},      // property de-reference (Criterion Object operators)
		{"$inputs.name", `"Fern"`},             // workflow input
		{"$inputs.order#/id", `3`},             // 1.1.0: inputs-reference with a pointer
		{"$inputs.order.id", `3`},              // property de-reference of an input
		{"$steps.create.outputs.id", `7`},      // step output value
		{"$steps.create.outputs.plant#/tags/0", `"green"`},
		{"$workflows.seed.outputs.token", `"t0k"`}, // workflow output value
		{"$workflows.seed.inputs.n", `2`},
		{"$sourceDescriptions.store.url", `"openapi.yaml"`},
	} {
		t.Run(c.expr, func(t *testing.T) {
			e, err := parseExpr(c.expr)
			if err != nil {
				t.Fatal(err)
			}
			v, found, err := testScope(t).eval(e)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if found {
				got = string(jsonx.Marshal(v))
			}
			if got != c.want {
				t.Errorf("%s = %s, want %s", c.expr, got, c.want)
			}
		})
	}
}

// TestExpressionErrors refuses what is not a runtime expression by the
// ABNF, and what cannot be evaluated where it is.
func TestExpressionErrors(t *testing.T) {
	for _, c := range []struct{ expr, want string }{
		{"$resposne.body#/id", `"$resposne.body#/id" is not a runtime expression: unknown source $resposne`},
		{"$response.bodyx", `"$response.bodyx" is not a runtime expression: after $response. want header.NAME, query.NAME, path.NAME or body`},
		{"$response.body#id", `"$response.body#id" is not a runtime expression: the JSON pointer after # starts with /`},
		{"$steps.create.id", `"$steps.create.id" is not a runtime expression: want $steps.ID.outputs.NAME`},
		{"$workflows.seed.steps.x", `"$workflows.seed.steps.x" is not a runtime expression: want $workflows.ID.inputs.NAME or $workflows.ID.outputs.NAME`},
		{"$message.payload", `"$message.payload" is not a runtime expression: $message (AsyncAPI) is not evaluated`},
	} {
		t.Run(c.expr, func(t *testing.T) {
			_, err := parseExpr(c.expr)
			if err == nil || err.Error() != c.want {
				t.Errorf("parseExpr(%q) = %v, want %s", c.expr, err, c.want)
			}
		})
	}
	sc := testScope(t)
	sc.x = nil
	e, _ := parseExpr("$statusCode")
	if _, _, err := sc.eval(e); err == nil || err.Error() != "$statusCode names a request or an answer, and there is none here (only a step has one)" {
		t.Errorf("$statusCode outside a step: %v", err)
	}
	e, _ = parseExpr("$steps.later.outputs.id")
	if _, _, err := sc.eval(e); err == nil || err.Error() != "$steps.later.outputs.id: step later has not run" {
		t.Errorf("a step not run: %v", err)
	}
}

// TestTemplates resolves values: a whole expression keeps its type,
// expressions between braces are written into the text ("Runtime
// Expressions": "Expressions can be embedded into string values by
// surrounding the expression with {} curly braces"), and objects are
// resolved property by property (Request Body Object, "JSON Object
// Example").
func TestTemplates(t *testing.T) {
	for _, c := range []struct {
		name string
		in   any
		want string
	}{
		{"whole", "$response.body#/id", `7`},
		{"embedded", "Bearer {$workflows.seed.outputs.token}", `"Bearer t0k"`},
		{"embedded number", "/plants/{$response.body#/id}/x", `"/plants/7/x"`},
		{"embedded object as JSON", "tags={$response.body#/tags}", `"tags=[\"green\",\"indoor\"]"`},
		{"literal", "placed", `"placed"`},
		{"dollar literal", "$5 off", `"$5 off"`},
		{"object", map[string]any{"id": "$steps.create.outputs.id", "status": "placed", "n": json.Number("1")}, `{"id":7,"n":1,"status":"placed"}`},
		{"selector (1.1.0)", map[string]any{"context": "$response.body", "selector": "$.tags[1]", "type": "jsonpath"}, `"indoor"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := testScope(t).resolve(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(jsonx.Marshal(v)); got != c.want {
				t.Errorf("resolve = %s, want %s", got, c.want)
			}
		})
	}
}

// TestCriteria evaluates criteria by Arazzo 1.0.1's Criterion Object
// ("Literals", "Operators": string comparisons case-insensitive) and
// 1.1.0's "Condition Evaluation" (null equals only itself, numeric
// strings compared as numbers, a regex against the context, a JSONPath
// query that selects at least one node).
func TestCriteria(t *testing.T) {
	for _, c := range []struct {
		name      string
		criterion Criterion
		want      bool
		why       string
	}{
		{"status equal", Criterion{Condition: "$statusCode == 201"}, true, "$statusCode = 201"},
		{"status not equal", Criterion{Condition: "$statusCode == 200"}, false, "$statusCode = 201"},
		{"no spaces", Criterion{Condition: "$statusCode!=200"}, true, "$statusCode = 201"},
		{"and", Criterion{Condition: "$statusCode == 201 && $response.body#/name == 'Fern'"}, true, `$statusCode = 201, $response.body#/name = "Fern"`},
		{"or", Criterion{Condition: "$statusCode == 200 || $statusCode == 201"}, true, "$statusCode = 201"},
		{"not", Criterion{Condition: "!($statusCode >= 400)"}, true, "$statusCode = 201"},
		{"strings case-insensitive", Criterion{Condition: "$response.body#/name == 'FERN'"}, true, `$response.body#/name = "Fern"`},
		{"quote in a string", Criterion{Condition: "'it''s' == 'IT''S'"}, true, ""},
		{"numeric string against a number", Criterion{Condition: "$response.header.X-Rate-Limit > 9"}, true, `$response.header.X-Rate-Limit = "10"`},
		{"less or equal", Criterion{Condition: "$response.body#/id <= 7"}, true, "$response.body#/id = 7"},
		{"null equals null", Criterion{Condition: "$response.body#/none == null"}, true, "$response.body#/none = null"},
		{"missing is null", Criterion{Condition: "$response.body#/nope == null"}, true, "$response.body#/nope = null (not there)"},
		{"null is not a number", Criterion{Condition: "$response.body#/nope != 0"}, true, "$response.body#/nope = null (not there)"},
		{"boolean", Criterion{Condition: "$response.body#/done"}, true, "$response.body#/done = true"},
		{"index and property", Criterion{Condition: "$response.body.tags[1] == 'indoor' && $response.body.pets[0].n == 1"}, true, `$response.body.tags = ["green","indoor"], $response.body.pets = [{"n":1}]`},
		{"grouping", Criterion{Condition: "($statusCode == 200 || $statusCode == 201) && $inputs.name == 'fern'"}, true, `$statusCode = 201, $inputs.name = "Fern"`},
		{"regex", Criterion{Context: "$statusCode", Condition: `^2\d{2}$`, Type: "regex"}, true, `$statusCode = "201"`},
		{"regex fails", Criterion{Context: "$response.body#/name", Condition: `^Oak`, Type: "regex"}, false, `$response.body#/name = "Fern"`},
		{"regex embedded", Criterion{Context: "$response.header.Location", Condition: `/plants/{$response.body#/id}$`, Type: "regex"}, true, `$response.header.Location = "/plants/7"`},
		{"regex on null", Criterion{Context: "$response.body#/nope", Condition: `.*`, Type: "regex"}, false, "$response.body#/nope is null"},
		{"jsonpath", Criterion{Context: "$response.body", Condition: "$.pets[*]", Type: "jsonpath"}, true, ""},
		{"jsonpath filter", Criterion{Context: "$response.body", Condition: "$.pets[?@.n == 1]", Type: "jsonpath"}, true, ""},
		{"jsonpath none", Criterion{Context: "$response.body", Condition: "$.pets[?@.n == 2]", Type: "jsonpath"}, false, ""},
		{"jsonpath embedded", Criterion{Context: "$response.body", Condition: "$[?@ == '{$inputs.name}']", Type: "jsonpath"}, true, ""},
		{"jsonpath type object", Criterion{Context: "$response.body", Condition: "$.tags[0]", Type: map[string]any{"type": "jsonpath", "version": "draft-goessner-dispatch-jsonpath-00"}}, true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			cr := c.criterion
			var chk checker
			checkCriterion(&chk, 0, "test", &cr)
			if len(chk.problems) > 0 {
				t.Fatal(chk.problems)
			}
			got, why, err := cr.met(testScope(t))
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("%s = %v (%s), want %v", cr.Condition, got, why, c.want)
			}
			if c.why != "" && why != c.why {
				t.Errorf("why = %q, want %q", why, c.why)
			}
		})
	}
}

// TestCriterionErrors refuses criteria that cannot be read, when the
// description is read (Criterion Object: "For regex or JSONPath, the
// type and context MUST be specified"), and evaluates to a failure
// those that cannot be evaluated (1.1.0, "Evaluation Errors").
func TestCriterionErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		cr   Criterion
		want string
	}{
		{"unclosed string", Criterion{Condition: "$statusCode == 'x"}, "test: $statusCode == 'x: the string at 15 has no closing quote"},
		{"dangling operator", Criterion{Condition: "$statusCode =="}, "test: $statusCode ==: the condition ends too soon"},
		{"regex without context", Criterion{Condition: "^2", Type: "regex"}, "test: ^2: a regex criterion needs a context"},
		{"bad regex", Criterion{Context: "$statusCode", Condition: "(", Type: "regex"}, "test: (: missing closing ) in `(`"},
		{"bad jsonpath", Criterion{Context: "$response.body", Condition: "$[", Type: "jsonpath"}, "test: $[: jsonpath: unexpected eof at position 3"},
		{"xpath", Criterion{Context: "$response.body", Condition: "/a", Type: "xpath"}, "test: type xpath: XPath criteria are not evaluated"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var chk checker
			cr := c.cr
			checkCriterion(&chk, 0, "test", &cr)
			if len(chk.problems) != 1 || chk.String() != c.want {
				t.Errorf("problems = %q, want %q", chk.String(), c.want)
			}
		})
	}
	cr := &Criterion{Condition: "$response.body#/name > 3", kind: "simple"}
	_, _, err := cr.met(testScope(t))
	if err == nil || err.Error() != `Fern and 3 have no order` {
		t.Errorf("ordering a word and a number: %v", err)
	}
}
