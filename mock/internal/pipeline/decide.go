package pipeline

import (
	"fmt"
	"sort"
	"strings"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// decision is how the mock answers a valid request, as decide settles it.
// Nothing is generated or written until give sends it.
type decision struct {
	kind    answerKind
	status  int
	example string           // sendBody: the named example to send, if any
	dynamic bool             // sendBody: generate even where an example exists
	rule    *scenario.Script // the rule that scripted the answer, if any: its delay and headers apply
}

// answerKind says where an answer's body comes from.
type answerKind uint8

const (
	behave     answerKind = iota // the operation's behaviour: create, list, ..., or its canned answer
	sendBody                     // the status's example, else generated data, else a sample
	sendStatus                   // the status alone, no body
	render                       // the rule's templated body
	breakIt                      // the rule's fault
	streamIt                     // items one at a time, for a media type that streams
	forwardIt                    // the upstream's answer (Options.Proxy.URL)
)

// decide settles how to answer a valid request, in one place: as its
// Prefer header asks, else as the first rule of its scenario that
// matches, else as the operation behaves. A Prefer that names the
// success status asks for the usual answer: the operation's behaviour,
// past the scenario's rules. It also settles the media type the answer
// is written in (see negotiate).
func (s *Engine) decide(x *exchange) (decision, *problem.Problem) {
	pl := x.Plan
	var a decision
	switch {
	case x.Prefer.Code != 0 && x.Prefer.Usual(pl.Success):
		a = decision{kind: behave, status: pl.Success}
	case !x.Prefer.Usual(pl.Success):
		var p *problem.Problem
		if a, p = preferred(pl, x.Prefer); p != nil {
			return a, p
		}
	case x.scenario != nil:
		req := scenario.Request{Op: pl.Op, Header: x.R.Header, Vals: x.Vals, Token: x.cred.token, Body: x.Body}
		rule, seq, err := x.scenario.Match(x.R.Context(), req, x.Sess.State)
		if err != nil {
			return a, problem.Unavailable(err)
		}
		if rule != nil {
			x.rule, x.seq = rule, seq
			a = scripted(rule, pl)
			break
		}
		a = decision{kind: behave, status: pl.Success}
	default:
		a = decision{kind: behave, status: pl.Success}
	}
	if a.kind == behave && a.rule == nil && s.upstream != nil && s.upstream.forwards(x) {
		return decision{kind: forwardIt}, nil // nothing scripted it: the real service answers
	}
	if a.kind == breakIt || a.kind == render {
		return a, nil
	}
	o, ct, p := s.Negotiate(&x.Turn, pl.OffersFor(a.status), a.rule != nil && a.rule.Stream != nil)
	if p != nil {
		return a, p
	}
	x.Settle(o, ct)
	if a.kind == sendBody && o == nil {
		a.kind = sendStatus
	}
	if streams(x, a) {
		a.kind = streamIt
	}
	if a.example != "" {
		m := x.Media()
		if _, ok := m.Examples[a.example]; m == nil || !ok {
			return decision{}, problem.Invalid(problem.CodePrefer, problem.ClassRequest, "Prefer: example=%s names no example of status %d (examples: %s)",
				Clip(a.example, 60), a.status, exampleNames(m))
		}
	}
	return a, nil
}

// preferred is the answer a Prefer header asks for.
func preferred(pl *answer.Plan, pf answer.Preference) (decision, *problem.Problem) {
	status := pl.Success
	if pf.Code != 0 {
		status = int(pf.Code)
		if pl.Op.Response(status) == nil {
			return decision{}, problem.Invalid(problem.CodePrefer, problem.ClassRequest, "Prefer: code=%d is not declared for %s (declared: %s)",
				status, pl.Op.Name, scenario.DeclaredStatuses(pl.Op))
		}
	}
	return decision{kind: sendBody, status: status, example: pf.Example, dynamic: pf.Dynamic}, nil
}

// give sends an answer: the rule's delay and headers first, then the body
// from where the answer says.
func (s *Engine) give(x *exchange, a decision) {
	var data map[string]any // what the rule's templates see, and their faker
	var faker func() *gofakeit.Faker
	if rl := a.rule; rl != nil {
		if !waitDelay(rl, x, s.Timeouts.Write) {
			return // the client is gone
		}
		data, faker = x.templateData(), func() *gofakeit.Faker { return x.Fake(&s.Answerer) }
		h := x.W.Header()
		for _, rh := range rl.RespHeaders {
			v, err := rh.T.Render(data, faker)
			if err != nil {
				s.refuse(x, ruleFailure(rl, "header "+rh.Name, err))
				return
			}
			h.Set(rh.Name, fmt.Sprint(v))
		}
	}
	var p *problem.Problem
	switch a.kind {
	case behave:
		var o answer.Outcome
		if s.RemoteJournal && x.Plan.Do == answer.Create {
			x.Entries = entryOf{s, x} // a create's entry is written with its resource
		}
		if o, p = s.Behave(&x.Turn); p == nil {
			if o.Location != "" {
				x.W.Header().Set("Location", o.Location)
			}
			s.writeBody(x, o.Body)
		}
	case sendBody:
		var body []byte
		if body, p = s.Body(&x.Turn, a.example, a.dynamic); p == nil {
			s.writeStatus(x, a.status, body)
		}
	case sendStatus:
		s.writeStatus(x, a.status, nil)
	case render:
		p = renderAnswer(x, a, data, faker)
	case breakIt:
		a.rule.Fault.Apply(broken{s, x}, a.status)
	case streamIt:
		if data == nil {
			data = x.templateData()
		}
		p = s.giveStream(x, a, data, func() *gofakeit.Faker { return x.Fake(&s.Answerer) })
	}
	if p != nil {
		s.refuse(x, p)
	}
}

func exampleNames(m *openapi.Media) string {
	if m == nil || len(m.Examples) == 0 {
		return "none"
	}
	names := make([]string, 0, len(m.Examples))
	for n := range m.Examples {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
