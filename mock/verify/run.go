package verify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/plantmock/plantmock"
	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/verify/internal/arazzo"
)

// ErrMaxRequests is why a run stopped when Options.MaxRequests was
// reached.
var ErrMaxRequests = errors.New("the request budget (MaxRequests) was reached")

// ErrDuration is why a run stopped when Options.Duration ran out.
var ErrDuration = errors.New("the time budget (Duration) ran out")

// maxAnswer bounds how much of an answer's body is read and judged.
const maxAnswer = 16 << 20

// Run verifies the service at target, an http or https URL (its path,
// if any, is the prefix of every path of the document), against spec,
// an OpenAPI 3.0 or 3.1 document in YAML or JSON (empty means the
// embedded Plant Store, as for mock.Options.Spec). The error says why
// no run could be made: a document that cannot be read, a target that
// is not a URL, an Only or Skip name that matches no operation,
// credentials for no scheme of the document, a negative Rate or
// Duration, a Previous document that cannot be read, or ctx done. What
// the service did wrong is in the Report; a run that MaxRequests or
// Duration ended early says so in Report.Stopped.
func Run(ctx context.Context, spec []byte, target string, opts Options) (*Report, error) {
	if len(spec) == 0 {
		spec = []byte(plantmock.OpenAPI)
	}
	doc, err := openapi.Load(spec)
	if err != nil {
		return nil, fmt.Errorf("verify: the document: %w", err)
	}
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("verify: target %q is not an http or https URL without query", target)
	}
	ops, err := selectOps(doc, opts)
	if err != nil {
		return nil, err
	}
	if err := checkCredentials(doc, opts.Credentials); err != nil {
		return nil, err
	}
	if err := checkScoped(doc, opts.Scoped); err != nil {
		return nil, err
	}
	switch {
	case opts.Rate < 0:
		return nil, fmt.Errorf("verify: rate %v: want 0 (no bound) or more", opts.Rate)
	case opts.Duration < 0:
		return nil, fmt.Errorf("verify: duration %s: want 0 (no bound) or more", opts.Duration)
	case opts.StreamItems < 0:
		return nil, fmt.Errorf("verify: stream items %d: want 0 (the default) or more", opts.StreamItems)
	case opts.StreamTime < 0:
		return nil, fmt.Errorf("verify: stream time %s: want 0 (the default) or more", opts.StreamTime)
	}
	prev, err := loadPrevious(opts.Previous, strings.TrimRight(u.EscapedPath(), "/"))
	if err != nil {
		return nil, err
	}
	var flows, setup *arazzo.Document
	if opts.Workflows != nil {
		if flows, err = arazzo.Parse(opts.Workflows.Description); err != nil {
			return nil, fmt.Errorf("verify: the workflows: %w", err)
		}
	}
	if opts.Setup != nil {
		if setup, err = setupDocument(doc, opts.Setup); err != nil {
			return nil, err
		}
	}
	if opts.Duration > 0 && !opts.DryRun {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, opts.Duration, ErrDuration)
		defer cancel()
	}
	if !opts.DryRun {
		if opts, err = clientCredentials(ctx, doc, strings.TrimRight(target, "/"), opts); err != nil {
			return nil, err
		}
	}
	r := newRunner(doc, strings.TrimRight(target, "/"), opts)
	r.previous = prev
	r.places = newPlaces(spec)
	r.assertFormats = opts.AssertFormats || r.places.assertsFormats()
	r.rep.OperationsDeclared(ops)
	if setup != nil && !opts.DryRun {
		err = r.setup(ctx, setup, opts.Setup)
	}
	switch {
	case err != nil:
	case flows != nil:
		err = r.workflows(ctx, flows, opts.Workflows, "")
	default:
		err = r.run(ctx, ops)
	}
	switch {
	case errors.Is(err, ErrMaxRequests):
		r.rep.Stopped = fmt.Sprintf("stopped after %s (the request budget)", plural(r.rep.Requests, "request"))
	case errors.Is(err, ErrDuration):
		r.rep.Stopped = fmt.Sprintf("stopped after %s (the time budget, %s)", plural(r.rep.Requests, "request"), opts.Duration)
	case err != nil:
		return nil, err
	}
	r.rep.Coverage = r.cov.count(ops)
	r.rep.countPrevious(prev)
	return r.rep.Report, nil
}

// selectOps returns the operations Only, Skip and NoDestructive leave,
// in document order.
func selectOps(doc *openapi.Document, opts Options) ([]*openapi.Operation, error) {
	for _, names := range [][]string{opts.Only, opts.Skip} {
		for _, n := range names {
			if !slices.ContainsFunc(doc.Operations, func(op *openapi.Operation) bool { return named(op, n) }) {
				return nil, fmt.Errorf("verify: no operation is named %q (name one by its operationId or as \"METHOD /path\")", n)
			}
		}
	}
	var out []*openapi.Operation
	for _, op := range doc.Operations {
		switch {
		case len(opts.Only) > 0 && !slices.ContainsFunc(opts.Only, func(n string) bool { return named(op, n) }):
		case slices.ContainsFunc(opts.Skip, func(n string) bool { return named(op, n) }):
		case opts.NoDestructive && destructive(op):
		default:
			out = append(out, op)
		}
	}
	return out, nil
}

// named reports whether n names op: its operationId, or its method and
// path template (the method in any case).
func named(op *openapi.Operation, n string) bool {
	if op.ID != "" && n == op.ID {
		return true
	}
	m, p, ok := strings.Cut(strings.TrimSpace(n), " ")
	return ok && strings.EqualFold(m, op.Method) && strings.TrimSpace(p) == op.Path
}

// destructive reports whether op changes or removes what exists.
func destructive(op *openapi.Operation) bool {
	return op.Method == http.MethodDelete || op.Method == http.MethodPut || op.Method == http.MethodPatch
}

// runner is one run: the document, where requests go, and what was
// found so far.
type runner struct {
	doc    *openapi.Document
	base   string // the target, without a trailing slash
	prefix string // the target's path, escaped, without a trailing slash
	opts   Options
	client *http.Client
	pace   *pacer
	// secrets are the values curl lines show as ***.
	secrets []placed
	// digests answer the challenges of the Digest schemes the options
	// give credentials for, by the Authorization stand-in requests
	// carry until they are sent.
	digests map[string]*digestUser
	rep     report
	cov     coverage
	// places is the document as written: lines, deprecated flags.
	places *places
	// refs are the body properties that name other items (see
	// sequence.fields), and made the identifiers of the items the
	// sequences made: a refusal of a body whose reference was made up is
	// advice.
	refs, made map[string]bool
	// assertFormats is true when a broken format is a failure (see
	// Options.AssertFormats), else advice.
	assertFormats bool
	taken         *taken
	// methodsTried are the paths (routes) a method they do not declare
	// was sent to (see unsupported).
	methodsTried map[*openapi.Route]bool
	// previous is the document's previous version each failure is
	// judged again against (Options.Previous), nil for none.
	previous *against
}

// report is the Report being built, with the failures seen by key.
type report struct {
	*Report
	seen       map[string]*Failure
	impossible []string // the schema pointers listed in Impossible
}

// OperationsDeclared sets how many operations the run covers.
func (r *report) OperationsDeclared(ops []*openapi.Operation) {
	r.Coverage.OperationsDeclared = len(ops)
}

func newRunner(doc *openapi.Document, base string, opts Options) *runner {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.StreamItems <= 0 {
		opts.StreamItems = DefaultStreamItems
	}
	if opts.StreamTime <= 0 {
		opts.StreamTime = DefaultStreamTime
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if opts.Client != nil {
		c := *opts.Client
		client = &c
	}
	client.Timeout = opts.Timeout
	h := http.Header{}
	for k, vs := range opts.Header {
		h[http.CanonicalHeaderKey(k)] = append(h[http.CanonicalHeaderKey(k)], vs...)
	}
	opts.Header = h
	u, _ := url.Parse(base)
	return &runner{
		doc: doc, base: base, prefix: strings.TrimRight(u.EscapedPath(), "/"), opts: opts, client: client,
		pace: newPacer(opts.Rate, wallClock{}), secrets: secrets(doc, opts), digests: digestUsers(doc, opts.Credentials),
		rep: report{Report: &Report{ReportVersion: ReportVersion, Title: doc.Title, Version: doc.Version, Target: base, DryRun: opts.DryRun}, seen: map[string]*Failure{}},
		cov: newCoverage(), places: &places{}, refs: map[string]bool{}, made: map[string]bool{}, methodsTried: map[*openapi.Route]bool{},
	}
}

// run verifies ops: each one's positive and negative checks (and,
// after the first operation of each path, a method the path does not
// declare), the destructive ones last, then the stateful sequences.
func (r *runner) run(ctx context.Context, ops []*openapi.Operation) error {
	seqs := sequences(r.doc, ops)
	for _, seq := range seqs {
		for f := range seq.fields {
			r.refs[f] = true
		}
	}
	r.taken = newTaken(seqs)
	ordered := slices.Clone(ops)
	slices.SortStableFunc(ordered, func(a, b *openapi.Operation) int {
		return boolInt(a.Method == http.MethodDelete) - boolInt(b.Method == http.MethodDelete)
	})
	for i, op := range ordered {
		seed := r.opts.Seed*0x9e3779b97f4a7c15 + uint64(i)
		c, err := r.call(op, seed)
		if err != nil {
			r.rep.Unmade = append(r.rep.Unmade, err.Error())
			continue
		}
		if err := r.positive(ctx, c, seed); err != nil {
			return err
		}
		if err := r.negative(ctx, c); err != nil {
			return err
		}
		if err := r.unsupported(ctx, c); err != nil {
			return err
		}
	}
	return r.stateful(ctx, seqs)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// attempts is how many seeds call tries for a request that routes to
// its operation.
const attempts = 4

// call makes a valid call for op whose request routes to op (not to
// /things/mine for /things/{id}).
func (r *runner) call(op *openapi.Operation, seed uint64) (*exercise.Call, error) {
	var last error
	for k := uint64(0); k < attempts; k++ {
		c, err := exercise.Make(op, seed+k*0x632be59bd9b4e019)
		if err != nil {
			return nil, err
		}
		agree(c)
		r.useFixtures(c)
		req, err := c.Request(r.base)
		if err != nil {
			last = err
			continue
		}
		if other := r.routed(req); other != nil && other != op {
			last = &exercise.Error{Op: op.Name, Reason: "the request for " + req.URL.EscapedPath() + " routes to " + other.Name}
			continue
		}
		return c, nil
	}
	return nil, last
}

// agree makes the body's properties named as path parameters hold the
// path's values, where the body stays valid: a replace of /things/{id}
// sends the id its path addresses, as a service may require.
func agree(c *exercise.Call) {
	obj, ok := c.Body.(map[string]any)
	if !ok || c.Media == nil || c.Media.Schema == nil {
		return
	}
	for i := range c.Op.Params {
		p := &c.Op.Params[i]
		v, has := c.Values["path."+p.Name]
		if p.In != "path" || !has || c.Media.Schema.Property(p.Name) == nil {
			continue
		}
		old, had := obj[p.Name]
		obj[p.Name] = v
		if len(c.Media.Schema.ValidateRequest(obj)) > 0 {
			if had {
				obj[p.Name] = old
			} else {
				delete(obj, p.Name)
			}
		}
	}
}

// routed returns the operation a request routes to, nil for none.
func (r *runner) routed(req *http.Request) *openapi.Operation {
	route, _ := r.doc.Router().Find(strings.TrimPrefix(req.URL.EscapedPath(), r.prefix))
	if route == nil {
		return nil
	}
	return route.Operation(req.Method)
}

// pathValues returns the raw values of a request's path parameters.
func (r *runner) pathValues(req *http.Request) []string {
	_, raw := r.doc.Router().Find(strings.TrimPrefix(req.URL.EscapedPath(), r.prefix))
	return raw
}

// sent is a request as sent and its answer.
type sent struct {
	req     *http.Request
	body    []byte // the request's body
	resp    *http.Response
	answer  []byte // the answer's body
	elapsed time.Duration
	err     error // why no answer came
	// items are the failures of a stream's items, judged as they came
	// (answer is then empty).
	items []*Failure
}

// prepare writes c as a request with the options' credentials and
// headers: what checks send and change.
func (r *runner) prepare(c *exercise.Call) (*http.Request, []byte, error) {
	return r.prepareAs(c, r.alternative(c))
}

// prepareAs is prepare, the request presenting security alternative
// alt.
func (r *runner) prepareAs(c *exercise.Call, alt openapi.Requirement) (*http.Request, []byte, error) {
	req, err := r.request(c, alt)
	if err != nil {
		return nil, nil, err
	}
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body.Close()
	}
	for k, vs := range r.opts.Header {
		req.Header[http.CanonicalHeaderKey(k)] = slices.Clone(vs)
	}
	return req, body, nil
}

// send sends a request with body, at its turn by the rate, and records
// the check judge makes of its answer. In a dry run it records the check
// unsent. Once the run's budget is spent (MaxRequests, or Duration,
// ctx's cause) it returns why, and the check is not recorded.
func (r *runner) send(ctx context.Context, op *openapi.Operation, kind, name string, req *http.Request, body []byte, judge func(*sent) []*Failure) (*sent, error) {
	chk, s, err := r.exchange(ctx, op, kind, name, req, body, judge)
	if chk != nil {
		r.rep.add(chk, r.rep.seen)
	}
	return s, err
}

// exchange is send without recording the check: it returns the check
// to record (nil once the budget is spent), its request and answer (nil
// in a dry run), and why the run must stop.
func (r *runner) exchange(ctx context.Context, op *openapi.Operation, kind, name string, req *http.Request, body []byte, judge func(*sent) []*Failure) (*Check, *sent, error) {
	chk := &Check{Operation: op.Name, Kind: kind, Name: name, Curl: curlHiding(req, body, r.secrets)}
	if r.opts.DryRun {
		return chk, nil, nil
	}
	s, err := r.roundTrip(ctx, op, req, body)
	if err != nil {
		return nil, nil, err
	}
	if s.err != nil {
		chk.Failures = []*Failure{r.noAnswer(s)}
	} else {
		chk.Status = s.resp.StatusCode
		if s.req.Method == op.Method {
			r.cov.answered(op, s.resp.StatusCode) // not an unsupported method's answer
		}
		chk.Failures = append(judge(s), s.items...)
	}
	r.weigh(op, s, chk.Failures)
	if r.previous != nil {
		r.previous.judge(op, s, chk.Failures)
	}
	return chk, s, nil
}

// roundTrip sends a request of op with body, at its turn by the rate,
// and reads its answer (a Digest challenge answered on the way); s.err
// says why no answer came. Once the run's budget is spent (MaxRequests,
// or Duration, ctx's cause) it returns why.
func (r *runner) roundTrip(ctx context.Context, op *openapi.Operation, req *http.Request, body []byte) (*sent, error) {
	if r.opts.MaxRequests > 0 && r.rep.Requests >= r.opts.MaxRequests {
		return nil, ErrMaxRequests
	}
	if err := r.pace.wait(ctx); err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	s := &sent{req: req.WithContext(ctx), body: body}
	standIn := req.Header.Get("Authorization")
	digest := r.digests[standIn]
	wrong := digest != nil && standIn != digest.standIn
	for try := 0; ; try++ {
		if try > 0 {
			// The answer to a Digest challenge: a request of its own.
			if r.opts.MaxRequests > 0 && r.rep.Requests >= r.opts.MaxRequests {
				return nil, ErrMaxRequests
			}
			if err := r.pace.wait(ctx); err != nil {
				return nil, err
			}
		}
		if digest != nil {
			digest.answer(s.req, body, wrong)
		}
		s.req.Body = io.NopCloser(bytes.NewReader(body))
		s.req.ContentLength = int64(len(body))
		r.rep.Requests++
		start := time.Now()
		rctx, cancel := context.WithCancel(ctx) // cuts a stream short
		s.resp, s.err = r.client.Do(exercise.Outgoing(s.req.WithContext(rctx)))
		s.items, s.elapsed = nil, 0
		if s.err == nil {
			if m := op.Stream(s.resp.StatusCode, s.resp.Header.Get("Content-Type")); m != nil && req.Method != http.MethodHead {
				s.elapsed = time.Since(start) // a stream's answer came with its headers
				s.answer, s.items = nil, r.readStream(ctx, m, s.resp, cancel)
			} else {
				s.answer, s.err = io.ReadAll(io.LimitReader(s.resp.Body, maxAnswer))
			}
			s.resp.Body.Close()
		}
		if s.elapsed == 0 {
			s.elapsed = time.Since(start)
		}
		cancel()
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		// A 401 with a new challenge is answered once (a first request,
		// an expired or one-time nonce); the answer to that is judged.
		if s.err != nil || digest == nil || !digest.read(s.resp) || try > 0 {
			break
		}
	}
	if digest != nil {
		// The request kept (a list's next page is it sent again) carries
		// the stand-in, answered anew each time it is sent.
		s.req.Header.Set("Authorization", standIn)
	}
	return s, nil
}

// readStream judges the items of resp's body, a stream of m, as they
// arrive: until its end, its first broken item, Options.StreamItems
// items or Options.StreamTime, whichever comes first (cancel cuts the
// request short). It returns the failures of the first broken item, or
// of the stream (an item over the bound, a stream cut inside an event,
// one that broke off); a stream cut at a bound is judged on the items
// that came.
func (r *runner) readStream(ctx context.Context, m *openapi.Media, resp *http.Response, cancel context.CancelFunc) []*Failure {
	var cut atomic.Bool
	t := time.AfterFunc(r.opts.StreamTime, func() { cut.Store(true); cancel() })
	defer t.Stop()
	c := m.Items(resp.Body, resp.Header.Get("Content-Type"), false)
	code := resp.StatusCode
	for n := 0; n < r.opts.StreamItems; n++ {
		_, vs, err := c.Next()
		var ne net.Error
		switch {
		case err == io.EOF:
			return nil
		case err != nil && (cut.Load() || ctx.Err() != nil || errors.As(err, &ne) && ne.Timeout()):
			return nil // the bound, or the run's end: what came is judged
		case err != nil:
			return []*Failure{{Rule: "body", Text: fmt.Sprintf("status %d: the stream broke off after %d items: %s", code, n, oneLine(err.Error(), 300))}}
		case len(vs) > 0:
			out := make([]*Failure, len(vs))
			for i, v := range vs {
				out[i] = &Failure{Rule: "body", Text: fmt.Sprintf("status %d: %s", code, itemViolation(v)), Schema: v.Schema}
			}
			return out
		}
	}
	return nil
}

// itemViolation writes a violation of a stream's item as "item 3:
// data.text: reason" (its Path is item[3].data.text).
func itemViolation(v openapi.Violation) string {
	n, rest, ok := strings.Cut(strings.TrimPrefix(v.Path, "item["), "]")
	if !ok || !strings.HasPrefix(v.Path, "item[") {
		return v.String()
	}
	rest = strings.TrimPrefix(rest, ".")
	if rest == "" {
		return "item " + n + ": " + v.Reason
	}
	return "item " + n + ": " + rest + ": " + v.Reason
}

// noAnswer is the failure of a request that got no answer.
func (r *runner) noAnswer(s *sent) *Failure {
	var ne interface{ Timeout() bool }
	if errors.As(s.err, &ne) && ne.Timeout() {
		return &Failure{Rule: "timeout", Text: fmt.Sprintf("no answer within %s", r.opts.Timeout)}
	}
	return &Failure{Rule: "no answer", Text: oneLine(s.err.Error(), 300)}
}
