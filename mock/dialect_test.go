package mock

import (
	"reflect"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/problem"
)

func errorBody(code problem.Code, message string) string {
	return `{"error":` + itoa(int(code)) + `,"message":` + string(quote(message)) + `}`
}

const treeSpec = `openapi: 3.1.0
info: {title: tree, version: '1'}
paths:
  /nodes:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Node'}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Node'}
    get:
      responses:
        '200':
          description: all
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/Node'}}
  /nodes/{id}:
    get:
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: one
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Node'}
  /sample:
    get:
      responses:
        '200':
          description: a made-up tree
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Node'}
components:
  schemas:
    Node:
      type: object
      required: [id, name]
      properties:
        id: {type: string}
        name: {type: string, minLength: 1}
        children:
          type: array
          items: {$ref: '#/components/schemas/Node'}
`

// TestRecursiveSchema serves a tree whose nodes' children are nodes:
// created, read and listed whole, a bad grandchild named by its path, and
// made-up trees that end.
func TestRecursiveSchema(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(treeSpec), Seed: 3})
	tree := `{"children":[{"children":[{"id":"c","name":"leaf"}],"id":"b","name":"branch"}],"id":"a","name":"root"}`
	bad := `{"id":"x","name":"root","children":[{"id":"y","name":"b","children":[{"id":"z","name":""}]}]}`
	msg := `request body does not match the schema: children[0].children[0].name: shorter than the minimum length 1`
	for _, c := range []call{
		{name: "create a tree", method: "POST", path: "/nodes", header: map[string]string{"Content-Type": "application/json"}, body: tree,
			status: 201, wantHeader: jsonHeader(tree), wantBody: tree},
		{name: "read it", method: "GET", path: "/nodes/a", status: 200, wantHeader: jsonHeader(tree), wantBody: tree},
		{name: "list it", method: "GET", path: "/nodes", status: 200, wantHeader: jsonHeader("[" + tree + "]"), wantBody: "[" + tree + "]"},
		{name: "a bad grandchild", method: "POST", path: "/nodes", header: map[string]string{"Content-Type": "application/json"}, body: bad,
			status: 422, wantHeader: jsonHeader(errorBody(problem.CodeSchema, msg)), wantBody: errorBody(problem.CodeSchema, msg)},
	} {
		t.Run(c.name, func(t *testing.T) { check(t, s, ts, c) })
	}
	// Made-up trees conform (check validates every answer) and end.
	for i := 0; i < 20; i++ {
		req, resp, body := send(t, ts, call{method: "GET", path: "/sample"})
		if resp.StatusCode != 200 {
			t.Fatalf("sample: %d %s", resp.StatusCode, body)
		}
		assertConforms(t, s, req, resp, body)
	}
	if w := s.Warnings(); len(w) != 1 || !strings.HasPrefix(w[0], "#/components/schemas/Node (line 45): the schema contains itself") {
		t.Errorf("warnings = %q", w)
	}
}

// TestDialectByVersion checks that the same schema judges the same body
// by the document's version: 7000000.0 is an integer in JSON Schema
// 2020-12 (3.1), and not in the OAS 3.0 Schema Object.
func TestDialectByVersion(t *testing.T) {
	doc := func(version string) string {
		return `openapi: ` + version + `
info: {title: counts, version: '1'}
paths:
  /counts:
    put:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                id: {type: integer}
      responses:
        '204': {description: stored}
`
	}
	body := `{"id":7000000.0}`
	h := map[string]string{"Content-Type": "application/json"}
	s31, ts31 := newTestServer(t, Options{Spec: []byte(doc("3.1.0"))})
	check(t, s31, ts31, call{method: "PUT", path: "/counts", header: h, body: body, status: 204, wantHeader: map[string]string{}})
	s30, ts30 := newTestServer(t, Options{Spec: []byte(doc("3.0.3"))})
	msg := "request body does not match the schema: id: expected integer, got 7000000.0 (in OpenAPI 3.0 an integer is written without a fraction or exponent)"
	check(t, s30, ts30, call{method: "PUT", path: "/counts", header: h, body: body, status: 422, wantHeader: jsonHeader(errorBody(problem.CodeSchema, msg)), wantBody: errorBody(problem.CodeSchema, msg)})
	check(t, s30, ts30, call{method: "PUT", path: "/counts", header: h, body: `{"id":7000000}`, status: 204, wantHeader: map[string]string{}})
}

// TestBooleanSchemas checks keywords a model of schemas tends to lose:
// boolean subschemas (also as the target of $ref and $dynamicRef, as in
// the JSON Schema Test Suite's "$dynamicRef points to a boolean schema"),
// an empty enum, a whole maxLength written 2.0.
func TestBooleanSchemas(t *testing.T) {
	spec := `openapi: 3.1.0
info: {title: booleans, version: '1'}
paths:
  /all-of:
    put: {requestBody: {content: {application/json: {schema: {allOf: [true, false]}}}}, responses: {'204': {description: ok}}}
  /not-true:
    put: {requestBody: {content: {application/json: {schema: {not: true}}}}, responses: {'204': {description: ok}}}
  /no-items:
    put: {requestBody: {content: {application/json: {schema: {type: array, items: false}}}}, responses: {'204': {description: ok}}}
  /empty-enum:
    put: {requestBody: {content: {application/json: {schema: {enum: []}}}}, responses: {'204': {description: ok}}}
  /short:
    put: {requestBody: {content: {application/json: {schema: {type: string, maxLength: 2.0}}}}, responses: {'204': {description: ok}}}
  /contains:
    put: {requestBody: {content: {application/json: {schema: {type: array, contains: false}}}}, responses: {'204': {description: ok}}}
  /refs:
    put: {requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Refs'}}}}, responses: {'204': {description: ok}}}
components:
  schemas:
    Refs:
      $defs: {"true": true, "false": false}
      properties:
        dynamic-true: {$dynamicRef: '#/components/schemas/Refs/$defs/true'}
        dynamic-false: {$dynamicRef: '#/components/schemas/Refs/$defs/false'}
        ref-true: {$ref: '#/components/schemas/Refs/$defs/true'}
        ref-false: {$ref: '#/components/schemas/Refs/$defs/false'}
`
	s, ts := newTestServer(t, Options{Spec: []byte(spec)})
	h := map[string]string{"Content-Type": "application/json"}
	for _, tt := range []struct {
		path, body, why string
	}{
		{"/all-of", `1`, "body: no value is allowed here (the schema is false)"},
		{"/not-true", `"x"`, "body: matches the schema under not, which it must not"},
		{"/no-items", `[]`, ""},
		{"/no-items", `[1]`, "[0]: no value is allowed here (the schema is false)"},
		{"/empty-enum", `"x"`, "body: value is not one of the allowed values"},
		{"/short", `"ab"`, ""},
		{"/short", `"abc"`, "body: longer than the maximum length 2"},
		{"/contains", `[1]`, "[0]: no value is allowed here (the schema is false)"},
		{"/refs", `{"dynamic-true":1,"ref-true":"x"}`, ""},
		{"/refs", `{"dynamic-false":1}`, "dynamic-false: no value is allowed here (the schema is false)"},
		{"/refs", `{"ref-false":1}`, "ref-false: no value is allowed here (the schema is false)"},
	} {
		c := call{method: "PUT", path: tt.path, header: h, body: tt.body, status: 204, wantHeader: map[string]string{}}
		if tt.why != "" {
			b := errorBody(problem.CodeSchema, "request body does not match the schema: "+tt.why)
			c.status, c.wantHeader, c.wantBody = 422, jsonHeader(b), b
		}
		t.Run(tt.path+" "+tt.body, func(t *testing.T) { check(t, s, ts, c) })
	}
	if len(s.Warnings()) != 0 {
		t.Errorf("warnings = %q", s.Warnings())
	}
}

// TestForeignKeywords checks that keywords of the other dialect are
// annotations with a warning, not reasons to refuse the document.
func TestForeignKeywords(t *testing.T) {
	spec := `openapi: 3.1.0
info: {title: foreign, version: '1'}
paths:
  /things:
    put:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                name: {type: string, nullable: true}
                size: {type: integer, minimum: 0, exclusiveMinimum: true}
      responses: {'204': {description: ok}}
`
	s, ts := newTestServer(t, Options{Spec: []byte(spec)})
	want := []string{
		`#/paths/~1things/put/requestBody/content/application~1json/schema/properties/name/nullable (line 12): nullable is OpenAPI 3.0, not JSON Schema 2020-12: it is ignored (write type: [..., "null"])`,
		`#/paths/~1things/put/requestBody/content/application~1json/schema/properties/size/exclusiveMinimum (line 13): a boolean exclusiveMinimum is OpenAPI 3.0, not JSON Schema 2020-12: it is ignored (write the bound as exclusiveMinimum's value)`,
	}
	if got := s.Warnings(); !reflect.DeepEqual(got, want) {
		t.Errorf("warnings = %q\nwant %q", got, want)
	}
	h := map[string]string{"Content-Type": "application/json"}
	for _, tt := range []struct {
		body   string
		status int
	}{{`{"name":"a","size":0}`, 204}, {`{"name":null}`, 422}, {`{"size":-1}`, 422}} {
		_, resp, got := send(t, ts, call{method: "PUT", path: "/things", header: h, body: tt.body})
		if resp.StatusCode != tt.status {
			t.Errorf("PUT %s: %d %s, want %d", tt.body, resp.StatusCode, got, tt.status)
		}
	}
}

// TestMixedSegmentRoute serves a template whose segment mixes text and a
// parameter.
func TestMixedSegmentRoute(t *testing.T) {
	spec := `openapi: 3.1.0
info: {title: files, version: '1'}
paths:
  /files/{name}.json:
    get:
      parameters:
        - {name: name, in: path, required: true, schema: {type: string, pattern: '^[a-z]+$'}}
      responses:
        '200':
          description: the file
          content:
            application/json:
              schema: {type: object, properties: {kind: {const: json}}, required: [kind]}
  /files/index.json:
    get:
      responses:
        '200':
          description: the file
          content:
            application/json:
              schema: {type: object, properties: {kind: {const: any}}, required: [kind]}
`
	s, ts := newTestServer(t, Options{Spec: []byte(spec)})
	check(t, s, ts, call{method: "GET", path: "/files/report.json", status: 200, wantHeader: jsonHeader(`{"kind":"json"}`), wantBody: `{"kind":"json"}`})
	check(t, s, ts, call{method: "GET", path: "/files/index.json", status: 200, wantHeader: jsonHeader(`{"kind":"any"}`), wantBody: `{"kind":"any"}`})
	msg := `invalid parameters: path.name: "Report" does not match the pattern ^[a-z]+$`
	check(t, s, ts, call{method: "GET", path: "/files/Report.json", status: 400, wantHeader: jsonHeader(errorBody(problem.CodeParameter, msg)), wantBody: errorBody(problem.CodeParameter, msg)})
	msg = "no path of the OpenAPI document matches /files/report"
	check(t, s, ts, call{method: "GET", path: "/files/report", status: 404, wantHeader: jsonHeader(errorBody(problem.CodeNoRoute, msg)), wantBody: errorBody(problem.CodeNoRoute, msg)})
}

// TestLiteralRouteGivesWay: a literal path that does not declare the
// method gives way to a template that matches and declares it, so GET
// /jobs/$next reads the job "$next"; a method no route declares gets the
// literal route's 405.
func TestLiteralRouteGivesWay(t *testing.T) {
	spec := `openapi: 3.0.3
info: {title: jobs, version: '1'}
paths:
  /jobs/$next:
    put:
      responses:
        '204': {description: started}
  /jobs/{jobId}:
    get:
      parameters:
        - {name: jobId, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: the job
          content:
            application/json:
              schema: {type: object, properties: {state: {enum: [queued]}}, required: [state]}
`
	s, ts := newTestServer(t, Options{Spec: []byte(spec)})
	for _, tt := range []struct {
		call
	}{
		{call{name: "template declares GET", method: "GET", path: "/jobs/$next", status: 200, wantHeader: jsonHeader(`{"state":"queued"}`), wantBody: `{"state":"queued"}`}},
		{call{name: "escaped", method: "GET", path: "/jobs/%24next", status: 200, wantHeader: jsonHeader(`{"state":"queued"}`), wantBody: `{"state":"queued"}`}},
		{call{name: "literal declares PUT", method: "PUT", path: "/jobs/$next", status: 204, wantHeader: map[string]string{}}},
		{call{name: "none declares DELETE", method: "DELETE", path: "/jobs/$next", status: 405,
			wantHeader: jsonHeader(errorBody(problem.CodeMethod, "/jobs/$next does not declare DELETE; allowed: PUT"), "Allow", "PUT"),
			wantBody:   errorBody(problem.CodeMethod, "/jobs/$next does not declare DELETE; allowed: PUT")}},
	} {
		t.Run(tt.name, func(t *testing.T) { check(t, s, ts, tt.call) })
	}
}

// TestCollectionUnderMixedSegment keeps resources of a collection whose
// path mixes text and a parameter under the path the request names.
func TestCollectionUnderMixedSegment(t *testing.T) {
	spec := `openapi: 3.1.0
info: {title: shelves, version: '1'}
paths:
  /v1/{shelf}:books:
    parameters:
      - {name: shelf, in: path, required: true, schema: {type: string}}
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, required: [id], properties: {id: {type: string}}}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {type: object, required: [id], properties: {id: {type: string}}}
`
	s, ts := newTestServer(t, Options{Spec: []byte(spec)})
	check(t, s, ts, call{method: "POST", path: "/v1/fiction:books", header: map[string]string{"Content-Type": "application/json"},
		body: `{"id":"b1"}`, status: 201, wantHeader: jsonHeader(`{"id":"b1"}`), wantBody: `{"id":"b1"}`})
	var got []string
	for _, r := range s.Resources("/v1/fiction:books") {
		got = append(got, string(r))
	}
	if !reflect.DeepEqual(got, []string{`{"id":"b1"}`}) {
		t.Errorf("resources of /v1/fiction:books = %q", got)
	}
}
