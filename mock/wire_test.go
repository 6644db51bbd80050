package mock

import (
	"bufio"
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/problem"
)

const wireSpec = `openapi: 3.1.0
info: {title: wire, version: '1'}
paths:
  /search:
    get:
      parameters:
        - {name: limit, in: query, schema: {type: integer, format: int32}}
        - {name: tags, in: query, schema: {type: array, items: {type: string, pattern: '^[a-z]+(/[a-z]+)?$'}}, style: form, explode: false}
        - {name: filter, in: query, style: deepObject, schema: {type: object, properties: {min: {type: integer}, max: {type: integer}}}}
        - {name: X-Trace-Id, in: header, schema: {type: string, format: uuid}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object}, example: {}}}}
  /points/{at}/near:
    get:
      parameters:
        - {name: at, in: path, required: true, style: matrix, explode: true, schema: {type: object, properties: {x: {type: integer}, y: {type: integer}}, required: [x, y]}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object}, example: {}}}}
  /forms:
    put:
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [name, count]
              properties:
                name: {type: string, minLength: 1}
                count: {type: integer, maximum: 10}
                tags: {type: array, items: {type: string}}
      responses: {'204': {description: stored}}
  /uploads:
    put:
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              required: [title, file]
              properties:
                title: {type: string, maxLength: 10}
                file: {type: string, format: binary}
            encoding:
              file: {contentType: image/png}
      responses: {'204': {description: stored}}
`

// TestParametersByStyle checks parameters read by their style, percent-
// decoded before any rule, integer formats exact, and messages naming the
// parameter.
func TestParametersByStyle(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(wireSpec)})
	ok := call{status: 200, wantHeader: jsonHeader(`{}`), wantBody: `{}`}
	for _, c := range []struct {
		path   string
		header map[string]string
		why    string
	}{
		{path: "/search?limit=2147483647&tags=a%2Fb,c"},
		{path: "/search?tags=a%2Fb"},
		{path: "/search?tags=A%2Fb", why: `query.tags[0]: "A/b" does not match the pattern ^[a-z]+(/[a-z]+)?$`},
		{path: "/search?limit=2147483648", why: "query.limit: 2147483648 is over the int32 maximum 2147483647"},
		{path: "/search?limit=-2147483649", why: "query.limit: -2147483649 is under the int32 minimum -2147483648"},
		{path: "/search?limit=abc", why: "query.limit: expected integer, got string"},
		{path: "/search?filter[min]=1&filter[max]=5"},
		{path: "/search?filter[min]=x", why: "query.filter.min: expected integer, got string"},
		{path: "/search", header: map[string]string{"x-trace-id": "6f1c3c5e-8a2b-4d7e-9c1a-2b3c4d5e6f70"}},
		{path: "/search", header: map[string]string{"X-TRACE-ID": "not-a-uuid"}, why: "header.X-Trace-Id: not a valid uuid"},
		{path: "/points/;x=1;y=2/near"},
		{path: "/points/;x=1/near", why: "path.at.y: required property is missing"},
	} {
		want := ok
		if c.why != "" {
			b := errorBody(problem.CodeParameter, "invalid parameters: "+c.why)
			want = call{status: 400, wantHeader: jsonHeader(b), wantBody: b}
		}
		want.name, want.method, want.path, want.header = c.path, "GET", c.path, c.header
		t.Run(c.path, func(t *testing.T) { check(t, s, ts, want) })
	}
}

// TestFormBodies checks form and multipart bodies decoded and validated
// against their schema, with a part's declared content type honoured.
func TestFormBodies(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(wireSpec)})
	form := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
	refused := func(why string) call {
		b := errorBody(problem.CodeSchema, "request body does not match the schema: "+why)
		return call{status: 422, wantHeader: jsonHeader(b), wantBody: b}
	}
	stored := call{status: 204, wantHeader: map[string]string{}}
	for _, c := range []struct {
		body string
		want call
	}{
		{"name=fern&count=3&tags=a&tags=b", stored},
		{"name=fern&count=11", refused("count: 11 is over the maximum 10")},
		{"name=&count=1", refused("name: shorter than the minimum length 1")},
		{"count=1", refused("name: required property is missing")},
	} {
		want := c.want
		want.name, want.method, want.path, want.header, want.body = c.body, "PUT", "/forms", form, c.body
		t.Run("form "+c.body, func(t *testing.T) { check(t, s, ts, want) })
	}
	part := func(title, fileType string) (string, map[string]string) {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		w.WriteField("title", title)
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", `form-data; name="file"; filename="leaf.png"`)
		h.Set("Content-Type", fileType)
		p, _ := w.CreatePart(h)
		p.Write([]byte("\x89PNG\r\n\x1a\n"))
		w.Close()
		return buf.String(), map[string]string{"Content-Type": w.FormDataContentType()}
	}
	for _, c := range []struct {
		name, title, fileType string
		want                  call
	}{
		{"a png", "leaf", "image/png", stored},
		{"a title too long", "a long title", "image/png", refused("title: longer than the maximum length 10")},
	} {
		body, h := part(c.title, c.fileType)
		want := c.want
		want.name, want.method, want.path, want.header, want.body = c.name, "PUT", "/uploads", h, body
		t.Run("multipart "+c.name, func(t *testing.T) { check(t, s, ts, want) })
	}
	body, h := part("leaf", "image/jpeg")
	_, resp, got := send(t, ts, call{method: "PUT", path: "/uploads", header: h, body: body})
	if resp.StatusCode != 422 {
		t.Errorf("a jpeg where the encoding says image/png: %d %s, want 422", resp.StatusCode, got)
	}
}

// TestFramingHeaderParameter: a required Content-Length header parameter
// is the HTTP client's to send, not the caller's: a DELETE without a body,
// which Go's client sends without one, is answered; another required
// header is still required.
func TestFramingHeaderParameter(t *testing.T) {
	spec := `openapi: 3.0.3
info: {title: uploads, version: '1'}
paths:
  /uploads:
    delete:
      parameters:
        - {name: Content-Length, in: header, required: true, schema: {type: number}}
        - {name: X-Upload, in: header, required: true, schema: {type: string}}
      responses:
        '204': {description: cancelled}
        '400':
          description: refused
          content:
            application/json:
              schema: {type: object, required: [error, message], properties: {error: {type: integer}, message: {type: string}}}
`
	s, ts := newTestServer(t, Options{Spec: []byte(spec)})
	missing := errorBody(problem.CodeParameter, "invalid parameters: header.X-Upload: required parameter is missing")
	for _, tt := range []call{
		{name: "without Content-Length", method: "DELETE", path: "/uploads", header: map[string]string{"X-Upload": "u-1"}, status: 204, wantHeader: map[string]string{}},
		{name: "another header missing", method: "DELETE", path: "/uploads", status: 400, wantHeader: jsonHeader(missing), wantBody: missing},
	} {
		t.Run(tt.name, func(t *testing.T) { check(t, s, ts, tt) })
	}
}

// TestMovedHeaderParameters: header parameters that Go's server takes
// out of r.Header (Transfer-Encoding into r.TransferEncoding, Host into
// r.Host) are read where it keeps them. Regression: azure's
// datalake-store-filesystem requires Transfer-Encoding: chunked, and
// the mock refused every request as missing it. The requests are
// written by hand on the connection, as a client other than Go's
// writes them.
func TestMovedHeaderParameters(t *testing.T) {
	spec := `openapi: 3.0.3
info: {title: uploads, version: '1'}
paths:
  /uploads:
    post:
      parameters:
        - {name: transfer-encoding, in: header, required: true, schema: {type: string, enum: [chunked]}}
        - {name: Host, in: header, required: true, schema: {type: string, pattern: '^uploads\.example(:[0-9]+)?$'}}
      requestBody: {content: {text/plain: {schema: {type: string}}}}
      responses:
        '204': {description: stored}
        '400':
          description: refused
          content:
            application/json:
              schema: {type: object, required: [error, message], properties: {error: {type: integer}, message: {type: string}}}
`
	_, ts := newTestServer(t, Options{Spec: []byte(spec)})
	refused := func(why string) string {
		return errorBody(problem.CodeParameter, "invalid parameters: "+why)
	}
	for _, tt := range []struct {
		name   string
		raw    string
		status int
		body   string
	}{
		{"chunked", "POST /uploads HTTP/1.1\r\nHost: uploads.example\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nleaf\r\n0\r\n\r\n",
			204, ""},
		{"chunked, empty body", "POST /uploads HTTP/1.1\r\nHost: uploads.example:8080\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
			204, ""},
		{"a length instead", "POST /uploads HTTP/1.1\r\nHost: uploads.example\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\nleaf",
			400, refused("header.transfer-encoding: required parameter is missing")},
		{"another host", "POST /uploads HTTP/1.1\r\nHost: other.example\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
			400, refused(`header.Host: "other.example" does not match the pattern ^uploads\.example(:[0-9]+)?$`)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := sendRaw(t, ts, tt.raw)
			if resp.StatusCode != tt.status || string(body) != tt.body {
				t.Errorf("got %d %s\nwant %d %s", resp.StatusCode, body, tt.status, tt.body)
			}
		})
	}
}

// sendRaw writes raw, one HTTP/1.1 request, on a new connection to ts
// and reads the answer.
func sendRaw(t *testing.T, ts *httptest.Server, raw string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.ReadResponse(bufio.NewReader(rawConn(t, ts.Listener.Addr().String(), raw)), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// deepArraysSpec takes a deepObject query array and a form body whose
// properties are deepObject arrays and a scalar-or-object, as the
// descriptions of form-encoded payment APIs declare them.
const deepArraysSpec = `openapi: 3.1.0
info: {title: deep arrays, version: '1'}
paths:
  /charges:
    post:
      parameters:
        - {name: expand, in: query, style: deepObject, explode: true, schema: {type: array, items: {type: string}}}
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [lines]
              properties:
                lines:
                  type: array
                  items: {type: object, required: [price], properties: {price: {type: string}, quantity: {type: integer, minimum: 1}}}
                start: {anyOf: [{type: integer}, {type: object, properties: {gte: {type: integer}}}]}
            encoding:
              lines: {style: deepObject, explode: true}
              start: {style: deepObject, explode: true}
      responses:
        '204': {description: taken}
        '422':
          description: refused
          content: {application/json: {schema: {type: object, properties: {error: {type: integer}, message: {type: string}}}}}
`

// TestDeepObjectArrays: deepObject arrays and a scalar beside an object
// pass through the whole request path, typed as their schemas say, and a
// wrong item is refused naming it.
func TestDeepObjectArrays(t *testing.T) {
	_, ts := newTestServer(t, Options{Spec: []byte(deepArraysSpec)})
	form := "application/x-www-form-urlencoded"
	for _, c := range []struct {
		query, body string
		status      int
		answer      string
	}{
		{"?expand[0]=a&expand[1]=b", "lines[0][price]=p1&lines[0][quantity]=2&lines[1][price]=p2&start=1676070661", 204, ""},
		{"?expand[]=a", "lines[0][price]=p1&start[gte]=5", 204, ""},
		{"?expand=a&expand=b", "lines[0][price]=p1", 204, ""},
		{"", "lines[0][price]=p1&lines[0][quantity]=0", 422, `{"error":40004,"message":"request body does not match the schema: lines[0].quantity: 0 is under the minimum 1"}`},
		{"", "lines[0][price]=p1&start=1&start[gte]=5", 422, `{"error":40004,"message":"request body does not match the schema: start: \"start\" has a value and nested properties"}`},
	} {
		st, body := do(t, ts, "POST", "/charges"+c.query, c.body, "Content-Type", form)
		if st != c.status || body != c.answer {
			t.Errorf("%s %s: %d %s\nwant %d %s", c.query, c.body, st, body, c.status, c.answer)
		}
	}
}
