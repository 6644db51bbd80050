package deliver

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// hooksDoc declares a webhook for each kind of credential the sender
// adds, and one without security.
const hooksDoc = `openapi: 3.1.0
info: {title: hooks, version: 1.0.0}
paths: {}
webhooks:
  bearer: {post: {security: [{bearer: []}], responses: {'200': {description: ok}}}}
  basic: {post: {security: [{basic: []}], responses: {'200': {description: ok}}}}
  keyHeader: {post: {security: [{keyHeader: []}], responses: {'200': {description: ok}}}}
  keyQuery: {post: {security: [{keyQuery: []}], responses: {'200': {description: ok}}}}
  keyCookie: {put: {security: [{keyCookie: []}], responses: {'200': {description: ok}}}}
  oauth: {post: {security: [{oauth: []}], responses: {'200': {description: ok}}}}
  open: {post: {responses: {'200': {description: ok}, '307': {description: moved}}}}
components:
  securitySchemes:
    bearer: {type: http, scheme: bearer}
    basic: {type: http, scheme: basic}
    keyHeader: {type: apiKey, in: header, name: X-Key}
    keyQuery: {type: apiKey, in: query, name: key}
    keyCookie: {type: apiKey, in: cookie, name: sid}
    oauth: {type: oauth2, flows: {clientCredentials: {tokenUrl: 'https://auth.test/token', scopes: {}}}}
`

// hookOp returns the operation of the webhook called name in hooksDoc.
func hookOp(t *testing.T, name string) *openapi.Operation {
	t.Helper()
	doc, err := openapi.Load([]byte(hooksDoc))
	if err != nil {
		t.Fatal(err)
	}
	hs := doc.Webhook(name)
	if len(hs) != 1 {
		t.Fatalf("webhook %s: %d operations", name, len(hs))
	}
	return hs[0].Op
}

// got is a request a receiver got.
type got struct {
	method, path, query, body string
	header                    http.Header
}

// receiver is a subscriber on a loopback listener: it answers the n-th
// request (from 1) with answer(n, w), and counts its connections.
type receiver struct {
	*httptest.Server
	got   chan got
	conns atomic.Int64
}

func newReceiver(t *testing.T, answer func(n int, w http.ResponseWriter)) *receiver {
	t.Helper()
	rc := &receiver{got: make(chan got, 64)}
	var mu sync.Mutex
	n := 0
	rc.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		n++
		i := n
		mu.Unlock()
		rc.got <- got{r.Method, r.URL.Path, r.URL.RawQuery, string(body), r.Header.Clone()}
		answer(i, w)
	}))
	rc.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			rc.conns.Add(1)
		}
	}
	rc.Start()
	t.Cleanup(rc.Close)
	return rc
}

// statuses answers the n-th request with the n-th status, and the last
// one after those.
func statuses(st ...int) func(int, http.ResponseWriter) {
	return func(n int, w http.ResponseWriter) { w.WriteHeader(st[min(n, len(st))-1]) }
}

// reports collects the attempts a delivery reports.
type reports chan Attempt

func (r reports) report(a Attempt) { r <- a }

// next returns the next attempt reported, failing the test when none
// comes within a generous deadline.
func (r reports) next(t *testing.T) Attempt {
	t.Helper()
	select {
	case a := <-r:
		return a
	case <-time.After(10 * time.Second):
		t.Fatal("no attempt reported within 10s")
		return Attempt{}
	}
}

// none fails the test if an attempt was reported.
func (r reports) none(t *testing.T) {
	t.Helper()
	select {
	case a := <-r:
		t.Errorf("an attempt reported: %+v", a)
	default:
	}
}

// newSender returns a Sender of cfg, closed when the test ends.
func newSender(t *testing.T, cfg Config) *Sender {
	s := New(cfg)
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

// TestSendAuthorizes: a delivery goes with its body, its headers, the
// user agent and the credential its operation's security asks for, the
// token given or a made-up one; the attempt reports what was sent and
// the answer.
func TestSendAuthorizes(t *testing.T) {
	rc := newReceiver(t, statuses(200))
	s := newSender(t, Config{UserAgent: "plantmock/test"})
	for _, c := range []struct {
		name, hook, token string
		method, query     string
		header, value     string // the credential's header, and its value
		cookie            string
	}{
		{name: "bearer", hook: "bearer", token: "t0k", method: "POST", header: "Authorization", value: "Bearer t0k"},
		{name: "bearer made up", hook: "bearer", method: "POST", header: "Authorization", value: "Bearer plantmock"},
		{name: "basic with a password", hook: "basic", token: "ann:pw", method: "POST", header: "Authorization", value: "Basic YW5uOnB3"},
		{name: "basic without one", hook: "basic", token: "ann", method: "POST", header: "Authorization", value: "Basic YW5uOg=="},
		{name: "API key in a header", hook: "keyHeader", token: "k1", method: "POST", header: "X-Key", value: "k1"},
		{name: "API key in the query", hook: "keyQuery", token: "k 2", method: "POST", query: "a=1&key=k+2"},
		{name: "API key in a cookie", hook: "keyCookie", token: "k3", method: "PUT", header: "Cookie", value: "sid=k3"},
		{name: "OAuth 2", hook: "oauth", token: "o4", method: "POST", header: "Authorization", value: "Bearer o4"},
		{name: "no security", hook: "open", token: "unused", method: "POST"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := reports(make(chan Attempt, 4))
			url := rc.URL + "/in"
			if c.hook == "keyQuery" {
				url += "?a=1"
			}
			err := s.Send(Delivery{Op: hookOp(t, c.hook), URL: url, Token: c.token, Body: []byte(`{"id":1}`),
				Header: http.Header{"Content-Type": {"application/json"}, "X-Event": {"created"}}}, r.report)
			if err != nil {
				t.Fatal(err)
			}
			g := <-rc.got
			want := http.Header{"Content-Type": {"application/json"}, "X-Event": {"created"}, "User-Agent": {"plantmock/test"},
				"Content-Length": {"8"}, "Accept-Encoding": {"gzip"}}
			if c.header != "" {
				want.Set(c.header, c.value)
			}
			if g.method != c.method || g.path != "/in" || g.query != c.query || g.body != `{"id":1}` || !reflect.DeepEqual(g.header, want) {
				t.Errorf("received %s %s?%s %s %v\nwant %s /in?%s {\"id\":1} %v", g.method, g.path, g.query, g.body, g.header, c.method, c.query, want)
			}
			a := r.next(t)
			delete(want, "Content-Length") // set by the transport, as is Accept-Encoding
			delete(want, "Accept-Encoding")
			if a.N != 1 || a.Status != 200 || a.Error != "" || a.Violations != nil || a.GaveUp ||
				a.Path != "/in" || a.Query != c.query || !reflect.DeepEqual(a.Header, want) {
				t.Errorf("attempt %+v\nwant attempt 1, status 200, path /in, query %q, header %v", a, c.query, want)
			}
		})
	}
}

// TestSendRetries: a failure to connect, a timeout or a 5xx is tried
// again, Retries times; the last attempt of one that failed throughout
// says so; a 4xx and a refused connection are final. Every attempt is
// reported, an undeclared answer with its violation.
func TestSendRetries(t *testing.T) {
	undeclared := func(st int) []openapi.Violation {
		return []openapi.Violation{{Path: "response", Reason: "status " + strconv.Itoa(st) + " is not declared by webhook open"}}
	}
	refuse := func(_ context.Context, ap netip.AddrPort) error { return &RefusedError{Addr: ap, Why: "is refused"} }
	release := make(chan struct{})
	hung := newReceiver(t, func(int, http.ResponseWriter) { <-release })
	t.Cleanup(func() { close(release) })
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close() // nothing listens there any more
	type want struct {
		status int
		err    string
		vs     []openapi.Violation
	}
	for _, c := range []struct {
		name    string
		answer  func(int, http.ResponseWriter)
		url     string // "": the receiver's
		cfg     Config
		want    []want
		gaveUp  bool
		arrived int
	}{
		{name: "5xx until it succeeds", answer: statuses(500, 503, 200), cfg: Config{Retries: 3},
			want: []want{{500, "", undeclared(500)}, {503, "", undeclared(503)}, {200, "", nil}}, arrived: 3},
		{name: "5xx throughout", answer: statuses(502), cfg: Config{Retries: 1},
			want: []want{{502, "", undeclared(502)}, {502, "", undeclared(502)}}, gaveUp: true, arrived: 2},
		{name: "no retries", answer: statuses(500), cfg: Config{},
			want: []want{{500, "", undeclared(500)}}, gaveUp: true, arrived: 1},
		{name: "4xx is final", answer: statuses(404), cfg: Config{Retries: 3},
			want: []want{{404, "", undeclared(404)}}, arrived: 1},
		{name: "a redirect is the answer", answer: func(_ int, w http.ResponseWriter) {
			w.Header().Set("Location", closed.URL+"/elsewhere")
			w.WriteHeader(http.StatusTemporaryRedirect)
		}, cfg: Config{Retries: 3}, want: []want{{307, "", nil}}, arrived: 1},
		{name: "refused is final", answer: statuses(200), cfg: Config{Retries: 3, Refuse: refuse},
			want: []want{{0, "refused: address 127.0.0.1:PORT is refused", nil}}},
		{name: "timeout", url: hung.URL, cfg: Config{Retries: 1, Timeout: 20 * time.Millisecond},
			want: []want{{0, "no answer within 20ms", nil}, {0, "no answer within 20ms", nil}}, gaveUp: true},
		{name: "no connection", url: closed.URL, cfg: Config{Retries: 2},
			want: []want{{0, "dial tcp " + hostPort(closed.URL) + ": connect: connection refused", nil},
				{0, "dial tcp " + hostPort(closed.URL) + ": connect: connection refused", nil},
				{0, "dial tcp " + hostPort(closed.URL) + ": connect: connection refused", nil}}, gaveUp: true},
		{name: "no URL to make a request of", url: "http://[::1", cfg: Config{Retries: 3},
			want: []want{{0, `the request could not be made: parse "http://[::1": missing ']' in host`, nil}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.Backoff = time.Millisecond
			s := newSender(t, c.cfg)
			url := c.url
			var rc *receiver
			if url == "" {
				rc = newReceiver(t, c.answer)
				url = rc.URL
			}
			r := reports(make(chan Attempt, 8))
			if err := s.Send(Delivery{Op: hookOp(t, "open"), URL: url}, r.report); err != nil {
				t.Fatal(err)
			}
			for i, w := range c.want {
				a := r.next(t)
				w.err = strings.ReplaceAll(w.err, "PORT", port(url))
				last := i == len(c.want)-1
				if a.N != i+1 || a.Status != w.status || a.Error != w.err || !reflect.DeepEqual(a.Violations, w.vs) || a.GaveUp != (last && c.gaveUp) {
					t.Errorf("attempt %d: %d %q %v gave up %v\nwant %d %q %v gave up %v", a.N, a.Status, a.Error, a.Violations, a.GaveUp,
						w.status, w.err, w.vs, last && c.gaveUp)
				}
			}
			s.Close(context.Background())
			r.none(t)
			if rc != nil {
				if n := len(rc.got); n != c.arrived {
					t.Errorf("the receiver got %d requests, want %d", n, c.arrived)
				}
				if c.arrived == 0 && rc.conns.Load() != 0 {
					t.Errorf("the receiver got %d connections, want none", rc.conns.Load())
				}
			}
		})
	}
}

// TestSendLargeAnswer: an answer over MaxAnswer is reported cut, with a
// note, and not checked.
func TestSendLargeAnswer(t *testing.T) {
	rc := newReceiver(t, func(_ int, w http.ResponseWriter) {
		w.WriteHeader(599) // undeclared: it would be a violation if checked
		w.Write(make([]byte, MaxAnswer+10))
	})
	s := newSender(t, Config{})
	r := reports(make(chan Attempt, 1))
	if err := s.Send(Delivery{Op: hookOp(t, "open"), URL: rc.URL}, r.report); err != nil {
		t.Fatal(err)
	}
	a := r.next(t)
	if a.Status != 599 || len(a.Response) != MaxAnswer+1 || a.Violations != nil ||
		!reflect.DeepEqual(a.Notes, []string{"answer over 1048576 bytes: not checked"}) {
		t.Errorf("attempt: status %d, %d bytes, violations %v, notes %q", a.Status, len(a.Response), a.Violations, a.Notes)
	}
}

// TestSendVia: Refuse sees the listener the delivery came through in the
// attempt's context.
func TestSendVia(t *testing.T) {
	rc := newReceiver(t, statuses(200))
	via := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 4242}
	seen := make(chan net.Addr, 1)
	s := newSender(t, Config{Refuse: func(ctx context.Context, _ netip.AddrPort) error {
		a, _ := ctx.Value(http.LocalAddrContextKey).(net.Addr)
		seen <- a
		return nil
	}})
	r := reports(make(chan Attempt, 1))
	if err := s.Send(Delivery{Op: hookOp(t, "open"), URL: rc.URL, Via: via}, r.report); err != nil {
		t.Fatal(err)
	}
	if a := r.next(t); a.Status != 200 {
		t.Errorf("attempt: %+v", a)
	}
	if a := <-seen; a != via {
		t.Errorf("Refuse saw %v, want %v", a, via)
	}
}

// TestSendQueueAndClose: beyond Queue, Send drops a delivery; Close gives
// up the deliveries under way once its context ends, reporting the
// attempt under way as abandoned and not the delivery still waiting for
// its delay, and counts both; after Close, Send refuses.
func TestSendQueueAndClose(t *testing.T) {
	arrived := make(chan struct{}, 1)
	release := make(chan struct{})
	rc := newReceiver(t, func(int, http.ResponseWriter) { arrived <- struct{}{}; <-release })
	t.Cleanup(func() { close(release) })
	s := New(Config{Queue: 2, Timeout: time.Hour})
	under, waiting := reports(make(chan Attempt, 1)), reports(make(chan Attempt, 1))
	op := hookOp(t, "open")
	if err := s.Send(Delivery{Op: op, URL: rc.URL}, under.report); err != nil {
		t.Fatal(err)
	}
	<-arrived
	if err := s.Send(Delivery{Op: op, URL: rc.URL, Delay: time.Hour}, waiting.report); err != nil {
		t.Fatal(err)
	}
	var full *QueueFullError
	if err := s.Send(Delivery{Op: op, URL: rc.URL}, under.report); !errors.As(err, &full) || full.Queue != 2 || err.Error() != "2 deliveries under way" {
		t.Errorf("Send beyond the queue: %v, want a *QueueFullError of 2", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if n := s.Close(ctx); n != 2 {
		t.Errorf("Close gave up %d deliveries, want 2", n)
	}
	if a := under.next(t); a.N != 1 || a.Status != 0 || a.Error != "abandoned at shutdown" || a.GaveUp {
		t.Errorf("the attempt under way: %+v", a)
	}
	under.none(t)
	waiting.none(t)
	if err := s.Send(Delivery{Op: op, URL: rc.URL}, under.report); err != ErrClosed {
		t.Errorf("Send after Close: %v, want ErrClosed", err)
	}
	if n := s.Close(context.Background()); n != 0 {
		t.Errorf("a second Close gave up %d, want 0", n)
	}
}

// TestCloseWaits: Close waits for the deliveries under way while its
// context lasts: they are reported, and none is given up.
func TestCloseWaits(t *testing.T) {
	arrived := make(chan struct{}, 1)
	release := make(chan struct{})
	rc := newReceiver(t, func(_ int, w http.ResponseWriter) {
		arrived <- struct{}{}
		<-release
		w.WriteHeader(200)
	})
	s := New(Config{})
	r := reports(make(chan Attempt, 1))
	if err := s.Send(Delivery{Op: hookOp(t, "open"), URL: rc.URL}, r.report); err != nil {
		t.Fatal(err)
	}
	<-arrived
	done := make(chan int)
	go func() { done <- s.Close(context.Background()) }()
	close(release)
	if n := <-done; n != 0 {
		t.Errorf("Close gave up %d deliveries, want 0", n)
	}
	select { // reported before Close returned
	case a := <-r:
		if a.Status != 200 || a.Error != "" {
			t.Errorf("attempt: %+v", a)
		}
	default:
		t.Error("Close returned before the attempt was reported")
	}
}

func hostPort(u string) string { return strings.TrimPrefix(u, "http://") }

func port(u string) string { return u[strings.LastIndexByte(u, ':')+1:] }
