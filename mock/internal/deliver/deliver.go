package deliver

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Defaults of a Config's zero fields.
const (
	DefaultTimeout = 10 * time.Second
	DefaultBackoff = 250 * time.Millisecond
	DefaultQueue   = 1000
	maxBackoff     = 30 * time.Second
	// MaxAnswer is how much of an answer is read and checked.
	MaxAnswer = 1 << 20
)

// Config is how a Sender sends.
type Config struct {
	Timeout time.Duration // of one attempt; 0: DefaultTimeout
	Retries int           // attempts after the first, after a failure to connect, a timeout or a 5xx
	Backoff time.Duration // before the first retry, doubled for each next one; 0: DefaultBackoff
	Queue   int           // deliveries under way at most; 0: DefaultQueue
	// Refuse says why a connection to an address may not be made, for
	// the attempt of ctx (see Via); nil refuses none.
	Refuse func(ctx context.Context, ap netip.AddrPort) error
	// Resolver finds the addresses of names; nil: net.DefaultResolver.
	Resolver  Resolver
	UserAgent string
}

// Delivery is one request to send.
type Delivery struct {
	// Op is what is sent: its method, its security (which credentials
	// go with it, see authorize) and the answers it declares (what the
	// answer is checked against).
	Op     *openapi.Operation
	URL    string
	Token  string      // the credential for Op's security; "" for a made-up one
	Body   []byte      // nil: no body
	Header http.Header // sent as given: Content-Type, the headers Op requires
	// Via is the listener the request that caused the delivery came in
	// on; nil when unknown. Refuse sees it in the attempt's context, as
	// http.LocalAddrContextKey.
	Via   net.Addr
	Delay time.Duration // before the first attempt
}

// Attempt is one try of a delivery, as sent and as answered.
type Attempt struct {
	N        int // 1 for the first try
	Time     time.Time
	Duration time.Duration
	// Path and Query are those of the request sent; Header its headers,
	// credentials included.
	Path, Query string
	Header      http.Header
	Status      int    // 0 when no answer came
	Response    []byte // the answer's body, its first MaxAnswer bytes and one more
	// Violations are the ways the answer broke Op's declared answers.
	Violations []openapi.Violation
	Notes      []string
	Error      string // why no answer came (or it was cut short)
	// GaveUp is set on the last attempt of a delivery that would have
	// been tried again, had it retries left.
	GaveUp bool
}

// ErrClosed is Send's error once Close has begun.
var ErrClosed = errors.New("shutting down")

// QueueFullError is Send's error when Queue deliveries are under way.
type QueueFullError struct{ Queue int }

func (e *QueueFullError) Error() string { return fmt.Sprintf("%d deliveries under way", e.Queue) }

// Sender sends deliveries, each on its own goroutine: at most Queue at a
// time (waiting for their delay, sending, or waiting to retry). A
// delivery that fails to connect, times out or gets a 5xx is tried
// again, Retries times, after a backoff that doubles from Backoff with
// jitter. Every attempt goes to the delivery's report function.
type Sender struct {
	client    *http.Client
	timeout   time.Duration
	retries   int
	backoff   time.Duration
	userAgent string
	slots     chan struct{}

	mu     sync.Mutex // guards closed; held while adding to wg
	closed bool
	wg     sync.WaitGroup
	// ctx ends when Close stops waiting: deliveries under way give up.
	ctx     context.Context
	abandon context.CancelFunc
}

// New returns a Sender that sends as cfg says.
func New(cfg Config) *Sender {
	s := &Sender{
		timeout:   orDefault(cfg.Timeout, DefaultTimeout),
		retries:   max(cfg.Retries, 0),
		backoff:   orDefault(cfg.Backoff, DefaultBackoff),
		userAgent: cfg.UserAgent,
		slots:     make(chan struct{}, orDefault(cfg.Queue, DefaultQueue)),
	}
	s.ctx, s.abandon = context.WithCancel(context.Background())
	dial := &Dialer{Resolve: cfg.Resolver, Refuse: cfg.Refuse}
	if dial.Resolve == nil {
		dial.Resolve = net.DefaultResolver
	}
	if dial.Refuse == nil {
		dial.Refuse = func(context.Context, netip.AddrPort) error { return nil }
	}
	s.client = &http.Client{
		// A subscriber's redirect is its answer, reported as it came:
		// webhook senders do not follow them, and following one would
		// send the body again, somewhere the subscriber chose.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport: &http.Transport{
			Proxy:               nil,
			DialContext:         dial.DialContext,
			MaxIdleConnsPerHost: 16,
			IdleConnTimeout:     30 * time.Second,
		},
	}
	return s
}

func orDefault[T int | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Send queues a delivery, whose attempts go to report; it never blocks.
// It returns ErrClosed once Close has begun, and a *QueueFullError when
// the queue is full: the delivery is dropped, and report never called.
func (s *Sender) Send(d Delivery, report func(Attempt)) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	select {
	case s.slots <- struct{}{}:
	default:
		s.mu.Unlock()
		return &QueueFullError{Queue: cap(s.slots)}
	}
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer func() { <-s.slots; s.wg.Done() }()
		s.run(&d, report)
	}()
	return nil
}

// run makes the attempts of one delivery.
func (s *Sender) run(d *Delivery, report func(Attempt)) {
	if !s.wait(d.Delay) {
		return
	}
	for n := 1; ; n++ {
		a, retry := s.attempt(d, n)
		a.GaveUp = retry && n > s.retries
		report(a)
		if !retry || a.GaveUp {
			return
		}
		back := s.backoff << (n - 1)
		if back <= 0 || back > maxBackoff {
			back = maxBackoff
		}
		// Full jitter over the upper half: retries of many deliveries
		// spread out, and none comes sooner than half the backoff.
		back = back/2 + rand.N(back/2+1)
		if !s.wait(back) {
			return
		}
	}
}

// wait waits for t, or until Close stops waiting (false).
func (s *Sender) wait(t time.Duration) bool {
	if t <= 0 {
		return s.ctx.Err() == nil
	}
	tm := time.NewTimer(t)
	defer tm.Stop()
	select {
	case <-tm.C:
		return true
	case <-s.ctx.Done():
		return false
	}
}

// attempt sends a delivery once, and says whether to try again: after a
// failure to connect, a timeout or a 5xx, never after a connection
// Refuse refused.
func (s *Sender) attempt(d *Delivery, n int) (a Attempt, retry bool) {
	ctx, cancel := context.WithTimeout(s.ctx, s.timeout)
	defer cancel()
	if d.Via != nil {
		ctx = context.WithValue(ctx, http.LocalAddrContextKey, d.Via)
	}
	a = Attempt{N: n, Time: time.Now()}
	req, err := http.NewRequestWithContext(ctx, d.Op.Method, d.URL, bytes.NewReader(d.Body))
	if err != nil {
		a.Error = "the request could not be made: " + err.Error()
		return a, false
	}
	if d.Body == nil {
		req.Body, req.ContentLength = http.NoBody, 0
	}
	for k, v := range d.Header {
		req.Header[k] = v
	}
	if s.userAgent != "" {
		req.Header.Set("User-Agent", s.userAgent)
	}
	authorize(req, d.Op, d.Token)
	a.Path, a.Query, a.Header = req.URL.Path, req.URL.RawQuery, req.Header.Clone()
	resp, err := s.client.Do(req)
	if err != nil {
		a.Duration = time.Since(a.Time)
		a.Error = deliveryError(err, s.timeout)
		return a, !errors.Is(err, context.Canceled) && !errors.As(err, new(*RefusedError))
	}
	answer, rerr := io.ReadAll(io.LimitReader(resp.Body, MaxAnswer+1))
	resp.Body.Close()
	a.Duration = time.Since(a.Time)
	a.Status = resp.StatusCode
	a.Response = answer
	switch {
	case rerr != nil:
		a.Error = "the answer was cut short: " + rerr.Error()
	case len(answer) > MaxAnswer:
		a.Notes = append(a.Notes, fmt.Sprintf("answer over %d bytes: not checked", MaxAnswer))
	default:
		a.Violations = d.Op.CheckResponse(resp.StatusCode, resp.Header, answer, true)
	}
	return a, rerr != nil || resp.StatusCode >= 500
}

// deliveryError says why an attempt got no answer.
func deliveryError(err error, timeout time.Duration) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var re *RefusedError
	switch {
	case errors.As(err, &re):
		return "refused: " + re.Error()
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("no answer within %s", timeout)
	case errors.Is(err, context.Canceled):
		return "abandoned at shutdown"
	}
	return err.Error()
}

// authorize adds the credentials of the first security requirement the
// operation declares, with token (or a made-up one).
func authorize(req *http.Request, op *openapi.Operation, token string) {
	if len(op.Security) == 0 || len(op.Security[0]) == 0 {
		return
	}
	if token == "" {
		token = "plantmock"
	}
	for _, sc := range op.Security[0] {
		switch {
		case sc.Type == "http" && sc.Scheme == "basic":
			if !strings.Contains(token, ":") {
				token += ":"
			}
			req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(token)))
		case sc.Type == "http":
			req.Header.Set("Authorization", "Bearer "+token)
		case sc.Type == "apiKey" && sc.In == "header":
			req.Header.Set(sc.Param, token)
		case sc.Type == "apiKey" && sc.In == "query":
			q := req.URL.Query()
			q.Set(sc.Param, token)
			req.URL.RawQuery = q.Encode()
		case sc.Type == "apiKey" && sc.In == "cookie":
			req.AddCookie(&http.Cookie{Name: sc.Param, Value: token})
		case sc.Type == "oauth2" || sc.Type == "openIdConnect":
			req.Header.Set("Authorization", "Bearer "+token)
		}
	}
}

// CloseIdleConnections closes the connections kept for the next
// deliveries: those to come connect again, and Refuse sees them.
func (s *Sender) CloseIdleConnections() { s.client.CloseIdleConnections() }

// Close stops taking deliveries and waits for those under way until ctx
// ends; it returns how many it gave up. Their attempts under way are
// reported with the error "abandoned at shutdown"; those waiting are
// not reported.
func (s *Sender) Close(ctx context.Context) int {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return 0
	}
	s.closed = true
	s.mu.Unlock()
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		return 0
	case <-ctx.Done():
	}
	n := len(s.slots)
	s.abandon()
	<-done
	return n
}
