package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/session"
	"github.com/plantmock/plantmock/mock/internal/state"
)

// Explanation is what the mock would do with a request, worked out
// without answering it: nothing is stored, journaled, counted or sent.
type Explanation struct {
	// Document names the document the request goes to, where the mock
	// serves several.
	Document string `json:"document,omitempty"`
	// Operation is the operation it matched, "POST /plants"; empty
	// when none did.
	Operation string `json:"operation,omitempty"`
	// Checks are the request's checks in the order the mock runs them,
	// up to the first that fails; those after it are not run.
	Checks []Check `json:"checks"`
	// Status is the answer's status; 0 for a fault that sends none.
	Status int `json:"status"`
	// Answer says where the answer comes from, in words.
	Answer string `json:"answer"`
	// Code, Message and Violations are a refusal's, as the journal
	// would keep them.
	Code       problem.Code        `json:"code,omitempty"`
	Message    string              `json:"message,omitempty"`
	Violations []journal.Violation `json:"violations,omitempty"`
	// Drift, on a refusal for breaking the contract, says that the
	// previous document (Engine.Previous) accepts the request, as the
	// journal's Entry.Drift would.
	Drift string `json:"drift,omitempty"`
	// Scenario and Rule (1-based) name the rule that would script the
	// answer.
	Scenario string `json:"scenario,omitempty"`
	Rule     int    `json:"rule,omitempty"`
	// ContentType and Body are the answer's, where they can be known
	// without answering: a refusal's, and an example's or generated
	// body; not a behaviour's, which reads and writes the store.
	ContentType string          `json:"contentType,omitempty"`
	Body        json.RawMessage `json:"body,omitempty"`
	// Text is Body when it is not JSON.
	Text string `json:"text,omitempty"`
}

// Check is one check of a request and how it went.
type Check struct {
	Name string `json:"name"`
	OK   bool   `json:"ok"`
}

// Explain works out how the mock would answer r: the document and
// operation it goes to, its checks, and the answer, without answering
// it. A session r names that is not alive is read as the default one. A
// scenario's rules are matched as if each had answered no request yet:
// their counts (times, every) are read by no one.
func (s *Engine) Explain(r *http.Request) Explanation {
	m := s.Docs.Load()
	w := httptest.NewRecorder() // the answer, written nowhere: Explain reads it
	x := &exchange{Turn: answer.Turn{Client: r, R: r}, Sv: m.Docs[0], W: recorder{ResponseWriter: w}, start: time.Now()}
	if m.table != nil {
		s.mount(x, m)
	}
	name := headerValue(r.Header, session.Header)
	if x.Sess, x.badSession = s.Sessions.Get(r.Context(), name, false); x.Sess == nil {
		x.Sess = s.Sessions.Def
	}
	x.Sess = &session.Session{Name: x.Sess.Name, State: unhit{x.Sess.State}}
	x.FakeAside(s.Seed)
	var ex Explanation
	if m.Several() && !x.unmounted {
		ex.Document = x.Sv.Name
	}
	var p *problem.Problem
	for _, c := range checks {
		// The session stage makes the session a request names, which
		// Explain does not: x.newSession is empty, so it does nothing.
		p = c.run(s, x)
		if c.name != "" {
			ex.Checks = append(ex.Checks, Check{Name: c.name, OK: p == nil})
		}
		if p != nil {
			break
		}
	}
	x.FakeAside(s.Seed) // again, now that the Prefer header is read: its seed
	if x.Plan != nil {
		ex.Operation = x.Plan.Op.Name
	}
	var a decision
	if p == nil {
		a, p = s.decide(x)
	}
	if p != nil {
		if s.Previous != nil {
			p = s.drift(x, p)
		}
		s.refuse(x, p)
		ex.Answer, ex.Code, ex.Message, ex.Drift = "refused", p.Code, p.Message, p.Drift
		ex.Violations = journal.Violations(p.Violations, "")
		ex.Status = x.W.status
		ex.setBody(w.Header().Get("Content-Type"), w.Body.Bytes())
		return ex
	}
	if x.rule != nil {
		ex.Scenario, ex.Rule = x.scenario.Name, x.rule.Index+1
	}
	ex.Status = a.status
	switch a.kind {
	case behave:
		ex.Answer = fmt.Sprintf("the operation's behaviour: %s", x.Plan.Do)
	case sendBody:
		ex.Answer = "the status's example, else generated data"
		if body, p := s.Body(&x.Turn, a.example, a.dynamic); p == nil {
			ex.setBody(x.CT, body)
		}
	case sendStatus:
		ex.Answer = "the status alone, without a body"
	case render:
		ex.Answer = "the rule's templated body"
	case breakIt:
		ex.Answer = fmt.Sprintf("the rule's fault: %s (%s)", a.rule.Fault.Name, a.rule.Fault.Sees)
	case streamIt:
		ex.Answer = "a stream of items, one at a time"
	case forwardIt:
		ex.Answer, ex.Status = "forwarded to the real service (--proxy), whose answer is checked against the document", 0
	}
	return ex
}

// setBody keeps an answer's body: as JSON where it is, else as text.
func (ex *Explanation) setBody(ct string, body []byte) {
	ex.ContentType = ct
	if len(body) == 0 {
		return
	}
	if json.Valid(body) && strings.Contains(ct, "json") {
		ex.Body = json.RawMessage(body)
		return
	}
	ex.Text = string(body)
}

// unhit is a session's state whose rules match as if they had answered
// nothing yet, and which counts nothing.
type unhit struct {
	state.Session[journal.Entry]
}

func (unhit) Hit(context.Context, *state.Rule) (int64, error) { return 1, nil }
