package mock_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
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

// querystring is an OpenAPI 3.2 document whose operations take the whole
// query string as one parameter: a form and a JSON one, and two
// operations that declare what 3.2 forbids.
const querystring = `openapi: 3.2.0
info: {title: Searchable, version: '1'}
paths:
  /search:
    get:
      parameters:
        - name: filter
          in: querystring
          required: true
          content:
            application/x-www-form-urlencoded:
              schema:
                type: object
                required: [name]
                additionalProperties: false
                properties:
                  name: {type: string, minLength: 2}
                  limit: {type: integer, maximum: 50}
                  tag: {type: array, items: {type: string}}
      responses:
        '200': {description: found, content: {application/json: {schema: {type: array, maxItems: 0}}}}
  /select:
    get:
      parameters:
        - name: q
          in: querystring
          content:
            application/json:
              schema: {type: object, required: [ids], properties: {ids: {type: array, items: {type: integer}}}}
      responses:
        '204': {description: selected}
  /mixed:
    get:
      parameters:
        - {name: q, in: querystring, content: {application/json: {schema: {type: object}}}}
        - {name: limit, in: query, schema: {type: integer}}
      responses:
        '204': {description: read}
  /twice:
    parameters:
      - {name: a, in: querystring, content: {application/json: {schema: {type: integer}}}}
    get:
      parameters:
        - {name: b, in: querystring, content: {application/json: {schema: {type: string}}}}
      responses:
        '204': {description: read}
`

// TestOpenAPI32QueryString: a querystring parameter is the whole query
// string, decoded by its media type and checked against its schema; one
// beside query parameters, or a second one, is left out as a mistake.
func TestOpenAPI32QueryString(t *testing.T) {
	srv, err := mock.New(mock.Options{Spec: []byte(querystring)})
	if err != nil {
		t.Fatal(err)
	}
	want := `#/paths/~1mixed/get (line 34): querystring parameter "q" is declared with query parameters, which OpenAPI 3.2 forbids: it is left out, and the query parameters are read
#/paths/~1twice/get (line 43): querystring parameter "b" is a second querystring parameter, which OpenAPI 3.2 forbids: it is left out`
	if got := strings.Join(srv.Mistakes(), "\n"); got != want {
		t.Errorf("mistakes:\n%s\nwant\n%s", got, want)
	}
	for _, c := range []struct{ from, to, want string }{
		{"3.2.0", "3.1.0", `#/paths/~1search/get/parameters/0 (line 7): parameter "filter" is in querystring, which is OpenAPI 3.2 (this document is 3.1.0): the parameter is left out of its operation (and 4 more places)`},
		{"content:\n            application/x-www-form-urlencoded:", "schema: {type: object}\n          content:\n            application/x-www-form-urlencoded:",
			`#/paths/~1search/get/parameters/0 (line 7): querystring parameter "filter" is not described by content with one media type: the parameter is left out of its operation`},
	} {
		srv, err := mock.New(mock.Options{Spec: []byte(strings.Replace(querystring, c.from, c.to, 1))})
		if err != nil {
			t.Fatal(err)
		}
		if got := srv.Mistakes(); len(got) == 0 || got[0] != c.want {
			t.Errorf("%s: mistakes %q\nwant first %s", c.to, got, c.want)
		}
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	for _, c := range []struct {
		target string
		status int
		want   string
	}{
		{"/search?name=fern&limit=5&tag=a&tag=b", 200, `[]`},
		{"/search?name=a%20b", 200, `[]`},
		{"/search", 400, `{"error":40005,"message":"invalid parameters: querystring.filter: required parameter is missing"}`},
		{"/search?name=f", 400, `{"error":40005,"message":"invalid parameters: querystring.filter.name: shorter than the minimum length 2"}`},
		{"/search?name=fern&limit=x", 400, `{"error":40005,"message":"invalid parameters: querystring.filter.limit: expected integer, got string"}`},
		{"/search?name=fern&color=red", 400, `{"error":40005,"message":"invalid parameters: querystring.filter.color: property is not declared by the schema"}`},
		{"/search?name=%zz", 400, `{"error":40005,"message":"invalid parameters: querystring.filter.name: malformed percent-escape \"%zz\""}`},
		{"/select", 204, ``},
		{"/select?%7B%22ids%22%3A%5B1%2C2%5D%7D", 204, ``},
		{`/select?{"ids":[3]}`, 204, ``},
		{"/select?%7B%22ids%22%3A%5B%22x%22%5D%7D", 400, `{"error":40005,"message":"invalid parameters: querystring.q.ids[0]: expected integer, got string"}`},
		{"/select?ids=1", 400, `{"error":40005,"message":"invalid parameters: querystring.q: invalid JSON at offset 0: invalid character 'i' looking for beginning of value"}`},
		{"/mixed?limit=3", 204, ``},
		{"/mixed?limit=x", 400, `{"error":40005,"message":"invalid parameters: query.limit: expected integer, got string"}`},
		{"/twice?7", 204, ``},
		{"/twice?x", 400, `{"error":40005,"message":"invalid parameters: querystring.a: invalid JSON at offset 0: invalid character 'x' looking for beginning of value"}`},
	} {
		resp, err := ts.Client().Get(ts.URL + c.target)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || string(b) != c.want {
			t.Errorf("GET %s: %d %s\nwant %d %s", c.target, resp.StatusCode, b, c.status, c.want)
		}
	}
}

// TestOpenAPI32Examples: an example's dataValue is its data, and its
// serializedValue is, for a type that is not JSON, the body sent as it
// is; for JSON, it is read as JSON where no data is given.
func TestOpenAPI32Examples(t *testing.T) {
	spec, err := os.ReadFile("testdata/oas32/examples.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Options{Spec: spec})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	for _, c := range []struct {
		accept, prefer string
		status         int
		ct, want       string
	}{
		{"application/json", "", 200, "application/json", `{"height":0.5,"name":"fern"}`},
		{"application/json", "example=palm", 200, "application/json", `{"height":3,"name":"palm"}`},
		{"application/json", "example=both", 200, "application/json", `{"name":"ivy"}`},
		{"application/json", "example=elsewhere", 400, "application/json", `{"error":40007,"message":"Prefer: example=elsewhere names no example of status 200 (examples: both, fern, palm)"}`},
		{"text/csv", "example=fern", 200, "text/csv", "name,height\nfern,0.50\n"},
		{"application/x-www-form-urlencoded", "example=fern", 200, "application/x-www-form-urlencoded", "name=fern%20leaf"},
	} {
		req, _ := http.NewRequest("GET", ts.URL+"/plant", nil)
		req.Header.Set("Accept", c.accept)
		if c.prefer != "" {
			req.Header.Set("Prefer", c.prefer)
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || string(b) != c.want || !strings.HasPrefix(resp.Header.Get("Content-Type"), c.ct) {
			t.Errorf("%s %s: %d %s %s\nwant %d %s %s", c.accept, c.prefer, resp.StatusCode, resp.Header.Get("Content-Type"), b, c.status, c.ct, c.want)
		}
	}
	bad := strings.Replace(string(spec), `'{"name":"palm","height":3}'`, `'{"name":'`, 1)
	srv, err = mock.New(mock.Options{Spec: []byte(bad)})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(srv.Mistakes(), "\n"), `#/paths/~1plant/get/responses/200/content/application~1json/examples/palm/serializedValue (line 23): the serializedValue of an example of application/json is not JSON (invalid JSON: unexpected end of input): the example is left out`; got != want {
		t.Errorf("mistakes: %s\nwant %s", got, want)
	}
}

// TestOpenAPI32Self: references to $self's URI with a fragment, written
// whole or relative to it, are references within the document; one to
// another document is refused, naming the URI it resolves to.
func TestOpenAPI32Self(t *testing.T) {
	spec, err := os.ReadFile("testdata/oas32/self.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Options{Spec: spec})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	for _, c := range []struct {
		method, target, body string
		status               int
		want                 string
	}{
		{"POST", "/plants", `{"name":"fern","kin":["moss"]}`, 201, `{"name":"fern","kin":["moss"]}`},
		{"POST", "/plants", `{"kin":[1]}`, 422, `{"error":40004,"message":"request body does not match the schema: kin[0]: expected string, got number; name: required property is missing"}`},
		{"POST", "/plants?limit=10", `{"name":"fern"}`, 400, `{"error":40005,"message":"invalid parameters: query.limit: 10 is over the maximum 9"}`},
		{"GET", "/trees", "", 204, ``},
	} {
		req, _ := http.NewRequest(c.method, ts.URL+c.target, strings.NewReader(c.body))
		if c.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || string(b) != c.want {
			t.Errorf("%s %s: %d %s\nwant %d %s", c.method, c.target, resp.StatusCode, b, c.status, c.want)
		}
	}
	for _, c := range []struct{ from, to, want string }{
		{"$ref: 'openapi.yaml#/components/schemas/Plant'", "$ref: 'plants.yaml#/components/schemas/Plant'",
			`#/paths/~1plants/post/requestBody/content/application~1json/schema (line 13): the schema does not compile: failing loading "https://example.com/api/plants.yaml": invalid file url: https://example.com/api/plants.yaml`},
		{"'./openapi.yaml#/components/responses/Created'", "'../openapi.yaml#/components/responses/Created'",
			`#/paths/~1plants/post/responses/201 (line 15): $ref "../openapi.yaml#/components/responses/Created" (https://example.com/openapi.yaml#/components/responses/Created against $self) points outside the document; only references within it (#/...) are supported`},
		{"3.2.0", "3.1.0",
			`#/paths/~1plants/post/parameters/0 (line 8): $ref "https://example.com/api/openapi.yaml#/components/parameters/Limit" points outside the document; only references within it (#/...) are supported`},
	} {
		_, err := mock.New(mock.Options{Spec: []byte(strings.Replace(string(spec), c.from, c.to, 1))})
		if err == nil || !strings.HasSuffix(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant ...%s", c.to, err, c.want)
		}
	}
}

// TestOpenAPI32Security: an oauth2 scheme with a device authorization
// flow and an authorization server's metadata URL asks for a bearer
// token as every oauth2 scheme does; a deprecated scheme is still
// enforced and accepted.
func TestOpenAPI32Security(t *testing.T) {
	spec, err := os.ReadFile("testdata/oas32/security.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Options{Spec: spec})
	if err != nil {
		t.Fatal(err)
	}
	if m, w := srv.Mistakes(), srv.Warnings(); len(m)+len(w) > 0 {
		t.Errorf("mistakes %q, warnings %q", m, w)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	for _, c := range []struct {
		target, header, value string
		status                int
		challenge, want       string
	}{
		{"/plants", "", "", 401, `Bearer realm="plantmock"`, ``},
		{"/plants", "Authorization", "Bearer", 401, `Bearer realm="plantmock", error="invalid_request"`, ``},
		{"/plants", "Authorization", "Bearer dev-1.x", 204, "", ``},
		{"/old", "", "", 401, `APIKey realm="plantmock", in="header", name="X-Key"`, ``},
		{"/old", "X-Key", "k1", 204, "", ``},
	} {
		req, _ := http.NewRequest("GET", ts.URL+c.target, nil)
		if c.header != "" {
			req.Header.Set(c.header, c.value)
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || string(b) != c.want || resp.Header.Get("WWW-Authenticate") != c.challenge {
			t.Errorf("%s %s %q: %d %s (WWW-Authenticate %q)\nwant %d %s (%q)", c.target, c.header, c.value, resp.StatusCode, b, resp.Header.Get("WWW-Authenticate"), c.status, c.want, c.challenge)
		}
	}
}
