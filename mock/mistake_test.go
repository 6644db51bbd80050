package mock

import (
	"errors"
	"slices"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/problem"
)

// mistakeDoc is a document with one mistake in operation /a (the text
// given), and a sound operation /b that answers 200 with 7.
func mistakeDoc(version, paths, components string) string {
	return "openapi: " + version + `
info: {title: mistakes, version: '1'}
paths:
` + paths + `
  /b:
    get:
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: integer, example: 7}}}}
` + components
}

// TestDocumentMistakes checks that a mistake that touches one piece of a
// document leaves that piece out with one line in Mistakes, naming the
// place and line, while the rest is served as declared; that the piece at
// fault answers as if the mistake were not written; and that Strict
// refuses the document with that line.
func TestDocumentMistakes(t *testing.T) {
	okA := `'200': {description: ok, content: {application/json: {schema: {type: string}, example: fine}}}`
	tests := []struct {
		name    string
		doc     string
		mistake string // the one line of Mistakes; "" for none
		call    call   // a request to the piece at fault
	}{
		{
			name: "a parameter without a name",
			doc: mistakeDoc("3.0.3", `
  /a:
    get:
      parameters:
        - {in: query, required: true, schema: {type: string}}
      responses:
        `+okA, ""),
			mistake: "#/paths/~1a/get/parameters/0 (line 8): the parameter has no name: it is left out of its operation, which is served without it",
			call:    call{method: "GET", path: "/a", status: 200, wantHeader: jsonHeader(`"fine"`), wantBody: `"fine"`},
		},
		{
			name: "a parameter in no place a request has",
			doc: mistakeDoc("3.0.3", `
  /a:
    get:
      parameters:
        - {in: body, name: q, required: true, schema: {type: string}}
      responses:
        `+okA, ""),
			mistake: `#/paths/~1a/get/parameters/0 (line 8): parameter "q" is in "body", which is none of path, query, header, cookie: the parameter is left out of its operation`,
			call:    call{method: "GET", path: "/a", status: 200, wantHeader: jsonHeader(`"fine"`), wantBody: `"fine"`},
		},
		{
			name: "a pattern that is a number",
			doc: mistakeDoc("3.0.3", `
  /a:
    get:
      parameters:
        - {in: query, name: q, schema: {type: string, pattern: 12, maxLength: 3}}
      responses:
        `+okA, ""),
			mistake: "#/paths/~1a/get/parameters/0/schema/pattern (line 8): pattern: 12 is not valid JSON Schema (expected string, got number): the keyword is left out of the schema",
			call:    call{method: "GET", path: "/a?q=abc", status: 200, wantHeader: jsonHeader(`"fine"`), wantBody: `"fine"`},
		},
		{
			name: "a pattern that is not a regular expression",
			doc: mistakeDoc("3.0.3", `
  /a:
    get:
      parameters:
        - {in: query, name: q, schema: {type: string, pattern: '[a-', maxLength: 3}}
      responses:
        `+okA, ""),
			mistake: `#/paths/~1a/get/parameters/0/schema/pattern (line 8): pattern: "[a-" is not an ECMA-262 regular expression (unterminated [] set in ` + "`[a-`" + `): the keyword is left out of the schema`,
			call:    call{method: "GET", path: "/a?q=xyz", status: 200, wantHeader: jsonHeader(`"fine"`), wantBody: `"fine"`},
		},
		{
			name: "a pattern written as a JavaScript literal",
			doc: mistakeDoc("3.0.3", `
  /a:
    get:
      parameters:
        - {in: query, name: q, schema: {type: string, pattern: '/^[a-z0-9._]+$/', maxLength: 3}}
      responses:
        `+okA, ""),
			mistake: `#/paths/~1a/get/parameters/0/schema/pattern (line 8): pattern: "/^[a-z0-9._]+$/" has ^ right after a /, as a JavaScript regular expression literal written into it: no string matches it, and the keyword is left out of the schema`,
			call:    call{method: "GET", path: "/a?q=abc", status: 200, wantHeader: jsonHeader(`"fine"`), wantBody: `"fine"`},
		},
		{
			name: "a pattern longer than its maxLength",
			doc: mistakeDoc("3.0.3", `
  /a:
    get:
      parameters:
        - {in: query, name: q, schema: {type: string, pattern: '[0-9a-f]{8}-[0-9a-f]{4}', maxLength: 4}}
      responses:
        `+okA, ""),
			mistake: `#/paths/~1a/get/parameters/0/schema/pattern (line 8): pattern: "[0-9a-f]{8}-[0-9a-f]{4}": no string it matches is at most maxLength 4 characters long (the shortest is 13): the keyword is left out of the schema`,
			call:    call{method: "GET", path: "/a?q=abcd", status: 200, wantHeader: jsonHeader(`"fine"`), wantBody: `"fine"`},
		},
		{
			name: "a pattern whose $ comes before what it requires",
			doc: mistakeDoc("3.1.0", `
  /a:
    get:
      parameters:
        - {in: query, name: q, schema: {type: string, pattern: '=\{3,\}$\{1,4\}', maxLength: 9}}
      responses:
        `+okA, ""),
			mistake: `#/paths/~1a/get/parameters/0/schema/pattern (line 8): pattern: "=\\{3,\\}$\\{1,4\\}": no string matches it ($, the end of the string, comes before characters it requires, or ^, the start, after them): the keyword is left out of the schema`,
			call:    call{method: "GET", path: "/a?q=abc", status: 200, wantHeader: jsonHeader(`"fine"`), wantBody: `"fine"`},
		},
		{
			name: "additionalProperties false refusing a required property",
			doc: mistakeDoc("3.1.0", `
  /a:
    put:
      requestBody:
        required: true
        content: {application/json: {schema: {type: object, required: [n, json_schema], properties: {n: {type: string}, jsonSchema: {type: object}}, additionalProperties: false}}}
      responses:
        '204': {description: stored}`, ""),
			mistake: "#/paths/~1a/put/requestBody/content/application~1json/schema/additionalProperties (line 9): additionalProperties false refuses json_schema, which the schema requires: no object satisfies the schema, and the keyword is left out of it",
			call:    call{method: "PUT", path: "/a", header: map[string]string{"Content-Type": "application/json"}, body: `{"n":"x","json_schema":{}}`, status: 204, wantHeader: map[string]string{}},
		},
		{
			name: "a patternProperties key that is not a regular expression",
			doc: mistakeDoc("3.1.0", `
  /a:
    put:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              patternProperties:
                '[a-': {type: string}
                '^x': {type: integer}
      responses:
        '204': {description: stored}`, ""),
			mistake: `#/paths/~1a/put/requestBody/content/application~1json/schema/patternProperties/[a- (line 14): patternProperties key "[a-" is not an ECMA-262 regular expression (unterminated [] set in ` + "`[a-`" + `): the entry is left out of the schema`,
			call:    call{method: "PUT", path: "/a", header: map[string]string{"Content-Type": "application/json"}, body: `{"ab":5,"xy":"s"}`, status: 422, wantHeader: jsonHeader(errorBody(problem.CodeSchema, "request body does not match the schema: xy: expected integer, got string")), wantBody: errorBody(problem.CodeSchema, "request body does not match the schema: xy: expected integer, got string")},
		},
		{
			name: "examples an object",
			doc: mistakeDoc("3.1.0", `
  /a:
    put:
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/A'}}}
      responses:
        '204': {description: stored}`, `components:
  schemas:
    A:
      type: object
      required: [n]
      properties: {n: {type: string}}
      examples: {one: {n: x}}
`),
			mistake: `#/components/schemas/A/examples (line 22): examples: {"one":{"n":"x"}} is not valid JSON Schema (expected array, got object): the keyword is left out of the schema`,
			call:    call{method: "PUT", path: "/a", header: map[string]string{"Content-Type": "application/json"}, body: `{"n":"y"}`, status: 204, wantHeader: map[string]string{}},
		},
		{
			name: "an unknown type",
			doc: mistakeDoc("3.0.3", `
  /a:
    put:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [f, d]
              properties:
                f: {type: file}
                d: {type: date}
                n: {type: integer}
      responses:
        '204': {description: stored}`, ""),
			mistake: `#/paths/~1a/put/requestBody/content/application~1json/schema/properties/f/type (line 15): type: "file" is not valid JSON Schema (value is not one of the allowed values): the keyword is left out of the schema (and 1 more places)`,
			call:    call{method: "PUT", path: "/a", header: map[string]string{"Content-Type": "application/json"}, body: `{"f":"x","d":"2026-11-27","n":1}`, status: 204, wantHeader: map[string]string{}},
		},
		{
			name: "a bound under its minimum",
			doc: mistakeDoc("3.1.0", `
  /a:
    put:
      requestBody:
        required: true
        content: {application/json: {schema: {type: object, minProperties: -1, maxProperties: 1}}}
      responses:
        '204': {description: stored}`, ""),
			mistake: "#/paths/~1a/put/requestBody/content/application~1json/schema/minProperties (line 9): minProperties: -1 is not valid JSON Schema (-1 is under the minimum 0): the keyword is left out of the schema",
			call:    call{method: "PUT", path: "/a", header: map[string]string{"Content-Type": "application/json"}, body: `{}`, status: 204, wantHeader: map[string]string{}},
		},
		{
			name: "a keyword without the keyword it needs",
			doc: mistakeDoc("3.0.3", `
  /a:
    get:
      parameters:
        - {in: query, name: q, schema: {type: integer, exclusiveMaximum: true}}
      responses:
        `+okA, ""),
			mistake: "#/paths/~1a/get/parameters/0/schema/exclusiveMaximum (line 8): exclusiveMaximum: true is not valid JSON Schema (with exclusiveMaximum present, maximum must be too): the keyword is left out of the schema",
			call:    call{method: "GET", path: "/a?q=x", status: 400, wantHeader: jsonHeader(errorBody(problem.CodeParameter, "invalid parameters: query.q: expected integer, got string")), wantBody: errorBody(problem.CodeParameter, "invalid parameters: query.q: expected integer, got string")},
		},
		{
			name: "a value where a schema belongs",
			doc: mistakeDoc("3.1.0", `
  /a:
    put:
      requestBody:
        required: true
        content: {application/json: {schema: {type: object, properties: {x: 3, n: {type: integer}}}}}
      responses:
        '204': {description: stored}`, ""),
			mistake: "#/paths/~1a/put/requestBody/content/application~1json/schema/properties/x (line 9): 3 is not a schema (expected boolean or object, got number): any value is accepted in its place",
			call:    call{method: "PUT", path: "/a", header: map[string]string{"Content-Type": "application/json"}, body: `{"x":[1],"n":2}`, status: 204, wantHeader: map[string]string{}},
		},
		{
			name: "a security requirement naming no scheme",
			doc: mistakeDoc("3.0.3", `
  /a:
    get:
      security: [{nope: []}]
      responses:
        `+okA, ""),
			mistake: `#/paths/~1a/get/security/0 (line 7): security requirement names "nope", which is not in components.securitySchemes: it is left out of the requirement`,
			call:    call{method: "GET", path: "/a", status: 200, wantHeader: jsonHeader(`"fine"`), wantBody: `"fine"`},
		},
		{
			name: "a schema $ref to nothing",
			doc: mistakeDoc("3.1.0", `
  /a:
    put:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                x: {$ref: '#/components/schemas/Gone'}
                n: {type: integer}
      responses:
        '204': {description: stored}`, ""),
			mistake: `#/paths/~1a/put/requestBody/content/application~1json/schema/properties/x (line 14): $ref "#/components/schemas/Gone" points at nothing: the reference is left out, and the schema is read without it`,
			call:    call{method: "PUT", path: "/a", header: map[string]string{"Content-Type": "application/json"}, body: `{"x":[true],"n":"s"}`, status: 422, wantHeader: jsonHeader(errorBody(problem.CodeSchema, "request body does not match the schema: n: expected integer, got string")), wantBody: errorBody(problem.CodeSchema, "request body does not match the schema: n: expected integer, got string")},
		},
		{
			name: "a parameter $ref to nothing",
			doc: mistakeDoc("3.0.3", `
  /a:
    get:
      parameters: [{$ref: '#/components/parameters/Gone'}]
      responses:
        `+okA, ""),
			mistake: `#/paths/~1a/get/parameters/0 (line 7): $ref "#/components/parameters/Gone" points at nothing: the parameter is left out of its operation`,
			call:    call{method: "GET", path: "/a", status: 200, wantHeader: jsonHeader(`"fine"`), wantBody: `"fine"`},
		},
		{
			name: "an operation that is not an object",
			doc: mistakeDoc("3.0.3", `
  /a:
    get: fine
    post:
      responses:
        `+okA, ""),
			mistake: "#/paths/~1a/get (line 6): the operation is not an object: it is left out",
			call:    call{method: "GET", path: "/a", status: 405, wantHeader: jsonHeader(errorBody(problem.CodeMethod, "/a does not declare GET; allowed: POST"), "Allow", "POST"), wantBody: errorBody(problem.CodeMethod, "/a does not declare GET; allowed: POST")},
		},
		{
			name: "a path item $ref to nothing",
			doc: mistakeDoc("3.1.0", `
  /a: {$ref: '#/components/pathItems/Gone'}`, ""),
			mistake: `#/paths/~1a (line 5): $ref "#/components/pathItems/Gone" points at nothing: the path item is left out`,
			call:    call{method: "GET", path: "/a", status: 404, wantHeader: jsonHeader(errorBody(problem.CodeNoRoute, "no path of the OpenAPI document matches /a")), wantBody: errorBody(problem.CodeNoRoute, "no path of the OpenAPI document matches /a")},
		},
		{
			name: "a response $ref to nothing",
			doc: mistakeDoc("3.0.3", `
  /a:
    get:
      responses:
        '404': {$ref: '#/components/responses/Gone'}
        `+okA, ""),
			mistake: `#/paths/~1a/get/responses/404 (line 8): $ref "#/components/responses/Gone" points at nothing: the response is left out of its operation`,
			call:    call{method: "GET", path: "/a", status: 200, wantHeader: jsonHeader(`"fine"`), wantBody: `"fine"`},
		},
		{
			name: "a header $ref to nothing",
			doc: mistakeDoc("3.0.3", `
  /a:
    get:
      responses:
        '200':
          description: ok
          headers: {X-Rate: {$ref: '#/components/headers/Gone'}}
          content: {application/json: {schema: {type: string}, example: fine}}`, ""),
			mistake: `#/paths/~1a/get/responses/200/headers/X-Rate (line 10): $ref "#/components/headers/Gone" points at nothing: the header is left out of its response`,
			call:    call{method: "GET", path: "/a", status: 200, wantHeader: jsonHeader(`"fine"`), wantBody: `"fine"`},
		},
		{
			name: "a path that does not start with a slash",
			doc: mistakeDoc("3.0.3", `
  a:
    get:
      responses:
        `+okA, ""),
			mistake: "#/paths/a (line 6): the path does not start with /: its operations are left out",
			call:    call{method: "GET", path: "/a", status: 404, wantHeader: jsonHeader(errorBody(problem.CodeNoRoute, "no path of the OpenAPI document matches /a")), wantBody: errorBody(problem.CodeNoRoute, "no path of the OpenAPI document matches /a")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ts := newTestServer(t, Options{Spec: []byte(tt.doc)})
			var want []string
			if tt.mistake != "" {
				want = []string{tt.mistake}
			}
			if got := s.Mistakes(); !slices.Equal(got, want) {
				t.Errorf("Mistakes = %q\nwant       %q", got, want)
			}
			if got := s.Warnings(); len(got) != 0 {
				t.Errorf("Warnings = %q, want none", got)
			}
			check(t, s, ts, call{method: "GET", path: "/b", status: 200, wantHeader: jsonHeader("7"), wantBody: "7"})
			check(t, s, ts, tt.call)

			_, err := New(Options{Spec: []byte(tt.doc), Strict: true})
			var se *SpecError
			switch {
			case tt.mistake == "" && err != nil:
				t.Errorf("New with Strict: %v, want no error", err)
			case tt.mistake != "" && (!errors.As(err, &se) || err.Error() != "OpenAPI document: refused in strict mode: "+tt.mistake):
				t.Errorf("New with Strict: err = %v\nwant the *SpecError OpenAPI document: refused in strict mode: %s", err, tt.mistake)
			}
		})
	}
}

// TestStrictNamesTheFirstMistake checks that Strict refuses a document
// with several mistakes on one line: the first, and how many more.
func TestStrictNamesTheFirstMistake(t *testing.T) {
	doc := mistakeDoc("3.0.3", `
  /a:
    get:
      parameters:
        - {in: query, schema: {type: string}}
        - {in: query, name: q, schema: {type: string, pattern: 12}}
      responses:
        '204': {description: ok}`, "")
	_, err := New(Options{Spec: []byte(doc), Strict: true})
	want := "OpenAPI document: refused in strict mode: #/paths/~1a/get/parameters/0 (line 8): the parameter has no name: it is left out of its operation, which is served without it (and 1 more mistakes: plantmock check lists them)"
	var se *SpecError
	if !errors.As(err, &se) || err.Error() != want {
		t.Errorf("New with Strict: err = %v\nwant the *SpecError %s", err, want)
	}
}
