package mock

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/problem"
)

// noBodySpec has operations that declare no request body: one declares
// 415 (and 400), one only 400 (without content), one neither.
const noBodySpec = `openapi: 3.1.0
info: {title: No bodies, version: '1'}
paths:
  /ping:
    post:
      responses:
        '204': {description: pong}
        '400': {$ref: '#/components/responses/Error'}
        '415': {$ref: '#/components/responses/Error'}
  /items/{id}:
    delete:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '204': {description: deleted}
        '400': {description: bad request}
  /status:
    get:
      responses:
        '200': {description: up, content: {application/json: {schema: {type: object, properties: {up: {const: true}}, required: [up]}}}}
        '422': {$ref: '#/components/responses/Error'}
components:
  responses:
    Error:
      description: error
      content:
        application/json:
          schema:
            type: object
            required: [code, message]
            properties: {code: {type: integer}, message: {type: string}}
`

// TestBodyToOperationWithoutOne: a body sent to an operation that declares
// none gets its 415, else its 400; one that declares neither ignores it.
// A body of unknown length counts when it holds a byte.
func TestBodyToOperationWithoutOne(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(noBodySpec)})
	jsonCT := map[string]string{"Content-Type": "application/json"}
	no415 := `{"code":40002,"message":"POST /ping takes no request body; send none"}`
	for _, c := range []struct {
		call
		chunked bool // send the body without a Content-Length
	}{
		{call: call{name: "415 declared", method: "POST", path: "/ping", header: jsonCT, body: `{"a":1}`,
			status: 415, wantHeader: jsonHeader(no415), wantBody: no415}},
		{call: call{name: "415 declared, body of another type", method: "POST", path: "/ping", header: map[string]string{"Content-Type": "text/plain"}, body: "hi",
			status: 415, wantHeader: jsonHeader(no415), wantBody: no415}},
		{call: call{name: "415 declared, unknown length", method: "POST", path: "/ping", header: jsonCT, body: `{}`,
			status: 415, wantHeader: jsonHeader(no415), wantBody: no415}, chunked: true},
		{call: call{name: "415 declared, no body", method: "POST", path: "/ping",
			status: 204, wantHeader: map[string]string{}}},
		{call: call{name: "415 declared, a Content-Type without a body", method: "POST", path: "/ping", header: jsonCT,
			status: 204, wantHeader: map[string]string{}}},
		{call: call{name: "415 declared, an empty body of unknown length", method: "POST", path: "/ping", header: jsonCT,
			status: 204, wantHeader: map[string]string{}}, chunked: true},
		{call: call{name: "only 400 declared, without content", method: "DELETE", path: "/items/3", header: jsonCT, body: `{"why":"x"}`,
			status: 400, wantHeader: map[string]string{"Content-Length": "0"}}},
		{call: call{name: "neither declared: ignored", method: "GET", path: "/status", header: jsonCT, body: `{"a":1}`,
			status: 200, wantHeader: jsonHeader(`{"up":true}`), wantBody: `{"up":true}`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !c.chunked {
				check(t, s, ts, c.call)
				return
			}
			// A reader of unknown length: the client sends it chunked.
			req, err := http.NewRequest(c.method, ts.URL+c.path, io.NopCloser(strings.NewReader(c.body)))
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range c.header {
				req.Header.Set(k, v)
			}
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			got, _ := io.ReadAll(resp.Body)
			h := headerMap(resp.Header)
			if resp.StatusCode != c.status || !equalMaps(h, c.wantHeader) || string(got) != c.wantBody {
				t.Errorf("%d %v %s\nwant %d %v %s", resp.StatusCode, h, got, c.status, c.wantHeader, c.wantBody)
			}
		})
	}
}

// TestMalformedMediaParameters: a Content-Type whose parameters are not
// name=value, as the document itself declares it, is read by its type
// alone; one whose type is malformed is refused.
func TestMalformedMediaParameters(t *testing.T) {
	spec := `openapi: 3.0.3
info: {title: imports, version: '1'}
paths:
  /imports:
    post:
      requestBody:
        required: true
        content:
          'text/plain; utf-8':
            schema: {type: string}
      responses:
        '200':
          description: taken
          content:
            application/json:
              schema: {type: object, required: [status], properties: {status: {type: string, enum: [queued]}}}
        '400':
          description: refused
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
components:
  schemas:
    Error:
      type: object
      required: [error, message]
      properties:
        error: {type: integer}
        message: {type: string}
`
	s, ts := newTestServer(t, Options{Spec: []byte(spec)})
	bad := errorBody(problem.CodeContentType, `malformed Content-Type "text/; utf-8"; send text/plain; utf-8`)
	for _, tt := range []call{
		{name: "as declared", method: "POST", path: "/imports", header: map[string]string{"Content-Type": "text/plain; utf-8"}, body: "FROM scratch",
			status: 200, wantHeader: jsonHeader(`{"status":"queued"}`), wantBody: `{"status":"queued"}`},
		{name: "type alone", method: "POST", path: "/imports", header: map[string]string{"Content-Type": "text/plain"}, body: "FROM scratch",
			status: 200, wantHeader: jsonHeader(`{"status":"queued"}`), wantBody: `{"status":"queued"}`},
		{name: "malformed type", method: "POST", path: "/imports", header: map[string]string{"Content-Type": "text/; utf-8"}, body: "FROM scratch",
			status: 400, wantHeader: jsonHeader(bad), wantBody: bad},
	} {
		t.Run(tt.name, func(t *testing.T) { check(t, s, ts, tt) })
	}
}
