package mock_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock"
)

// v32 is an OpenAPI 3.2 document with a QUERY operation and an
// additional operation of a method of its own.
const v32 = `openapi: 3.2.0
info: {title: Searchable, version: '1'}
paths:
  /plants:
    query:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name]
              properties: {name: {type: string, minLength: 1}}
      responses:
        '200':
          description: the plants found
          content: {application/json: {schema: {type: array, maxItems: 0, items: {type: string}}}}
  /plants/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses: {'200': {description: a plant}}
    additionalOperations:
      LINK:
        responses: {'204': {description: linked}}
      get:
        responses: {'204': {description: 'never, get is the path item''s own'}}
`

// TestOpenAPI32Methods: a 3.2 document's QUERY and additional operations
// are routed and validated like any other; a method the path declares
// again under additionalOperations is left out as a mistake.
func TestOpenAPI32Methods(t *testing.T) {
	srv, err := mock.New(mock.Options{Spec: []byte(v32)})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(srv.Mistakes(), "\n"); got != `#/paths/~1plants~1{id}/additionalOperations/get (line 26): "get" is not a method of its own (a token, not one the path item names): it is left out` {
		t.Errorf("mistakes: %s", got)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	for _, c := range []struct {
		method, path, body string
		status             int
		want, allow        string
	}{
		{"QUERY", "/plants", `{"name":"fern"}`, 200, `[]`, ""},
		{"QUERY", "/plants", `{"name":""}`, 422, `{"error":40004,"message":"request body does not match the schema: name: shorter than the minimum length 1"}`, ""},
		{"LINK", "/plants/7", "", 204, "", ""},
		{"LINK", "/plants/x", "", 400, `{"error":40005,"message":"invalid parameters: path.id: expected integer, got string"}`, ""},
		{"UNLINK", "/plants/7", "", 405, `{"error":40500,"message":"/plants/{id} does not declare UNLINK; allowed: GET, LINK"}`, "GET, LINK"},
		{"GET", "/plants", "", 405, `{"error":40500,"message":"/plants does not declare GET; allowed: QUERY"}`, "QUERY"},
	} {
		var body io.Reader
		if c.body != "" {
			body = strings.NewReader(c.body)
		}
		req, _ := http.NewRequest(c.method, ts.URL+c.path, body)
		if c.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || string(b) != c.want || resp.Header.Get("Allow") != c.allow {
			t.Errorf("%s %s: %d %s (Allow %q)\nwant %d %s (Allow %q)", c.method, c.path, resp.StatusCode, b, resp.Header.Get("Allow"), c.status, c.want, c.allow)
		}
	}
	if _, err := mock.New(mock.Options{Spec: []byte(strings.Replace(v32, "3.2.0", "3.3.0", 1))}); err == nil || !strings.HasSuffix(err.Error(), "OpenAPI 3.3.0 is not supported: only 3.0, 3.1 and 3.2 are") {
		t.Errorf("a 3.3 document: %v", err)
	}
}
