package webhook

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/event"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/session"
)

// created is the event of a create of the webhooks example that stored
// plant, numbered seq in session sess, whose journal is j.
func created(t *testing.T, sess string, seq uint64, j journal.Recorder, plant map[string]any) *event.Answered {
	t.Helper()
	_, plans := loaded(t, "webhooks.yaml")
	return &event.Answered{E: journal.Entry{Method: "POST", Path: "/plants", Seq: seq, Session: sess}, Journal: j,
		Doc: "plants", Plan: planOf(t, plans, "POST /plants"), Status: 200, Created: plant, After: true, Fake: gen.Faker(1, 1)}
}

// TestAfterAnswerSendsWebhook: a create sends its plant to the session's
// subscriber with the declared headers and the subscriber's token; an
// attempt that gets a 5xx is tried again, each attempt told with the
// create as its trigger, the undeclared 500 a violation, the token
// masked.
func TestAfterAnswerSendsWebhook(t *testing.T) {
	srv, got := subscriber(t, func(n int) int {
		if n <= 2 {
			return 500
		}
		return 200
	})
	s, h, _ := newSender(t, "webhooks.yaml", map[string]session.Subscriber{"/plant/webhook": {URL: "http://127.0.0.1:1/default"}}, Options{Backoff: time.Millisecond, Retries: 3})
	h.subscribe("s1", "/plant/webhook", session.Subscriber{URL: srv.URL + "/hooks/plants", Token: "hook-secret"})
	j := &numbered{}
	a := created(t, "s1", 7, j, map[string]any{"id": int64(7), "name": "Monstera", "tag": "aroid"})
	s.AfterAnswer(a)
	for i := range 3 {
		r := nextReceived(t, got)
		if r.method != "POST" || r.path != "/hooks/plants" || r.body != `{"id":7,"name":"Monstera","tag":"aroid"}` ||
			r.header.Get("Content-Type") != "application/json" || r.header.Get("Authorization") != "Bearer hook-secret" ||
			r.header.Get("X-Plant-Event") != "created" || r.header.Get("User-Agent") != "plantmock/test" {
			t.Errorf("attempt %d: %+v", i+1, r)
		}
	}
	for i, want := range []int{500, 500, 200} {
		e := h.next(t)
		if e.Direction != "outbound" || e.Operation != "webhook /plant/webhook" || e.URL != srv.URL+"/hooks/plants" ||
			e.Document != "plants" || e.Session != "s1" || e.Trigger != 7 || e.Attempt != i+1 || e.Status != want ||
			e.Seq != uint64(i+1) || e.Method != "POST" || e.Path != "/hooks/plants" || string(e.Body) != `{"id":7,"name":"Monstera","tag":"aroid"}` {
			t.Errorf("attempt %d: %+v", i+1, e)
		}
		if a := e.Header.Get("Authorization"); a != "Bearer ****cret" {
			t.Errorf("attempt %d's Authorization %q, want it masked, Bearer ****cret", i+1, a)
		}
		var vs string
		if len(e.Violations) > 0 {
			vs = e.Violations[0].String()
		}
		if wantV := map[int]string{500: "response: status 500 is not declared by webhook /plant/webhook"}[want]; vs != wantV {
			t.Errorf("attempt %d violations: %q, want %q", i+1, vs, wantV)
		}
	}

	// An answer that sends nothing, and a session without a subscriber
	// (the default's URL is not allowed), send nothing.
	a.After = false
	s.AfterAnswer(a)
	select {
	case r := <-got:
		t.Errorf("a delivery for an answer that sends nothing: %+v", r)
	default:
	}
}

// TestAfterAnswerSendsCallbacks: a create calls back the URL its body
// gives, with the plant projected onto the callback's schema, and the URL
// its header gives, with a body generated where the plant does not fit;
// a URL outside the allow list is not called, and the log and the
// attempts say why.
func TestAfterAnswerSendsCallbacks(t *testing.T) {
	srv, got := subscriber(t, func(int) int { return 204 })
	s, h, log := newSender(t, "callbacks.yaml", nil, Options{})
	_, plans := loaded(t, "callbacks.yaml")
	answered := func(body map[string]any, header http.Header) *event.Answered {
		u, _ := url.Parse("/plants")
		return &event.Answered{E: journal.Entry{Method: "POST", Path: "/plants", Seq: 2}, Journal: &numbered{}, Doc: "plants",
			URL: *u, Host: "mock.test", Header: header, Body: body, Plan: planOf(t, plans, "POST /plants"),
			Status: 201, Created: map[string]any{"id": body["id"], "name": body["name"]}, After: true, Fake: gen.Faker(1, 1)}
	}
	s.AfterAnswer(answered(map[string]any{"id": int64(3), "name": "fern", "callbackUrl": srv.URL + "/cb"}, http.Header{"X-Audit-Url": {srv.URL + "/audit"}}))
	rs := map[string]received{}
	for range 2 {
		r := nextReceived(t, got)
		rs[r.path] = r
	}
	if r := rs["/cb"]; r.method != "POST" || r.query != "plant=3" || r.body != `{"id":3,"name":"fern"}` {
		t.Errorf("callback: %+v", r)
	}
	if r := rs["/audit"]; r.method != "POST" || r.body != `{"event":"created"}` {
		t.Errorf("audit callback: %+v", r)
	}
	es := []journal.Entry{h.next(t), h.next(t)}
	sort.Slice(es, func(i, j int) bool { return es[i].Operation < es[j].Operation })
	if e := es[1]; e.Operation != "callback onPlant" || e.URL != srv.URL+"/cb?plant=3" || e.Status != 204 || e.Trigger != 2 || len(e.Violations) != 0 {
		t.Errorf("onPlant: %+v", e)
	}
	if e := es[0]; e.Operation != "callback onAudit" || e.URL != srv.URL+"/audit" || e.Status != 204 || e.Trigger != 2 {
		t.Errorf("onAudit: %+v", e)
	}

	// Refused: a host outside the allow list, and a header not sent.
	s.AfterAnswer(answered(map[string]any{"id": int64(4), "name": "fern", "callbackUrl": "http://192.0.2.10/cb"}, http.Header{}))
	es = []journal.Entry{h.next(t), h.next(t)}
	sort.Slice(es, func(i, j int) bool { return es[i].Operation < es[j].Operation })
	if e := es[0]; e.Operation != "callback onAudit" || e.Error != "$request.header.X-Audit-Url is empty in this exchange" || e.Attempt != 0 {
		t.Errorf("onAudit without the header: %+v", e)
	}
	want := "host 192.0.2.10 is not in the callback allow list (--webhook-allow)"
	if e := es[1]; e.Error != want || e.Attempt != 0 || e.Status != 0 || e.URL != "http://192.0.2.10/cb?plant=4" {
		t.Errorf("onPlant refused: %+v", e)
	}
	log.wait(t, `msg="callback refused" callback=onPlant operation="POST /plants" url="http://192.0.2.10/cb?plant=4" reason="`+want+`"`)
	select {
	case r := <-got:
		t.Errorf("a refused callback was sent: %+v", r)
	default:
	}
}

// TestSend: the admin API's send, with a body given or generated, to the
// session's subscriber; without one, ErrNoSubscriber; a body that breaks
// the webhook's schema, a problem.
func TestSend(t *testing.T) {
	srv, got := subscriber(t, func(int) int { return 200 })
	s, h, _ := newSender(t, "webhooks.yaml", nil, Options{})
	sess := Session{Name: "s", Journal: &numbered{}}
	if _, _, err := s.Send(context.Background(), sess, "/plant/webhook", nil); !errors.Is(err, ErrNoSubscriber) {
		t.Errorf("no subscriber: %v, want ErrNoSubscriber", err)
	}
	h.subscribe("s", "/plant/webhook", session.Subscriber{URL: srv.URL + "/in?key=sekret"})
	_, _, err := s.Send(context.Background(), sess, "/plant/webhook", map[string]any{"id": "x"})
	if want := `the body breaks the schema of webhook /plant/webhook: `; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("a body that breaks the schema: %v, want %s...", err, want)
	}
	n, shown, err := s.Send(context.Background(), sess, "/plant/webhook", map[string]any{"id": int64(1), "name": "sent"})
	if n != 1 || shown != srv.URL+"/in?key=sekret" || err != nil {
		t.Errorf("Send: %d %q %v, want 1, the URL as set", n, shown, err)
	}
	if r := nextReceived(t, got); r.body != `{"id":1,"name":"sent"}` || r.query != "key=sekret" {
		t.Errorf("sent: %+v", r)
	}
	if e := h.next(t); e.Session != "s" || e.Trigger != 0 || e.Status != 200 || e.Seq != 1 {
		t.Errorf("attempt: %+v", e)
	}
	if _, _, err := s.Send(context.Background(), sess, "/plant/webhook", nil); err != nil {
		t.Fatal(err)
	}
	r := nextReceived(t, got)
	hook := s.h.Declaring("/plant/webhook").Hooks.ByName["/plant/webhook"][0]
	v, err := jsonx.Decode([]byte(r.body))
	if err != nil {
		t.Fatalf("generated body %s: %v", r.body, err)
	}
	if vs := scenario.HookViolations(hook, v); len(vs) > 0 || r.body == "" {
		t.Errorf("generated body %s breaks the schema: %v", r.body, vs)
	}
}

// TestSendToRefuses: a subscriber the allow list does not let through,
// and a body that breaks the schema, are not sent; the log and an
// attempt with no try say why.
func TestSendToRefuses(t *testing.T) {
	s, h, log := newSender(t, "webhooks.yaml", nil, Options{})
	hook := s.h.Declaring("").Hooks.ByName["/plant/webhook"][0]
	doc := s.h.Declaring("")
	sess := Session{Name: "", Journal: &numbered{}}
	s.SendTo(&Delivery{Doc: doc, Sess: sess, Hook: hook, Url: "http://192.0.2.10/in", Body: map[string]any{"id": int64(1), "name": "a"}})
	want := "host 192.0.2.10 is not in the webhook allow list (--webhook-allow)"
	if e := h.next(t); e.Error != want || e.Attempt != 0 || e.Operation != "webhook /plant/webhook" {
		t.Errorf("refused: %+v", e)
	}
	s.SendTo(&Delivery{Doc: doc, Sess: sess, Hook: hook, Url: "http://127.0.0.1:1/in", Body: map[string]any{"id": "x"}})
	if e := h.next(t); e.Error != "not sent: the body breaks the schema the document declares for it" || len(e.Violations) == 0 {
		t.Errorf("a body that breaks the schema: %+v", e)
	}
	for _, line := range []string{`msg="webhook refused"`, `reason="` + want + `"`, `msg="webhook not sent: the body breaks the schema the document declares for it"`} {
		if !strings.Contains(log.String(), line) {
			t.Errorf("log:\n%s\nwant %s", log, line)
		}
	}
	if err := s.CheckSubscriber("ftp://x/"); err == nil || err.Error() != `"ftp://x/" is not an absolute http or https URL` {
		t.Errorf("CheckSubscriber(ftp): %v", err)
	}
	if err := s.CheckSubscriber("http://192.0.2.10/"); err == nil || err.Error() != want {
		t.Errorf("CheckSubscriber(not allowed): %v", err)
	}
}

// TestDeliveriesBounded: an attempt past Timeout is given up and tried
// again Retries times; beyond Queue deliveries under way, one is
// dropped with a log line; at shutdown, one still under way is given up
// once the context ends, its attempt saying so and the log how many.
func TestDeliveriesBounded(t *testing.T) {
	release, arrived := make(chan struct{}), make(chan struct{}, 8)
	hung := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		arrived <- struct{}{}
		<-release
	}))
	t.Cleanup(hung.Close)
	t.Cleanup(func() { close(release) })
	subs := map[string]session.Subscriber{"/plant/webhook": {URL: hung.URL}}

	s, h, _ := newSender(t, "webhooks.yaml", subs, Options{Timeout: 20 * time.Millisecond, Retries: 1, Backoff: time.Millisecond})
	s.AfterAnswer(created(t, "", 1, &numbered{}, map[string]any{"id": int64(1), "name": "fern"}))
	for i := range 2 {
		if e := h.next(t); e.Attempt != i+1 || e.Status != 0 || e.Error != "no answer within 20ms" {
			t.Errorf("attempt %d: %+v", i+1, e)
		}
	}
	<-arrived
	<-arrived

	s, h, log := newSender(t, "webhooks.yaml", subs, Options{Timeout: time.Hour, Queue: 1})
	s.AfterAnswer(created(t, "", 1, &numbered{}, map[string]any{"id": int64(1), "name": "a"}))
	<-arrived // under way
	s.AfterAnswer(created(t, "", 2, &numbered{}, map[string]any{"id": int64(2), "name": "b"}))
	log.wait(t, `msg="webhook queue full: delivery dropped" webhook="webhook /plant/webhook" url=`+hung.URL+` queue=1 trigger=2`)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	s.CloseDeliveries(ctx)
	if e := h.next(t); e.Error != "abandoned at shutdown" || e.Attempt != 1 || e.Trigger != 1 {
		t.Errorf("abandoned attempt: %+v", e)
	}
	if want := `msg="shutdown: webhook deliveries dropped" dropped=1`; !strings.Contains(log.String(), want) {
		t.Errorf("log:\n%s\nwant %s", log, want)
	}
	s.AfterAnswer(created(t, "", 3, &numbered{}, map[string]any{"id": int64(3), "name": "c"}))
	log.wait(t, `msg="webhook not sent: the mock is shutting down"`)
}
