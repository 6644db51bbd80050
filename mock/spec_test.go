package mock

import (
	"errors"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/pipeline"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

const minimalPaths = `
paths:
  /things:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Thing'}
      responses:
        '200': {description: ok}
`

// TestBrokenSpecs checks that a document the mock cannot serve is refused
// by New with a *SpecError that names the problem.
func TestBrokenSpecs(t *testing.T) {
	tests := []struct {
		name, spec, want string
	}{
		{"not OpenAPI", "hello: world\n", "not an OpenAPI document: no openapi field"},
		{"not YAML or JSON", "{{{", "not a JSON or YAML document: line 1: expected a quoted key"},
		{"Swagger 2", "swagger: '2.0'\ninfo: {title: x, version: '1'}\npaths: {}\n", "a Swagger 2.0 document: convert it to OpenAPI 3"},
		{"OpenAPI 4", "openapi: 4.0.0\ninfo: {title: x, version: '1'}\npaths: {}\n", "OpenAPI 4.0.0 is not supported: only 3.0, 3.1 and 3.2 are"},
		{"missing $ref", "openapi: 3.1.0\ninfo: {title: x, version: '1'}\npaths:\n  /things:\n    post:\n      requestBody: {$ref: '#/components/requestBodies/Nope'}\n      responses:\n        '200': {description: ok}\n",
			`#/paths/~1things/post/requestBody (line 6): $ref "#/components/requestBodies/Nope" points at nothing`},
		{"reference outside the document", "openapi: 3.1.0\ninfo: {title: x, version: '1'}\n" + minimalPaths + "components:\n  schemas:\n    Thing: {$ref: 'other.yaml#/Thing'}\n",
			`#/components/schemas/Thing (line 15): $ref "other.yaml#/Thing" points outside the document; only references within it (#/...) are supported`},
		{"schema that is only itself", "openapi: 3.1.0\ninfo: {title: x, version: '1'}\n" + minimalPaths +
			"components:\n  schemas:\n    Thing:\n      allOf: [{$ref: '#/components/schemas/Other'}]\n    Other:\n      anyOf: [{type: string}, {$ref: '#/components/schemas/Thing'}]\n",
			"#/components/schemas/Thing (line 16): the schema refers to itself without going into the value (through $ref or allOf, anyOf, oneOf), so no value could ever be checked against it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(Options{Spec: []byte(tt.spec)})
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("New: err = %v, want a *SpecError", err)
			}
			if !strings.HasPrefix(err.Error(), "OpenAPI document: "+tt.want) {
				t.Errorf("err = %q\nwant it to start OpenAPI document: %s", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("err spans several lines: %q", err)
			}
		})
	}
}

// TestExtensionKeys checks that x- keys, which the Paths, Responses and
// Callback Objects allow as extensions, load without a warning and leave
// the operations served.
func TestExtensionKeys(t *testing.T) {
	spec := `openapi: 3.0.3
info: {title: extensions, version: '1'}
paths:
  x-codegen-contextRoot: /api
  /a:
    get:
      responses:
        x-internal: true
        '200': {description: ok, content: {application/json: {schema: {type: string}, example: fine}}}
      callbacks:
        done:
          x-note: later
          '{$request.query.url}':
            post:
              responses:
                '200': {description: ok}
`
	s, ts := newTestServer(t, Options{Spec: []byte(spec)})
	if w := s.Warnings(); len(w) != 0 {
		t.Errorf("Warnings = %q, want none", w)
	}
	if m := s.Mistakes(); len(m) != 0 {
		t.Errorf("Mistakes = %q, want none", m)
	}
	check(t, s, ts, call{method: "GET", path: "/a", status: 200, wantHeader: jsonHeader(`"fine"`), wantBody: `"fine"`})
	check(t, s, ts, call{method: "GET", path: "/x-codegen-contextRoot", status: 404,
		wantHeader: jsonHeader(errorBody(problem.CodeNoRoute, "no path of the OpenAPI document matches /x-codegen-contextRoot")),
		wantBody:   errorBody(problem.CodeNoRoute, "no path of the OpenAPI document matches /x-codegen-contextRoot")})
}

// TestBadOptions checks option values that New refuses.
func TestBadOptions(t *testing.T) {
	_, err := New(Options{Tokens: []string{"has space"}})
	var oe *pipeline.OptionError
	if !errors.As(err, &oe) || oe.Name != "token" || err.Error() != `token: "has space" is not a valid bearer token (RFC 6750 token68)` {
		t.Errorf("err = %v", err)
	}
}

// TestTwoServersShareNothing checks that two mocks in one process keep
// separate stores.
func TestTwoServersShareNothing(t *testing.T) {
	a, ats := newTestServer(t, Options{})
	b, _ := newTestServer(t, Options{})
	_, resp, body := send(t, ats, call{method: "POST", path: "/plants", header: bearerJSON, body: `{"id":1,"name":"a"}`})
	if resp.StatusCode != 200 {
		t.Fatalf("create: %d %s", resp.StatusCode, body)
	}
	if na, nb := stored(a, "/plants"), stored(b, "/plants"); na != 1 || nb != 0 {
		t.Errorf("stores hold %d and %d plants, want 1 and 0", na, nb)
	}
}

// TestAdminPathRefused checks that a document may not declare /__admin paths.
func TestAdminPathRefused(t *testing.T) {
	spec := "openapi: 3.1.0\ninfo: {title: x, version: '1'}\npaths:\n  /__admin/things:\n    get:\n      responses:\n        '200': {description: ok}\n"
	_, err := New(Options{Spec: []byte(spec)})
	if err == nil || err.Error() != "OpenAPI document: path /__admin/things is under /__admin/, which plantmock keeps for its admin API" {
		t.Errorf("err = %v", err)
	}
}

// TestSeedData fills the store at start, validating like a create.
func TestSeedData(t *testing.T) {
	s, err := New(Options{SeedData: []byte(`{"/plants":[{"id":1,"name":"Fern"},{"id":2,"name":"Ivy","tag":"green"}]}`)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range s.Resources("/plants") {
		got = append(got, string(r))
	}
	if want := `{"id":1,"name":"Fern"} {"id":2,"name":"Ivy","tag":"green"}`; strings.Join(got, " ") != want {
		t.Errorf("Resources = %s, want %s", got, want)
	}
	_, err = New(Options{SeedData: []byte(`{"/plants":[{"id":1}]}`)})
	if err == nil || err.Error() != "seed data: /plants: seed data does not match the create schema: [0].name: required property is missing" {
		t.Errorf("err = %v", err)
	}
}
