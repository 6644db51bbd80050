package pipeline

import (
	"net/http"
	"time"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/media"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// selectScenario returns the scenario for a request: the one its
// X-Mock-Scenario header names, else its session's active one.
func (s *Engine) selectScenario(x *exchange) (*scenario.Compiled, *problem.Problem) {
	name := headerValue(x.R.Header, ScenarioHeader)
	if name == "" {
		if len(x.Sv.Scenarios.ByName) == 0 {
			return nil, nil // none could be active
		}
		sc, err := s.Sessions.Active(x.R.Context(), x.Sess, x.Sv.Scenarios)
		if err != nil {
			return nil, problem.Unavailable(err)
		}
		return sc, nil
	}
	sc := x.Sv.Scenarios.ByName[name]
	if sc == nil {
		return nil, problem.Invalid(problem.CodeScenario, problem.ClassRequest, "%s names no loaded scenario: %q; known: %s", ScenarioHeader, Clip(name, 60), x.Sv.Scenarios.Names())
	}
	return sc, nil
}

// scripted is how the rule answers for an operation: its fault, else its
// body, else at the success status the usual answer, else a body generated
// for its status, else the status alone.
func scripted(rl *scenario.Script, pl *answer.Plan) decision {
	a := decision{status: rl.StatusFor(pl.Success), rule: rl}
	switch {
	case rl.Fault != nil:
		a.kind = breakIt
	case rl.HasRespBody:
		a.kind = render
	case a.status == pl.Success:
		a.kind = behave
	default:
		a.kind, a.dynamic = sendBody, true
	}
	return a
}

// waitDelay waits the rule's delay; it reports false when the client goes
// first. After a delay, the answer has the whole write timeout from then
// on, however long the delay (a reload may bring longer ones than Serve
// began with): the server's own counts from the end of the header.
func waitDelay(rl *scenario.Script, x *exchange, write time.Duration) bool {
	if rl.Delay <= 0 {
		return true
	}
	if !pause(x, rl.Delay) {
		return false
	}
	// A writer without deadlines (a test's recorder) says so: nothing to do.
	http.NewResponseController(&x.W).SetWriteDeadline(time.Now().Add(write))
	return true
}

// renderAnswer sends the rule's templated body, rendered over data,
// checked against the document unless the rule is off contract.
func renderAnswer(x *exchange, a decision, data map[string]any, faker func() *gofakeit.Faker) *problem.Problem {
	rl := a.rule
	v, err := scenario.RenderBody(rl.RespBody, data, faker)
	if err != nil {
		return ruleFailure(rl, "body", err)
	}
	if !rl.OffContract {
		if err := scenario.CheckAnswer(x.Plan.Op, a.status, v); err != nil {
			return ruleFailure(rl, "the rendered answer breaks the contract", err)
		}
	}
	writeJSON(&x.W, a.status, media.TypeOf(answer.JSONMedia(x.Plan.Op, a.status)), jsonx.Marshal(v), x.flushes(a.status))
	return nil
}

// ruleFailure reports a rule that could not be answered as scripted.
func ruleFailure(rl *scenario.Script, what string, err error) *problem.Problem {
	return problem.Internal("%s: %s: %v", rl.Name, what, err)
}
