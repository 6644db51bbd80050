package mock

import (
	"fmt"
	"sort"
	"strings"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/mock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// answer is how the mock answers a valid request, as decide settles it.
// Nothing is generated or written until give sends it.
type answer struct {
	kind   answerKind
	status int
	media  *openapi.Media // the JSON media declared for status, if any
	value  any            // sendValue: the JSON value
	rule   *rule          // the rule that scripted the answer, if any: its delay and headers apply
}

// answerKind says where an answer's body comes from.
type answerKind uint8

const (
	behave     answerKind = iota // the operation's behaviour: create, list, ..., or its canned answer
	sendValue                    // a fixed JSON value (an example)
	generate                     // a value generated from the status's schema
	sendStatus                   // the status alone, no body
	render                       // the rule's templated body
	breakIt                      // the rule's fault
)

// decide settles how to answer a valid request, in one place: as its
// Prefer header asks, else as the first rule of its scenario that
// matches, else as the operation behaves.
func (s *Server) decide(x *exchange) (answer, *problem) {
	pl := x.plan
	if !x.prefer.usual(pl.success) {
		return preferred(pl, x.prefer)
	}
	if x.scenario != nil {
		if rule, seq := x.scenario.match(x); rule != nil {
			x.rule, x.seq = rule, seq
			return rule.answer(pl), nil
		}
	}
	return answer{kind: behave, status: pl.success}, nil
}

// preferred is the answer a Prefer header asks for.
func preferred(pl *plan, pf preference) (answer, *problem) {
	status := pl.success
	if pf.code != 0 {
		status = pf.code
		if pl.op.Response(status) == nil {
			return answer{}, invalid(CodePrefer, classRequest, "Prefer: code=%d is not declared for %s (declared: %s)",
				status, pl.op.Name, declaredStatuses(pl.op))
		}
	}
	a := answer{status: status, media: jsonMedia(pl.op, status)}
	m := a.media
	switch {
	case pf.example != "":
		ex, ok := any(nil), false
		if m != nil {
			ex, ok = m.Examples[pf.example]
		}
		if !ok {
			return answer{}, invalid(CodePrefer, classRequest, "Prefer: example=%s names no example of status %d (examples: %s)",
				clip(pf.example, 60), status, exampleNames(m))
		}
		if vs := m.Schema.Validate(ex); len(vs) > 0 {
			return answer{}, internal("example %s of status %d does not match its schema: %s", pf.example, status, vs[0])
		}
		a.kind, a.value = sendValue, ex
	case m == nil || m.Schema == nil:
		a.kind = sendStatus
	case m.HasExample && !pf.dynamic && m.Schema.Validate(m.Example) == nil:
		a.kind, a.value = sendValue, m.Example
	default:
		a.kind = generate
	}
	return a, nil
}

// jsonMedia returns the JSON media an operation declares for status, or nil.
func jsonMedia(op *openapi.Operation, status int) *openapi.Media {
	if resp := op.Response(status); resp != nil {
		return resp.JSON()
	}
	return nil
}

// give sends an answer: the rule's delay and headers first, then the body
// from where the answer says.
func (s *Server) give(x *exchange, a answer) {
	var data map[string]any // what the rule's templates see, and their faker
	var faker func() *gofakeit.Faker
	if rl := a.rule; rl != nil {
		if !rl.wait(x.r.Context()) {
			return // the client is gone
		}
		data, faker = x.templateData(), func() *gofakeit.Faker { return x.fake(s) }
		h := x.w.Header()
		for _, rh := range rl.respHeaders {
			v, err := rh.t.render(data, faker)
			if err != nil {
				s.refuse(x, rl.failure("header "+rh.name, err))
				return
			}
			h.Set(rh.name, fmt.Sprint(v))
		}
	}
	var p *problem
	switch a.kind {
	case behave:
		p = behaviours[x.plan.do](s, x)
	case sendValue:
		writeJSON(&x.w, a.status, contentTypeOf(a.media), jsonx.Marshal(a.value))
	case generate:
		var v any
		if v, p = generateValue(a.media.Schema, x.fake(s)); p == nil {
			writeJSON(&x.w, a.status, contentTypeOf(a.media), jsonx.Marshal(v))
		}
	case sendStatus:
		x.w.WriteHeader(a.status)
	case render:
		p = renderAnswer(x, a, data, faker)
	case breakIt:
		a.rule.fault.apply(s, x, a.status)
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
