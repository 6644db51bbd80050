package mock

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"net/url"
	"strconv"
	"time"

	"github.com/plantmock/plantmock/mock/internal/deliver"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// maxCheckedBody bounds the answers of the upstream that are read whole
// to be checked; a longer body is passed on unchecked, and says so.
const maxCheckedBody = 16 << 20

// ProxyError is New's error for an Options.Proxy.URL or Proxy.Invalid it
// cannot use.
type ProxyError struct{ Err error }

func (e *ProxyError) Error() string { return e.Err.Error() }
func (e *ProxyError) Unwrap() error { return e.Err }

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
	case up.only != nil && x.plan == nil:
		return false
	case up.only != nil:
		return up.only[x.plan.op.Name]
	case x.plan == nil:
		return true
	}
	return !up.mocked[x.plan.op.Name]
}

// newUpstream checks Options.Proxy and builds the forwarder.
func (s *Server) newUpstream(opts Options, sv *served) error {
	if opts.Proxy.URL == "" {
		if opts.Proxy.Record != "" {
			return &ProxyError{errors.New("record needs proxy: it records what the real service answers")}
		}
		return nil
	}
	u, err := url.Parse(opts.Proxy.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return &ProxyError{&OptionError{Name: "proxy", Err: fmt.Errorf("%q is not an http:// or https:// URL", clip(opts.Proxy.URL, 100))}}
	}
	up := &upstream{target: u, timeout: orDefault(opts.Proxy.Timeout, DefaultProxyTimeout)}
	if len(opts.Proxy.Only) > 0 && len(opts.Proxy.MockOnly) > 0 {
		return &ProxyError{&OptionError{Name: "mock-only", Err: errors.New("not with proxy-only: give one or the other")}}
	}
	named := func(flag string, names []string) (map[string]bool, error) {
		ops := map[string]bool{}
		for _, n := range names {
			op := sv.operation(n)
			if op == nil {
				return nil, &ProxyError{&OptionError{Name: flag, Err: fmt.Errorf("operation %q is not in the document (write it as METHOD /path/{template})", clip(n, 100))}}
			}
			ops[op.Name] = true
		}
		return ops, nil
	}
	if len(opts.Proxy.Only) > 0 {
		if up.only, err = named("proxy-only", opts.Proxy.Only); err != nil {
			return err
		}
	}
	if len(opts.Proxy.MockOnly) > 0 {
		if up.mocked, err = named("mock-only", opts.Proxy.MockOnly); err != nil {
			return err
		}
	}
	switch opts.Proxy.Invalid {
	case "", "forward":
	case "refuse":
		up.refuse = true
	default:
		return &ProxyError{&OptionError{Name: "proxy-invalid", Err: fmt.Errorf("must be forward or refuse, not %q", clip(opts.Proxy.Invalid, 20))}}
	}
	up.rp = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(u)
			pr.SetXForwarded()
		},
		Transport:      s.upstreamTransport(),
		ModifyResponse: s.checkUpstream,
		ErrorHandler:   s.upstreamFailed,
		ErrorLog:       slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	s.upstream = up
	if opts.Proxy.Record != "" {
		if s.recording, err = newRecording(opts.Proxy.Record, opts.Proxy.RecordRedact, s.log); err != nil {
			return err
		}
	}
	return nil
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
func (s *Server) upstreamTransport() *http.Transport {
	dial := &deliver.Dialer{Resolve: net.DefaultResolver, Refuse: func(ctx context.Context, ap netip.AddrPort) error {
		return s.listeners.check(ap, arrivedOn(ctx)) // a forwarded request's context is the client's
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

// proxyKey carries the exchange through the reverse proxy's hooks.
type proxyKey struct{}

// forward sends the request on to the upstream and passes its answer to
// the client unchanged, checked against the document on the way. The
// request's own violations, when forward mode let it through, are
// reported with the answer's.
func (s *Server) forward(x *exchange) {
	up := s.upstream
	ctx, cancel := context.WithTimeout(x.r.Context(), up.timeout)
	defer cancel()
	out := x.client.WithContext(context.WithValue(ctx, proxyKey{}, x))
	if x.bodyRead {
		out.Body = io.NopCloser(bytes.NewReader(x.raw))
		out.ContentLength = int64(len(x.raw))
	}
	x.proxied = true
	x.w.copies = true // the reverse proxy copies the answer through one buffer
	up.rp.ServeHTTP(&x.w, out)
}

// checkUpstream checks the upstream's answer against the document,
// before the reverse proxy copies it to the client.
func (s *Server) checkUpstream(resp *http.Response) error {
	x, _ := resp.Request.Context().Value(proxyKey{}).(*exchange)
	if x == nil {
		return nil
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
		x.note("answer body over %d bytes passed on unchecked", maxCheckedBody)
	}
	x.violations = append(x.violations, answerViolations(x.plan, resp.StatusCode, resp.Header, body)...)
	if n := len(x.violations); n > 0 {
		resp.Header.Set(ViolationsHeader, strconv.Itoa(n)+"; "+x.violations[0].String())
	}
	return nil
}

// answerViolations checks an answer to a request of pl (nil when it
// matched no operation: nothing to check against) and returns how it
// breaks the document, response side; body nil leaves the body unchecked.
func answerViolations(pl *plan, status int, header http.Header, body []byte) []journal.Violation {
	if pl == nil {
		return nil
	}
	return journal.Violations(pl.op.CheckResponse(status, header, body, body != nil), "response")
}

// upstreamFailed answers an exchange the upstream did not complete: 504
// when it did not answer in time, 502 otherwise, in the error shape.
func (s *Server) upstreamFailed(w http.ResponseWriter, r *http.Request, err error) {
	x, _ := r.Context().Value(proxyKey{}).(*exchange)
	if x == nil {
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
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
