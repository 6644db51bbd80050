package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"net/url"
	"strconv"
	"time"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/deliver"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// maxCheckedBody bounds the answers of the upstream that are read whole
// to be checked; a longer body is passed on unchecked, and says so.
const maxCheckedBody = 16 << 20

// upstream is the real service a proxying mock forwards to.
type upstream struct {
	target  *url.URL
	refuse  bool // requests that break the document are answered locally
	timeout time.Duration
	rp      *httputil.ReverseProxy
	// only holds the names of the operations Options.Proxy.Only forwards
	// (the others are mocked, and requests that match no operation are
	// refused); mocked those Options.Proxy.MockOnly has the mock answer. Names,
	// not operations: they hold across a Reload.
	only   map[string]bool
	mocked map[string]bool
}

// forwards reports whether the upstream answers x when nothing scripted
// it.
func (up *upstream) forwards(x *exchange) bool {
	switch {
	case up.only != nil && x.Plan == nil:
		return false
	case up.only != nil:
		return up.only[x.Plan.Op.Name]
	case x.Plan == nil:
		return true
	}
	return !up.mocked[x.Plan.Op.Name]
}

// upstreamTransport is the proxy's transport: net/http's default one,
// whose connections are checked at connect time. The upstream is the
// operator's choice, so its host is reached whatever it resolves to,
// but never one of the mock's own listeners: a proxy to itself would
// loop. Redirects are not followed: the reverse proxy passes them to the
// client as the upstream sent them. It keeps as many idle connections to
// its one upstream as in all, not net/http's two a host: with more
// requests in flight than that, each answer closed a connection the next
// request dialled again. With 32 clients reading through the proxy from
// an upstream that answers at once, that took each exchange from
// 190-260 to 135-150 µs (BenchmarkRecordP99, three alternate runs);
// TestProxyKeepsConnections counts the dials.
func (s *Engine) upstreamTransport() *http.Transport {
	dial := &deliver.Dialer{Resolve: net.DefaultResolver, Refuse: func(ctx context.Context, ap netip.AddrPort) error {
		return s.Listeners.Check(ap, deliver.ArrivedOn(ctx)) // a forwarded request's context is the client's
	}}
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dial.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   100,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: 1 * time.Second,
	}
}

// timed returns t, telling Upstreamed, when it is set, how long each
// answer of the upstream took.
func (s *Engine) timed(t http.RoundTripper) http.RoundTripper {
	if s.Upstreamed == nil {
		return t
	}
	return timedTransport{t, s.Upstreamed}
}

// timedTransport times the round trips of the proxy's transport: from
// sending a request to its answer's header, the upstream's own time.
type timedTransport struct {
	http.RoundTripper
	took func(op string, d time.Duration)
}

func (t timedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := t.RoundTripper.RoundTrip(r)
	if err == nil {
		op := ""
		if fw, _ := r.Context().Value(proxyKey{}).(*forwarding); fw != nil && fw.x.Plan != nil {
			op = fw.x.Plan.Op.Name
		}
		t.took(op, time.Since(start))
	}
	return resp, err
}

// proxyKey carries the exchange being forwarded through the reverse
// proxy's hooks.
type proxyKey struct{}

// forwarding is an exchange being forwarded, and the timer that bounds
// how long the upstream may keep it waiting.
type forwarding struct {
	x     *exchange
	timer *time.Timer
}

// forward sends the request on to the upstream and passes its answer to
// the client unchanged, checked against the document on the way. The
// request's own violations, when forward mode let it through, are
// reported with the answer's.
//
// The proxy timeout bounds the exchange; for an answer that is a
// stream, it bounds the wait for the answer's header and then each wait
// for the stream's next bytes (see checkedStream), so that a stream may
// last as long as its upstream keeps it going.
func (s *Engine) forward(x *exchange) {
	up := s.upstream
	ctx, cancel := context.WithCancelCause(x.R.Context())
	defer cancel(nil)
	fw := &forwarding{x: x}
	fw.timer = time.AfterFunc(up.timeout, func() { cancel(context.DeadlineExceeded) })
	defer fw.timer.Stop()
	out := x.Client.WithContext(context.WithValue(ctx, proxyKey{}, fw))
	if x.bodyRead {
		out.Body = io.NopCloser(bytes.NewReader(x.Raw))
		out.ContentLength = int64(len(x.Raw))
	}
	x.proxied = true
	x.W.copies = true // the reverse proxy copies the answer through one buffer
	up.rp.ServeHTTP(&x.W, out)
}

// checkUpstream checks the upstream's answer against the document,
// before the reverse proxy copies it to the client.
func (s *Engine) checkUpstream(resp *http.Response) error {
	fw, _ := resp.Request.Context().Value(proxyKey{}).(*forwarding)
	if fw == nil {
		return nil
	}
	x := fw.x
	if x.Plan != nil {
		if m := x.Plan.Op.Stream(resp.StatusCode, resp.Header.Get("Content-Type")); m != nil {
			// A stream is passed on as it comes, its items checked as they
			// pass: the status and headers now, the items at its end.
			x.violations = append(x.violations, answerViolations(x.Plan, resp.StatusCode, resp.Header, nil)...)
			if n := len(x.violations); n > 0 {
				resp.Header.Set(ViolationsHeader, strconv.Itoa(n)+"; "+x.violations[0].String())
			}
			resp.Body = newCheckedStream(fw, s.upstream.timeout, m, resp)
			resp.ContentLength = -1 // the reverse proxy flushes each chunk as it comes
			return nil
		}
	}
	var body []byte // the whole body; nil when it is too long to check
	if resp.ContentLength <= maxCheckedBody {
		b, err := io.ReadAll(io.LimitReader(resp.Body, maxCheckedBody+1))
		if err != nil {
			resp.Body.Close()
			return err // the upstream broke off: a 502
		}
		if len(b) <= maxCheckedBody {
			resp.Body.Close()
			resp.Body, body = io.NopCloser(bytes.NewReader(b)), b
		} else { // what was read, then the rest
			resp.Body = struct {
				io.Reader
				io.Closer
			}{io.MultiReader(bytes.NewReader(b), resp.Body), resp.Body}
		}
	}
	if body == nil {
		x.Note("answer body over %d bytes passed on unchecked", maxCheckedBody)
	}
	x.violations = append(x.violations, answerViolations(x.Plan, resp.StatusCode, resp.Header, body)...)
	if n := len(x.violations); n > 0 {
		resp.Header.Set(ViolationsHeader, strconv.Itoa(n)+"; "+x.violations[0].String())
	}
	return nil
}

// answerViolations checks an answer to a request of pl (nil when it
// matched no operation: nothing to check against) and returns how it
// breaks the document, response side; body nil leaves the body unchecked.
func answerViolations(pl *answer.Plan, status int, header http.Header, body []byte) []journal.Violation {
	if pl == nil {
		return nil
	}
	return journal.Violations(pl.Op.CheckResponse(status, header, body, body != nil), "response")
}

// upstreamFailed answers an exchange the upstream did not complete: 504
// when it did not answer in time, 502 otherwise, in the error shape.
func (s *Engine) upstreamFailed(w http.ResponseWriter, r *http.Request, err error) {
	fw, _ := r.Context().Value(proxyKey{}).(*forwarding)
	if fw == nil {
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	x := fw.x
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(context.Cause(r.Context()), context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
		s.refuse(x, &problem.Problem{Code: problem.CodeGatewayTimeout, Status: http.StatusGatewayTimeout,
			Message: fmt.Sprintf("the upstream %s did not answer within %s", s.upstream.target.Redacted(), s.upstream.timeout)})
		return
	}
	var re *deliver.RefusedError
	if errors.As(err, &re) {
		s.refuse(x, &problem.Problem{Code: problem.CodeBadGateway, Status: http.StatusBadGateway,
			Message: fmt.Sprintf("the upstream %s is refused: %v", s.upstream.target.Redacted(), re)})
		return
	}
	s.refuse(x, &problem.Problem{Code: problem.CodeBadGateway, Status: http.StatusBadGateway,
		Message: fmt.Sprintf("the upstream %s failed: %v", s.upstream.target.Redacted(), err)})
}

// refusal is what a request refused without listed violations (a
// missing token, an unknown path) broke, as one violation.
func refusal(p *problem.Problem) journal.Violation {
	var where string // the body as a whole, by default
	switch p.Code {
	case problem.CodeNoCredentials, problem.CodeBadCredentials, problem.CodeTokenRejected:
		where = "security"
	case problem.CodeNoRoute, problem.CodeMethod:
		where = "route"
	case problem.CodeContentType:
		where = "header.Content-Type"
	}
	return journal.Violation{Direction: "request", Path: where, Reason: p.Message}
}

// requestViolations lists the ways a request broke the document, for a
// proxy that forwards it anyway.
func requestViolations(p *problem.Problem) []journal.Violation {
	if len(p.Violations) == 0 {
		return []journal.Violation{refusal(p)}
	}
	return journal.Violations(p.Violations, "request")
}
