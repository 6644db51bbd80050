package mock

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/deliver"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/session"
)

// fakeResolver resolves the names of the tests: no real DNS.
type fakeResolver map[string][]netip.Addr

func (f fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := f[host]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// resolveWith makes s, made with opts, resolve names with r: no real DNS.
func resolveWith(s *Server, opts Options, r deliver.Resolver) {
	cfg := s.sender.DeliverConfig()
	cfg.Resolver = r
	s.sender.Deliveries.Close(context.Background())
	s.sender.Deliveries = deliver.New(cfg)
}

// countingReceiver is a callback receiver on a loopback listener that
// counts the connections made to it and answers every request with
// answer.
type countingReceiver struct {
	*httptest.Server
	conns, requests atomic.Int64
}

func newCountingReceiver(t *testing.T, answer http.HandlerFunc) *countingReceiver {
	t.Helper()
	r := &countingReceiver{}
	r.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.requests.Add(1)
		answer(w, req)
	}))
	r.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			r.conns.Add(1)
		}
	}
	r.Start()
	t.Cleanup(r.Close)
	return r
}

func noContent(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }

// TestCallbackRedirectNotFollowed: a receiver's redirect is its answer,
// recorded as it came; the mock does not follow it, neither to an
// address the allow list does not open nor to its own admin API.
func TestCallbackRedirectNotFollowed(t *testing.T) {
	other := newCountingReceiver(t, noContent)
	m := serveMock(t, Options{Spec: callbackSpec(t), Admin: AdminOptions{Disabled: true}, Webhooks: WebhookOptions{Retries: -1},
		SeedData: []byte(`{"/plants":[{"id":1,"name":"kept","callbackUrl":"http://127.0.0.1/"}]}`)})
	for i, c := range []struct{ name, location string }{
		{"to an address not allowed", other.URL + "/elsewhere"},
		{"to the admin API", m.admin + "/__admin/reset"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rcv := newCountingReceiver(t, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, c.location, http.StatusTemporaryRedirect)
			})
			// Only the first receiver's address is allowed.
			if _, err := m.Reload(given(Content{Spec: callbackSpec(t), WebhookAllow: []string{hostPort(rcv.URL)}})); err != nil {
				t.Fatal(err)
			}
			before := len(outboundNow(t, m.Server))
			id := itoa(i + 2)
			st, body := request(t, "POST", m.api+"/plants", `{"id":`+id+`,"name":"also kept","callbackUrl":"`+rcv.URL+`/cb"}`)
			expect(t, "create", st, body, 201, `{"id":`+id+`,"name":"also kept"}`)
			var e journal.Entry
			for _, x := range outbound(t, m.Server, before+2)[before:] {
				if x.Operation == "callback onPlant" {
					e = x
				}
			}
			if e.URL != rcv.URL+"/cb?plant="+id || e.Status != http.StatusTemporaryRedirect || e.Error != "" || e.Attempt != 1 {
				t.Errorf("journal entry: URL %q, status %d, error %q, attempt %d\nwant URL %q, status 307, no error, attempt 1",
					e.URL, e.Status, e.Error, e.Attempt, rcv.URL+"/cb?plant="+id)
			}
			if n := rcv.requests.Load(); n != 1 {
				t.Errorf("the receiver got %d requests, want 1", n)
			}
			if n := other.conns.Load(); n != 0 {
				t.Errorf("the redirect's target got %d connections, want 0", n)
			}
			if n := stored(m.Server, "/plants"); n != i+2 {
				t.Errorf("%d plants stored, want %d", n, i+2)
			}
		})
	}
}

// outboundNow returns the outbound entries of the default session's
// journal so far.
func outboundNow(t *testing.T, s *Server) []journal.Entry {
	t.Helper()
	es, err := s.Find(journal.Match{Direction: "outbound"})
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// TestReloadClosesWebhookConnections: after a reload, a webhook is not
// sent over a connection made under the old allow list: it connects
// again, and the new list's address rules apply.
func TestReloadClosesWebhookConnections(t *testing.T) {
	sub := newSubscriber(t, always(200))
	opts := Options{Spec: webhookSpec(t), Webhooks: WebhookOptions{Allow: []string{"loopback", "hooks.test"}, Retries: -1}}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	resolveWith(s, opts, fakeResolver{"hooks.test": {netip.MustParseAddr("127.0.0.1")}})
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	target := "http://hooks.test:" + sub.URL[strings.LastIndexByte(sub.URL, ':')+1:] + "/in"
	if err := s.Subscribe("/plant/webhook", session.Subscriber{URL: target}); err != nil {
		t.Fatal(err)
	}
	const p = "/__admin/webhooks/%2Fplant%2Fwebhook"
	st, body := do(t, ts, "POST", p+"/send", `{"id":1,"name":"sent"}`)
	expect(t, "send", st, body, 202, `{"queued":1,"url":"`+target+`","webhook":"/plant/webhook"}`)
	sub.next(t)
	outbound(t, s, 1)
	// hooks.test stays in the list; loopback leaves it.
	if _, err := s.Reload(given(Content{Spec: webhookSpec(t), WebhookAllow: []string{"hooks.test"}})); err != nil {
		t.Fatal(err)
	}
	st, body = do(t, ts, "POST", p+"/send", `{"id":2,"name":"not sent"}`)
	expect(t, "send after the reload", st, body, 202, `{"queued":1,"url":"`+target+`","webhook":"/plant/webhook"}`)
	e := outbound(t, s, 2)[1]
	if want := "refused: address 127.0.0.1:" + target[len("http://hooks.test:"):len(target)-len("/in")] + " is a loopback address, and --webhook-allow does not name loopback"; e.Error != want || e.Attempt != 1 || e.Status != 0 {
		t.Errorf("journal entry: attempt %d status %d error %q\nwant attempt 1, status 0, error %q", e.Attempt, e.Status, e.Error, want)
	}
}
