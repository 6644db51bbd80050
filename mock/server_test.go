package mock

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/problem"
)

func errBody(code problem.Code, msg string) string {
	return `{"error":` + itoa(int(code)) + `,"message":` + string(quote(msg)) + `}`
}

func quote(s string) []byte {
	b := []byte{'"'}
	for _, r := range s {
		if r == '"' || r == '\\' {
			b = append(b, '\\')
		}
		b = append(b, string(r)...)
	}
	return append(b, '"')
}

// TestPlantStore runs every row of the contract table against the embedded
// Plant Store document, each on a fresh mock.
func TestPlantStore(t *testing.T) {
	const monstera = `{"id":7,"name":"Monstera","tag":"aroid"}`
	bigBody := `{"id":1,"name":"` + strings.Repeat("x", 2048) + `"}`
	tests := []struct {
		call
		opts   Options
		before []string // bodies created first
	}{
		// Creates.
		{call: call{name: "valid create echoes name and tag", method: "POST", path: "/plants", header: bearerJSON, body: monstera,
			status: 200, wantHeader: jsonHeader(`{"name":"Monstera","tag":"aroid"}`), wantBody: `{"name":"Monstera","tag":"aroid"}`}},
		{call: call{name: "create without tag invents none", method: "POST", path: "/plants", header: bearerJSON, body: `{"id":1,"name":"Fern"}`,
			status: 200, wantHeader: jsonHeader(`{"name":"Fern"}`), wantBody: `{"name":"Fern"}`}},
		{call: call{name: "undeclared properties are not echoed", method: "POST", path: "/plants", header: bearerJSON, body: `{"id":2,"name":"Fern","colour":"green"}`,
			status: 200, wantHeader: jsonHeader(`{"name":"Fern"}`), wantBody: `{"name":"Fern"}`}},
		{call: call{name: "largest int64 id is accepted", method: "POST", path: "/plants", header: bearerJSON, body: `{"id":9223372036854775807,"name":"Max"}`,
			status: 200, wantHeader: jsonHeader(`{"name":"Max"}`), wantBody: `{"name":"Max"}`}},
		{call: call{name: "charset utf-8 is accepted", method: "POST", path: "/plants", header: with(bearerJSON, "Content-Type", "application/json; charset=UTF-8"), body: monstera,
			status: 200, wantHeader: jsonHeader(`{"name":"Monstera","tag":"aroid"}`), wantBody: `{"name":"Monstera","tag":"aroid"}`}},
		{call: call{name: "lower-case bearer scheme is accepted", method: "POST", path: "/plants", header: with(bearerJSON, "Authorization", "bearer x"), body: monstera,
			status: 200, wantHeader: jsonHeader(`{"name":"Monstera","tag":"aroid"}`), wantBody: `{"name":"Monstera","tag":"aroid"}`}},
		{call: call{name: "configured token is accepted", method: "POST", path: "/plants", header: with(bearerJSON, "Authorization", "Bearer t2"), body: monstera,
			status: 200, wantHeader: jsonHeader(`{"name":"Monstera","tag":"aroid"}`), wantBody: `{"name":"Monstera","tag":"aroid"}`},
			opts: Options{Tokens: []string{"t1", "t2"}}},

		// Routing.
		{call: call{name: "unknown path", method: "POST", path: "/plants/7", header: bearerJSON, body: monstera,
			status: 404, wantHeader: jsonHeader(errBody(problem.CodeNoRoute, "no path of the OpenAPI document matches /plants/7")),
			wantBody: errBody(problem.CodeNoRoute, "no path of the OpenAPI document matches /plants/7")}},
		{call: call{name: "trailing slash is another path", method: "POST", path: "/plants/", header: bearerJSON, body: monstera,
			status: 404, wantHeader: jsonHeader(errBody(problem.CodeNoRoute, "no path of the OpenAPI document matches /plants/")),
			wantBody: errBody(problem.CodeNoRoute, "no path of the OpenAPI document matches /plants/")}},
		{call: call{name: "undeclared method", method: "GET", path: "/plants", header: bearerJSON,
			status: 405, wantHeader: jsonHeader(errBody(problem.CodeMethod, "/plants does not declare GET; allowed: POST"), "Allow", "POST"),
			wantBody: errBody(problem.CodeMethod, "/plants does not declare GET; allowed: POST")}},
		{call: call{name: "undeclared method is answered before authentication", method: "DELETE", path: "/plants",
			status: 405, wantHeader: jsonHeader(errBody(problem.CodeMethod, "/plants does not declare DELETE; allowed: POST"), "Allow", "POST"),
			wantBody: errBody(problem.CodeMethod, "/plants does not declare DELETE; allowed: POST")}},

		// Authentication.
		{call: call{name: "no Authorization header", method: "POST", path: "/plants", header: with(bearerJSON, "Authorization", ""), body: monstera,
			status: 401, wantHeader: jsonHeader(errBody(problem.CodeNoCredentials, `missing credentials: send "Authorization: Bearer <token>"`), "WWW-Authenticate", `Bearer realm="plantmock"`),
			wantBody: errBody(problem.CodeNoCredentials, `missing credentials: send "Authorization: Bearer <token>"`)}},
		{call: call{name: "other scheme", method: "POST", path: "/plants", header: with(bearerJSON, "Authorization", "Basic dTpw"), body: monstera,
			status: 401, wantHeader: jsonHeader(errBody(problem.CodeBadCredentials, `the Authorization header uses the "Basic" scheme; Bearer is required`), "WWW-Authenticate", `Bearer realm="plantmock"`),
			wantBody: errBody(problem.CodeBadCredentials, `the Authorization header uses the "Basic" scheme; Bearer is required`)}},
		{call: call{name: "BearerXYZ is another scheme", method: "POST", path: "/plants", header: with(bearerJSON, "Authorization", "BearerXYZ"), body: monstera,
			status: 401, wantHeader: jsonHeader(errBody(problem.CodeBadCredentials, `the Authorization header uses the "BearerXYZ" scheme; Bearer is required`), "WWW-Authenticate", `Bearer realm="plantmock"`),
			wantBody: errBody(problem.CodeBadCredentials, `the Authorization header uses the "BearerXYZ" scheme; Bearer is required`)}},
		{call: call{name: "empty token", method: "POST", path: "/plants", header: with(bearerJSON, "Authorization", "Bearer "), body: monstera,
			status: 401, wantHeader: jsonHeader(errBody(problem.CodeBadCredentials, "the bearer token is empty or malformed (RFC 6750 token68 expected)"), "WWW-Authenticate", `Bearer realm="plantmock", error="invalid_request"`),
			wantBody: errBody(problem.CodeBadCredentials, "the bearer token is empty or malformed (RFC 6750 token68 expected)")}},
		{call: call{name: "malformed token", method: "POST", path: "/plants", header: with(bearerJSON, "Authorization", "Bearer a b"), body: monstera,
			status: 401, wantHeader: jsonHeader(errBody(problem.CodeBadCredentials, "the bearer token is empty or malformed (RFC 6750 token68 expected)"), "WWW-Authenticate", `Bearer realm="plantmock", error="invalid_request"`),
			wantBody: errBody(problem.CodeBadCredentials, "the bearer token is empty or malformed (RFC 6750 token68 expected)")}},
		{call: call{name: "token not in the configured set", method: "POST", path: "/plants", header: with(bearerJSON, "Authorization", "Bearer t3"), body: monstera,
			status: 401, wantHeader: jsonHeader(errBody(problem.CodeTokenRejected, "the bearer token is not accepted"), "WWW-Authenticate", `Bearer realm="plantmock", error="invalid_token"`),
			wantBody: errBody(problem.CodeTokenRejected, "the bearer token is not accepted")},
			opts: Options{Tokens: []string{"t1", "t2"}}},
		{call: call{name: "authentication comes before body validation", method: "POST", path: "/plants", header: with(bearerJSON, "Authorization", ""), body: `not json`,
			status: 401, wantHeader: jsonHeader(errBody(problem.CodeNoCredentials, `missing credentials: send "Authorization: Bearer <token>"`), "WWW-Authenticate", `Bearer realm="plantmock"`),
			wantBody: errBody(problem.CodeNoCredentials, `missing credentials: send "Authorization: Bearer <token>"`)}},

		// Bodies.
		{call: call{name: "body not JSON", method: "POST", path: "/plants", header: bearerJSON, body: `{"id":7,`,
			status: 400, wantHeader: jsonHeader(errBody(problem.CodeBodyNotJSON, "invalid JSON: unexpected end of input")),
			wantBody: errBody(problem.CodeBodyNotJSON, "invalid JSON: unexpected end of input")}},
		{call: call{name: "body with trailing data", method: "POST", path: "/plants", header: bearerJSON, body: `{"id":7,"name":"a"} x`,
			status: 400, wantHeader: jsonHeader(errBody(problem.CodeBodyNotJSON, "invalid JSON: unexpected data after the value at offset 20")),
			wantBody: errBody(problem.CodeBodyNotJSON, "invalid JSON: unexpected data after the value at offset 20")}},
		{call: call{name: "body not UTF-8", method: "POST", path: "/plants", header: bearerJSON, body: "{\"id\":7,\"name\":\"\xff\"}",
			status: 400, wantHeader: jsonHeader(errBody(problem.CodeBodyNotJSON, "body is not valid UTF-8")),
			wantBody: errBody(problem.CodeBodyNotJSON, "body is not valid UTF-8")}},
		{call: call{name: "empty body", method: "POST", path: "/plants", header: bearerJSON,
			status: 400, wantHeader: jsonHeader(errBody(problem.CodeBodyMissing, "request body is required (application/json)")),
			wantBody: errBody(problem.CodeBodyMissing, "request body is required (application/json)")}},
		{call: call{name: "empty body without Content-Type", method: "POST", path: "/plants", header: with(bearerJSON, "Content-Type", ""),
			status: 400, wantHeader: jsonHeader(errBody(problem.CodeBodyMissing, "request body is required (application/json)")),
			wantBody: errBody(problem.CodeBodyMissing, "request body is required (application/json)")}},
		{call: call{name: "wrong content type", method: "POST", path: "/plants", header: with(bearerJSON, "Content-Type", "text/plain"), body: monstera,
			status: 400, wantHeader: jsonHeader(errBody(problem.CodeContentType, "Content-Type text/plain is not accepted; send application/json")),
			wantBody: errBody(problem.CodeContentType, "Content-Type text/plain is not accepted; send application/json")}},
		{call: call{name: "missing content type", method: "POST", path: "/plants", header: with(bearerJSON, "Content-Type", ""), body: monstera,
			status: 400, wantHeader: jsonHeader(errBody(problem.CodeContentType, "missing Content-Type; send application/json")),
			wantBody: errBody(problem.CodeContentType, "missing Content-Type; send application/json")}},
		{call: call{name: "charset other than utf-8", method: "POST", path: "/plants", header: with(bearerJSON, "Content-Type", "application/json; charset=latin1"), body: monstera,
			status: 400, wantHeader: jsonHeader(errBody(problem.CodeContentType, `charset "latin1" is not accepted; JSON must be UTF-8`)),
			wantBody: errBody(problem.CodeContentType, `charset "latin1" is not accepted; JSON must be UTF-8`)}},
		{call: call{name: "body over the limit", method: "POST", path: "/plants", header: bearerJSON, body: bigBody,
			status: 400, wantHeader: jsonHeader(errBody(problem.CodeBodyTooLarge, "request body of 2066 bytes is over the limit of 1024 bytes")),
			wantBody: errBody(problem.CodeBodyTooLarge, "request body of 2066 bytes is over the limit of 1024 bytes")},
			opts: Options{Limits: Limits{MaxBody: 1024}}},
		{call: call{name: "id of the wrong type", method: "POST", path: "/plants", header: bearerJSON, body: `{"id":"7","name":"Monstera"}`,
			status: 400, wantHeader: jsonHeader(errBody(problem.CodeSchema, "request body does not match the schema: id: expected integer, got string")),
			wantBody: errBody(problem.CodeSchema, "request body does not match the schema: id: expected integer, got string")}},
		{call: call{name: "every violated field is named", method: "POST", path: "/plants", header: bearerJSON, body: `{"tag":5}`,
			status: 400, wantHeader: jsonHeader(errBody(problem.CodeSchema, "request body does not match the schema: id: required property is missing; name: required property is missing; tag: expected string, got number")),
			wantBody: errBody(problem.CodeSchema, "request body does not match the schema: id: required property is missing; name: required property is missing; tag: expected string, got number")}},
		{call: call{name: "body is an array", method: "POST", path: "/plants", header: bearerJSON, body: `[]`,
			status: 400, wantHeader: jsonHeader(errBody(problem.CodeSchema, "request body does not match the schema: body: expected object, got array")),
			wantBody: errBody(problem.CodeSchema, "request body does not match the schema: body: expected object, got array")}},
		{call: call{name: "fractional id", method: "POST", path: "/plants", header: bearerJSON, body: `{"id":1.5,"name":"a"}`,
			status: 400, wantHeader: jsonHeader(errBody(problem.CodeSchema, "request body does not match the schema: id: expected integer, got number")),
			wantBody: errBody(problem.CodeSchema, "request body does not match the schema: id: expected integer, got number")}},
		{call: call{name: "id written with a fraction", method: "POST", path: "/plants", header: bearerJSON, body: `{"id":1.0,"name":"a"}`,
			status: 200, wantHeader: jsonHeader(`{"name":"a"}`), wantBody: `{"name":"a"}`}},
		{call: call{name: "id with an exponent", method: "POST", path: "/plants", header: bearerJSON, body: `{"id":1e300,"name":"a"}`,
			status: 400, wantHeader: jsonHeader(errBody(problem.CodeSchema, "request body does not match the schema: id: 1e300 is over the int64 maximum 9223372036854775807")),
			wantBody: errBody(problem.CodeSchema, "request body does not match the schema: id: 1e300 is over the int64 maximum 9223372036854775807")}},
		{call: call{name: "id beyond int64", method: "POST", path: "/plants", header: bearerJSON, body: `{"id":9223372036854775808,"name":"a"}`,
			status: 400, wantHeader: jsonHeader(errBody(problem.CodeSchema, "request body does not match the schema: id: 9223372036854775808 is over the int64 maximum 9223372036854775807")),
			wantBody: errBody(problem.CodeSchema, "request body does not match the schema: id: 9223372036854775808 is over the int64 maximum 9223372036854775807")}},
		{call: call{name: "id below int64", method: "POST", path: "/plants", header: bearerJSON, body: `{"id":-9223372036854775809,"name":"a"}`,
			status: 400, wantHeader: jsonHeader(errBody(problem.CodeSchema, "request body does not match the schema: id: -9223372036854775809 is under the int64 minimum -9223372036854775808")),
			wantBody: errBody(problem.CodeSchema, "request body does not match the schema: id: -9223372036854775809 is under the int64 minimum -9223372036854775808")}},

		// State.
		{call: call{name: "duplicate identifier", method: "POST", path: "/plants", header: bearerJSON, body: `{"id":7,"name":"Other"}`,
			status: 400, wantHeader: jsonHeader(errBody(problem.CodeDuplicate, "id 7 already exists in /plants")),
			wantBody: errBody(problem.CodeDuplicate, "id 7 already exists in /plants")},
			before: []string{monstera}},
		{call: call{name: "duplicate identifier written differently", method: "POST", path: "/plants", header: bearerJSON, body: `{"id":-0,"name":"Other"}`,
			status: 400, wantHeader: jsonHeader(errBody(problem.CodeDuplicate, "id 0 already exists in /plants")),
			wantBody: errBody(problem.CodeDuplicate, "id 0 already exists in /plants")},
			before: []string{`{"id":0,"name":"Zero"}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ts := newTestServer(t, tt.opts)
			for _, b := range tt.before {
				_, resp, got := send(t, ts, call{method: "POST", path: "/plants", header: with(bearerJSON, "Authorization", "Bearer t1"), body: b})
				if resp.StatusCode != 200 {
					t.Fatalf("setup create %s: %d %s", b, resp.StatusCode, got)
				}
			}
			check(t, s, ts, tt.call)
		})
	}
}

// TestCreateStoresExactly checks that what a create stores is the validated
// body, integers unrounded, and that a refused create stores nothing.
func TestCreateStoresExactly(t *testing.T) {
	s, ts := newTestServer(t, Options{})
	for _, b := range []string{
		`{"id":9223372036854775807,"name":"Max","tag":"big"}`,
		`{"id":9007199254740993,"name":"Beyond float","extra":[1,{"a":null}]}`,
		`{"id":1e3,"name":"An integer in JSON Schema 2020-12"}`,
		`{"id":1.5,"name":"refused"}`,
		`{"id":5,"id":6,"name":"Last key wins"}`,
	} {
		send(t, ts, call{method: "POST", path: "/plants", header: bearerJSON, body: b})
	}
	want := map[string]string{
		"9223372036854775807": `{"id":9223372036854775807,"name":"Max","tag":"big"}`,
		"9007199254740993":    `{"extra":[1,{"a":null}],"id":9007199254740993,"name":"Beyond float"}`,
		"6":                   `{"id":6,"name":"Last key wins"}`,
		"1000":                `{"id":1e3,"name":"An integer in JSON Schema 2020-12"}`,
	}
	if n := stored(s, "/plants"); n != len(want) {
		t.Errorf("store holds %d plants, want %d", n, len(want))
	}
	for k, w := range want {
		got, ok := storedDoc(s, "/plants", k)
		if !ok || string(got) != w {
			t.Errorf("store[%s] = %s, %v; want %s", k, got, ok, w)
		}
	}
	if _, ok := storedDoc(s, "/plants", "5"); ok {
		t.Errorf("the first of two duplicate keys was stored; the last must win")
	}
}

// TestChunkedBodyOverLimit sends a body of unknown length that is over the
// limit: it is refused while reading, in the error shape.
func TestChunkedBodyOverLimit(t *testing.T) {
	s, ts := newTestServer(t, Options{Limits: Limits{MaxBody: 64}})
	pr, pw := io.Pipe()
	go func() {
		pw.Write([]byte(`{"id":1,"name":"` + strings.Repeat("x", 100) + `"}`))
		pw.Close()
	}()
	req, _ := http.NewRequest("POST", ts.URL+"/plants", pr)
	req.Header.Set("Authorization", "Bearer abc")
	req.Header.Set("Content-Type", "application/json")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	want := errBody(problem.CodeBodyTooLarge, "request body is over the limit of 64 bytes")
	if resp.StatusCode != 400 || string(got) != want {
		t.Errorf("got %d %s, want 400 %s", resp.StatusCode, got, want)
	}
	if n := stored(s, "/plants"); n != 0 {
		t.Errorf("store holds %d plants after a refused create", n)
	}
}
