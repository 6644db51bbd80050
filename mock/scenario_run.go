package mock

import (
	"net/http"
	"time"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/media"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// selectScenario returns the scenario for a request: the one its
// X-Mock-Scenario header names, else its session's active one.
func (s *Server) selectScenario(x *exchange) (*scenario, *problem.Problem) {
	name := headerValue(x.r.Header, ScenarioHeader)
	if name == "" {
		if len(x.sv.scenarios.byName) == 0 {
			return nil, nil // none could be active
		}
		sc, err := s.sessions.active(x.r.Context(), x.sess, &x.sv.scenarios)
		if err != nil {
			return nil, problem.Unavailable(err)
		}
		return sc, nil
	}
	sc := x.sv.scenarios.byName[name]
	if sc == nil {
		return nil, problem.Invalid(problem.CodeScenario, problem.ClassRequest, "%s names no loaded scenario: %q; known: %s", ScenarioHeader, clip(name, 60), x.sv.scenarios.names())
	}
	return sc, nil
}

// match returns the first rule of sc that answers the request, with its
// 1-based count of answers in the session, and counts the match.
func (sc *scenario) match(x *exchange) (*rule, int64, *problem.Problem) {
	op, h := x.plan.op, x.r.Header
	for _, rl := range sc.rules {
		if rl.ops != nil && !rl.ops[op] {
			continue
		}
		ok := true
		for i := range rl.headers {
			if hm := &rl.headers[i]; len(h.Values(hm.name)) == 0 || !hm.m.match(h.Get(hm.name)) {
				ok = false
				break
			}
		}
		for _, pm := range rl.params {
			if pm.i >= len(x.vals) || !pm.m.match(x.vals[pm.i]) {
				ok = false
				break
			}
		}
		if !ok || rl.token != nil && (x.cred.token == "" || !rl.token.match(x.cred.token)) || rl.hasBody && !matchPattern(rl.body, x.body) {
			continue
		}
		n, err := x.sess.state.Hit(x.r.Context(), &rl.count)
		if err != nil {
			return nil, 0, problem.Unavailable(err)
		}
		if n == 0 || rl.times > 0 && n > rl.times {
			continue
		}
		return rl, n, nil
	}
	return nil, 0, nil
}

// answer is how the rule answers for an operation: its fault, else its
// body, else at the success status the usual answer, else a body generated
// for its status, else the status alone.
func (rl *rule) answer(pl *plan) answer {
	a := answer{status: rl.statusFor(pl), rule: rl}
	switch {
	case rl.fault != nil:
		a.kind = breakIt
	case rl.hasRespBody:
		a.kind = render
	case a.status == pl.success:
		a.kind = behave
	default:
		a.kind, a.dynamic = sendBody, true
	}
	return a
}

// wait waits the rule's delay; it reports false when the client goes
// first. After a delay, the answer has the whole write timeout from then
// on, however long the delay (a reload may bring longer ones than Serve
// began with): the server's own counts from the end of the header.
func (rl *rule) wait(x *exchange, write time.Duration) bool {
	if rl.delay <= 0 {
		return true
	}
	t := time.NewTimer(rl.delay)
	defer t.Stop()
	select {
	case <-t.C:
	case <-x.r.Context().Done():
		return false
	}
	// A writer without deadlines (a test's recorder) says so: nothing to do.
	http.NewResponseController(&x.w).SetWriteDeadline(time.Now().Add(write))
	return true
}

// renderAnswer sends the rule's templated body, rendered over data,
// checked against the document unless the rule is off contract.
func renderAnswer(x *exchange, a answer, data map[string]any, faker func() *gofakeit.Faker) *problem.Problem {
	rl := a.rule
	v, err := renderBody(rl.respBody, data, faker)
	if err != nil {
		return rl.failure("body", err)
	}
	if !rl.offContract {
		if err := checkAnswer(x.plan.op, a.status, v); err != nil {
			return rl.failure("the rendered answer breaks the contract", err)
		}
	}
	writeJSON(&x.w, a.status, media.TypeOf(jsonMedia(x.plan.op, a.status)), jsonx.Marshal(v), x.flushes(a.status))
	return nil
}

// failure reports a rule that could not be answered as scripted.
func (rl *rule) failure(what string, err error) *problem.Problem {
	return problem.Internal("%s: %s: %v", rl.name, what, err)
}
