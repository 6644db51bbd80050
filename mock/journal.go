package mock

import (
	"context"
	"time"

	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/state"
)

// record tells the emitter's listeners of an exchange, once: the
// contract report, the journal, the log, the observer (see listen).
func (s *Server) record(x *exchange) {
	if x.recorded {
		return
	}
	x.recorded = true
	status, response, written := x.w.status, x.w.body, x.w.written
	if x.w.hijacked {
		status, response, written = 0, nil, 0
	}
	h := s.emitter.get()
	h.e = s.entry(x, status, response, written)
	h.x, h.sess, h.ctx = x, x.sess, x.r.Context()
	s.emitter.emit(h)
}

// journalEntry adds an exchange or an attempt to its session's journal,
// numbering its entry.
func (s *Server) journalEntry(h *heard) {
	e, x := &h.e, h.x
	if x != nil && x.journaled != 0 {
		e.Seq = x.journaled // written with the create (see storeCreate)
		if want, _ := sentAs(x.plan.success, nil); e.Status != want {
			s.log.Error("the journal has a create's entry with the answer it was to give", "method", e.Method, "path", e.Path, "status", e.Status, "journaled", want)
		}
		return
	}
	var err error
	if e.Seq, err = h.sess.state.Record(h.ctx, *e); err != nil {
		if x == nil {
			s.log.Error("the journal lost a webhook delivery", "webhook", e.Operation, "url", clip(e.URL, 200), "error", err.Error())
			return
		}
		s.log.Error("the journal lost an exchange", "method", e.Method, "path", e.Path, "status", e.Status, "error", err.Error())
	}
}

// entry returns the journal entry of an exchange answered with status
// and response, of written bytes, without its Seq: credentials masked
// (unless the mock keeps them clear), then clipped (see Clipped).
func (s *Server) entry(x *exchange, status int, response []byte, written int) journal.Entry {
	r := x.r
	e := journal.Entry{
		Time: x.start, Duration: time.Since(x.start),
		Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header,
		Body: x.raw, Status: status, Response: response,
		Session: x.sess.name, Token: x.cred.token,
	}
	if x.rule != nil {
		e.Scenario, e.Rule = x.scenario.name, x.rule.index+1
	}
	e.Notes = x.notes
	if op := x.op(); op != nil {
		e.Operation = op.Name
	}
	found := 0 // violations, before the journal's cut
	if p := x.problem; p != nil {
		e.Code = p.Code
		if !x.proxied {
			found = len(p.Violations)
			e.Violations = journal.Violations(p.Violations[:min(found, journal.MaxJournalViolations)], "")
		}
	}
	if x.proxied {
		found, e.Violations = len(x.violations), x.violations
	}
	if !s.clearCreds {
		x.sv.secrets.Mask(&e)
	}
	journal.ClipEntry(&e, len(x.raw), max(written, len(response)), found)
	if p := x.problem; p != nil && p.More && e.Clipped != nil {
		e.Clipped.Unchecked = true // found is MaxViolations, over what an entry keeps
	}
	return e
}

// storeCreate stores the resource of a create, made by doc, which sets
// answer to the body the create answers with. When the session's state
// can (state.CreateJournaler: in Redis), the operation that stores the
// resource writes the exchange's journal entry too, as the answer the
// create gives once stored, and record only numbers it (x.journaled):
// one round trip to Redis a create instead of two. The entry's duration
// ends as the create is sent to Redis.
func (s *Server) storeCreate(ctx context.Context, x *exchange, col, want string, doc func(string) ([]byte, error), answer *[]byte) (string, error) {
	cj, together := x.sess.state.(state.CreateJournaler[journal.Entry])
	if !together || s.noJournal {
		return s.store.Create(ctx, x.sess.name, col, want, doc)
	}
	key, seq, err := cj.CreateJournaled(ctx, col, want, doc, func() journal.Entry {
		status, body := sentAs(x.plan.success, *answer)
		return s.entry(x, status, body, len(body))
	})
	x.journaled = seq
	return key, err
}

// shownURL is a webhook's or callback's URL as the admin API and the log
// show it: its credentials masked by sec, unless the mock keeps them
// clear.
func (s *Server) shownURL(sec *journal.Secrets, u string) string {
	if s.clearCreds {
		return u
	}
	return sec.MaskURL(u)
}

// Entry is one exchange the mock answered, or one webhook or callback it
// sent, as the journal records it. Its slices and maps are shared; treat
// them as read-only.
type Entry = journal.Entry

// Clipped says what the journal cut from an entry, to keep it bounded.
type Clipped = journal.Clipped

// Violation is one way an exchange broke the document.
type Violation = journal.Violation

// Match selects journal entries. Every condition given must hold; the
// zero Match selects every entry.
type Match = journal.Match
