package mock

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plantmock/plantmock/internal/redistest"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/session"
)

func webhookSpec(t testing.TB) []byte { return readSpec(t, "../examples/webhooks.yaml") }

func callbackSpec(t testing.TB) []byte { return readSpec(t, "../examples/callbacks.yaml") }

// subscriberServer is a webhook receiver for the tests: it hands every
// request it gets to the test on got and answers with what answer says
// for the n-th one (from 1).
type subscriberServer struct {
	*httptest.Server
	got chan received
}

type received struct {
	method, path, query string
	header              http.Header
	body                string
}

func newSubscriber(t *testing.T, answer func(n int) int) *subscriberServer {
	t.Helper()
	sub := &subscriberServer{got: make(chan received, 64)}
	var mu sync.Mutex
	n := 0
	sub.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		n++
		i := n
		mu.Unlock()
		sub.got <- received{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), string(body)}
		w.WriteHeader(answer(i))
	}))
	t.Cleanup(sub.Close)
	return sub
}

func always(status int) func(int) int { return func(int) int { return status } }

// next returns the next request the subscriber got, failing the test
// when none comes within a generous deadline.
func (sub *subscriberServer) next(t *testing.T) received {
	t.Helper()
	select {
	case r := <-sub.got:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("the subscriber got nothing within 10s")
		return received{}
	}
}

// outbound waits until the default session's journal holds n outbound
// entries and returns them. The mock records an attempt once the
// subscriber's answer is read, a moment after the subscriber sent it.
func outbound(t *testing.T, s *Server, n int) []journal.Entry {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		es, err := s.Find(journal.Match{Direction: "outbound"})
		if err != nil {
			t.Fatal(err)
		}
		if len(es) >= n {
			if len(es) > n {
				t.Fatalf("%d outbound entries, want %d: %+v", len(es), n, es)
			}
			return es
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d outbound entries after 10s, want %d: %+v", len(es), n, es)
		}
		time.Sleep(5 * time.Millisecond) // polling with a deadline
	}
}

// TestWebhookOnCreate: a create sends its plant, once, to the subscriber,
// with the declared content type and the subscriber's token; a refused
// create sends nothing; the journal holds the delivery as an outbound
// entry pointing at the create, its token masked.
func TestWebhookOnCreate(t *testing.T) {
	sub := newSubscriber(t, always(200))
	s, ts := newTestServer(t, Options{Spec: webhookSpec(t), Webhooks: WebhookOptions{Subscribers: map[string]session.Subscriber{
		"/plant/webhook": {URL: sub.URL + "/hooks/plants", Token: "hook-secret"},
	}}})
	st, body := do(t, ts, "POST", "/plants", `{"id":"x","name":7}`, "Authorization", "Bearer abc")
	if st != 400 {
		t.Fatalf("invalid create: %d %s", st, body)
	}
	st, body = do(t, ts, "POST", "/plants", `{"id":7,"name":"Monstera","tag":"aroid"}`, "Authorization", "Bearer abc")
	expect(t, "create", st, body, 200, `{"name":"Monstera","tag":"aroid"}`)

	got := sub.next(t)
	if got.method != "POST" || got.path != "/hooks/plants" || got.body != `{"id":7,"name":"Monstera","tag":"aroid"}` ||
		got.header.Get("Content-Type") != "application/json" || got.header.Get("Authorization") != "Bearer hook-secret" ||
		got.header.Get("X-Plant-Event") != "created" {
		t.Errorf("delivery: %+v", got)
	}
	e := outbound(t, s, 1)[0]
	if e.Direction != "outbound" || e.Operation != "webhook /plant/webhook" || e.URL != sub.URL+"/hooks/plants" ||
		e.Trigger != 2 || e.Attempt != 1 || e.Status != 200 || e.Error != "" || len(e.Violations) != 0 ||
		e.Method != "POST" || e.Path != "/hooks/plants" || string(e.Body) != got.body {
		t.Errorf("journal entry: %+v", e)
	}
	if a := e.Header.Get("Authorization"); a != "Bearer ****cret" {
		t.Errorf("journal entry's Authorization %q, want it masked, Bearer ****cret", a)
	}
	in, err := s.Find(journal.Match{Direction: "inbound"})
	if err != nil || len(in) != 2 || in[1].Seq != 2 || in[1].Status != 200 {
		t.Errorf("inbound entries: %+v %v", in, err)
	}
	select {
	case r := <-sub.got:
		t.Errorf("a second delivery: %+v", r)
	default:
	}
}

// lockedWriter serializes a log's writes for reading it from the test.
type lockedWriter struct {
	b  *bytes.Buffer
	mu *sync.Mutex
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// TestCallback: a 3.0 create calls back the URL its body gives, with the
// plant projected onto the callback's schema.
func TestCallback(t *testing.T) {
	sub := newSubscriber(t, always(204))
	s, ts := newTestServer(t, Options{Spec: callbackSpec(t)})
	// A refused request calls nothing back.
	st, _ := do(t, ts, "POST", "/plants", fmt.Sprintf(`{"id":"x","callbackUrl":%q}`, sub.URL+"/cb"), "X-Audit-Url", sub.URL+"/audit")
	if st != 400 {
		t.Fatalf("invalid create: %d", st)
	}
	st, body := do(t, ts, "POST", "/plants", fmt.Sprintf(`{"id":3,"name":"fern","callbackUrl":%q}`, sub.URL+"/cb"), "X-Audit-Url", sub.URL+"/audit")
	expect(t, "create", st, body, 201, `{"id":3,"name":"fern"}`)
	got := map[string]received{}
	for range 2 {
		r := sub.next(t)
		got[r.path] = r
	}
	if r := got["/cb"]; r.method != "POST" || r.query != "plant=3" || r.body != `{"id":3,"name":"fern"}` {
		t.Errorf("callback: %+v", r)
	}
	// The plant does not fit onAudit's schema: its body is generated.
	if r := got["/audit"]; r.method != "POST" || r.body != `{"event":"created"}` {
		t.Errorf("audit callback: %+v", r)
	}
	es := outbound(t, s, 2)
	slices.SortFunc(es, func(a, b journal.Entry) int { return strings.Compare(a.Operation, b.Operation) })
	if e := es[1]; e.Operation != "callback onPlant" || e.URL != sub.URL+"/cb?plant=3" || e.Status != 204 || e.Trigger != 2 || len(e.Violations) != 0 {
		t.Errorf("journal entry: %+v", e)
	}
	if e := es[0]; e.Operation != "callback onAudit" || e.URL != sub.URL+"/audit" || e.Status != 204 || e.Trigger != 2 {
		t.Errorf("journal entry: %+v", e)
	}
}

// TestScenarioWebhook: a rule sends a webhook with a templated body after
// its scripted answer.
func TestScenarioWebhook(t *testing.T) {
	sc, err := scenario.ParseScenario("hook.yaml", []byte(`name: hook
rules:
  - when: {operation: POST /plants}
    respond:
      status: 200
      body: {name: "{{.body.name}}"}
      webhooks:
        - name: /plant/webhook
          body: {id: "{{.body.id}}", name: "templated {{.body.name}}"}
          delay: 1ms
        - /plant/webhook
`))
	if err != nil {
		t.Fatal(err)
	}
	sub := newSubscriber(t, always(200))
	refuse := mustScenario(t, `name: refuse
rules:
  - respond:
      status: 400
      body: {error: 1, message: "no"}
      webhooks: [{name: /plant/webhook, body: {id: 0, name: "refused {{.body.name}}"}}]
`)
	s, ts := newTestServer(t, Options{Spec: webhookSpec(t), Seed: 1, Scenarios: []*scenario.Scenario{sc, refuse}, Scenario: "hook",
		Webhooks: WebhookOptions{Subscribers: map[string]session.Subscriber{"/plant/webhook": {URL: sub.URL}}}})
	st, body := do(t, ts, "POST", "/plants", `{"id":5,"name":"fern"}`, "Authorization", "Bearer abc")
	expect(t, "create", st, body, 200, `{"name":"fern"}`)
	bodies := map[string]bool{}
	for range 2 {
		bodies[sub.next(t).body] = true
	}
	if !bodies[`{"id":5,"name":"templated fern"}`] || len(bodies) != 2 {
		t.Errorf("deliveries: %v", bodies)
	}
	es := outbound(t, s, 2)
	for _, e := range es {
		if e.Trigger != 1 || e.Status != 200 {
			t.Errorf("entry: %+v", e)
		}
	}
	// The generated body fits the webhook's schema.
	for b := range bodies {
		if vs := scenario.HookViolations(documentOf(t, s).Webhooks[0], mustDecode(t, b)); len(vs) != 0 {
			t.Errorf("%s: %v", b, vs)
		}
	}

	// A rule that answers with an error sends its webhooks too: the
	// script says so.
	st, body = do(t, ts, "POST", "/plants", `{"id":6,"name":"ivy"}`, "Authorization", "Bearer abc", "X-Mock-Scenario", "refuse")
	expect(t, "scripted refusal", st, body, 400, `{"error":1,"message":"no"}`)
	if got := sub.next(t); got.body != `{"id":0,"name":"refused ivy"}` {
		t.Errorf("delivery after a refusal: %+v", got)
	}

	_, err = New(Options{Spec: webhookSpec(t), Scenarios: []*scenario.Scenario{mustScenario(t, `name: bad
rules:
  - respond:
      webhooks: [/nope, {name: /plant/webhook, body: {id: "x"}}]
`)}})
	want := "test.yaml:3: rule 1: respond.webhooks[0]: \"/nope\" is not a webhook of the document (declared: /plant/webhook)\n" +
		"test.yaml:3: rule 1: respond.webhooks[1].body does not match the schema of webhook /plant/webhook: request id: expected integer, got string; request name: required property is missing"
	if err == nil || err.Error() != want {
		t.Errorf("bad scenario: %v", err)
	}
}

// TestWebhookAdmin: subscribers per session through the admin API, and
// sending a webhook on demand.
func TestWebhookAdmin(t *testing.T) {
	sub := newSubscriber(t, always(200))
	s, ts := newTestServer(t, Options{Spec: webhookSpec(t)})
	const p = "/__admin/webhooks/%2Fplant%2Fwebhook"
	st, body := do(t, ts, "GET", "/__admin/webhooks", "")
	expect(t, "list", st, body, 200, `{"webhooks":[{"name":"/plant/webhook","methods":["POST"],"url":null,"token":false}]}`)
	st, body = do(t, ts, "POST", p+"/send", "")
	expect(t, "send without subscriber", st, body, 409, `{"error":40010,"message":"webhook /plant/webhook has no subscriber in this session; PUT /__admin/webhooks/%2Fplant%2Fwebhook {\"url\": ...} first, or start the mock with --webhook"}`)
	st, body = do(t, ts, "PUT", p, `{"url":"`+sub.URL+`/s1","token":"t1"}`, SessionHeader, "s1")
	expect(t, "subscribe s1", st, body, 200, `{"name":"/plant/webhook","methods":["POST"],"url":"`+sub.URL+`/s1","token":true}`)
	st, body = do(t, ts, "GET", p, "")
	expect(t, "default session unchanged", st, body, 200, `{"name":"/plant/webhook","methods":["POST"],"url":null,"token":false}`)

	// A create in session s1 goes to s1's subscriber; one in the default
	// session goes nowhere.
	do(t, ts, "POST", "/plants", `{"id":1,"name":"a"}`, "Authorization", "Bearer abc")
	do(t, ts, "POST", "/plants", `{"id":2,"name":"b"}`, "Authorization", "Bearer abc", SessionHeader, "s1")
	if got := sub.next(t); got.path != "/s1" || got.body != `{"id":2,"name":"b"}` || got.header.Get("Authorization") != "Bearer t1" {
		t.Errorf("s1 delivery: %+v", got)
	}

	st, body = do(t, ts, "POST", p+"/send", `{"id":9,"name":"sent"}`, SessionHeader, "s1")
	expect(t, "send", st, body, 202, `{"queued":1,"url":"`+sub.URL+`/s1","webhook":"/plant/webhook"}`)
	if got := sub.next(t); got.body != `{"id":9,"name":"sent"}` {
		t.Errorf("sent: %+v", got)
	}
	st, body = do(t, ts, "POST", p+"/send", `{"id":"nine"}`, SessionHeader, "s1")
	expect(t, "send invalid", st, body, 400, `{"error":40004,"message":"the body breaks the schema of webhook /plant/webhook: request id: expected integer, got string; request name: required property is missing"}`)
	// The journal has an attempt once its answer is read: poll for both.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		st, body = do(t, ts, "POST", "/__admin/requests/count", `{"direction":"outbound","operation":"webhook /plant/webhook"}`, SessionHeader, "s1")
		if body == `{"count":2}` || time.Now().After(deadline) {
			break
		}
	}
	expect(t, "count", st, body, 200, `{"count":2}`)

	st, _ = do(t, ts, "DELETE", p, "", SessionHeader, "s1")
	if st != 204 {
		t.Errorf("delete: %d", st)
	}
	st, body = do(t, ts, "GET", p, "", SessionHeader, "s1")
	expect(t, "after delete", st, body, 200, `{"name":"/plant/webhook","methods":["POST"],"url":null,"token":false}`)
	st, body = do(t, ts, "GET", "/__admin/webhooks/plant%2Fwebhook", "")
	expect(t, "unknown", st, body, 404, `{"error":40010,"message":"\"plant/webhook\" is not a webhook of the document (write /plant/webhook as %2Fplant%2Fwebhook); declared: /plant/webhook"}`)
	st, body = do(t, ts, "PUT", p, `{"url":"ftp://x"}`)
	expect(t, "bad url", st, body, 400, `{"error":40004,"message":"url: \"ftp://x\" is not an absolute http or https URL"}`)
	_ = s
}

// TestWebhookReplicas: a subscriber set through one replica receives the
// creates of another.
func TestWebhookReplicas(t *testing.T) {
	sub := newSubscriber(t, always(200))
	r := replicas(t, redistest.NewServer(t).URL(0), 2, Options{Spec: webhookSpec(t)})
	st, _ := do(t, r[0], "PUT", "/__admin/webhooks/%2Fplant%2Fwebhook", `{"url":"`+sub.URL+`"}`, SessionHeader, "s")
	if st != 200 {
		t.Fatalf("subscribe: %d", st)
	}
	do(t, r[1], "POST", "/plants", `{"id":1,"name":"fern"}`, "Authorization", "Bearer abc", SessionHeader, "s")
	if got := sub.next(t); got.body != `{"id":1,"name":"fern"}` {
		t.Errorf("delivery: %+v", got)
	}
}

func mustScenario(t *testing.T, y string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.ParseScenario("test.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestWebhookSubscriberAllowed: a subscriber set through the admin API
// or Subscribe must fit the allow list, as a callback's URL does; one
// that a reload takes out of the list is not sent to.
func TestWebhookSubscriberAllowed(t *testing.T) {
	sub := newSubscriber(t, always(200))
	s, ts := newTestServer(t, Options{Spec: webhookSpec(t), Webhooks: WebhookOptions{Allow: []string{"hooks.example.com"}}})
	const p = "/__admin/webhooks/%2Fplant%2Fwebhook"
	for _, c := range []struct{ url, why string }{
		{sub.URL + "/in", "address " + strings.TrimPrefix(sub.URL, "http://") + " is a loopback address, and --webhook-allow does not name loopback"},
		{"http://169.254.169.254/latest/meta-data", "address 169.254.169.254:80 is a link-local or cloud metadata address; only a --webhook-allow entry naming it opens it"},
		{"http://internal.example.com/x", "host internal.example.com is not in the webhook allow list (--webhook-allow)"},
	} {
		st, body := do(t, ts, "PUT", p, `{"url":"`+c.url+`"}`)
		expect(t, "subscribe "+c.url, st, body, 400, `{"error":40004,"message":"url: `+c.why+`"}`)
		if err := s.Subscribe("/plant/webhook", session.Subscriber{URL: c.url}); err == nil || err.Error() != c.why {
			t.Errorf("Subscribe(%s): %v, want %s", c.url, err, c.why)
		}
	}
	st, body := do(t, ts, "GET", p, "")
	expect(t, "no subscriber set", st, body, 200, `{"name":"/plant/webhook","methods":["POST"],"url":null,"token":false}`)

	// Allowed, subscribed; then a reload narrows the list: the webhook
	// is not sent, and the journal and the log say why.
	if _, err := s.Reload(given(Content{Spec: webhookSpec(t), WebhookAllow: []string{"loopback"}})); err != nil {
		t.Fatal(err)
	}
	st, body = do(t, ts, "PUT", p, `{"url":"`+sub.URL+`/in"}`)
	expect(t, "subscribe on loopback", st, body, 200, `{"name":"/plant/webhook","methods":["POST"],"url":"`+sub.URL+`/in","token":false}`)
	st, body = do(t, ts, "POST", p+"/send", `{"id":1,"name":"sent"}`)
	expect(t, "send", st, body, 202, `{"queued":1,"url":"`+sub.URL+`/in","webhook":"/plant/webhook"}`)
	if got := sub.next(t); got.body != `{"id":1,"name":"sent"}` {
		t.Errorf("sent: %+v", got)
	}
	outbound(t, s, 1) // the delivery's entry is made after the subscriber has the body
	if _, err := s.Reload(given(Content{Spec: webhookSpec(t), WebhookAllow: []string{"hooks.example.com"}})); err != nil {
		t.Fatal(err)
	}
	st, body = do(t, ts, "POST", p+"/send", `{"id":2,"name":"not sent"}`)
	expect(t, "send after the reload", st, body, 202, `{"queued":1,"url":"`+sub.URL+`/in","webhook":"/plant/webhook"}`)
	es := outbound(t, s, 2)
	if e := es[1]; e.Operation != "webhook /plant/webhook" || e.Attempt != 0 || e.Status != 0 ||
		e.Error != "address "+strings.TrimPrefix(sub.URL, "http://")+" is a loopback address, and --webhook-allow does not name loopback" {
		t.Errorf("journal entry: %s attempt %d status %d error %q", e.Operation, e.Attempt, e.Status, e.Error)
	}
	select {
	case got := <-sub.got:
		t.Errorf("the subscriber got %+v after the reload", got)
	default:
	}
}
