package exercise

import (
	"net/http"
	"net/url"
	"reflect"
	"testing"
)

const checkSpec = `openapi: 3.0.3
info: {title: answers, version: '1'}
paths:
  /things/{id}:
    get:
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: one
          headers:
            X-Rate: {required: true, schema: {type: integer}}
            X-Opt: {schema: {type: integer}}
          content:
            application/*: {schema: {$ref: '#/components/schemas/Thing'}}
            text/plain: {schema: {type: string}}
        '2XX':
          description: other successes
        default:
          description: error
          content:
            application/problem+json: {schema: {type: object, required: [title], properties: {title: {type: string}}}}
  /things/mine:
    get:
      responses:
        '204': {description: none}
    head:
      responses:
        '200':
          description: headers only
          content:
            application/json: {schema: {type: object}}
  /gone/{id}:
    delete:
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        '204':
          description: content no 204 can carry
          headers:
            X-Rate: {required: true, schema: {type: integer}}
          content:
            application/json: {schema: {$ref: '#/components/schemas/Thing'}}
  /down:
    get:
      responses:
        '503': {description: always down}
  /hello:
    get:
      responses:
        '103': {description: early hints only}
  /anything:
    post: {}
  /tree:
    get:
      responses:
        '200':
          description: a tree no value satisfies
          content:
            application/json: {schema: {$ref: '#/components/schemas/Node'}}
components:
  schemas:
    Node:
      type: object
      required: [parent]
      properties:
        parent: {$ref: '#/components/schemas/Node'}
    Thing:
      type: object
      required: [id]
      properties:
        id: {type: string}
        size: {type: integer, minimum: 1}
`

// TestCheck checks the problems Check finds in answers.
func TestCheck(t *testing.T) {
	doc := load(t, checkSpec)
	type answer struct {
		status int
		header map[string]string
		body   string
	}
	tests := []struct {
		name, op, path string
		answer
		want []string
	}{
		{"conforms", "GET /things/{id}", "/things/1",
			answer{200, map[string]string{"Content-Type": "application/json", "X-Rate": "5"}, `{"id":"1"}`}, nil},
		{"a media range admits the type", "GET /things/{id}", "/things/1",
			answer{200, map[string]string{"Content-Type": "application/vnd.thing+json; charset=utf-8", "X-Rate": "5"}, `{"id":"1"}`}, nil},
		{"text is not checked against a schema", "GET /things/{id}", "/things/1",
			answer{200, map[string]string{"Content-Type": "text/plain", "X-Rate": "5"}, `anything`}, nil},
		{"a status range", "GET /things/{id}", "/things/1", answer{201, nil, ""}, nil},
		{"default", "GET /things/{id}", "/things/1",
			answer{404, map[string]string{"Content-Type": "application/problem+json"}, `{"title":"none"}`}, nil},
		{"a 5xx the document declares", "GET /things/{id}", "/things/1",
			answer{500, map[string]string{"Content-Type": "application/problem+json"}, `{"title":"boom"}`},
			[]string{`a 5xx answer: 500 {"title":"boom"}`}},
		{"status not declared", "GET /things/mine", "/things/mine", answer{200, nil, ""},
			[]string{"status 200 is not declared (GET /things/mine declares 204)"}},
		{"a body where none is declared", "GET /things/mine", "/things/mine",
			answer{204, map[string]string{"Content-Type": "application/json"}, `{}`},
			[]string{`status 204 declares no content, but the answer has a 2-byte body (Content-Type "application/json")`}},
		{"a 204 without the content it declares", "DELETE /gone/{id}", "/gone/1",
			answer{204, map[string]string{"X-Rate": "5"}, ""}, nil},
		{"a 204 without the content it declares, with its Content-Type", "DELETE /gone/{id}", "/gone/1",
			answer{204, map[string]string{"Content-Type": "application/json", "X-Rate": "5"}, ""}, nil},
		{"a 204 still has its headers checked", "DELETE /gone/{id}", "/gone/1",
			answer{204, nil, ""}, []string{"status 204: header.X-Rate: required header is missing"}},
		{"no body where content is declared", "GET /things/{id}", "/things/1", answer{200, map[string]string{"X-Rate": "5"}, ""},
			[]string{"status 200 declares content (application/*, text/plain), but the answer has no body"}},
		{"Content-Type not declared", "GET /things/{id}", "/things/1",
			answer{200, map[string]string{"Content-Type": "text/html", "X-Rate": "5"}, `<p>`},
			[]string{"Content-Type text/html is not declared for status 200 (declared: application/*, text/plain)"}},
		{"Content-Type malformed", "GET /things/{id}", "/things/1",
			answer{200, map[string]string{"Content-Type": "application/json; charset", "X-Rate": "5"}, `{}`},
			[]string{`Content-Type "application/json; charset" of status 200 is malformed (declared: application/*, text/plain)`}},
		{"body breaks the schema", "GET /things/{id}", "/things/1",
			answer{200, map[string]string{"Content-Type": "application/json", "X-Rate": "5"}, `{"size":0}`},
			[]string{"status 200: body.id: required property is missing", "status 200: body.size: 0 is under the minimum 1"}},
		{"headers missing or invalid", "GET /things/{id}", "/things/1",
			answer{200, map[string]string{"Content-Type": "application/json", "X-Opt": "many"}, `{"id":"1"}`},
			[]string{"status 200: header.X-Rate: required header is missing", "status 200: header.X-Opt: expected integer, got string"}},
		{"a 5xx is all the operation declares", "GET /down", "/down", answer{503, nil, ""}, nil},
		{"no final 1xx exists", "GET /hello", "/hello", answer{204, nil, ""}, nil},
		{"no response declared", "POST /anything", "/anything", answer{200, nil, ""}, nil},
		{"no answer satisfies the schema", "GET /tree", "/tree",
			answer{500, map[string]string{"Content-Type": "application/json"}, `{"error":50000}`}, nil},
		{"HEAD answers carry no body", "HEAD /things/mine", "/things/mine", answer{200, map[string]string{"Content-Type": "application/json"}, ""}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op := operation(t, doc, tt.op)
			resp := &http.Response{StatusCode: tt.status, Header: http.Header{},
				Request: &http.Request{Method: op.Method, URL: &url.URL{Path: tt.path}}}
			for k, v := range tt.header {
				resp.Header.Set(k, v)
			}
			got := Check(doc, op, resp, []byte(tt.body))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("problems = %q\nwant       %q", got, tt.want)
			}
		})
	}
}

// TestCheckWithoutRequest checks an answer whose request is not known: the
// operation's path template stands in for it.
func TestCheckWithoutRequest(t *testing.T) {
	doc := load(t, checkSpec)
	op := operation(t, doc, "GET /things/{id}")
	resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}, "X-Rate": {"1"}}}
	if got := Check(doc, op, resp, []byte(`{}`)); !reflect.DeepEqual(got, []string{"status 200: body.id: required property is missing"}) {
		t.Errorf("problems = %q", got)
	}
}
