package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

const probeSpec = `openapi: 3.1.0
info: {title: probe, version: '1'}
paths:
  /fine:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json: {schema: {type: object, required: [n], properties: {n: {type: integer}}}}
  /broken:
    get:
      responses:
        '200': {description: ok}
  /wrong:
    get:
      responses:
        '200': {description: ok}
  /mtls:
    get:
      security: [{mtls: []}]
      responses:
        '200': {description: ok}
components:
  securitySchemes:
    mtls: {type: mutualTLS}
`

// TestRun checks the probe's report and exit code against a stand-in for
// the mock that answers one operation well, one with a 5xx and one with
// a status the document does not declare.
func TestRun(t *testing.T) {
	doc, err := openapi.Load([]byte(probeSpec))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/fine":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"n":1}`))
		case "/broken":
			http.Error(w, "boom", http.StatusInternalServerError)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer ts.Close()
	tests := []struct {
		name   string
		strict bool
	}{{"lenient", false}, {"strict", true}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			if code := run(doc, ts.URL, false, tt.strict, &out); code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
			want := "probed 3 of 4 operations: 1×200 1×404 1×500\n" +
				"no valid request could be made: GET /mtls: no security alternative can be met (mtls (mutualTLS))\n" +
				"5xx: GET /broken (GET /broken): 500 boom\n" +
				"undeclared: GET /broken (GET /broken): status 500 is not declared (GET /broken declares 200)\n" +
				"undeclared: GET /wrong (GET /wrong): status 404 is not declared (GET /wrong declares 200)\n"
			if got := out.String(); got != want {
				t.Errorf("report:\n%s\nwant:\n%s", got, want)
			}
		})
	}
	t.Run("unmade operations fail only with -strict", func(t *testing.T) {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/fine" {
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(`{"n":1}`))
			}
		}))
		defer ts.Close()
		var out bytes.Buffer
		if code := run(doc, ts.URL, false, false, &out); code != 0 {
			t.Errorf("exit code %d, want 0:\n%s", code, out.String())
		}
		if code := run(doc, ts.URL, false, true, &out); code != 1 {
			t.Errorf("with -strict: exit code %d, want 1", code)
		}
		if !strings.Contains(out.String(), "no valid request could be made: GET /mtls") {
			t.Errorf("report:\n%s", out.String())
		}
	})
}
