package mock

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock/internal/admin"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// adminCall is one admin request and its exact expected answer ("" body:
// not compared; use contains).
type adminCall struct {
	name, method, path, body string
	header                   map[string]string
	status                   int
	want                     string // exact body, if not empty
	contains                 string // a part of the body, if want is empty
	undeclared               bool   // not in the admin document, so not checked against it
}

// callAdmin performs c and checks it, and that the answer conforms to the
// admin API's own document.
func callAdmin(t *testing.T, ts *httptest.Server, doc *openapi.Document, c adminCall) string {
	t.Helper()
	var body io.Reader
	if c.body != "" {
		body = strings.NewReader(c.body)
	}
	req, _ := http.NewRequest(c.method, ts.URL+c.path, body)
	for k, v := range c.header {
		req.Header.Set(k, v)
	}
	if c.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != c.status {
		t.Errorf("%s: status %d, want %d: %s", c.name, resp.StatusCode, c.status, got)
	}
	if c.want != "" && string(got) != c.want {
		t.Errorf("%s: body\n%s\nwant\n%s", c.name, got, c.want)
	}
	if c.contains != "" && !strings.Contains(string(got), c.contains) {
		t.Errorf("%s: body %s\ndoes not contain %s", c.name, got, c.contains)
	}
	resp.Body = io.NopCloser(bytes.NewReader(got))
	if vs := doc.CheckResponse(req, resp); len(vs) > 0 && !c.undeclared {
		t.Errorf("%s: answer breaks the admin document: %v", c.name, vs)
	}
	return string(got)
}

func adminDoc(t *testing.T) *openapi.Document {
	t.Helper()
	doc, err := openapi.Load([]byte(admin.OpenAPI))
	if err != nil {
		t.Fatalf("admin.yaml: %v", err)
	}
	return doc
}

// TestAdminAPI walks every admin endpoint in order on one mock.
func TestAdminAPI(t *testing.T) {
	doc := adminDoc(t)
	s, ts := newTestServer(t, Options{})
	send(t, ts, post(`{"id":1,"name":"Fern"}`))
	send(t, ts, post(`{"id":"x"}`))
	calls := []adminCall{
		{name: "health", method: "GET", path: "/__admin/health", status: 200, want: `{"spec":"OpenAPI Plant Store 1.0.0","status":"ok","store":"memory","version":"` + Version + `"}`},
		{name: "requests", method: "GET", path: "/__admin/requests", status: 200, contains: `"body":{"id":1,"name":"Fern"},"response":{"name":"Fern"}`},
		{name: "requests limit", method: "GET", path: "/__admin/requests?limit=1", status: 200, contains: `"violations":[{"path":"id","reason":"expected integer, got string","schema":"#/components/schemas/NewPlant/allOf/1/properties/id/type"},{"path":"name","reason":"required property is missing","schema":"#/components/schemas/Plant/required"}]`},
		{name: "bad limit", method: "GET", path: "/__admin/requests?limit=x", status: 400, want: `{"error":40005,"message":"limit=x is not a count"}`},
		{name: "count", method: "POST", path: "/__admin/requests/count", body: `{"operation":"POST /plants","status":200}`, status: 200, want: `{"count":1}`},
		{name: "count by body", method: "POST", path: "/__admin/requests/count", body: `{"body":{"name":"/^F/"}}`, status: 200, want: `{"count":1}`},
		{name: "find", method: "POST", path: "/__admin/requests/find", body: `{"status":400}`, status: 200, contains: `"code":40004`},
		{name: "bad matcher", method: "POST", path: "/__admin/requests/find", body: `{"state":1}`, status: 400, want: `{"error":40004,"message":"matcher key \"state\" is unknown or of the wrong type; use operation (string), status (integer), body (JSON), direction (inbound or outbound), document (string)"}`},
		{name: "clear requests", method: "DELETE", path: "/__admin/requests", status: 204},
		{name: "requests after clear", method: "GET", path: "/__admin/requests", status: 200, want: `{"requests":[]}`},
		{name: "store", method: "GET", path: "/__admin/store", status: 200, want: `{"collections":{"/plants":[{"id":1,"name":"Fern"}]}}`},
		{name: "seed", method: "PUT", path: "/__admin/store/plants", body: `[{"id":7,"name":"Monstera","tag":"aroid"},{"id":8,"name":"Ivy"}]`, status: 200, want: `{"collection":"/plants","count":2}`},
		{name: "store after seed", method: "GET", path: "/__admin/store", status: 200, want: `{"collections":{"/plants":[{"id":7,"name":"Monstera","tag":"aroid"},{"id":8,"name":"Ivy"}]}}`},
		{name: "seed validated", method: "PUT", path: "/__admin/store/plants", body: `[{"id":1,"name":"a"},{"id":"2"},{"id":1,"name":"b"}]`, status: 400,
			want: `{"error":40004,"message":"/plants: seed data does not match the create schema: [1].id: expected integer, got string; [1].name: required property is missing; [2]: id 1 repeats item 0"}`},
		{name: "seed an unknown collection", method: "PUT", path: "/__admin/store/trees", body: `[]`, status: 404,
			want: `{"error":40400,"message":"/trees is not a collection the document creates resources in (POST with a JSON object body)"}`},
		{name: "seed not an array", method: "PUT", path: "/__admin/store/plants", body: `{}`, status: 400, want: `{"error":40004,"message":"/plants: seed data must be a JSON array of resources"}`},
		{name: "scenarios", method: "GET", path: "/__admin/scenarios", status: 200, contains: `{"name":"slow","description":"Every request takes 1.5 s, then behaves as usual.","rules":[{"when":{},"respond":{"delay":"1.5s"}}],"file":"scenarios/slow.yaml"}`},
		{name: "activate", method: "PUT", path: "/__admin/scenario", body: `{"name":"store-busy"}`, status: 200, want: `{"active":"store-busy"}`},
		{name: "activate unknown", method: "PUT", path: "/__admin/scenario", body: `{"name":"nope"}`, status: 400,
			want: `{"error":40006,"message":"no scenario is named \"nope\"; known: first-call-fails, first-create-fails, flaky, slow, store-busy, tag-policy"}`},
		{name: "scenarios show the active one", method: "GET", path: "/__admin/scenarios", status: 200, contains: `{"active":"store-busy",`},
		{name: "deactivate", method: "PUT", path: "/__admin/scenario", body: `{"name":null}`, status: 200, want: `{"active":null}`},
		{name: "reset", method: "POST", path: "/__admin/reset", status: 204},
		{name: "store after reset", method: "GET", path: "/__admin/store", status: 200, want: `{"collections":{}}`},
		{name: "clear store", method: "DELETE", path: "/__admin/store", status: 204},
		{name: "own document", method: "GET", path: "/__admin/openapi.yaml", status: 200, want: admin.OpenAPI},
		{name: "calls", method: "GET", path: "/__admin/", status: 200, contains: `{"method":"GET","path":"/__admin/","operationId":"adminCalls","summary":"The calls of this API, read from this document"},{"method":"GET","path":"/__admin/openapi.yaml"`},
		{name: "unknown call", method: "GET", path: "/__admin/nope", status: 404, want: `{"error":40400,"message":"no admin call GET /__admin/nope; see /__admin/openapi.yaml"}`, undeclared: true},
		// Regression (FuzzAdminJSON): an unclean path was redirected with 307.
		{name: "unclean path", method: "PUT", path: "/__admin/.", body: "0", status: 404, want: `{"error":40400,"message":"no admin call PUT /__admin/.; see /__admin/openapi.yaml"}`, undeclared: true},
	}
	for _, c := range calls {
		callAdmin(t, ts, doc, c)
	}
	if got := s.Journal(); len(got) != 0 {
		t.Errorf("admin calls were journaled: %d entries", len(got))
	}
}

// TestAdminScenariosView checks that the scenarios are shown with the keys
// of their YAML files, valid against the admin document, for shipped
// scenarios and ones built in Go alike.
func TestAdminScenariosView(t *testing.T) {
	inGo := &scenario.Scenario{Name: "in-go", Rules: []scenario.Rule{
		{When: scenario.When{Operation: "POST /plants", Headers: map[string]string{"X-A": "/^b/"}, Token: "t", Body: map[string]any{"id": 1}},
			Times: 2, Every: 3, OffContract: true,
			Respond: scenario.Respond{Status: 503, Headers: map[string]string{"Retry-After": "1"}, Body: map[string]any{"oops": true}, Delay: 250 * time.Millisecond}},
		{Respond: scenario.Respond{Fault: scenario.FaultEmptyResponse}},
	}}
	_, ts := newTestServer(t, Options{Scenarios: []*scenario.Scenario{inGo}, NoShippedScenarios: true, Scenario: "in-go"})
	callAdmin(t, ts, adminDoc(t), adminCall{name: "scenarios", method: "GET", path: "/__admin/scenarios", status: 200,
		want: `{"active":"in-go","scenarios":[{"name":"in-go","rules":[` +
			`{"when":{"operation":"POST /plants","headers":{"X-A":"/^b/"},"token":"t","body":{"id":1}},"times":2,"every":3,"respond":{"status":503,"headers":{"Retry-After":"1"},"body":{"oops":true},"delay":"250ms"},"off_contract":true},` +
			`{"when":{},"respond":{"fault":"empty_response"}}]}]}`})
}

// TestAdminActivatesForRequests checks that an activated scenario answers.
func TestAdminActivatesForRequests(t *testing.T) {
	doc := adminDoc(t)
	s, ts := newTestServer(t, Options{})
	callAdmin(t, ts, doc, adminCall{name: "activate", method: "PUT", path: "/__admin/scenario", body: `{"name":"tag-policy"}`, status: 200, want: `{"active":"tag-policy"}`})
	check(t, s, ts, post(`{"id":1,"name":"a","tag":"poison"}`).expect(400, `{"error":42200,"message":"tag \"poison\" is not allowed in this store"}`))
}

// TestAdminToken checks that admin calls need the admin token and that the
// mocked API's tokens do not open them; the health call answers without
// it, with the status alone.
func TestAdminToken(t *testing.T) {
	doc := adminDoc(t)
	_, ts := newTestServer(t, Options{Admin: AdminOptions{Token: "adm"}, Tokens: []string{"api"}})
	refused := `{"error":40102,"message":"the admin API needs \"Authorization: Bearer <admin token>\""}`
	for _, h := range []map[string]string{nil, {"Authorization": "Bearer api"}, {"Authorization": "Basic adm"}, {"Authorization": "Bearer adm2"}} {
		callAdmin(t, ts, doc, adminCall{name: "refused", method: "GET", path: "/__admin/requests", header: h, status: 401, want: refused})
		callAdmin(t, ts, doc, adminCall{name: "health without the token", method: "GET", path: "/__admin/health", header: h, status: 200, want: `{"status":"ok"}`})
	}
	callAdmin(t, ts, doc, adminCall{name: "admitted", method: "GET", path: "/__admin/requests", header: map[string]string{"Authorization": "bearer adm"}, status: 200, want: `{"requests":[]}`})
	callAdmin(t, ts, doc, adminCall{name: "health with the token", method: "GET", path: "/__admin/health", header: map[string]string{"Authorization": "bearer adm"}, status: 200,
		want: `{"spec":"OpenAPI Plant Store 1.0.0","status":"ok","store":"memory","version":"` + Version + `"}`})
}

// TestAdminSeparate checks NoAdmin: the mock does not serve /__admin/, and
// Admin serves it on its own listener.
func TestAdminSeparate(t *testing.T) {
	s, ts := newTestServer(t, Options{Admin: AdminOptions{Disabled: true}})
	check(t, s, ts, call{method: "GET", path: "/__admin/store"}.expect(404, `{"error":40400,"message":"no path of the OpenAPI document matches /__admin/store"}`))
	// The health call stays, for container health checks.
	callAdmin(t, ts, adminDoc(t), adminCall{name: "health on the mock", method: "GET", path: "/__admin/health", status: 200, want: `{"spec":"OpenAPI Plant Store 1.0.0","status":"ok","store":"memory","version":"` + Version + `"}`})
	admin := httptest.NewServer(s.Admin())
	defer admin.Close()
	callAdmin(t, admin, adminDoc(t), adminCall{name: "health", method: "GET", path: "/__admin/health", status: 200, contains: `"status":"ok"`})
}

// TestSessions checks isolation of store, journal, counters and scenario
// between sessions, and the bounds on them.
func TestSessions(t *testing.T) {
	doc := adminDoc(t)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now } // only this test's goroutine moves it, between requests
	s, ts := newTestServer(t, Options{Limits: Limits{MaxSessions: 2, SessionIdle: time.Minute, Clock: clock}, Scenario: "first-create-fails"})
	refused := `{"error":50300,"message":"the store refused plant 1: please retry"}`
	a, b := []string{SessionHeader, "job-a"}, []string{SessionHeader, "job-b"}
	// Each session counts the scripted first create on its own.
	check(t, s, ts, post(`{"id":1,"name":"a"}`, a...).expect(400, refused))
	check(t, s, ts, post(`{"id":1,"name":"a"}`, a...).expect(200, `{"name":"a"}`))
	check(t, s, ts, post(`{"id":1,"name":"b"}`, b...).expect(400, refused))
	check(t, s, ts, post(`{"id":1,"name":"b"}`, b...).expect(200, `{"name":"b"}`))
	// Stores and journals are separate, from the default session too.
	callAdmin(t, ts, doc, adminCall{name: "store a", method: "GET", path: "/__admin/store", header: map[string]string{SessionHeader: "job-a"}, status: 200, want: `{"collections":{"/plants":[{"id":1,"name":"a"}]}}`})
	callAdmin(t, ts, doc, adminCall{name: "store default", method: "GET", path: "/__admin/store", status: 200, want: `{"collections":{}}`})
	callAdmin(t, ts, doc, adminCall{name: "journal b", method: "POST", path: "/__admin/requests/count", header: map[string]string{SessionHeader: "job-b"}, body: `{}`, status: 200, want: `{"count":2}`})
	// A scenario activated for a session applies to it alone.
	callAdmin(t, ts, doc, adminCall{name: "activate in b", method: "PUT", path: "/__admin/scenario", header: map[string]string{SessionHeader: "job-b"}, body: `{"name":"store-busy"}`, status: 200, want: `{"active":"store-busy"}`})
	check(t, s, ts, post(`{"id":2,"name":"a"}`, a...).expect(200, `{"name":"a"}`))
	// A third session is refused while both are in use...
	tooMany := `{"error":40008,"message":"too many sessions (2); reuse one, or wait until idle ones expire after 1m0s"}`
	check(t, s, ts, post(`{"id":1,"name":"c"}`, SessionHeader, "job-c").expect(400, tooMany))
	// ...and admitted once one has been idle for longer than the limit.
	now = now.Add(2 * time.Minute)
	if _, resp, got := send(t, ts, post(`{"id":2,"name":"b"}`, b...)); resp.StatusCode != 400 || !strings.HasPrefix(string(got), `{"error":`) {
		t.Errorf("store-busy in job-b: %d %s", resp.StatusCode, got)
	}
	check(t, s, ts, post(`{"id":1,"name":"c"}`, SessionHeader, "job-c").expect(400, refused))
	// job-a expired: its plants went with it, and it cannot come back
	// while job-b and job-c are alive.
	callAdmin(t, ts, doc, adminCall{name: "expired session is not there", method: "GET", path: "/__admin/store", header: map[string]string{SessionHeader: "job-a"}, status: 400, want: tooMany})
	bad := `{"error":40008,"message":"X-Mock-Session must be 1 to 128 letters, digits or -._~+/ characters"}`
	check(t, s, ts, post(`{"id":1,"name":"c"}`, SessionHeader, "has space").expect(400, bad))
}

// hooksSpec declares webhooks (one with two methods) and a callback, for
// the admin API's webhook calls.
const hooksSpec = `openapi: 3.1.0
info: {title: Hooks, version: '1'}
paths:
  /plants:
    post:
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/Plant'}}}
      responses:
        '201':
          description: created
          content: {application/json: {schema: {$ref: '#/components/schemas/Plant'}}}
      callbacks:
        onCreate:
          '{$request.body#/callbackUrl}':
            post:
              requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Plant'}}}}
              responses: {'200': {description: ok}}
webhooks:
  /plant/webhook:
    post:
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Plant'}}}}
      responses: {'200': {description: ok}}
  twice:
    put:
      responses: {'204': {description: ok}}
    post:
      responses: {'204': {description: ok}}
components:
  schemas:
    Plant:
      type: object
      required: [name]
      properties:
        id: {type: integer}
        name: {type: string}
        callbackUrl: {type: string}
`

// TestAdminWebhooks walks the webhook calls of the admin API and checks
// the journal's outbound entries against the admin document.
func TestAdminWebhooks(t *testing.T) {
	doc := adminDoc(t)
	sub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if r.URL.Path == "/created" {
			w.WriteHeader(http.StatusCreated) // not declared by the webhook: a response violation
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer sub.Close()
	hooked, err := scenario.ParseScenario("hooked.yaml", []byte("name: hooked\nrules:\n  - respond: {webhooks: [{name: /plant/webhook, body: {name: x}, delay: 1ms}, twice]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	s, ts := newTestServer(t, Options{Spec: []byte(hooksSpec), Webhooks: WebhookOptions{Retries: -1}, Scenarios: []*scenario.Scenario{hooked}})
	hook := "/__admin/webhooks/%2Fplant%2Fwebhook"
	none := `{"name":"/plant/webhook","methods":["POST"],"url":null,"token":false}`
	subscribed := `{"name":"/plant/webhook","methods":["POST"],"url":"` + sub.URL + `/created","token":true}`
	other := map[string]string{SessionHeader: "other"}
	calls := []adminCall{
		{name: "scenario with webhooks", method: "GET", path: "/__admin/scenarios", status: 200,
			contains: `"respond":{"webhooks":[{"name":"/plant/webhook","body":{"name":"x"},"delay":"1ms"},{"name":"twice"}]}`},
		{name: "list", method: "GET", path: "/__admin/webhooks", status: 200,
			want: `{"webhooks":[` + none + `,{"name":"twice","methods":["PUT","POST"],"url":null,"token":false}]}`},
		{name: "one", method: "GET", path: hook, status: 200, want: none},
		{name: "unknown", method: "GET", path: "/__admin/webhooks/nope", status: 404, contains: `{"error":40010,`},
		{name: "slash not escaped", method: "GET", path: "/__admin/webhooks/plant%2Fwebhook", status: 404, contains: `(write /plant/webhook as %2Fplant%2Fwebhook)`},
		{name: "send without subscriber", method: "POST", path: hook + "/send", status: 409, contains: `{"error":40010,`},
		{name: "subscribe not http", method: "PUT", path: hook, body: `{"url":"ftp://x/y"}`, status: 400, contains: `{"error":40004,"message":"url: `},
		{name: "subscribe other key", method: "PUT", path: hook, body: `{"url":"http://x/","secret":"s"}`, status: 400, contains: `{"error":40004,`},
		{name: "subscribe not JSON", method: "PUT", path: hook, body: `{`, status: 400, contains: `{"error":40001,`},
		{name: "subscribe unknown", method: "PUT", path: "/__admin/webhooks/nope", body: `{"url":"http://x/"}`, status: 404, contains: `{"error":40010,`},
		{name: "subscribe", method: "PUT", path: hook, body: `{"url":"` + sub.URL + `/created","token":"t"}`, status: 200, want: subscribed},
		{name: "subscribed", method: "GET", path: hook, status: 200, want: subscribed},
		{name: "other session has none", method: "GET", path: hook, header: other, status: 200, want: none},
		{name: "send breaks the schema", method: "POST", path: hook + "/send", body: `{"name":1}`, status: 400, contains: `{"error":40004,`},
		{name: "send generated", method: "POST", path: hook + "/send", status: 202, want: `{"queued":1,"url":"` + sub.URL + `/created","webhook":"/plant/webhook"}`},
		{name: "send given", method: "POST", path: hook + "/send", body: `{"name":"Fern"}`, status: 202, want: `{"queued":1,"url":"` + sub.URL + `/created","webhook":"/plant/webhook"}`},
		{name: "subscribe twice", method: "PUT", path: "/__admin/webhooks/twice", body: `{"url":"` + sub.URL + `/ok"}`, status: 200,
			want: `{"name":"twice","methods":["PUT","POST"],"url":"` + sub.URL + `/ok","token":false}`},
		{name: "send twice", method: "POST", path: "/__admin/webhooks/twice/send", status: 202, want: `{"queued":2,"url":"` + sub.URL + `/ok","webhook":"twice"}`},
	}
	for _, c := range calls {
		callAdmin(t, ts, doc, c)
	}
	// A create sends the webhook of its schema and its callback; the
	// callback's host is not allowed, so it is journaled as not sent.
	send(t, ts, post(`{"name":"Ivy","callbackUrl":"http://example.invalid/cb"}`))
	// Outbound: 2 sent through the admin API, 2 of twice, 1 after the
	// create, 1 refused callback.
	deadline := time.Now().Add(5 * time.Second)
	for len(journal.Find(s.Journal(), func(e journal.Entry) bool { return e.Direction == "outbound" })) < 6 {
		if time.Now().After(deadline) {
			t.Fatalf("outbound entries: %+v", s.Journal())
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, c := range []adminCall{
		{name: "journal", method: "GET", path: "/__admin/requests", status: 200, contains: `"violations":[{"path":"response","reason":"status 201 is not declared by webhook /plant/webhook","direction":"response"}]`},
		{name: "not sent", method: "POST", path: "/__admin/requests/find", body: `{"operation":"callback onCreate"}`, status: 200, contains: `"headers":null`},
		{name: "outbound", method: "POST", path: "/__admin/requests/count", body: `{"direction":"outbound"}`, status: 200, want: `{"count":6}`},
		{name: "inbound", method: "POST", path: "/__admin/requests/count", body: `{"direction":"inbound"}`, status: 200, want: `{"count":1}`},
		{name: "by webhook and method", method: "POST", path: "/__admin/requests/count", body: `{"operation":"webhook twice PUT"}`, status: 200, want: `{"count":1}`},
		{name: "triggered", method: "POST", path: "/__admin/requests/find", body: `{"operation":"webhook /plant/webhook","body":{"name":"Ivy"}}`, status: 200, contains: `/created","trigger":`},
		{name: "bad direction", method: "POST", path: "/__admin/requests/count", body: `{"direction":"up"}`, status: 400, want: `{"error":40004,"message":"direction \"up\" is neither inbound nor outbound"}`},
		{name: "unsubscribe", method: "DELETE", path: hook, status: 204},
		{name: "unsubscribe unknown", method: "DELETE", path: "/__admin/webhooks/nope", status: 404, contains: `{"error":40010,`},
		{name: "unsubscribed", method: "GET", path: hook, status: 200, want: none},
		{name: "send after unsubscribe", method: "POST", path: hook + "/send", status: 409, contains: `{"error":40010,`},
	} {
		callAdmin(t, ts, doc, c)
	}
}

// TestAdminDocuments walks the admin API of a mock of two documents:
// the documents listed, and each call about one of them (?document=).
func TestAdminDocuments(t *testing.T) {
	doc := adminDoc(t)
	_, ts := newTestServer(t, Options{Documents: []Document{{Spec: example(t, "tasks.yaml"), Base: "/tasks"}, {Spec: example(t, "webhooks.yaml"), Base: "/hooks"}}, NoShippedScenarios: true})
	for _, r := range []struct{ path, body string }{{"/tasks/notes", `{"text":"a"}`}, {"/hooks/plants", `{"id":1,"name":"Fern"}`}, {"/hooks/plants", `{"id":"x"}`}} {
		req, _ := http.NewRequest("POST", ts.URL+r.path, strings.NewReader(r.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-API-Key", "k")
		req.Header.Set("Authorization", "Bearer t")
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	// The contract report counts an exchange after its answer is
	// written: wait, within a deadline, until it has counted the three.
	for deadline := time.Now().Add(10 * time.Second); ; {
		resp, err := ts.Client().Get(ts.URL + "/__admin/contract")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Count(string(body), `"exchanges":1`) == 1 && strings.Count(string(body), `"exchanges":2`) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the contract report did not count the three exchanges: %s", body)
		}
		runtime.Gosched()
	}
	for _, c := range []adminCall{
		{name: "documents", method: "GET", path: "/__admin/documents", status: 200,
			want: `{"documents":[{"name":"tasks","title":"Task Board","version":"2.1.0","base":"/tasks","operations":13,"scenarios":0,"webhooks":0,"exchanges":1},` +
				`{"name":"hooks","title":"Plants with webhooks","version":"1.0.0","base":"/hooks","operations":1,"scenarios":0,"webhooks":1,"exchanges":2}]}`},
		{name: "one document", method: "GET", path: "/__admin/documents?document=hooks", status: 200,
			want: `{"documents":[{"name":"hooks","title":"Plants with webhooks","version":"1.0.0","base":"/hooks","operations":1,"scenarios":0,"webhooks":1,"exchanges":2}]}`},
		{name: "a document not served", method: "GET", path: "/__admin/requests?document=billing", status: 404,
			want: `{"error":40400,"message":"document=billing names no document the mock serves; documents: tasks, hooks"}`},
		{name: "health of one", method: "GET", path: "/__admin/health?document=tasks", status: 200, want: `{"spec":"Task Board 2.1.0","status":"ok","store":"memory","version":"` + Version + `"}`},
		{name: "health of all", method: "GET", path: "/__admin/health", status: 200, want: `{"spec":"Task Board 2.1.0, Plants with webhooks 1.0.0","status":"ok","store":"memory","version":"` + Version + `"}`},
		{name: "count of one", method: "POST", path: "/__admin/requests/count?document=hooks", body: `{}`, status: 200, want: `{"count":2}`},
		{name: "count by document", method: "POST", path: "/__admin/requests/count", body: `{"document":"tasks"}`, status: 200, want: `{"count":1}`},
		{name: "requests of one", method: "GET", path: "/__admin/requests?document=tasks", status: 200, contains: `"operation":"POST /notes","document":"tasks","status":201`},
		{name: "store of one", method: "GET", path: "/__admin/store?document=tasks", status: 200, want: `{"collections":{"/tasks/notes":[{"noteId":1,"text":"a"}]}}`},
		{name: "seed within one", method: "PUT", path: "/__admin/store/notes?document=tasks", body: `[{"text":"b"}]`, status: 200, want: `{"collection":"/notes","count":1}`},
		{name: "contract of one", method: "GET", path: "/__admin/contract?document=hooks", status: 200,
			contains: `{"operations":[{"document":"hooks","operation":"POST /plants","exchanges":2,"violations":[{"direction":"request","path":"id"`},
		{name: "reset of one", method: "POST", path: "/__admin/reset?document=hooks", status: 400,
			want: `{"error":40008,"message":"the journal is the documents' together: POST /__admin/reset without document= resets it; DELETE /__admin/store?document=hooks empties this document's resources"}`},
		{name: "empty one document's store", method: "DELETE", path: "/__admin/store?document=hooks", status: 204},
		{name: "the other's store stays", method: "GET", path: "/__admin/store", status: 200, want: `{"collections":{"/tasks/notes":[{"noteId":1,"text":"b"}]}}`},
		{name: "operations of one", method: "GET", path: "/__admin/ui/operations?document=hooks", status: 200, want: `{"operations":["POST /hooks/plants"]}`},
		{name: "webhooks of one", method: "GET", path: "/__admin/webhooks?document=tasks", status: 200, want: `{"webhooks":[]}`},
		{name: "activate in none", method: "PUT", path: "/__admin/scenario?document=tasks", body: `{"name":null}`, status: 200, want: `{"active":null}`},
		{name: "each document's scenario", method: "GET", path: "/__admin/scenarios", status: 200, want: `{"active":null,"documents":{"hooks":null,"tasks":null},"scenarios":[]}`},
	} {
		callAdmin(t, ts, doc, c)
	}
}
