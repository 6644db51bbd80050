package mock

import (
	"strings"
	"testing"
)

// TestAdminExplain checks that POST /__admin/explain says how a request
// would be answered, with the checks, the refusal's words as the journal
// keeps them, and the source of an accepted answer, and that it stores,
// journals and counts nothing.
func TestAdminExplain(t *testing.T) {
	doc := adminDoc(t)
	s, ts := newTestServer(t, Options{})
	calls := []adminCall{
		{name: "refused body", method: "POST", path: "/__admin/explain", body: `{"method":"POST","path":"/plants","headers":{"Authorization":["Bearer t"]},"body":{"id":"x"}}`, status: 200,
			want: `{"operation":"POST /plants","checks":[{"name":"route","ok":true},{"name":"security","ok":true},{"name":"parameters","ok":true},{"name":"body","ok":false}],` +
				`"status":400,"answer":"refused","code":40004,"message":"request body does not match the schema",` +
				`"violations":[{"path":"id","reason":"expected integer, got string","schema":"#/components/schemas/NewPlant/allOf/1/properties/id/type"},{"path":"name","reason":"required property is missing","schema":"#/components/schemas/Plant/required"}],` +
				`"contentType":"application/json","body":{"error":40004,"message":"request body does not match the schema: id: expected integer, got string; name: required property is missing"}}`},
		{name: "create", method: "POST", path: "/__admin/explain", body: `{"method":"POST","path":"/plants","headers":{"Authorization":"Bearer t"},"body":{"id":1,"name":"Fern"}}`, status: 200,
			want: `{"operation":"POST /plants","checks":[{"name":"route","ok":true},{"name":"security","ok":true},{"name":"parameters","ok":true},{"name":"body","ok":true},{"name":"controls","ok":true}],"status":200,"answer":"the operation's behaviour: create"}`},
		{name: "no route", method: "POST", path: "/__admin/explain", body: `{"method":"GET","path":"/trees"}`, status: 200,
			want: `{"checks":[{"name":"route","ok":false}],"status":404,"answer":"refused","code":40400,"message":"no path of the OpenAPI document matches /trees","contentType":"application/json","body":{"error":40400,"message":"no path of the OpenAPI document matches /trees"}}`},
		{name: "bad description", method: "POST", path: "/__admin/explain", body: `{"path":"/plants"}`, status: 400,
			want: `{"error":40004,"message":"the body must be {\"method\": \"GET\", \"path\": \"/plants?limit=2\", \"headers\": {\"Name\": \"value\" or [\"values\"]}, \"body\": JSON or \"text\"} (method and path required)"}`},
		{name: "no token", method: "POST", path: "/__admin/explain", body: `{"method":"POST","path":"/plants","body":"{}"}`, status: 200,
			want: `{"operation":"POST /plants","checks":[{"name":"route","ok":true},{"name":"security","ok":false}],"status":401,"answer":"refused","code":40100,` +
				`"message":"missing credentials: send \"Authorization: Bearer \u003ctoken\u003e\"","contentType":"application/json","body":{"error":40100,"message":"missing credentials: send \"Authorization: Bearer \u003ctoken\u003e\""}}`},
		{name: "operations", method: "GET", path: "/__admin/operations", status: 200,
			want: `{"operations":[{"operation":"POST /plants","operationId":"createPlant","request":[{"type":"application/json"}],"responses":[{"status":"200","content":[{"type":"application/json"}]},{"status":"400","content":[{"type":"application/json"}]}]}]}`},
	}
	for _, c := range calls {
		callAdmin(t, ts, doc, c)
	}
	if got := s.Journal(); len(got) != 0 {
		t.Errorf("explained requests were journaled: %d entries", len(got))
	}
	callAdmin(t, ts, doc, adminCall{name: "store", method: "GET", path: "/__admin/store", status: 200, want: `{"collections":{}}`})
}

// TestAdminExplainLeavesValues: explaining a request whose answer is
// generated takes nothing from the mock's sequence of generated values:
// the answers after it are those a mock that explained nothing gives.
func TestAdminExplainLeavesValues(t *testing.T) {
	req := []string{"Authorization", "Bearer t", "Prefer", "code=400, dynamic=true"}
	answers := func(explain bool) []string {
		_, ts := newTestServer(t, Options{Seed: 7})
		if explain {
			callAdmin(t, ts, adminDoc(t), adminCall{name: "explain", method: "POST", path: "/__admin/explain", status: 200,
				body: `{"method":"POST","path":"/plants","headers":{"Authorization":"Bearer t","Prefer":"code=400, dynamic=true"},"body":{"id":1,"name":"Fern"}}`})
		}
		var out []string
		for range 2 {
			st, body := do(t, ts, "POST", "/plants", `{"id":1,"name":"Fern"}`, req...)
			out = append(out, itoa(st)+" "+body)
		}
		return out
	}
	plain, explained := answers(false), answers(true)
	if strings.Join(plain, "\n") != strings.Join(explained, "\n") {
		t.Fatalf("after an explanation the mock answers\n%s\nwithout one\n%s", strings.Join(explained, "\n"), strings.Join(plain, "\n"))
	}
}

// TestAdminOperationsExamples: GET /__admin/operations lists each media
// type's example and named examples.
func TestAdminOperationsExamples(t *testing.T) {
	_, ts := newTestServer(t, Options{Spec: []byte(`openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /stats:
    get:
      responses:
        '200':
          description: stats
          content:
            application/json:
              schema: {type: object}
              examples:
                quiet: {value: {load: 1}}
                busy: {value: {load: 9}}
            text/plain:
              example: load 1
`)})
	callAdmin(t, ts, adminDoc(t), adminCall{name: "operations", method: "GET", path: "/__admin/operations", status: 200,
		want: `{"operations":[{"operation":"GET /stats","responses":[{"status":"200","content":[{"type":"application/json","example":{"load":1},"examples":{"busy":{"load":9},"quiet":{"load":1}}},{"type":"text/plain","example":"load 1"}]}]}]}`})
}
