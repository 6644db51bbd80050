package mock

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

// Defaults for sending webhooks and callbacks.
const (
	DefaultWebhookTimeout = 10 * time.Second
	DefaultWebhookRetries = 3
	DefaultWebhookBackoff = 250 * time.Millisecond
	DefaultWebhookQueue   = 1000
	maxWebhookBackoff     = 30 * time.Second
	maxWebhookAnswer      = 1 << 20
)

// delivery is one webhook or callback to send.
type delivery struct {
	sess    *session
	hook    *openapi.Hook
	url     string
	token   string
	body    any // nil: no body
	trigger uint64
	via     net.Addr // the listener the request that sent it came in on; nil when unknown
	delay   time.Duration
	refused string // why it is not sent (a URL the allow list refuses)
}

// deliveries sends webhooks and callbacks, each on its own goroutine,
// after the answer that triggered them: at most queue at a time (waiting
// for their delay, sending, or waiting to retry); beyond that a delivery
// is dropped with a log line. A delivery that fails to connect, times out
// or gets a 5xx is tried again, retries times, after a backoff that
// doubles from backoff with jitter. Every attempt is a journal entry.
type deliveries struct {
	s       *Server
	client  *http.Client
	dial    *guardedDialer // the client's connections
	timeout time.Duration
	retries int
	backoff time.Duration
	slots   chan struct{}

	mu     sync.Mutex // guards closed; held while adding to wg
	closed bool
	wg     sync.WaitGroup
	// ctx ends when shutdown stops waiting: deliveries under way give up.
	ctx     context.Context
	abandon context.CancelFunc
}

func newDeliveries(s *Server, opts Options) *deliveries {
	d := &deliveries{
		s:       s,
		timeout: orDefault(opts.WebhookTimeout, DefaultWebhookTimeout),
		retries: opts.WebhookRetries,
		backoff: orDefault(opts.WebhookBackoff, DefaultWebhookBackoff),
		slots:   make(chan struct{}, orDefault(opts.WebhookQueue, DefaultWebhookQueue)),
	}
	d.ctx, d.abandon = context.WithCancel(context.Background())
	switch {
	case d.retries == 0:
		d.retries = DefaultWebhookRetries
	case d.retries < 0:
		d.retries = 0
	}
	// Every connection is checked at connect time, on the address it
	// is made to: never one of the mock's listeners, and loopback,
	// link-local and metadata addresses only as the allow list says,
	// whatever name led there.
	d.dial = &guardedDialer{resolve: net.DefaultResolver, refuse: func(ctx context.Context, ap netip.AddrPort) error {
		if err := s.listeners.check(ap, arrivedOn(ctx)); err != nil {
			return err
		}
		return s.served().hooks.allow.address(ap)
	}}
	d.client = &http.Client{
		// A subscriber's redirect is its answer, recorded as it came:
		// webhook senders do not follow them, and following one would
		// send the body again, somewhere the subscriber chose.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport: &http.Transport{
			Proxy:               nil,
			DialContext:         d.dial.DialContext,
			MaxIdleConnsPerHost: 16,
			IdleConnTimeout:     30 * time.Second,
		},
	}
	return d
}

// send queues a delivery; it never blocks.
func (d *deliveries) send(dv *delivery) {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		d.s.log.Warn("webhook not sent: the mock is shutting down", "webhook", dv.hook.Op.Name, "url", clip(d.s.shownURL(d.s.served().secrets, dv.url), 200))
		return
	}
	select {
	case d.slots <- struct{}{}:
	default:
		d.mu.Unlock()
		d.s.log.Error("webhook queue full: delivery dropped", "webhook", dv.hook.Op.Name, "url", clip(d.s.shownURL(d.s.served().secrets, dv.url), 200),
			"queue", cap(d.slots), "trigger", dv.trigger)
		return
	}
	d.wg.Add(1)
	d.mu.Unlock()
	go func() {
		defer func() { <-d.slots; d.wg.Done() }()
		d.run(dv)
	}()
}

// run makes the attempts of one delivery.
func (d *deliveries) run(dv *delivery) {
	if !d.wait(dv.delay) {
		return
	}
	body, ct := encodeHookBody(dv.hook, dv.body)
	if vs := hookViolations(dv.hook, dv.body); len(vs) > 0 {
		msg := "not sent: the body breaks the schema the document declares for it"
		d.s.log.Error("webhook "+msg, "webhook", dv.hook.Op.Name, "violations", joinEntryViolations(vs, len(vs)))
		d.note(dv, 0, vs, msg)
		return
	}
	header := declaredHeaders(dv.hook.Op)
	for n := 1; ; n++ {
		retry := d.attempt(dv, n, body, ct, header)
		if !retry {
			return
		}
		if n > d.retries {
			d.s.log.Warn("webhook delivery failed: no retries left", "webhook", dv.hook.Op.Name, "url", clip(d.s.shownURL(d.s.served().secrets, dv.url), 200), "attempts", n)
			return
		}
		back := d.backoff << (n - 1)
		if back <= 0 || back > maxWebhookBackoff {
			back = maxWebhookBackoff
		}
		// Full jitter over the upper half: retries of many deliveries
		// spread out, and none comes sooner than half the backoff.
		back = back/2 + rand.N(back/2+1)
		if !d.wait(back) {
			return
		}
	}
}

// wait waits for t, or until shutdown stops waiting (false).
func (d *deliveries) wait(t time.Duration) bool {
	if t <= 0 {
		return d.ctx.Err() == nil
	}
	tm := time.NewTimer(t)
	defer tm.Stop()
	select {
	case <-tm.C:
		return true
	case <-d.ctx.Done():
		return false
	}
}

// attempt sends a delivery once, records it, and reports whether to try
// again: after a failure to connect, a timeout or a 5xx, never after a
// connection the dial check refused.
func (d *deliveries) attempt(dv *delivery, n int, body []byte, ct string, header http.Header) (retry bool) {
	op := dv.hook.Op
	ctx, cancel := context.WithTimeout(d.ctx, d.timeout)
	defer cancel()
	if dv.via != nil {
		// The dial check refuses the listener the triggering request came
		// in on (see arrivedOn), as it refuses Serve's.
		ctx = context.WithValue(ctx, http.LocalAddrContextKey, dv.via)
	}
	req, err := http.NewRequestWithContext(ctx, op.Method, dv.url, bytes.NewReader(body))
	if err != nil {
		d.note(dv, n, nil, "the request could not be made: "+err.Error())
		return false
	}
	if body == nil {
		req.Body, req.ContentLength = http.NoBody, 0
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	req.Header.Set("User-Agent", "plantmock/"+Version)
	authorize(req, op, dv.token)
	start := time.Now()
	e := Entry{
		Time: start, Direction: "outbound", Method: op.Method, Path: req.URL.Path, Query: req.URL.RawQuery,
		URL: dv.url, Header: req.Header.Clone(), Body: body, Operation: op.Name,
		Session: dv.sess.name, Trigger: dv.trigger, Attempt: n,
	}
	resp, err := d.client.Do(req)
	if err != nil {
		e.Duration = time.Since(start)
		e.Error = deliveryError(err, d.timeout)
		d.record(dv, e)
		return !errors.Is(err, context.Canceled) && !errors.As(err, new(*refusedError))
	}
	answer, rerr := io.ReadAll(io.LimitReader(resp.Body, maxWebhookAnswer+1))
	resp.Body.Close()
	e.Duration = time.Since(start)
	e.Status = resp.StatusCode
	e.Response = answer
	switch {
	case rerr != nil:
		e.Error = "the answer was cut short: " + rerr.Error()
	case len(answer) > maxWebhookAnswer:
		e.Notes = append(e.Notes, fmt.Sprintf("answer over %d bytes: not checked", maxWebhookAnswer))
	default:
		e.Violations = violations(op.CheckResponse(resp.StatusCode, resp.Header, answer, true), "response")
	}
	d.record(dv, e)
	return rerr != nil || resp.StatusCode >= 500
}

// declaredHeaders returns a value for each header parameter the hook
// requires (a signature, an event name), made from its schema as the
// required headers of answers are.
func declaredHeaders(op *openapi.Operation) http.Header {
	var h http.Header
	for _, p := range op.Params {
		if p.In != "header" || !p.Required || p.Schema == nil {
			continue
		}
		if h == nil {
			h = http.Header{}
		}
		h.Set(p.Name, schemaHeaderValue(p.Schema))
	}
	return h
}

// deliveryError says why an attempt got no answer.
func deliveryError(err error, timeout time.Duration) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var re *refusedError
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
// hook declares, with token (or a made-up one).
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

// note records a delivery that was not sent.
func (d *deliveries) note(dv *delivery, n int, vs []Violation, why string) {
	d.record(dv, Entry{
		Time: time.Now(), Direction: "outbound", Method: dv.hook.Op.Method, URL: dv.url, Operation: dv.hook.Op.Name,
		Session: dv.sess.name, Trigger: dv.trigger, Attempt: n, Error: why, Violations: vs,
	})
}

// record adds an attempt to the session's journal and logs it.
func (d *deliveries) record(dv *delivery, e Entry) {
	s := d.s
	if e.Path == "" {
		if u, err := url.Parse(e.URL); err == nil {
			e.Path = u.Path
		}
	}
	if !s.clearCreds {
		s.served().secrets.mask(&e)
	}
	clipEntry(&e, len(e.Body), len(e.Response), len(e.Violations))
	if !s.noJournal {
		var err error
		if e.Seq, err = dv.sess.state.Record(context.Background(), e); err != nil {
			s.log.Error("the journal lost a webhook delivery", "webhook", e.Operation, "url", clip(e.URL, 200), "error", err.Error())
		}
	}
	if s.logAll || e.Error != "" || len(e.Violations) > 0 {
		s.logDelivery(&e)
	}
	if s.observe != nil {
		s.observe(e)
	}
	s.events.publish(e)
}

// close stops taking deliveries and waits for those under way until ctx
// ends; it returns how many it gave up.
func (d *deliveries) close(ctx context.Context) int {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return 0
	}
	d.closed = true
	d.mu.Unlock()
	done := make(chan struct{})
	go func() { d.wg.Wait(); close(done) }()
	select {
	case <-done:
		return 0
	case <-ctx.Done():
	}
	n := len(d.slots)
	d.abandon()
	<-done
	if n > 0 {
		d.s.log.Warn("shutdown: webhook deliveries dropped", "dropped", n)
	}
	return n
}

// joinEntryViolations quotes vs, the first maxQuotedViolations of them
// and how many more of n there are.
func joinEntryViolations(vs []Violation, n int) string {
	quoted := vs[:min(len(vs), maxQuotedViolations)]
	parts := make([]string, len(quoted), len(quoted)+1)
	for i, v := range quoted {
		parts[i] = v.String()
	}
	if len(quoted) < n {
		parts = append(parts, moreViolations(n, len(quoted), false))
	}
	return strings.Join(parts, "; ")
}
