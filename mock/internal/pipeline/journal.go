package pipeline

import (
	"context"
	"net/http"
	"time"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/deliver"
	"github.com/plantmock/plantmock/mock/internal/event"
	"github.com/plantmock/plantmock/mock/internal/journal"
)

// record tells the emitter's listeners of an exchange, once: the
// contract report, the journal, the log, the observer (see listen).
func (s *Engine) record(x *exchange) {
	if x.recorded {
		return
	}
	x.recorded = true
	a := s.Emitter.Get()
	a.Status, a.Response, a.Written = x.W.status, x.W.body, x.W.written
	if a.Hijacked = x.W.hijacked; a.Hijacked {
		a.Status, a.Response, a.Written = 0, nil, 0
	}
	a.E = s.entry(x, a.Status, a.Response, a.Written)
	a.Journal, a.Doc, a.Via = x.Sess.State, x.Sv.Name, deliver.LocalAddr(x.R.Context())
	a.URL, a.Host, a.TLS, a.Header = *x.Client.URL, x.Client.Host, x.Client.TLS != nil, x.Client.Header
	a.Vals, a.Raw, a.Body, a.Token = x.Vals, x.Raw, x.Body, x.cred.token
	a.Plan, a.Rule, a.Seq, a.Problem, a.Created, a.Proxied = x.Plan, x.rule, x.seq, x.problem, x.Created, x.proxied
	a.Answer, a.Journaled = x.W.Header(), x.Journaled
	if a.After = !a.Hijacked && x.sendsAfter(a.Status); a.After {
		a.Fake = x.Fake(&s.Answerer)
	}
	if !a.Hijacked && x.flushesIf(a.After) {
		if f, ok := x.W.ResponseWriter.(http.Flusher); ok {
			f.Flush() // the client has its answer before anything is sent or journaled
		}
	}
	if s.late != nil && x.Journaled == 0 {
		// Handed to Redis before the handler returns, so that the
		// entries of the requests of one connection keep their order;
		// after the answer, so that a Redis that does not answer, its
		// batch full, does not hold the answer back (see lateJournal).
		s.handLate(a, x.Sess.State.StartRecord(context.Background(), a.E))
		return
	}
	s.Emitter.Emit(a)
}

// journalAnswered adds an exchange to its session's journal, numbering
// its entry.
func (s *Engine) journalAnswered(a *event.Answered) {
	e := &a.E
	if a.Late {
		return // written off the request's path, E.Seq its number (see lateJournal)
	}
	if a.Journaled != 0 {
		e.Seq = a.Journaled // written with the create (see storeCreate)
		if want, _ := answer.SentAs(a.Plan.Success, nil); e.Status != want {
			s.Log.Error("the journal has a create's entry with the answer it was to give", "method", e.Method, "path", e.Path, "status", e.Status, "journaled", want)
		}
		return
	}
	var err error
	if e.Seq, err = a.Journal.Record(context.Background(), *e); err != nil {
		s.Log.Error("the journal lost an exchange", "method", e.Method, "path", e.Path, "status", e.Status, "error", err.Error())
	}
}

// journalAttempt adds an attempt of a webhook or callback to its
// session's journal, numbering its entry.
func (s *Engine) journalAttempt(t *journal.Attempt) {
	e := &t.E
	var err error
	if e.Seq, err = t.Journal.Record(context.Background(), *e); err != nil {
		s.Log.Error("the journal lost a webhook delivery", "webhook", e.Operation, "url", Clip(e.URL, 200), "error", err.Error())
	}
}

// entry returns the journal entry of an exchange answered with status
// and response, of written bytes, without its Seq: credentials masked
// (unless the mock keeps them clear), then clipped (see journal.Clipped).
func (s *Engine) entry(x *exchange, status int, response []byte, written int) journal.Entry {
	r := x.R
	e := journal.Entry{
		Time: x.start, Duration: time.Since(x.start),
		Method: r.Method, Path: x.fullPath(), Query: r.URL.RawQuery, Header: r.Header,
		Body: x.Raw, Status: status, Response: response,
		Session: x.Sess.Name, Token: x.cred.token,
	}
	if x.rule != nil {
		e.Scenario, e.Rule = x.scenario.Name, x.rule.Index+1
	}
	e.Notes = x.Notes
	if !x.unmounted {
		e.Document = x.Sv.Name
	}
	if op := x.Op(); op != nil {
		e.Operation = op.Name
	}
	found := 0 // violations, before the journal's cut
	if p := x.problem; p != nil {
		e.Code, e.Drift = p.Code, p.Drift
		if !x.proxied {
			found = len(p.Violations)
			e.Violations = journal.Violations(p.Violations[:min(found, journal.MaxJournalViolations)], "")
		}
	}
	if x.proxied {
		found, e.Violations = len(x.violations), x.violations
	}
	if !s.ClearCreds {
		x.Sv.Secrets.Mask(&e)
	}
	journal.ClipEntry(&e, len(x.Raw), max(written, len(response)), found)
	if p := x.problem; p != nil && p.More && e.Clipped != nil {
		e.Clipped.Unchecked = true // found is MaxViolations, over what an entry keeps
	}
	return e
}

// entryOf makes the journal entry of x for the state that writes it with
// a create's resource (see storeCreate).
type entryOf struct {
	s *Engine
	x *exchange
}

func (e entryOf) Entry(status int, body []byte) journal.Entry {
	return e.s.entry(e.x, status, body, len(body))
}

// fullPath returns the path the client asked for: the path within the
// document put back under the base path the document is mounted at.
func (x *exchange) fullPath() string {
	p := x.R.URL.Path
	if x.unmounted || x.Sv == nil || x.Sv.Mount == "" {
		return p
	}
	if p == "/" {
		return x.Sv.Mount
	}
	return x.Sv.Mount + p
}
