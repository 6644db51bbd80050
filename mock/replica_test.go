package mock

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plantmock/plantmock/internal/redistest"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// replicaSpec is a small CRUD document for the replica tests: plants
// with client-given identifiers, a list that a scenario can make fail,
// and an item call that declares a 500 but no 503.
const replicaSpec = `openapi: 3.0.3
info: {title: Replicated Plants, version: 1.0.0}
paths:
  /plants:
    get:
      responses:
        '200': {description: all, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Plant'}}}}}
        '400': {$ref: '#/components/responses/Error'}
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Plant'}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Plant'}}}}
        '400': {$ref: '#/components/responses/Error'}
        '409': {$ref: '#/components/responses/Error'}
  /plants/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: one, content: {application/json: {schema: {$ref: '#/components/schemas/Plant'}}}}
        '404': {$ref: '#/components/responses/Error'}
        '500': {$ref: '#/components/responses/Error'}
components:
  schemas:
    Plant:
      type: object
      required: [id, name]
      properties: {id: {type: integer}, name: {type: string}}
      additionalProperties: false
    Error:
      type: object
      required: [error, message]
      properties: {error: {type: integer}, message: {type: string}}
  responses:
    Error: {description: error, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
`

// onceScenario answers the first list of a session with a 400, once
// across every replica.
const onceScenario = `name: once
rules:
  - when: {operation: GET /plants}
    times: 1
    respond: {status: 400, body: {error: 1, message: once}}
`

// replicas starts n mocks of spec sharing the Redis at url, each on its
// own loopback listener; cleanup stops them.
func replicas(t *testing.T, url string, n int, opts Options) []*httptest.Server {
	t.Helper()
	if opts.Spec == nil && len(opts.Documents) == 0 {
		opts.Spec = []byte(replicaSpec)
	}
	opts.Store.URL = url
	out := make([]*httptest.Server, n)
	for i := range out {
		s, err := New(opts)
		if err != nil {
			t.Fatalf("New: %v", err)
		}
		t.Cleanup(func() { s.Close() })
		out[i] = httptest.NewServer(s)
		t.Cleanup(out[i].Close)
	}
	return out
}

// do sends a request with a JSON body (when not empty) and headers given
// as name, value pairs, and returns the status and body.
func do(t testing.TB, ts *httptest.Server, method, path, body string, kv ...string) (int, string) {
	t.Helper()
	h := map[string]string{}
	if body != "" {
		h["Content-Type"] = "application/json"
	}
	_, resp, got := send(t, ts, call{method: method, path: path, body: body, header: with(h, kv...)})
	return resp.StatusCode, string(got)
}

// expect fails the test unless status and body are the wanted ones.
func expect(t testing.TB, what string, status int, body string, wantStatus int, wantBody string) {
	t.Helper()
	if status != wantStatus || body != wantBody {
		t.Errorf("%s: %d %s\nwant %d %s", what, status, body, wantStatus, wantBody)
	}
}

// TestReplicasShareResources: what one replica stores, the other reads,
// lists and refuses to store again.
func TestReplicasShareResources(t *testing.T) {
	r := replicas(t, redistest.NewServer(t).URL(0), 2, Options{})
	a, b := r[0], r[1]
	st, body := do(t, a, "POST", "/plants", `{"id":1,"name":"fern"}`)
	expect(t, "create on A", st, body, 201, `{"id":1,"name":"fern"}`)
	st, body = do(t, b, "GET", "/plants/1", "")
	expect(t, "read on B", st, body, 200, `{"id":1,"name":"fern"}`)
	st, body = do(t, b, "GET", "/plants", "")
	expect(t, "list on B", st, body, 200, `[{"id":1,"name":"fern"}]`)
	st, body = do(t, b, "POST", "/plants", `{"id":1,"name":"ivy"}`)
	expect(t, "duplicate on B", st, body, 409, `{"error":40900,"message":"id 1 already exists in /plants"}`)
	st, body = do(t, a, "GET", "/plants/2", "")
	expect(t, "unknown on A", st, body, 404, `{"error":40401,"message":"no resource with id 2 in /plants"}`)
}

// TestReplicasTimesOnce: a times: 1 rule answers exactly once across two
// replicas under 32 concurrent clients.
func TestReplicasTimesOnce(t *testing.T) {
	sc, err := scenario.ParseScenario("once.yaml", []byte(onceScenario))
	if err != nil {
		t.Fatal(err)
	}
	r := replicas(t, redistest.NewServer(t).URL(0), 2, Options{Scenarios: []*scenario.Scenario{sc}, Scenario: "once"})
	const clients, each = 32, 8
	var mu sync.Mutex
	got := map[string]int{}
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				st, body := do(t, r[c%2], "GET", "/plants", "")
				mu.Lock()
				got[fmt.Sprint(st, " ", body)]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	want := map[string]int{`400 {"error":1,"message":"once"}`: 1, `200 []`: clients*each - 1}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("answers by count: %v\nwant %v", got, want)
	}
}

// TestReplicasShareJournal: the journal read through one replica holds
// the requests the other answered, numbered in order, with the same
// find and count.
func TestReplicasShareJournal(t *testing.T) {
	r := replicas(t, redistest.NewServer(t).URL(0), 2, Options{})
	a, b := r[0], r[1]
	// With Redis an entry is written just after its answer is sent, so a
	// read on another connection may come first (docs/service.md). One
	// connection to A orders its requests: the count is read only once
	// both creates' handlers have returned, their entries written.
	a.Client().Transport.(*http.Transport).MaxConnsPerHost = 1
	do(t, a, "POST", "/plants", `{"id":1,"name":"fern"}`)
	do(t, a, "POST", "/plants", `{"id":1,"name":"fern"}`)
	st, body := do(t, a, "POST", "/__admin/requests/count", `{"operation":"POST /plants"}`)
	expect(t, "count on A's connection", st, body, 200, `{"count":2}`)
	do(t, b, "GET", "/plants/1", "")
	_, body = do(t, b, "GET", "/__admin/requests", "")
	var j struct {
		Requests []struct {
			Seq          uint64
			Method, Path string
			Status       int
			Code         problem.Code
		} `json:"requests"`
	}
	if err := json.Unmarshal([]byte(body), &j); err != nil {
		t.Fatalf("journal %s: %v", body, err)
	}
	var lines []string
	for _, e := range j.Requests {
		lines = append(lines, fmt.Sprintf("%d %s %s %d %d", e.Seq, e.Method, e.Path, e.Status, e.Code))
	}
	want := []string{"1 POST /plants 201 0", "2 POST /plants 409 40900", "3 GET /plants/1 200 0"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("journal read on B:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	st, body = do(t, b, "POST", "/__admin/requests/count", `{"operation":"POST /plants","status":409}`)
	expect(t, "count on B", st, body, 200, `{"count":1}`)
	st, body = do(t, a, "POST", "/__admin/requests/find", `{"body":{"name":"fern"},"status":201}`)
	if st != 200 || !strings.Contains(body, `"seq":1,`) || strings.Contains(body, `"seq":2,`) {
		t.Errorf("find on A: %d %s; want the first create alone", st, body)
	}
	st, _ = do(t, a, "DELETE", "/__admin/requests", "")
	st2, body := do(t, b, "GET", "/__admin/requests", "")
	expect(t, "journal on B after A emptied it", st2, body, 200, `{"requests":[]}`)
	if st != 204 {
		t.Errorf("DELETE /__admin/requests: %d, want 204", st)
	}
}

// TestReplicasSessions: a session is the same on every replica and apart
// from the others; a reset through one replica empties it on all, and
// the bound on sessions holds across them.
func TestReplicasSessions(t *testing.T) {
	sc, err := scenario.ParseScenario("once.yaml", []byte(onceScenario))
	if err != nil {
		t.Fatal(err)
	}
	r := replicas(t, redistest.NewServer(t).URL(0), 2, Options{Scenarios: []*scenario.Scenario{sc}, Limits: Limits{MaxSessions: 2}})
	a, b := r[0], r[1]
	do(t, a, "POST", "/plants", `{"id":1,"name":"fern"}`, SessionHeader, "s1")
	st, body := do(t, b, "GET", "/plants", "", SessionHeader, "s1")
	expect(t, "s1 on B", st, body, 200, `[{"id":1,"name":"fern"}]`)
	st, body = do(t, b, "GET", "/plants", "", SessionHeader, "s2")
	expect(t, "s2 on B", st, body, 200, `[]`)
	st, body = do(t, b, "GET", "/plants", "")
	expect(t, "default session on B", st, body, 200, `[]`)
	st, body = do(t, b, "POST", "/__admin/requests/count", `{}`, SessionHeader, "s1")
	expect(t, "s1's journal on B", st, body, 200, `{"count":2}`)
	st, body = do(t, a, "POST", "/__admin/requests/count", `{}`)
	expect(t, "default journal on A", st, body, 200, `{"count":1}`)

	// The active scenario of a session, set through A, holds on B.
	st, body = do(t, a, "PUT", "/__admin/scenario", `{"name":"once"}`, SessionHeader, "s1")
	expect(t, "activate on A", st, body, 200, `{"active":"once"}`)
	st, body = do(t, b, "GET", "/plants", "", SessionHeader, "s1")
	expect(t, "s1 on B, scripted", st, body, 400, `{"error":1,"message":"once"}`)
	st, body = do(t, b, "GET", "/plants", "", SessionHeader, "s2")
	expect(t, "s2 on B, not scripted", st, body, 200, `[]`)

	// A reset through B empties s1 everywhere and restarts its rules.
	st, _ = do(t, b, "POST", "/__admin/reset", "", SessionHeader, "s1")
	if st != 204 {
		t.Errorf("reset on B: %d, want 204", st)
	}
	st, body = do(t, a, "GET", "/plants", "", SessionHeader, "s1")
	expect(t, "s1 on A after the reset: the rule again", st, body, 400, `{"error":1,"message":"once"}`)
	st, body = do(t, a, "GET", "/plants", "", SessionHeader, "s1")
	expect(t, "s1 on A after the reset: empty", st, body, 200, `[]`)
	st, body = do(t, a, "POST", "/__admin/requests/count", `{}`, SessionHeader, "s1")
	expect(t, "s1's journal after the reset", st, body, 200, `{"count":2}`)

	// Two sessions live: a third is refused on either replica.
	st, body = do(t, a, "GET", "/plants", "", SessionHeader, "s3")
	expect(t, "a third session", st, body, 400, `{"error":40008,"message":"too many sessions (2); reuse one, or wait until idle ones expire after 30m0s"}`)
}

// TestReplicasReset: POST /__admin/reset through one replica empties the
// store and journal the other serves.
func TestReplicasReset(t *testing.T) {
	r := replicas(t, redistest.NewServer(t).URL(0), 2, Options{})
	a, b := r[0], r[1]
	do(t, b, "POST", "/plants", `{"id":1,"name":"fern"}`)
	if st, _ := do(t, a, "POST", "/__admin/reset", ""); st != 204 {
		t.Fatalf("reset on A: %d, want 204", st)
	}
	st, body := do(t, b, "GET", "/__admin/requests", "")
	expect(t, "journal on B", st, body, 200, `{"requests":[]}`)
	st, body = do(t, b, "GET", "/__admin/store", "")
	expect(t, "store on B", st, body, 200, `{"collections":{}}`)
	st, body = do(t, b, "POST", "/plants", `{"id":1,"name":"fern"}`)
	expect(t, "create again on B", st, body, 201, `{"id":1,"name":"fern"}`)
}

// TestStorePrefixes: mocks of different documents on one Redis do not
// meet; mocks given the same prefix do.
func TestStorePrefixes(t *testing.T) {
	url := redistest.NewServer(t).URL(0)
	a := replicas(t, url, 1, Options{})[0]
	other := replicas(t, url, 1, Options{Spec: []byte(strings.Replace(replicaSpec, "version: 1.0.0", "version: 2.0.0", 1))})[0]
	do(t, a, "POST", "/plants", `{"id":1,"name":"fern"}`)
	st, body := do(t, other, "GET", "/plants", "")
	expect(t, "another version's list", st, body, 200, `[]`)
	same := replicas(t, url, 1, Options{Spec: []byte(strings.Replace(replicaSpec, "version: 1.0.0", "version: 2.0.0", 1)),
		Store: StoreOptions{Prefix: "plantmock:Replicated Plants 1.0.0:"}})[0]
	st, body = do(t, same, "GET", "/plants", "")
	expect(t, "the same prefix's list", st, body, 200, `[{"id":1,"name":"fern"}]`)
}

// TestSessionsExpire: a session unused for its idle time starts afresh
// when it is used again, with the store in memory and in Redis; in Redis,
// the session took its place among the bounded sessions anew.
func TestSessionsExpire(t *testing.T) {
	url := redistest.NewServer(t).URL(0)
	for _, where := range []string{"", url} {
		t.Run(map[string]string{"": "memory", url: "redis"}[where], func(t *testing.T) {
			now := time.Unix(1_000_000, 0)
			clock := func() time.Time { return now } // only this goroutine moves it, between requests
			s, ts := newTestServer(t, Options{Spec: []byte(replicaSpec), Store: StoreOptions{URL: where}, Limits: Limits{SessionIdle: time.Minute, MaxSessions: 1, Clock: clock}})
			t.Cleanup(func() { s.Close() })
			do(t, ts, "POST", "/plants", `{"id":1,"name":"fern"}`, SessionHeader, "s1")
			now = now.Add(30 * time.Second)
			st, body := do(t, ts, "GET", "/plants", "", SessionHeader, "s2")
			expect(t, "a second session within s1's idle time", st, body, 400, `{"error":40008,"message":"too many sessions (1); reuse one, or wait until idle ones expire after 1m0s"}`)
			st, body = do(t, ts, "GET", "/plants", "", SessionHeader, "s1")
			expect(t, "s1 within its idle time", st, body, 200, `[{"id":1,"name":"fern"}]`)
			now = now.Add(61 * time.Second)
			st, body = do(t, ts, "GET", "/plants", "", SessionHeader, "s1")
			expect(t, "s1 after its idle time", st, body, 200, `[]`)
			st, body = do(t, ts, "POST", "/__admin/requests/count", `{}`, SessionHeader, "s1")
			expect(t, "s1's journal after its idle time", st, body, 200, `{"count":1}`)
		})
	}
}

// TestReplicasDocuments: replicas of a mock of two documents on one
// Redis share each document's resources and the journal, which names
// each entry's document; the two documents' collections of the same path
// are kept apart.
func TestReplicasDocuments(t *testing.T) {
	docs := []Document{{Spec: []byte(replicaSpec), Base: "/a"}, {Spec: []byte(replicaSpec), Base: "/b"}}
	srv := redistest.NewServer(t)
	r := replicas(t, srv.URL(0), 2, Options{Documents: docs})
	st, body := do(t, r[0], "POST", "/a/plants", `{"id":1,"name":"fern"}`)
	expect(t, "create in a on replica 1", st, body, 201, `{"id":1,"name":"fern"}`)
	st, body = do(t, r[1], "GET", "/a/plants/1", "")
	expect(t, "read in a on replica 2", st, body, 200, `{"id":1,"name":"fern"}`)
	st, body = do(t, r[1], "GET", "/b/plants/1", "")
	expect(t, "the same id in b", st, body, 404, `{"error":40401,"message":"no resource with id 1 in /b/plants"}`)
	st, body = do(t, r[1], "POST", "/b/plants", `{"id":1,"name":"ivy"}`)
	expect(t, "create in b on replica 2", st, body, 201, `{"id":1,"name":"ivy"}`)
	st, body = do(t, r[0], "GET", "/__admin/store", "")
	expect(t, "the store on replica 1", st, body, 200, `{"collections":{"/a/plants":[{"id":1,"name":"fern"}],"/b/plants":[{"id":1,"name":"ivy"}]}}`)
	st, body = do(t, r[0], "POST", "/__admin/requests/count", `{"document":"b"}`)
	expect(t, "b's requests, counted on replica 1", st, body, 200, `{"count":2}`)

	// Each document's resources are under a key prefix of its own.
	var keys []string
	c := srv.Client(t)
	all := func() []string {
		t.Helper()
		ks, err := c.Do(context.Background(), c.B().Keys().Pattern("*").Build()).AsStrSlice()
		if err != nil {
			t.Fatal(err)
		}
		return ks
	}
	for _, k := range all() {
		if strings.Contains(k, ":c9:/") {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	prefix := "plantmock:Replicated Plants 1.0.0, Replicated Plants 1.0.0:"
	var want []string
	for _, doc := range []string{"a", "b"} {
		for _, k := range []string{"d", "o", "s", "t"} {
			want = append(want, prefix+"d1:"+doc+":s0::c9:/"+doc+"/plants:"+k)
		}
	}
	if !slices.Equal(keys, want) {
		t.Errorf("the documents' resource keys:\n%s\nwant\n%s", strings.Join(keys, "\n"), strings.Join(want, "\n"))
	}
	st, body = do(t, r[1], "POST", "/__admin/reset", "")
	expect(t, "reset on replica 2", st, body, 204, "")
	for _, k := range all() {
		if strings.Contains(k, ":c9:/") {
			t.Errorf("after the reset, the key %s is left", k)
		}
	}
}

// TestReplicasAfterRedisRestart: after the durable Redis two replicas
// share restarts, the first read and list on the replica that did not
// write answer what is stored, not a 503 for the connection Redis
// closed.
func TestReplicasAfterRedisRestart(t *testing.T) {
	srv := redistest.NewDurableServer(t)
	r := replicas(t, srv.URL(0), 2, Options{})
	a, b := r[0], r[1]
	st, body := do(t, a, "POST", "/plants", `{"id":1,"name":"fern"}`)
	expect(t, "create on A", st, body, 201, `{"id":1,"name":"fern"}`)
	st, body = do(t, b, "GET", "/plants/1", "")
	expect(t, "read on B before the restart", st, body, 200, `{"id":1,"name":"fern"}`)
	srv.Restart(t)
	st, body = do(t, b, "GET", "/plants/1", "")
	expect(t, "read on B after the restart", st, body, 200, `{"id":1,"name":"fern"}`)
	st, body = do(t, b, "GET", "/plants", "")
	expect(t, "list on B after the restart", st, body, 200, `[{"id":1,"name":"fern"}]`)
}
