package pipeline

import (
	"bytes"
	"io"
	"net/http"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// maxDrift bounds the words of a drift (problem.Problem.Drift): the
// journal keeps them, and the log line quotes them within its budget
// (see logExchange).
const maxDrift = 512

// Judging loads the document spec into what judging requests against it
// takes, for Engine.Previous: its operations' plans. Nothing is served
// from it, and its mistakes and caveats are not told.
func Judging(spec []byte) (*Served, error) {
	doc, err := openapi.Load(spec)
	if err != nil {
		return nil, err
	}
	sv := &Served{Doc: doc}
	return sv, sv.BuildPlans()
}

// drift judges a request the served document refused with p against the
// previous document (Engine.Previous, plantmock's --previous-spec), as
// Explain would: its route, security, parameters and body, neither the
// session nor the mock's own headers, and nothing is answered. Where the
// previous document accepts the request, drift returns a copy of p whose
// Drift says so, else p.
//
// Only a refusal for breaking the contract is judged again (not one for
// a body over the size limit, which the previous document has as well),
// on the request's goroutine before its answer is written (writing it
// ends reading the body). A request the served document accepts never
// comes here: its path is the one it took without a previous document,
// and the exchange keeps its 512 bytes (the drift rides on the copied
// problem). One it refuses costs the checks the previous document
// takes and an exchange for them. A body the served document has read
// is judged from the bytes read; one it has not (it refused the request
// earlier) is read by the previous document's body check, within
// Engine.MaxBody, and kept for the journal.
func (s *Engine) drift(x *exchange, p *problem.Problem) *problem.Problem {
	if !p.Code.Document() {
		return p
	}
	r := x.Client
	if x.bodyRead {
		r = new(http.Request)
		*r = *x.Client
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(x.Raw)), int64(len(x.Raw))
	}
	old := &exchange{Turn: answer.Turn{Client: r, R: r, Sess: x.Sess}, Sv: s.Previous, W: recorder{ResponseWriter: x.W.ResponseWriter}}
	accepted := s.checkContract(old, nil) == nil
	if old.bodyRead && !x.bodyRead {
		x.Raw, x.bodyRead = old.Raw, true
	}
	if !accepted {
		return p
	}
	d := *p // a problem is not changed once made (some are shared)
	d.Drift = Clip(s.driftWords(p), maxDrift)
	return &d
}

// driftWords says that the previous document accepts a request the
// served one refuses with p, and why: p's message and its first
// violation.
func (s *Engine) driftWords(p *problem.Problem) string {
	var b strings.Builder
	b.WriteString("accepted by the previous document (")
	b.WriteString(strings.TrimSpace(s.Previous.Doc.Title + " " + s.Previous.Doc.Version))
	b.WriteString("), refused by the served one: ")
	b.WriteString(p.Message)
	if len(p.Violations) > 0 {
		b.WriteString(": ")
		b.WriteString(p.Violations[0].String())
	}
	return b.String()
}
