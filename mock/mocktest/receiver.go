package mocktest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/plantmock/plantmock/mock"
)

// Delivery is one request a Receiver received: a webhook or a callback
// the mock sent.
type Delivery struct {
	Method string
	Path   string
	Query  string // the raw query, without '?'
	Header http.Header
	Body   []byte
}

// Decode decodes the delivery's JSON body into v.
func (d Delivery) Decode(v any) error { return json.Unmarshal(d.Body, v) }

// Receiver is a loopback server standing in for a webhook's subscriber or
// a callback's target: it keeps every request it receives, in order, and
// answers it (200 without a body unless Respond or Answers say
// otherwise). It stops when the test ends, after the mock has stopped
// sending.
type Receiver struct {
	// URL is the receiver's base URL, http://127.0.0.1:port; requests
	// to any path under it reach the receiver.
	URL string

	t    TB
	srv  *httptest.Server
	mock *Server
	port string

	mu       sync.Mutex // guards the fields below
	got      []Delivery
	recorded int // attempts to the receiver the mock has journaled
	taken    int // deliveries Next and Wait have returned
	respond  func(n int, d Delivery) (int, []byte)
	changed  chan struct{} // closed, and replaced, when got or recorded grows
}

// Receive starts a Receiver and subscribes it to the webhook called name
// in the mock's default session, as PUT /__admin/webhooks/NAME does. A
// webhook the document does not declare fails the test at once. To send
// a token as well, use NewReceiver and Mock.Subscribe.
func (s *Server) Receive(webhook string) *Receiver {
	s.t.Helper()
	r := s.NewReceiver()
	if err := s.Mock.Subscribe(webhook, mock.Subscriber{URL: r.URL}); err != nil {
		s.t.Fatalf("mocktest: %v", err)
		return nil
	}
	return r
}

// NewReceiver starts a Receiver subscribed to nothing: for callbacks,
// the test puts its URL in the request that triggers them (as the
// callbackUrl, say).
func (s *Server) NewReceiver() *Receiver {
	r := &Receiver{t: s.t, mock: s, changed: make(chan struct{})}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	r.URL = r.srv.URL
	u, _ := url.Parse(r.URL)
	r.port = u.Port()
	s.mu.Lock()
	s.receivers = append(s.receivers, r)
	s.mu.Unlock()
	return r
}

// serve keeps a delivery and answers it.
func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body) // what arrived, even if cut short
	d := Delivery{Method: req.Method, Path: req.URL.Path, Query: req.URL.RawQuery, Header: req.Header.Clone(), Body: body}
	r.mu.Lock()
	r.got = append(r.got, d)
	n, respond := len(r.got), r.respond
	r.signal()
	r.mu.Unlock()
	status, answer := http.StatusOK, []byte(nil)
	if respond != nil {
		status, answer = respond(n, d)
	}
	if len(answer) > 0 {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(status)
	w.Write(answer)
}

// signal wakes those waiting for the receiver; r.mu is held.
func (r *Receiver) signal() {
	close(r.changed)
	r.changed = make(chan struct{})
}

// Respond sets how the receiver answers: fn gets each delivery and its
// number n, from 1, and returns the status and body of the answer (a body
// is sent as application/json). fn runs on the receiver's goroutines: it
// must be safe for concurrent use and must not call the test's Fatal.
// The mock checks the answer against the responses the webhook or
// callback declares.
func (r *Receiver) Respond(fn func(n int, d Delivery) (status int, body []byte)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.respond = fn
}

// Answers makes the receiver answer the first deliveries with statuses in
// turn and the later ones with the last, without a body: Answers(500,
// 500, 200) fails twice then accepts; Answers(204) always answers 204.
func (r *Receiver) Answers(statuses ...int) {
	if len(statuses) == 0 {
		panic("mocktest: Answers needs at least one status")
	}
	statuses = slices.Clone(statuses)
	r.Respond(func(n int, _ Delivery) (int, []byte) {
		return statuses[min(n, len(statuses))-1], nil
	})
}

// Next returns the next delivery the receiver got that Next or Wait has
// not returned yet, waiting for it up to timeout. If none arrives in time
// it fails the test at once, listing what the mock sent. When Next
// returns, the mock's journal (Server.Deliveries) holds at least as many
// attempts to the receiver as Next and Wait have returned deliveries.
func (r *Receiver) Next(timeout time.Duration) Delivery {
	r.t.Helper()
	r.mu.Lock()
	i := r.taken
	r.mu.Unlock()
	got, ok := r.wait(i+1, timeout)
	if !ok {
		r.t.Fatalf("mocktest: no delivery reached the receiver at %s within %s (it received %d in all); %s", r.URL, timeout, len(got), r.mock.sent())
		return Delivery{}
	}
	r.mu.Lock()
	r.taken = max(r.taken, i+1)
	r.mu.Unlock()
	return got[i]
}

// Wait waits up to timeout for the receiver to have got n deliveries
// since it started, and returns all it got, oldest first. If fewer
// arrive in time it fails the test at once, listing what the mock sent.
// When Wait returns, the mock's journal (Server.Deliveries) holds at
// least n attempts to the receiver.
func (r *Receiver) Wait(n int, timeout time.Duration) []Delivery {
	r.t.Helper()
	got, ok := r.wait(n, timeout)
	if !ok {
		r.t.Fatalf("mocktest: the receiver at %s received %d of %d deliveries within %s; %s", r.URL, len(got), n, timeout, r.mock.sent())
		return got
	}
	r.mu.Lock()
	r.taken = max(r.taken, len(got))
	r.mu.Unlock()
	return got
}

// wait waits until the receiver has n deliveries and the mock has
// journaled as many attempts to it, or until timeout. It returns what
// arrived and whether n did.
func (r *Receiver) wait(n int, timeout time.Duration) ([]Delivery, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	r.mu.Lock()
	defer r.mu.Unlock()
	ok := r.await(ctx, func() bool { return len(r.got) >= n })
	if ok {
		// The mock journals an attempt once it has read the answer, just
		// after the receiver got it.
		r.await(ctx, func() bool { return r.recorded >= n })
	}
	return slices.Clone(r.got), ok
}

// await waits until cond holds or ctx ends, and reports whether cond
// holds. r.mu is held when it is called and when it returns.
func (r *Receiver) await(ctx context.Context, cond func() bool) bool {
	for !cond() {
		changed := r.changed
		r.mu.Unlock()
		select {
		case <-changed:
			r.mu.Lock()
		case <-ctx.Done():
			r.mu.Lock()
			return cond()
		}
	}
	return true
}

// reached reports whether an attempt to u went to the receiver: to its
// port on a loopback address.
func (r *Receiver) reached(u *url.URL) bool {
	if u.Port() != r.port {
		return false
	}
	ip := net.ParseIP(u.Hostname())
	return u.Hostname() == "localhost" || ip != nil && ip.IsLoopback()
}

// Deliveries returns the webhooks and callbacks the mock sent in the
// default session, one entry per attempt, oldest first: where each went
// (URL), what was sent, the answer (Status, Response) or why there was
// none (Error), and how the answer broke the document (Violations).
func (s *Server) Deliveries() []mock.Entry {
	s.t.Helper()
	es, _ := s.find(mock.Match{Direction: "outbound"})
	return es
}

// noteSent tells the receivers about an attempt the mock journaled.
func (s *Server) noteSent(e mock.Entry) {
	if e.Attempt == 0 { // not sent: refused, or a body off its schema
		return
	}
	u, err := url.Parse(e.URL)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.receivers {
		if r.reached(u) {
			r.mu.Lock()
			r.recorded++
			r.signal()
			r.mu.Unlock()
		}
	}
}

// closeReceivers stops the receivers, once the mock sends nothing more.
func (s *Server) closeReceivers() {
	s.mu.Lock()
	rs := s.receivers
	s.receivers = nil
	s.mu.Unlock()
	for _, r := range rs {
		r.srv.Close()
	}
}

// sent says what the mock sent, for a receiver's failure.
func (s *Server) sent() string {
	es := s.Deliveries()
	if len(es) == 0 {
		return "the mock sent nothing"
	}
	var b strings.Builder
	b.WriteString("the mock sent:")
	writeNewest(&b, es, "attempts")
	return b.String()
}

// describeSent writes one outbound attempt on a line:
// webhook /plant/webhook to http://127.0.0.1:40000 (attempt 1) -> 500.
func describeSent(e mock.Entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s to %s", e.Operation, e.URL)
	if e.Attempt > 0 {
		fmt.Fprintf(&b, " (attempt %d)", e.Attempt)
	}
	switch {
	case e.Error != "":
		b.WriteString(": ")
		b.WriteString(e.Error)
	case e.Status != 0:
		fmt.Fprintf(&b, " -> %d", e.Status)
	}
	return b.String()
}
