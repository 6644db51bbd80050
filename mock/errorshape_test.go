package mock

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// shapesSpec declares error answers of every JSON type. Each operation
// is refused by a check that runs before its behaviour: without
// credentials (401), with an empty body (400) or a body that breaks the
// schema (422), or for an unknown identifier (404).
const shapesSpec = `openapi: 3.1.0
info: {title: error shapes, version: '1'}
paths:
  /number:
    get:
      security: [{bearer: []}]
      responses:
        '200': {$ref: '#/components/responses/OK'}
        '401': {description: no, content: {application/json: {schema: {type: number}}}}
  /code:
    get:
      security: [{bearer: []}]
      responses:
        '200': {$ref: '#/components/responses/OK'}
        '401': {description: no, content: {application/json: {schema: {type: integer, minimum: 1000}}}}
  /enum-number:
    get:
      security: [{bearer: []}]
      responses:
        '200': {$ref: '#/components/responses/OK'}
        '401': {description: no, content: {application/json: {schema: {type: integer, enum: [403, 400]}}}}
  /string:
    post:
      requestBody: {$ref: '#/components/requestBodies/Named'}
      responses:
        '201': {$ref: '#/components/responses/OK'}
        '400': {description: bad, content: {application/json: {schema: {type: string, maxLength: 20}}}}
  /long-string:
    post:
      requestBody: {$ref: '#/components/requestBodies/Named'}
      responses:
        '201': {$ref: '#/components/responses/OK'}
        '400': {description: bad, content: {application/problem+json: {schema: {type: string, minLength: 60}}}}
  /pattern:
    post:
      requestBody: {$ref: '#/components/requestBodies/Named'}
      responses:
        '201': {$ref: '#/components/responses/OK'}
        '400': {description: bad, content: {application/json: {schema: {type: string, pattern: '^E[0-9]{3}$'}}}}
  /enum-string:
    post:
      requestBody: {$ref: '#/components/requestBodies/Named'}
      responses:
        '201': {$ref: '#/components/responses/OK'}
        '400': {description: bad, content: {application/json: {schema: {enum: [oops, nope]}}}}
  /array:
    post:
      requestBody: {$ref: '#/components/requestBodies/Named'}
      responses:
        '201': {$ref: '#/components/responses/OK'}
        '422':
          description: invalid
          content:
            application/json:
              schema:
                type: array
                minItems: 1
                items:
                  type: object
                  required: [code, message]
                  properties:
                    code: {type: integer}
                    field: {type: string}
                    message: {type: string}
  /array-of-two:
    post:
      requestBody: {$ref: '#/components/requestBodies/Named'}
      responses:
        '201': {$ref: '#/components/responses/OK'}
        '400': {description: bad, content: {application/json: {schema: {type: array, minItems: 2, items: {type: string}}}}}
  /things:
    post:
      requestBody: {$ref: '#/components/requestBodies/Named'}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Named'}}}}
  /things/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: one, content: {application/json: {schema: {$ref: '#/components/schemas/Named'}}}}
        '404':
          description: none
          content:
            application/json:
              schema:
                oneOf:
                  - {type: string}
                  - {type: object, required: [code], properties: {code: {type: integer}}}
  /object-first:
    post:
      requestBody: {$ref: '#/components/requestBodies/Named'}
      responses:
        '201': {$ref: '#/components/responses/OK'}
        '400':
          description: bad
          content:
            application/json:
              schema:
                anyOf:
                  - {type: integer, maximum: 10}
                  - {type: object, required: [code], properties: {code: {type: integer}}}
                  - {type: string}
  /nested:
    post:
      requestBody: {$ref: '#/components/requestBodies/Named'}
      responses:
        '201': {$ref: '#/components/responses/OK'}
        '400':
          description: bad
          content:
            application/json:
              schema:
                type: object
                required: [error]
                properties:
                  error:
                    type: object
                    required: [code, message]
                    properties:
                      code: {type: integer}
                      message: {type: string, maxLength: 30}
                  trace: {type: string}
  /merged:
    post:
      requestBody: {$ref: '#/components/requestBodies/Named'}
      responses:
        '201': {$ref: '#/components/responses/OK'}
        '400':
          description: bad
          content:
            application/json:
              schema:
                allOf:
                  - {$ref: '#/components/schemas/Status'}
                  - {type: object, required: [detail], properties: {detail: {type: string}}}
  /boolean:
    post:
      requestBody: {$ref: '#/components/requestBodies/Named'}
      responses:
        '201': {$ref: '#/components/responses/OK'}
        '400': {description: bad, content: {application/json: {schema: {type: boolean, const: false}}}}
  /null:
    post:
      requestBody: {$ref: '#/components/requestBodies/Named'}
      responses:
        '201': {$ref: '#/components/responses/OK'}
        '400': {description: bad, content: {application/json: {schema: {type: 'null'}}}}
  /closed:
    post:
      requestBody: {$ref: '#/components/requestBodies/Named'}
      responses:
        '201': {$ref: '#/components/responses/OK'}
        '400': {description: bad, content: {application/json: {schema: {type: object, additionalProperties: false}}}}
components:
  securitySchemes:
    bearer: {type: http, scheme: bearer}
  requestBodies:
    Named:
      required: true
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Named'}
  responses:
    OK: {description: ok, content: {application/json: {schema: {type: boolean}}}}
  schemas:
    Named:
      type: object
      required: [id, name]
      properties:
        id: {type: integer}
        name: {type: string}
    Status:
      type: object
      required: [status]
      properties:
        status: {type: integer, minimum: 400, maximum: 599}
`

// TestErrorShapes checks error answers whose declared schema is not an
// object with a message property: each answer fits its schema exactly,
// with as much of the error as the schema has room for.
func TestErrorShapes(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(shapesSpec)})
	const (
		missing = "request body is required (application/json)"
		breaks  = "request body does not match the schema: name: required property is missing"
	)
	for _, tt := range []struct {
		name, method, path, body string
		status                   int
		contentType              string
		want                     string
	}{
		{"401 number is the status", "GET", "/number", "", 401, "", `401`},
		{"401 integer above the statuses is the code", "GET", "/code", "", 401, "", `40100`},
		{"401 enum without it is a member", "GET", "/enum-number", "", 401, "", `403`},
		{"400 string is the message, cut to maxLength", "POST", "/string", "", 400, "", `"` + missing[:20] + `"`},
		{"400 string is padded to minLength", "POST", "/long-string", "", 400, "application/problem+json", `"` + missing + strings.Repeat(" ", 60-len(missing)) + `"`},
		{"400 string with a pattern is generated", "POST", "/pattern", "", 400, "", `"E` + patternDigits(t, s, "/pattern") + `"`},
		{"400 enum is a member", "POST", "/enum-string", "", 400, "", `"oops"`},
		{"422 array holds one error", "POST", "/array", `{"id":1}`, 422, "", `[{"code":40004,"message":"` + breaks + `"}]`},
		{"400 array of two strings", "POST", "/array-of-two", "", 400, "", `["` + missing + `","` + missing + `"]`},
		{"404 oneOf string first is the message", "GET", "/things/7", "", 404, "", `"no resource with id 7 in /things"`},
		{"400 anyOf takes the first that carries the message", "POST", "/object-first", "", 400, "", `"` + missing + `"`},
		{"400 nested object carries the message", "POST", "/nested", "", 400, "", `{"error":{"code":40000,"message":"` + missing[:30] + `"}}`},
		{"400 allOf is fitted merged", "POST", "/merged", "", 400, "", `{"status":400,"detail":"` + missing + `"}`},
		{"400 boolean const", "POST", "/boolean", "", 400, "", `false`},
		{"400 null", "POST", "/null", "", 400, "", `null`},
		{"400 closed object without properties", "POST", "/closed", "", 400, "", `{}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{"Content-Type": "application/json"}
			ct := tt.contentType
			if ct == "" {
				ct = "application/json"
			}
			wantHeader := map[string]string{"Content-Type": ct, "Content-Length": itoa(len(tt.want))}
			if tt.status == 401 {
				wantHeader["WWW-Authenticate"] = `Bearer realm="plantmock"`
			}
			check(t, s, ts, call{method: tt.method, path: tt.path, header: h, body: tt.body,
				status: tt.status, wantHeader: wantHeader, wantBody: tt.want})
			assertErrorSchema(t, s, tt.method, tt.path, tt.status, tt.want)
		})
	}
}

// assertErrorSchema checks body against the schema the operation declares
// for status, whatever check made the answer.
func assertErrorSchema(t *testing.T, s *Server, method, path string, status int, body string) {
	t.Helper()
	route, _, _ := documentOf(t, s).Find(path, "")
	if route == nil || route.Operation(method) == nil {
		t.Fatalf("no operation %s %s", method, path)
	}
	resp := route.Operation(method).Response(status)
	if resp == nil || resp.JSON() == nil {
		t.Fatalf("%s %s declares no JSON %d", method, path, status)
	}
	v, err := jsonx.Decode([]byte(body))
	if err != nil {
		t.Fatalf("body %s is not JSON: %v", body, err)
	}
	if vs := resp.JSON().Schema.Validate(v); len(vs) > 0 {
		t.Errorf("body %s breaks the declared %d schema: %v", body, status, vs)
	}
}

// patternDigits returns the digits of the value the shape of path's 400
// was generated with, after checking that it is one.
func patternDigits(t *testing.T, s *Server, path string) string {
	t.Helper()
	doc, plans := plansOf(t, s)
	route, _, _ := doc.Find(path, "")
	pl := plans[route.Operation("POST")]
	b := string(pl.ErrorShape(400).Render(nil, 400, problem.CodeBodyMissing, "anything"))
	if len(b) != 6 || !strings.HasPrefix(b, `"E`) || strings.Trim(b[2:5], "0123456789") != "" {
		t.Fatalf("pattern shape renders %s, want a string matching ^E[0-9]{3}$", b)
	}
	return b[2:5]
}

// TestErrorShapeHoldsEachPart checks that a part of the error the schema
// does not admit is replaced by a valid value for that answer alone.
func TestErrorShapeHoldsEachPart(t *testing.T) {
	const spec = `openapi: 3.0.3
info: {title: parts, version: '1'}
paths:
  /p:
    get:
      responses:
        '200': {description: ok}
        '400':
          description: bad
          content:
            application/json:
              schema:
                type: object
                required: [status, code, title, message]
                properties:
                  status: {type: integer, enum: [400, 404, 499]}
                  code: {type: integer, maximum: 40499}
                  title: {type: string, enum: [Bad Request, Not Found, Other]}
                  message: {type: string, format: email}
`
	s, _ := newTestServer(t, Options{Spec: []byte(spec)})
	doc, plans := plansOf(t, s)
	route, _, _ := doc.Find("/p", "")
	op := route.Operation("GET")
	sh := plans[op].ErrorShape(400)
	m := op.Response(400).JSON()
	for _, tt := range []struct {
		name   string
		status int
		code   problem.Code
		want   string
	}{
		{"all admitted", 400, problem.CodeBodyMissing, `{"status":400,"code":40000,"title":"Bad Request","message":"%s"}`},
		{"another admitted status", 404, problem.CodeNotFound, `{"status":404,"code":40401,"title":"Not Found","message":"%s"}`},
		{"none admitted", 500, problem.CodeInternal, `{"status":400,"code":%s,"title":"Bad Request","message":"%s"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			body := sh.Render(nil, tt.status, tt.code, "not an email address")
			v, err := jsonx.Decode(body)
			if err != nil {
				t.Fatalf("body %s is not JSON: %v", body, err)
			}
			if vs := m.Schema.Validate(v); len(vs) > 0 {
				t.Errorf("body %s breaks the schema: %v", body, vs)
			}
			obj := v.(map[string]any)
			want := strings.Replace(tt.want, `"message":"%s"`, `"message":"`+obj["message"].(string)+`"`, 1)
			want = strings.Replace(want, `"code":%s`, `"code":`+string(jsonx.Marshal(obj["code"])), 1)
			if string(body) != want {
				t.Errorf("body = %s\nwant   %s", body, want)
			}
			if !strings.Contains(obj["message"].(string), "@") {
				t.Errorf("message %q is not an email address", obj["message"])
			}
		})
	}
}

// TestErrorCodesListed checks that errors.go gives mock's users every
// Code of the problem package, under the same name.
func TestErrorCodesListed(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "errors.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	given := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok && len(vs.Values) == len(vs.Names) {
			for i, name := range vs.Names {
				if sel, ok := vs.Values[i].(*ast.SelectorExpr); ok && sel.Sel.Name == name.Name && strings.HasPrefix(name.Name, "Code") {
					given[name.Name] = true
				}
			}
		}
		return true
	})
	if len(given) != len(problem.ErrorCodes) {
		t.Errorf("errors.go gives %d codes, problem.ErrorCodes lists %d", len(given), len(problem.ErrorCodes))
	}
}

// enumsSpec declares error schemas with string enums and message
// properties under other names: the first operation's 404 (which also
// answers unknown paths) in the manner of a real description, a gRPC-like
// status with an enum that speaks of something else, a problem with only
// a title, and snake_case names.
const enumsSpec = `openapi: 3.1.0
info: {title: enums, version: '1'}
paths:
  /records/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: one, content: {application/json: {schema: {$ref: '#/components/schemas/Record'}}}}
        '404': {description: none, content: {application/json: {schema: {$ref: '#/components/schemas/Lookup'}}}}
  /records:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Record'}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Record'}}}}
  /grpc:
    post:
      security: [{bearer: []}]
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Record'}}}}
      responses:
        '200': {description: ok}
        '400': {description: bad, content: {application/json: {schema: {$ref: '#/components/schemas/Status'}}}}
        '401': {description: who, content: {application/json: {schema: {$ref: '#/components/schemas/Status'}}}}
  /titled:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Record'}}}}
      responses:
        '200': {description: ok}
        '400':
          description: bad
          content:
            application/problem+json:
              schema: {type: object, properties: {type: {type: string}, title: {type: string}}}
  /snake:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Record'}}}}
      responses:
        '200': {description: ok}
        '422':
          description: invalid
          content:
            application/json:
              schema:
                type: object
                properties:
                  error_code: {type: string, enum: [not_found, validation_failed]}
                  error_message: {type: string}
components:
  securitySchemes:
    bearer: {type: http, scheme: bearer}
  schemas:
    Record:
      type: object
      required: [name]
      properties: {id: {type: integer, readOnly: true}, name: {type: string}}
    Lookup:
      type: object
      properties:
        error: {enum: [record_not_found, url_not_found]}
        errorDescription: {type: string}
    Status:
      type: object
      required: [code]
      properties:
        code: {type: string, enum: [INVALID_ARGUMENT, NOT_FOUND, UNAUTHENTICATED, PERMISSION_DENIED, INTERNAL]}
        message: {type: string}
        severity: {type: string, enum: [low, high]}
`

// TestErrorEnumsNameTheProblem: string enums of an error schema get the
// value that names the problem, and the explanation goes in the property
// whose name says message, whatever its case and separators (or in the
// title, when nothing else can hold it). An optional enum that names no
// problem is left out. Every body validates against its schema.
func TestErrorEnumsNameTheProblem(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(enumsSpec)})
	const missing = "request body is required (application/json)"
	for _, tt := range []struct {
		name, method, path, body string
		header                   map[string]string
		status                   int
		want                     string
		wantHeader               map[string]string
		schemaOf                 string // the operation whose schema the body has; the request's when ""
	}{
		{name: "unknown path", method: "GET", path: "/nope", status: 404,
			want:     `{"error":"url_not_found","errorDescription":"no path of the OpenAPI document matches /nope"}`,
			schemaOf: "/records/1"},
		{name: "unknown record", method: "GET", path: "/records/7", status: 404,
			want: `{"error":"record_not_found","errorDescription":"no resource with id 7 in /records"}`},
		{name: "no credentials", method: "POST", path: "/grpc", status: 401,
			want:       `{"code":"UNAUTHENTICATED","message":"missing credentials: send \"Authorization: Bearer <token>\""}`,
			wantHeader: map[string]string{"WWW-Authenticate": `Bearer realm="plantmock"`}},
		{name: "invalid argument", method: "POST", path: "/grpc", header: map[string]string{"Authorization": "Bearer t"}, status: 400,
			want: `{"code":"INVALID_ARGUMENT","message":"` + missing + `"}`},
		{name: "the title holds the message", method: "POST", path: "/titled", status: 400,
			want: `{"title":"` + missing + `"}`, wantHeader: map[string]string{"Content-Type": "application/problem+json"}},
		{name: "snake case", method: "POST", path: "/snake", body: `{}`, status: 422,
			want: `{"error_code":"validation_failed","error_message":"request body does not match the schema: name: required property is missing"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := with(map[string]string{"Content-Type": "application/json"}, "Authorization", tt.header["Authorization"])
			wantHeader := with(jsonHeader(tt.want), "WWW-Authenticate", tt.wantHeader["WWW-Authenticate"])
			if ct := tt.wantHeader["Content-Type"]; ct != "" {
				wantHeader["Content-Type"] = ct
			}
			check(t, s, ts, call{method: tt.method, path: tt.path, header: h, body: tt.body,
				status: tt.status, wantHeader: wantHeader, wantBody: tt.want})
			if tt.schemaOf == "" {
				assertErrorSchema(t, s, tt.method, tt.path, tt.status, tt.want)
			} else {
				assertErrorSchema(t, s, "GET", tt.schemaOf, tt.status, tt.want)
			}
		})
	}
	t.Run("every problem with every status fits", func(t *testing.T) {
		n := 0
		_, plans := plansOf(t, s)
		for op, pl := range plans {
			for status, sh := range pl.Shapes {
				schema := op.Response(status).JSON().Schema
				for _, code := range problem.ErrorCodes {
					for _, st := range append([]int64{502, 503, 504}, problem.ErrorStatuses...) {
						body := sh.Render(nil, int(st), code, "why")
						if v, err := jsonx.Decode(body); err != nil || len(schema.Validate(v)) > 0 {
							t.Errorf("%s %s: %d %d: %s breaks the %d schema", op.Method, op.Path, st, code, body, status)
						}
						n++
					}
				}
			}
		}
		if n == 0 {
			t.Fatal("no shape rendered")
		}
	})
}

// plansOf returns the document s serves (documentOf) and the plans
// answer works out for it, as the mock's own are.
func plansOf(t *testing.T, s *Server) (*openapi.Document, answer.Plans) {
	t.Helper()
	doc := documentOf(t, s)
	plans, _, err := answer.BuildPlans(doc, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return doc, plans
}
