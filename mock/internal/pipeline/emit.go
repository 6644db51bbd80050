package pipeline

import (
	"context"
	"net/http"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/session"
)

// Answered is an exchange the mock answered, as the emitter's listeners
// are told of it: what the request was, how it was answered and what the
// answer did, copied out of the request's own state once the answer is
// written. Listeners read it and never change it, but for the journal's,
// which numbers its entry (e.Seq) for those after it. The emitter is
// journal's; this value is the pipeline's, since it carries the plan,
// the rule and what was served, which sit above the journal.
type Answered struct {
	// e is the journal entry, credentials masked and clipped.
	E    journal.Entry
	Ctx  context.Context  // the request's
	Sess *session.Session // the session whose journal has it
	Sv   *Served          // what the mock served when the request arrived

	Client *http.Request // the request as it came, before a base path was cut
	Req    *http.Request // as routed
	Vals   []string      // its path parameter values, in template order
	Raw    []byte        // its body as read
	Body   any           // its body decoded; nil when there is none
	Token  string        // its bearer token or API key, if any

	Plan     *answer.Plan     // the operation's plan; nil when no operation matched
	Rule     *scenario.Script // the scenario rule that scripted the answer, if any
	Seq      int64            // the rule's count of answers in the session
	Problem  *problem.Problem // why the request was refused, if it was
	Created  any              // the resource a create stored
	Proxied  bool             // the real service answered (Options.Proxy)
	Hijacked bool             // a fault took the connection over: no answer was written

	Status   int         // the answer's status; 0 when hijacked
	Header   http.Header // the answer's header as sent
	Response []byte      // the first journal.MaxJournalBody bytes of its body, at least
	Written  int         // the bytes of its body, all of them

	journaled uint64 // the Seq of the entry its create wrote (see storeCreate); 0 for none
	// after is set when the answer sends webhooks or callbacks (see
	// sendsAfter), and fake, then, gives their generated values the
	// answer's faker.
	After bool
	Fake  func() *gofakeit.Faker
}

// Told is a listener of answered exchanges and outbound attempts.
type Told = journal.Listener[Answered]

// Listen registers what is told of each exchange and attempt, in the
// order they are told: the contract's counts, the journal (which numbers
// the entry), the log, then the listeners given, in their order (the
// recording, say, and last the Sender's, which sends the webhooks and
// callbacks an answer triggers, numbered by the journal).
func (s *Engine) Listen(more ...Told) {
	em := &s.Emitter
	em.Listen(Told{Answered: s.countContract})
	if !s.NoJournal {
		em.Listen(Told{Answered: s.journalAnswered, Attempted: s.journalAttempt})
	}
	em.Listen(Told{Answered: s.logAnswered, Attempted: s.logAttempt})
	for _, l := range more {
		em.Listen(l)
	}
}
