package pipeline

import (
	"fmt"
	"net/http"
	"net/url"
	"runtime/debug"
	"time"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/session"
)

// ServeHTTP answers one request: it checks the request against the
// document (route, security, parameters, body, then the mock's own
// headers), decides the answer (see decide), sends it, and records the
// exchange in the journal.
func (s *Engine) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.Cors && s.allowOrigin(w, r) {
		return // a preflight, answered
	}
	m := s.Docs.Load()
	x := &exchange{Turn: answer.Turn{Client: r, R: r}, Sv: m.Docs[0], W: recorder{ResponseWriter: w}, start: time.Now(), remote: s.RemoteJournal}
	if m.table != nil {
		s.mount(x, m)
	}
	name := headerValue(r.Header, session.Header)
	if x.Sess, x.badSession = s.Sessions.Get(r.Context(), name, false); x.Sess == nil {
		// A session not alive is made once the request is routed and
		// authenticated (checkSession); till then it is the default's.
		x.Sess, x.newSession = s.Sessions.Def, name
	}
	defer s.finish(x)
	if p := s.check(x); p != nil {
		if s.upstream != nil && !s.upstream.refuse && p.Code.Document() && s.upstream.forwards(x) {
			// A proxy passes on what breaks the document, and says so.
			x.violations = requestViolations(p)
			s.forward(x)
			return
		}
		if s.Previous != nil {
			p = s.drift(x, p) // before the answer, which ends reading the body
		}
		s.refuse(x, p)
		return
	}
	a, p := s.decide(x)
	switch {
	case p != nil:
		s.refuse(x, p)
	case a.kind == forwardIt:
		s.forward(x)
	default:
		s.give(x, a)
	}
}

// checkContract runs the checks of the contract in order (route,
// security, parameters, body), but those skip names (nil for none), and
// returns the first problem: a request judged apart from the session
// and the mock's own headers, as recorded traffic and a previous
// document judge it.
func (s *Engine) checkContract(x *exchange, skip func(name string) bool) *problem.Problem {
	for _, c := range checks {
		if c.contract && (skip == nil || !skip(c.name)) {
			if p := c.run(s, x); p != nil {
				return p
			}
		}
	}
	return nil
}

// check runs the checks in order and returns the first problem. Each
// check reads what the earlier ones put in x and adds what it finds.
func (s *Engine) check(x *exchange) *problem.Problem {
	for _, c := range checks {
		if p := c.run(s, x); p != nil {
			return p
		}
	}
	return nil
}

// checks are the stages of a request, in the order docs/answers.md
// gives, by the names Explain reports them with ("" for a stage it
// does not report); contract marks those that judge the request against
// the document's contract, which drift runs again on the previous
// document.
var checks = []struct {
	name     string
	run      func(*Engine, *exchange) *problem.Problem
	contract bool
}{
	{"route", (*Engine).checkRoute, true},
	{"security", (*Engine).checkSecurity, true},
	{"", (*Engine).checkSession, false},
	{"parameters", (*Engine).checkParams, true},
	{"body", (*Engine).checkBody, true},
	{"controls", (*Engine).checkControls, false},
}

// mount gives a request to the document mounted at the longest base
// path its path starts with, the path cut to the rest; one under no
// base path is refused by checkRoute, as the first document's.
func (s *Engine) mount(x *exchange, m *Mounts) {
	path := x.R.URL.EscapedPath()
	sv, rest := m.Find(path)
	if sv == nil {
		x.unmounted = true
		return
	}
	x.Sv = sv
	if rest != path {
		x.R = WithPath(x.R, rest)
	}
}

// checkRoute finds the operation.
func (s *Engine) checkRoute(x *exchange) *problem.Problem {
	if x.unmounted {
		return s.Mounted().unmounted(x.R.URL.EscapedPath())
	}
	r := x.R
	route, vals, rest := x.Sv.Find(r.URL.EscapedPath(), r.Method)
	var ok bool
	if route == nil {
		return &problem.Problem{Code: problem.CodeNoRoute, Status: http.StatusNotFound,
			Message: fmt.Sprintf("no path of the OpenAPI document matches %s", Clip(r.URL.Path, 200))}
	}
	x.route, x.rawVals = route, vals
	if x.Vals, ok = openapi.Unescape(vals); !ok {
		return &problem.Problem{Code: problem.CodeNoRoute, Status: http.StatusNotFound,
			Message: fmt.Sprintf("no path of the OpenAPI document matches %s: a percent-escape is malformed", Clip(r.URL.EscapedPath(), 200))}
	}
	if rest != "" {
		x.R = WithPath(r, rest)
	}
	op := route.Operation(r.Method)
	if op == nil {
		return &problem.Problem{Code: problem.CodeMethod, Status: http.StatusMethodNotAllowed,
			Message: fmt.Sprintf("%s does not declare %s; allowed: %s", route.Path, Clip(r.Method, 20), route.Allow),
			Header:  [2]string{"Allow", route.Allow}}
	}
	x.Plan = x.Sv.Plans[op]
	return nil
}

// checkSession makes the session a routed and authenticated request names
// when it is not alive. A request refused before (no operation, no or bad
// credentials) takes no session's slot: it is answered, and journaled, as
// one of the default session. A session that cannot be made (too many)
// is refused with the mock's own headers (checkControls), after the
// parameters and the body.
func (s *Engine) checkSession(x *exchange) *problem.Problem {
	if x.newSession != "" {
		x.Sess, x.badSession = s.Sessions.Get(x.R.Context(), x.newSession, true)
		x.newSession = ""
	}
	return nil
}

// checkParams validates path, query, header and cookie parameters.
func (s *Engine) checkParams(x *exchange) *problem.Problem {
	if vs := x.Plan.Op.ValidateParams(x.R, x.rawVals); len(vs) > 0 {
		return &problem.Problem{Code: problem.CodeParameter, Class: problem.ClassRequest, Message: "invalid parameters", Violations: vs}
	}
	return nil
}

// checkControls reads the mock's own request headers: X-Mock-Session,
// X-Mock-Scenario and Prefer, over the default preference (noted in the
// journal where it applied).
func (s *Engine) checkControls(x *exchange) *problem.Problem {
	if x.badSession != nil {
		return x.badSession
	}
	sc, p := s.selectScenario(x)
	if p != nil {
		return p
	}
	x.scenario = sc
	var applied string
	if x.Prefer, applied, p = s.PreferDefault.Apply(x.R.Header["Prefer"]); p != nil {
		return p
	}
	if applied != "" {
		x.Note("default Prefer applied: %s", applied)
	}
	return nil
}

// Find routes a request path of method (see openapi.Document.Find).
func (sv *Served) Find(path, method string) (route *openapi.Route, vals []string, rest string) {
	return sv.Doc.Find(path, method)
}

// WithPath returns a shallow copy of r whose URL path is the escaped path p.
func WithPath(r *http.Request, p string) *http.Request {
	r2 := new(http.Request)
	*r2 = *r
	u := *r.URL
	u.RawPath = p
	if dec, err := url.PathUnescape(p); err == nil {
		u.Path = dec
	}
	r2.URL = &u
	return r2
}

// finish turns a panic into a 500 in the error shape, logged with its
// stack, and records the exchange.
func (s *Engine) finish(x *exchange) {
	if v := recover(); v != nil {
		if v == http.ErrAbortHandler {
			s.record(x)
			panic(v)
		}
		s.Log.Error("panic while answering", "method", x.R.Method, "path", x.R.URL.Path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		if x.W.status == 0 {
			s.refuse(x, problem.Internal("internal error in plantmock; see its log"))
		}
	}
	s.record(x)
}
