package pipeline

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/traffic"
)

// CheckTraffic judges the traffic recorded in the files at paths (see
// traffic.ReadPaths: HAR, the journal, a recording), adds its exchanges
// to the contract report, and returns what it found exchange by
// exchange. It judges nothing when a file cannot be read.
func (s *Engine) CheckTraffic(paths []string) (*journal.Traffic, error) {
	xs, err := traffic.ReadPaths(paths)
	if err != nil {
		return nil, err
	}
	t := &journal.Traffic{Broken: []journal.Judged{}}
	for i := range xs {
		t.Add(s.judge(&xs[i]))
	}
	return t, nil
}

// judge judges one recorded exchange: its request as the mock checks
// requests (route, security, parameters, body; of a request recorded in
// part, what was recorded), its answer as a proxy checks answers.
func (s *Engine) judge(rx *traffic.Exchange) journal.Judged {
	r := rx.Request
	m := s.Mounted()
	x := &exchange{Turn: answer.Turn{Client: r, R: r, Sess: s.Sessions.Def}, Sv: m.Docs[0], W: recorder{ResponseWriter: nowhere{}}}
	if m.table != nil {
		s.mount(x, m) // the document the request went to
	}
	var vs []journal.Violation
	if p := s.checkRecorded(x, rx); p != nil && p.Code.Contract() {
		vs = requestViolations(p)
	}
	if x.Plan != nil && rx.Status != 0 && !rx.AnswerMocked {
		vs = append(vs, recordedAnswer(x.Plan.Op, rx)...)
	}
	e := journal.Entry{Method: r.Method, Path: r.URL.Path, Status: rx.Status, Violations: vs}
	if !x.unmounted {
		e.Document = x.Sv.Name
	}
	var seen *atomic.Int64
	if x.Plan != nil {
		e.Operation, seen = x.Plan.Op.Name, &x.Plan.Seen
	}
	s.Contract.Add(&e, seen, vs)
	return journal.Judged{Source: rx.Source, Method: e.Method, Path: e.Path, Status: e.Status,
		Operation: e.Operation, Document: e.Document, Violations: vs}
}

// checkRecorded runs the contract's checks on a recorded request,
// leaving out those of what was not recorded: of a request recorded in
// part, all but its route and body; of one whose body was cut short,
// its body.
func (s *Engine) checkRecorded(x *exchange, rx *traffic.Exchange) *problem.Problem {
	return s.checkContract(x, func(name string) bool {
		return rx.Partial && name != "route" && name != "body" || rx.BodyCut && name == "body"
	})
}

// recordedAnswer judges a recorded answer of op. Where its headers were
// not recorded they are not judged, and its Content-Type is taken to be
// the first the document declares for its status of the body's kind
// (JSON or not); where its body was not recorded, only its status is
// judged.
func recordedAnswer(op *openapi.Operation, rx *traffic.Exchange) []journal.Violation {
	declared := op.Response(rx.Status)
	if !rx.AnswerKnown {
		if declared != nil {
			return nil
		}
		return journal.Violations(op.CheckResponse(rx.Status, nil, nil, false), "response")
	}
	header := rx.AnswerHeader
	if header == nil {
		header = http.Header{}
		if declared != nil && len(declared.Content) > 0 {
			header.Set("Content-Type", declaredType(declared.Content, rx.Answer))
		}
	}
	vs := op.CheckResponse(rx.Status, header, rx.Answer, true)
	if rx.AnswerHeader == nil {
		vs = slices.DeleteFunc(vs, func(v openapi.Violation) bool { return strings.HasPrefix(v.Path, "header.") })
	}
	return journal.Violations(vs, "response")
}

// declaredType is the media type an answer whose Content-Type was not
// recorded is taken to have: the first of ms of the body's kind, JSON or
// not; application/json for a JSON body where none is JSON, so that the
// document's answer is said not to declare it.
func declaredType(ms []*openapi.Media, body []byte) string {
	isJSON := json.Valid(body)
	for _, m := range ms {
		if openapi.IsJSON(m.Type) == isJSON {
			return m.Type
		}
	}
	if isJSON {
		return "application/json"
	}
	return ms[0].Type
}

// nowhere is a ResponseWriter that keeps nothing: checks that write
// headers while judging recorded traffic write them here.
type nowhere struct{}

func (nowhere) Header() http.Header         { return http.Header{} }
func (nowhere) Write(b []byte) (int, error) { return len(b), nil }
func (nowhere) WriteHeader(int)             {}
