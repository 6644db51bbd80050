package mock

import (
	"github.com/brianvoe/gofakeit/v6"

	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// FuzzServeHTTP sends arbitrary methods, paths, tokens, content types and
// bodies. Every iteration checks: no panic (a recovered one would be a
// 500); every answer is a declared status of its operation, or 401, 404 or
// 405, with a body valid against the declared schema (the error schema for
// the undeclared ones); a create answered 200 is stored, anything else
// stores nothing.
func FuzzServeHTTP(f *testing.F) {
	f.Add("POST", "/plants", "Bearer abc", "application/json", []byte(`{"id":7,"name":"Monstera","tag":"aroid"}`))
	f.Add("POST", "/plants", "Bearer abc", "application/json", []byte(`{"id":"7","name":3}`))
	f.Add("POST", "/plants", "", "application/json", []byte(`{}`))
	f.Add("POST", "/plants", "BearerXYZ", "text/plain", []byte(`hi`))
	f.Add("GET", "/plants/7", "Bearer a", "", []byte(nil))
	f.Add("POST", "/plants", "Bearer a", "application/json; charset=utf-8", []byte(`{"id":1e300,"name":"a"}`))
	f.Add("POST", "/plants", "Bearer a", "application/json", []byte("{\"id\":1,\"name\":\"\xff\"}"))
	f.Add("POST", "/plants", "Bearer a", "application/json", []byte(`{"id":9223372036854775807,"name":"a","id":1}`))
	f.Add("DELETE", "/%zz", "bearer x", "application/*", []byte(`[[[[`))
	for _, hb := range hostileBodies() { // big numbers, deep nesting, long and many keys, long strings
		f.Add("POST", "/plants", "Bearer a", "application/json", hb.body)
	}
	s, err := New(Options{Admin: AdminOptions{Disabled: true}, Journal: JournalOptions{Size: 10}})
	if err != nil {
		f.Fatal(err)
	}
	doc, err := openapi.Load(readSpec(f, "../openapi.yaml")) // the document New serves without one
	if err != nil {
		f.Fatal(err)
	}
	errMedia := firstErrorMedia(doc)
	f.Fuzz(func(t *testing.T, method, path, auth, ct string, body []byte) {
		u, err := url.ParseRequestURI(path)
		if err != nil || method == "" || strings.ContainsAny(method, " \t\r\n") {
			return
		}
		r := &http.Request{Method: method, URL: u, Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(body)),
			ContentLength: int64(len(body)), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Host: "mock"}
		if auth != "" {
			r.Header.Set("Authorization", auth)
		}
		if ct != "" {
			r.Header.Set("Content-Type", ct)
		}
		before := stored(s, "/plants")
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		got := w.Body.Bytes()
		route, _, _ := doc.Find(u.EscapedPath(), "")
		status := w.Code
		// The schema the body must match: the declared one, or the error
		// schema for the undeclared 401, 404 and 405.
		schemaOf := errMedia
		switch {
		case route == nil:
			if status != 404 {
				t.Fatalf("unknown path answered %d", status)
			}
		case route.Operation(method) == nil:
			if status != 405 {
				t.Fatalf("undeclared method answered %d", status)
			}
		default:
			if resp := route.Operation(method).Response(status); resp != nil {
				schemaOf = resp.JSON()
			} else if status != 401 {
				t.Fatalf("answered undeclared status %d: %s", status, got)
			}
		}
		if schemaOf != nil && schemaOf.Schema != nil {
			v, err := jsonx.Decode(got)
			if err != nil {
				t.Fatalf("%d answer is not JSON: %v: %q", status, err, got)
			}
			if vs := schemaOf.Schema.Validate(v); len(vs) > 0 {
				t.Fatalf("%d answer %s breaks its schema: %v", status, got, vs)
			}
		}
		after := stored(s, "/plants")
		if status == 200 && method == "POST" && after != before+1 {
			t.Fatalf("a create answered 200 but the store went from %d to %d", before, after)
		}
		if status != 200 && after != before {
			t.Fatalf("a %d answer changed the store from %d to %d", status, before, after)
		}
	})
}

// FuzzScenario parses arbitrary scenario files and checks them against the
// document: errors are fine, panics and hangs are not.
func FuzzScenario(f *testing.F) {
	for _, sc := range scenario.ShippedScenarios() {
		f.Add([]byte("name: " + sc.Name + "\nrules: []\n"))
	}
	f.Add([]byte("name: s\nrules:\n  - when: {body: {tag: '/^poison/'}}\n    respond: {status: 400, body: {error: '{{ .seq }}', message: '{{ .body.name }}'}}\n"))
	f.Add([]byte("name: s\nrules:\n  - respond: {delay: 1ms, fault: connection_reset}\n    times: 2\n    every: 3\n"))
	f.Add([]byte("a: &a [x]\nb: [*a, *a]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := scenario.ParseScenario("fuzz.yaml", data)
		if err != nil {
			return
		}
		s, err := New(Options{Scenarios: []*scenario.Scenario{sc}, NoShippedScenarios: true, Scenario: sc.Name})
		if err != nil {
			return
		}
		r := httptest.NewRequest("POST", "/plants", strings.NewReader(`{"id":1,"name":"a"}`))
		r.Header.Set("Authorization", "Bearer a")
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		func() {
			defer func() {
				if v := recover(); v != nil && v != http.ErrAbortHandler {
					t.Fatalf("panic: %v", v)
				}
			}()
			s.ServeHTTP(w, r)
		}()
	})
}

// FuzzTemplate renders arbitrary templates over a request body.
func FuzzTemplate(f *testing.F) {
	f.Add(`{{ .body.name }}`)
	f.Add(`{{ .seq }}`)
	f.Add(`{{ fake "firstname" }} {{ printf "%q" .token }}`)
	f.Add(`{{ range .body }}{{ . }}{{ end }}`)
	f.Add(`{{ index .headers "X-A" }}`)
	body, _ := jsonx.Decode([]byte(`{"id":1,"name":"Fern","tags":["a","b"],"n":{"m":null}}`))
	f.Fuzz(func(t *testing.T, text string) {
		vt, err := scenario.CompileTemplate(text, "fuzz")
		if err != nil {
			return
		}
		data := map[string]any{"body": body, "headers": map[string]string{"X-A": "1"}, "token": "t", "seq": int64(3)}
		vt.Render(data, func() *gofakeit.Faker { return gen.Faker(1, 0) }) // errors are fine; a panic fails
	})
}

// FuzzAdminJSON sends arbitrary JSON to the admin calls that read it.
func FuzzAdminJSON(f *testing.F) {
	f.Add("/__admin/requests/find", "POST", []byte(`{"operation":"POST /plants","status":200,"body":{"name":"/^F/"}}`))
	f.Add("/__admin/requests/count", "POST", []byte(`{"status":"x"}`))
	f.Add("/__admin/store/plants", "PUT", []byte(`[{"id":1,"name":"a"},{"id":1}]`))
	f.Add("/__admin/scenario", "PUT", []byte(`{"name":null}`))
	f.Add("/__admin/store/plants", "PUT", []byte(`[1e400]`))
	s, err := New(Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, path, method string, body []byte) {
		if !strings.HasPrefix(path, "/__admin/") || (method != "POST" && method != "PUT") {
			return
		}
		u, err := url.ParseRequestURI(path)
		if err != nil {
			return
		}
		r := &http.Request{Method: method, URL: u, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body))}
		w := httptest.NewRecorder()
		s.Admin().ServeHTTP(w, r)
		switch w.Code {
		case 200, 204, 400, 404, 405:
		default:
			t.Fatalf("%s %s answered %d: %s", method, path, w.Code, w.Body)
		}
		if w.Code != 204 && w.Code != 405 && !jsonValid(w.Body.Bytes()) {
			t.Fatalf("%s %s answered %d with a body that is not JSON: %q", method, path, w.Code, w.Body)
		}
	})
}

func jsonValid(b []byte) bool {
	_, err := jsonx.Decode(b)
	return err == nil
}
