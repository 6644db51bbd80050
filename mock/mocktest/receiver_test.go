package mocktest

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock"
)

// The documents of the webhook and callback tests of the mock: the Plant
// Store with a webhook that carries each new plant (with a bearer token
// and an event header), and a 3.0 store that calls back the callbackUrl
// of a create.
const (
	hooksSpec    = "../../examples/webhooks.yaml"
	callbackSpec = "../../examples/callbacks.yaml"
)

// arrive bounds the waits for deliveries that do come.
const arrive = 5 * time.Second

// attempt is what the tests compare of an outbound journal entry.
type attempt struct {
	Operation, URL string
	Trigger        uint64
	Attempt        int
	Status         int
	Response       string
	Error          string
	Violations     string
}

func attempts(es []mock.Entry) []attempt {
	out := make([]attempt, len(es))
	for i, e := range es {
		var vs []string
		for _, v := range e.Violations {
			vs = append(vs, v.String())
		}
		out[i] = attempt{e.Operation, e.URL, e.Trigger, e.Attempt, e.Status, string(e.Response), e.Error, strings.Join(vs, "; ")}
	}
	return out
}

func TestReceiveCreate(t *testing.T) {
	srv := NewServer(t, Options{SpecFile: hooksSpec})
	r := srv.Receive("/plant/webhook")
	if code, body := create(t, srv.URL, "a", `{"id":7,"name":"Monstera","tag":"aroid"}`); code != 200 || body != `{"name":"Monstera","tag":"aroid"}` {
		t.Fatalf("create: %d %s", code, body)
	}
	d := r.Next(arrive)
	if d.Method != "POST" || d.Path != "/" || d.Query != "" {
		t.Errorf("delivery to %s %s?%s, want POST /", d.Method, d.Path, d.Query)
	}
	if got := d.Header.Get("Content-Type"); got != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", got)
	}
	if got, want := d.Header.Get("User-Agent"), "plantmock/"+mock.Version; got != want {
		t.Errorf("User-Agent = %q, want %q", got, want)
	}
	// The webhook declares bearer security and a required event header;
	// no token was given with the subscriber.
	if got, ev := d.Header.Get("Authorization"), d.Header.Get("X-Plant-Event"); got != "Bearer plantmock" || ev != "created" {
		t.Errorf("Authorization = %q, X-Plant-Event = %q; want Bearer plantmock, created", got, ev)
	}
	var plant map[string]any
	if err := d.Decode(&plant); err != nil {
		t.Fatal(err)
	}
	if want := map[string]any{"id": 7.0, "name": "Monstera", "tag": "aroid"}; fmt.Sprint(plant) != fmt.Sprint(want) {
		t.Errorf("body = %s, want the plant created %v", d.Body, want)
	}
	want := []attempt{{Operation: "webhook /plant/webhook", URL: r.URL, Trigger: 1, Attempt: 1, Status: 200}}
	if got := attempts(srv.Deliveries()); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Deliveries() = %+v\nwant         %+v", got, want)
	}
	if got := srv.Count(mock.Match{Direction: "inbound"}); got != 1 {
		t.Errorf("%d inbound entries, want 1", got)
	}
}

// TestReceiveRetries: a subscriber that fails twice gets the webhook a
// third time; the answers that break the document (500 is not declared)
// are in the journal, and are not the client's contract failures.
func TestReceiveRetries(t *testing.T) {
	ft := &fakeT{}
	srv := NewServer(ft, Options{SpecFile: hooksSpec, Options: mock.Options{Webhooks: mock.WebhookOptions{Backoff: 2 * time.Millisecond}}})
	r := srv.Receive("/plant/webhook")
	r.Answers(500, 500, 200)
	create(t, srv.URL, "a", `{"id":7,"name":"Monstera"}`)
	ds := r.Wait(3, arrive)
	if len(ds) != 3 {
		t.Fatalf("%d deliveries, want 3 (fatal: %q)", len(ds), ft.fatal)
	}
	for i, d := range ds {
		if string(d.Body) != `{"id":7,"name":"Monstera"}` {
			t.Errorf("delivery %d: body %s", i+1, d.Body)
		}
	}
	undeclared := "response: status 500 is not declared by webhook /plant/webhook"
	want := []attempt{
		{Operation: "webhook /plant/webhook", URL: r.URL, Trigger: 1, Attempt: 1, Status: 500, Violations: undeclared},
		{Operation: "webhook /plant/webhook", URL: r.URL, Trigger: 1, Attempt: 2, Status: 500, Violations: undeclared},
		{Operation: "webhook /plant/webhook", URL: r.URL, Trigger: 1, Attempt: 3, Status: 200},
	}
	if got := attempts(srv.Deliveries()); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Deliveries() =\n%+v\nwant\n%+v", got, want)
	}
	if got := srv.AnswerViolations(); len(got) != 0 {
		t.Errorf("AnswerViolations() = %v, want none: the mock's deliveries are not proxied answers", got)
	}
	ft.finish()
	if len(ft.errors) != 0 || ft.fatal != "" {
		t.Errorf("the test failed: errors %q, fatal %q", ft.errors, ft.fatal)
	}
}

// TestOutboundIsNotTheClients: whatever the violations of an outbound
// entry, the client did not send it.
func TestOutboundIsNotTheClients(t *testing.T) {
	ft := &fakeT{}
	srv := NewServer(ft, Options{SpecFile: hooksSpec})
	srv.observe(mock.Entry{Direction: "outbound", Operation: "webhook /plant/webhook", Error: "not sent: the body breaks the schema the document declares for it",
		Violations: []mock.Violation{{Path: "id", Reason: "required property is missing", Direction: "request"}}})
	srv.observe(mock.Entry{Direction: "outbound", Operation: "webhook /plant/webhook", Attempt: 1, Status: 404,
		Violations: []mock.Violation{{Path: "response", Reason: "status 404 is not declared (declared: 200)", Direction: "response"}}})
	if got := srv.AnswerViolations(); len(got) != 0 {
		t.Errorf("AnswerViolations() = %v", got)
	}
	ft.finish()
	if len(ft.errors) != 0 {
		t.Errorf("reported: %q", ft.errors)
	}
}

// TestReceiveRespond: the receiver answers what Respond says, and the
// mock checks it against the webhook's responses (200 without content).
func TestReceiveRespond(t *testing.T) {
	srv := NewServer(t, Options{SpecFile: hooksSpec})
	r := srv.Receive("/plant/webhook")
	r.Respond(func(n int, d Delivery) (int, []byte) {
		return 200, fmt.Appendf(nil, `{"n":%d,"bytes":%d}`, n, len(d.Body))
	})
	create(t, srv.URL, "a", `{"id":1,"name":"Fern"}`)
	r.Next(arrive)
	want := []attempt{{Operation: "webhook /plant/webhook", URL: r.URL, Trigger: 1, Attempt: 1, Status: 200, Response: `{"n":1,"bytes":22}`,
		Violations: "response: the response declares no content, but has a body"}}
	if got := attempts(srv.Deliveries()); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Deliveries() = %+v\nwant         %+v", got, want)
	}
}

// TestReceiveFails: Receive of an undeclared webhook, and a Next or Wait
// that gets nothing in time, fail the test with what the mock sent.
func TestReceiveFails(t *testing.T) {
	opts := Options{SpecFile: hooksSpec}
	t.Run("undeclared webhook", func(t *testing.T) {
		ft := &fakeT{}
		srv := NewServer(ft, opts)
		defer ft.finish()
		if r := srv.Receive("/plant/hook"); r != nil {
			t.Error("Receive returned a receiver")
		}
		if want := `mocktest: webhook "/plant/hook" is not declared by the document (declared: /plant/webhook)`; ft.fatal != want {
			t.Errorf("fatal = %q\nwant    %q", ft.fatal, want)
		}
	})
	t.Run("nothing sent", func(t *testing.T) {
		ft := &fakeT{}
		srv := NewServer(ft, opts)
		defer ft.finish()
		r := srv.Receive("/plant/webhook")
		if d := r.Next(10 * time.Millisecond); d.Method != "" || d.Body != nil {
			t.Errorf("Next returned %+v", d)
		}
		want := "mocktest: no delivery reached the receiver at " + r.URL + " within 10ms (it received 0 in all); the mock sent nothing"
		if ft.fatal != want {
			t.Errorf("fatal = %q\nwant    %q", ft.fatal, want)
		}
	})
	t.Run("sent elsewhere", func(t *testing.T) {
		ft := &fakeT{}
		srv := NewServer(ft, opts)
		defer ft.finish()
		sub := srv.Receive("/plant/webhook")
		other := srv.NewReceiver()
		create(t, srv.URL, "a", `{"id":7,"name":"Fern"}`)
		sub.Next(arrive)
		if ds := other.Wait(1, 10*time.Millisecond); len(ds) != 0 {
			t.Errorf("Wait returned %d deliveries", len(ds))
		}
		want := "mocktest: the receiver at " + other.URL + " received 0 of 1 deliveries within 10ms; the mock sent:\n" +
			"  webhook /plant/webhook to " + sub.URL + " (attempt 1) -> 200"
		if ft.fatal != want {
			t.Errorf("fatal = %q\nwant    %q", ft.fatal, want)
		}
	})
}

// TestMismatchShowsDeliveries: what AssertCount lists tells the
// requests the mock received from the webhooks it sent.
func TestMismatchShowsDeliveries(t *testing.T) {
	ft := &fakeT{}
	srv := NewServer(ft, Options{SpecFile: hooksSpec})
	r := srv.Receive("/plant/webhook")
	create(t, srv.URL, "a", `{"id":7,"name":"Fern"}`)
	r.Next(arrive)
	srv.AssertCount(mock.Match{Status: 200}, 1)
	ft.finish()
	want := "expected 1 request(s) answered 200, got 2; received:\n" +
		"  POST /plants {\"id\":7,\"name\":\"Fern\"} -> 200 {\"name\":\"Fern\"}\n" +
		"  webhook /plant/webhook to " + r.URL + " (attempt 1) -> 200"
	if len(ft.errors) != 1 || ft.errors[0] != want {
		t.Errorf("reported:\n%q\nwant:\n%q", ft.errors, want)
	}
}

// TestNextInOrder: Next returns each delivery once, in order, and Wait
// returns all of them.
func TestNextInOrder(t *testing.T) {
	srv := NewServer(t, Options{SpecFile: hooksSpec})
	r := srv.Receive("/plant/webhook")
	for i := 1; i <= 3; i++ {
		create(t, srv.URL, "a", fmt.Sprintf(`{"id":%d,"name":"p%d"}`, i, i))
		if d := r.Next(arrive); string(d.Body) != fmt.Sprintf(`{"id":%d,"name":"p%d"}`, i, i) {
			t.Errorf("delivery %d: %s", i, d.Body)
		}
	}
	if ds := r.Wait(3, arrive); len(ds) != 3 || string(ds[0].Body) != `{"id":1,"name":"p1"}` {
		t.Errorf("Wait(3) = %d deliveries, first %s", len(ds), ds[0].Body)
	}
}

func TestCallbackReceiver(t *testing.T) {
	srv := NewServer(t, Options{SpecFile: callbackSpec})
	r := srv.NewReceiver()
	r.Answers(204)
	// The document's URL is {$request.body#/callbackUrl}?plant={$request.body#/id}.
	body := fmt.Sprintf(`{"id":7,"name":"Monstera","callbackUrl":%q}`, r.URL+"/hooks/plant")
	if code, answer := create(t, srv.URL, "a", body); code != 201 || answer != `{"id":7,"name":"Monstera"}` {
		t.Fatalf("create: %d %s", code, answer)
	}
	d := r.Next(arrive)
	if d.Method != http.MethodPost || d.Path != "/hooks/plant" || d.Query != "plant=7" {
		t.Errorf("callback to %s %s?%s, want POST /hooks/plant?plant=7", d.Method, d.Path, d.Query)
	}
	if got := d.Header.Get("Content-Type"); got != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", got)
	}
	if string(d.Body) != `{"id":7,"name":"Monstera"}` {
		t.Errorf("body = %s, want the plant", d.Body)
	}
	// (Its other callback, onAudit, has no X-Audit-Url to go to: it is in
	// the journal as not sent.)
	want := []attempt{{Operation: "callback onPlant", URL: r.URL + "/hooks/plant?plant=7", Trigger: 1, Attempt: 1, Status: 204}}
	if got := attempts(srv.Find(mock.Match{Operation: "callback onPlant"})); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Deliveries() = %+v\nwant         %+v", got, want)
	}
}
