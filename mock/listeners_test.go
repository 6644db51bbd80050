package mock

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plantmock/plantmock/internal/accepting"
	"github.com/plantmock/plantmock/mock/internal/journal"
)

// served is a mock serving on real loopback listeners through Serve and,
// with NoAdmin, ServeAdmin: the ways the binary serves.
type servedMock struct {
	*Server
	api, admin string // base URLs; admin is api when the API serves it
}

// serveMock starts s on a loopback listener, and its admin API on a
// second one when opts.Admin.Disabled; both stop, and s closes, when the test
// ends.
func serveMock(t *testing.T, opts Options) servedMock {
	t.Helper()
	s, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	// start serves on a new listener and returns once serve first
	// accepts on it, as ServeAdmin asks: by then its address is one of
	// the mock's own, which no callback reaches.
	start := func(serve func(context.Context, net.Listener) error) string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		first := accepting.New(ln)
		ended := make(chan struct{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(ended)
			if err := serve(ctx, first); err != nil {
				t.Errorf("serve: %v", err)
			}
		}()
		select {
		case <-first.First():
		case <-ended:
		}
		return "http://" + ln.Addr().String()
	}
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		s.Close()
	})
	m := servedMock{Server: s}
	m.api = start(s.Serve)
	m.admin = m.api
	if opts.Admin.Disabled {
		m.admin = start(s.ServeAdmin)
	}
	return m
}

// request sends a request to base+path and returns the status and body.
func request(t *testing.T, method, url, body string, kv ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(kv); i += 2 {
		req.Header.Set(kv[i], kv[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// hostPort returns the host:port of a base URL.
func hostPort(base string) string { return strings.TrimPrefix(base, "http://") }

// TestCallbackToOwnListener: a callback aimed at the mock's own admin
// API, on its own listener or on the API's, is refused when it connects,
// is not tried again, and the store is not reset.
func TestCallbackToOwnListener(t *testing.T) {
	for _, c := range []struct {
		name    string
		noAdmin bool
		which   string // how the refusal names the listener
	}{
		{"admin listener", true, "the mock's own admin listener"},
		{"single listener", false, "the mock's own listener"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := serveMock(t, Options{Spec: callbackSpec(t), Admin: AdminOptions{Disabled: c.noAdmin}, Webhooks: WebhookOptions{Backoff: time.Nanosecond},
				SeedData: []byte(`{"/plants":[{"id":1,"name":"kept","callbackUrl":"http://127.0.0.1/"}]}`)})
			reset := m.admin + "/__admin/reset"
			// The audit callback's URL names 0.0.0.0, which reaches this
			// machine's listeners too.
			anyAddr := "0.0.0.0:" + strings.Split(hostPort(m.admin), ":")[1]
			audit := "http://" + anyAddr + "/__admin/reset"
			st, body := request(t, "POST", m.api+"/plants", `{"id":2,"name":"also kept","callbackUrl":"`+reset+`"}`, "X-Audit-Url", audit)
			expect(t, "create with callbacks to the admin API", st, body, 201, `{"id":2,"name":"also kept"}`)

			got := map[string]journal.Entry{}
			for _, e := range outbound(t, m.Server, 2) {
				got[e.Operation] = e
			}
			why := " is " + c.which + " (" + hostPort(m.admin) + "): nothing the mock sends goes there"
			for op, want := range map[string]struct{ url, err string }{
				"callback onPlant": {reset + "?plant=2", "refused: address " + hostPort(m.admin) + why},
				"callback onAudit": {audit, "refused: address " + anyAddr + why},
			} {
				e := got[op]
				if e.URL != want.url || e.Error != want.err || e.Attempt != 1 || e.Status != 0 || e.Trigger != 1 {
					t.Errorf("%s: URL %q, error %q, attempt %d, status %d, trigger %d\nwant URL %q, error %q, attempt 1, status 0, trigger 1",
						op, e.URL, e.Error, e.Attempt, e.Status, e.Trigger, want.url, want.err)
				}
			}
			// A refusal is final: once the deliveries are done, there
			// are no more attempts.
			m.sender.Deliveries.Close(context.Background())
			if n := len(outboundNow(t, m.Server)); n != 2 {
				t.Errorf("%d outbound entries once the deliveries are done, want 2: a refusal was tried again", n)
			}
			if n := stored(m.Server, "/plants"); n != 2 {
				t.Errorf("%d plants stored after the callbacks, want 2: the store was reset", n)
			}
			if _, ok := storedDoc(m.Server, "/plants", "1"); !ok {
				t.Error("plant 1 is gone")
			}
		})
	}
}

// TestWebhookToOwnListener: a subscriber on the mock's own admin
// listener, which the default allow list's loopback lets through by
// name, is refused when the webhook connects.
func TestWebhookToOwnListener(t *testing.T) {
	m := serveMock(t, Options{Spec: webhookSpec(t), Admin: AdminOptions{Disabled: true}})
	const p = "/__admin/webhooks/%2Fplant%2Fwebhook"
	reset := m.admin + "/__admin/reset"
	st, body := request(t, "PUT", m.admin+p, `{"url":"`+reset+`"}`)
	expect(t, "subscribe", st, body, 200, `{"name":"/plant/webhook","methods":["POST"],"url":"`+reset+`","token":false}`)
	st, body = request(t, "POST", m.api+"/plants", `{"id":1,"name":"kept"}`, "Authorization", "Bearer abc")
	expect(t, "create", st, body, 200, `{"name":"kept"}`)
	e := outbound(t, m.Server, 1)[0]
	want := "refused: address " + hostPort(m.admin) + " is the mock's own admin listener (" + hostPort(m.admin) + "): nothing the mock sends goes there"
	if e.Operation != "webhook /plant/webhook" || e.Error != want || e.Attempt != 1 || e.Status != 0 {
		t.Errorf("journal entry: %s attempt %d status %d error %q\nwant error %q, attempt 1, status 0", e.Operation, e.Attempt, e.Status, e.Error, want)
	}
	if n := stored(m.Server, "/plants"); n != 1 {
		t.Errorf("%d plants stored after the webhook, want 1", n)
	}
}

// TestCallbackToHandlerAddress: a mock that is only a handler, served by
// a server of the caller's (httptest here, as mocktest does), knows its
// address from the requests it answers: a callback to it is refused too.
func TestCallbackToHandlerAddress(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: callbackSpec(t), Webhooks: WebhookOptions{Backoff: time.Nanosecond},
		SeedData: []byte(`{"/plants":[{"id":1,"name":"kept","callbackUrl":"http://127.0.0.1/"}]}`)})
	reset := ts.URL + "/__admin/reset"
	anyAddr := "0.0.0.0:" + strings.Split(hostPort(ts.URL), ":")[1]
	audit := "http://" + anyAddr + "/__admin/reset"
	st, body := request(t, "POST", ts.URL+"/plants", `{"id":2,"name":"also kept","callbackUrl":"`+reset+`"}`, "X-Audit-Url", audit)
	expect(t, "create with callbacks to the mock itself", st, body, 201, `{"id":2,"name":"also kept"}`)
	got := map[string]journal.Entry{}
	for _, e := range outbound(t, s, 2) {
		got[e.Operation] = e
	}
	why := " is the mock's own listener (" + hostPort(ts.URL) + "): nothing the mock sends goes there"
	for op, want := range map[string]struct{ url, err string }{
		"callback onPlant": {reset + "?plant=2", "refused: address " + hostPort(ts.URL) + why},
		"callback onAudit": {audit, "refused: address " + anyAddr + why},
	} {
		if e := got[op]; e.URL != want.url || e.Error != want.err || e.Attempt != 1 || e.Status != 0 {
			t.Errorf("%s: URL %q, error %q, attempt %d, status %d\nwant URL %q, error %q, attempt 1, status 0",
				op, e.URL, e.Error, e.Attempt, e.Status, want.url, want.err)
		}
	}
	s.sender.Deliveries.Close(context.Background())
	if n := stored(s, "/plants"); n != 2 {
		t.Errorf("%d plants stored after the callbacks, want 2: the store was reset", n)
	}
}
