package mock

import (
	"testing"

	"github.com/plantmock/plantmock/mock/internal/problem"
)

func problemBody(code problem.Code, title, detail string) string {
	return `{"code":` + itoa(int(code)) + `,"title":"` + title + `","detail":` + string(quote(detail)) + `}`
}

func problemHeader(body string, kv ...string) map[string]string {
	return with(map[string]string{"Content-Type": "application/problem+json", "Content-Length": itoa(len(body))}, kv...)
}

// TestSecondSpec drives a document unlike the Plant Store (OpenAPI 3.0,
// API key security, string identifiers named by the item path, 201, 204,
// 404 and 422 declared, problem+json errors) through a stateful sequence.
// Steps share one mock and run in order.
func TestSecondSpec(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: readSpec(t, "../examples/tasks.yaml"), Tokens: []string{"k1"}})
	key := map[string]string{"X-API-Key": "k1"}
	keyJSON := with(key, "Content-Type", "application/json")
	keyPatch := with(key, "Content-Type", "application/merge-patch+json")
	task := `{"done":false,"taskId":"a-1","title":"water"}`
	// A required request id header gets a fresh UUID per answer.
	requestID := map[string]string{"X-Request-Id": uuidRE}
	done := `{"done":true,"priority":3,"taskId":"a-1","title":"water"}`
	steps := []call{
		{name: "create answers 201 with defaults applied and writeOnly left out", method: "POST", path: "/tasks", header: keyJSON,
			body: `{"taskId":"a-1","title":"water","secret":"s3"}`, status: 201, wantHeader: jsonHeader(task), matchHeader: requestID, wantBody: task},
		{name: "list", method: "GET", path: "/tasks", header: key, status: 200, wantHeader: jsonHeader("[" + task + "]"), wantBody: "[" + task + "]"},
		{name: "read by the identifier the path names", method: "GET", path: "/tasks/a-1", header: key, status: 200, wantHeader: jsonHeader(task), wantBody: task},
		{name: "merge patch", method: "PATCH", path: "/tasks/a-1", header: keyPatch, body: `{"done":true,"priority":3}`,
			status: 200, wantHeader: jsonHeader(done), wantBody: done},
		{name: "merge patch null removes", method: "PATCH", path: "/tasks/a-1", header: keyPatch, body: `{"priority":null,"done":false}`,
			status: 200, wantHeader: jsonHeader(task), wantBody: task},
		{name: "replace", method: "PUT", path: "/tasks/a-1", header: keyJSON, body: `{"taskId":"a-1","title":"repot","done":true}`,
			status: 200, wantHeader: jsonHeader(`{"done":true,"taskId":"a-1","title":"repot"}`), wantBody: `{"done":true,"taskId":"a-1","title":"repot"}`},
		{name: "second create", method: "POST", path: "/tasks", header: keyJSON, body: `{"taskId":"b-2","title":"prune","priority":-2147483648}`,
			status: 201, wantHeader: jsonHeader(`{"done":false,"priority":-2147483648,"taskId":"b-2","title":"prune"}`), matchHeader: requestID, wantBody: `{"done":false,"priority":-2147483648,"taskId":"b-2","title":"prune"}`},
		{name: "list honours limit", method: "GET", path: "/tasks?limit=1", header: key, status: 200,
			wantHeader: jsonHeader(`[{"done":true,"taskId":"a-1","title":"repot"}]`), wantBody: `[{"done":true,"taskId":"a-1","title":"repot"}]`},
		{name: "delete answers 204 without a body", method: "DELETE", path: "/tasks/a-1", header: key, status: 204, wantHeader: map[string]string{}, wantBody: ""},
		{name: "list after delete", method: "GET", path: "/tasks", header: key, status: 200,
			wantHeader: jsonHeader(`[{"done":false,"priority":-2147483648,"taskId":"b-2","title":"prune"}]`), wantBody: `[{"done":false,"priority":-2147483648,"taskId":"b-2","title":"prune"}]`},
		{name: "canned answer from the example, without security", method: "GET", path: "/health", status: 200,
			wantHeader: jsonHeader(`{"status":"ok"}`), wantBody: `{"status":"ok"}`},
		{name: "paths may carry a server's base path", method: "GET", path: "/api/v2/tasks/b-2", header: key, status: 200,
			wantHeader: jsonHeader(`{"done":false,"priority":-2147483648,"taskId":"b-2","title":"prune"}`), wantBody: `{"done":false,"priority":-2147483648,"taskId":"b-2","title":"prune"}`},
	}
	errs := []struct {
		call
		code   problem.Code
		detail string
	}{
		{call{name: "read of a deleted task is 404", method: "GET", path: "/tasks/a-1", header: key, status: 404}, problem.CodeNotFound, `no resource with taskId "a-1" in /tasks`},
		{call{name: "delete of a missing task is 404", method: "DELETE", path: "/tasks/zz", header: key, status: 404}, problem.CodeNotFound, `no resource with taskId "zz" in /tasks`},
		{call{name: "patch of a missing task is 404", method: "PATCH", path: "/tasks/zz", header: keyPatch, body: `{"done":true}`, status: 404}, problem.CodeNotFound, `no resource with taskId "zz" in /tasks`},
		{call{name: "duplicate create is the declared 422", method: "POST", path: "/tasks", header: keyJSON, body: `{"taskId":"b-2","title":"again"}`, status: 422}, problem.CodeDuplicate, `taskId "b-2" already exists in /tasks`},
		{call{name: "schema violation is the declared 422", method: "POST", path: "/tasks", header: keyJSON, body: `{"taskId":"C","title":"","priority":2147483648}`, status: 422}, problem.CodeSchema,
			"request body does not match the schema: priority: 2147483648 is over the int32 maximum 2147483647; taskId: \"C\" does not match the pattern ^[a-z0-9-]+$; title: shorter than the minimum length 1"},
		{call{name: "malformed JSON is the declared 422", method: "POST", path: "/tasks", header: keyJSON, body: `{`, status: 422}, problem.CodeBodyNotJSON, "invalid JSON: unexpected end of input"},
		{call{name: "wrong content type is the declared 422", method: "PATCH", path: "/tasks/b-2", header: keyJSON, body: `{}`, status: 422}, problem.CodeContentType,
			"Content-Type application/json is not accepted; send application/merge-patch+json"},
		{call{name: "empty body is the declared 422", method: "PUT", path: "/tasks/b-2", header: keyJSON, status: 422}, problem.CodeBodyMissing, "request body is required (application/json)"},
		{call{name: "patch may not break the resource schema", method: "PATCH", path: "/tasks/b-2", header: keyPatch, body: `{"title":null}`, status: 422}, problem.CodeSchema,
			"the patched resource does not match the schema: title: required property is missing"},
		{call{name: "replace may not change the identifier", method: "PUT", path: "/tasks/b-2", header: keyJSON, body: `{"taskId":"c-3","title":"x"}`, status: 422}, problem.CodeSchema,
			`request body does not match the path: taskId: is "c-3" but the path addresses "b-2"`},
		{call{name: "invalid query parameter", method: "GET", path: "/tasks?limit=101", header: key, status: 422}, problem.CodeParameter,
			"invalid parameters: query.limit: 101 is over the maximum 100"},
		{call{name: "invalid path parameter", method: "GET", path: "/tasks/UPPER", header: key, status: 422}, problem.CodeParameter,
			"invalid parameters: path.taskId: \"UPPER\" does not match the pattern ^[a-z0-9-]+$"},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) { check(t, s, ts, st) })
	}
	for _, e := range errs {
		t.Run(e.name, func(t *testing.T) {
			title := map[int]string{404: "Not Found", 422: "Unprocessable Entity"}[e.status]
			e.wantBody = problemBody(e.code, title, e.detail)
			e.wantHeader = problemHeader(e.wantBody)
			check(t, s, ts, e.call)
		})
	}
}

// TestSecondSpecAuth checks the API key scheme of the second document.
func TestSecondSpecAuth(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: readSpec(t, "../examples/tasks.yaml"), Tokens: []string{"k1"}})
	challenge := `APIKey realm="plantmock", in="header", name="X-API-Key"`
	for _, tt := range []struct {
		name, key string
		code      problem.Code
		detail    string
		challenge string
	}{
		{"missing key", "", problem.CodeNoCredentials, `missing API key: send it in the header "X-API-Key"`, challenge},
		{"key not accepted", "k2", problem.CodeTokenRejected, `the API key in the header "X-API-Key" is not accepted`, challenge + `, error="invalid_token"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{}
			if tt.key != "" {
				h["X-API-Key"] = tt.key
			}
			b := problemBody(tt.code, "Unauthorized", tt.detail)
			check(t, s, ts, call{method: "GET", path: "/tasks", header: h, status: 401,
				wantHeader: problemHeader(b, "WWW-Authenticate", tt.challenge), wantBody: b})
		})
	}
}

// TestGeneratedAnswers checks that an operation without an example answers
// with generated data that conforms, the same for the same seed.
func TestGeneratedAnswers(t *testing.T) {
	spec := readSpec(t, "../examples/tasks.yaml")
	get := func(seed int64) []string {
		s, ts := newTestServer(t, Options{Spec: spec, Seed: seed})
		var out []string
		for i := 0; i < 3; i++ {
			req, resp, body := send(t, ts, call{method: "GET", path: "/report", header: map[string]string{"X-API-Key": "any"}})
			if resp.StatusCode != 200 {
				t.Fatalf("status %d: %s", resp.StatusCode, body)
			}
			assertConforms(t, s, req, resp, body)
			out = append(out, string(body))
		}
		return out
	}
	a, b, c := get(42), get(42), get(43)
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("answer %d differs for the same seed:\n%s\n%s", i, a[i], b[i])
		}
	}
	if a[0] == a[1] {
		t.Errorf("consecutive answers are identical: %s", a[0])
	}
	if a[0] == c[0] {
		t.Errorf("answers for seeds 42 and 43 are identical: %s", a[0])
	}
}
