package pipeline

import (
	"context"
	"net/http"
	"sync"

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
// which numbers its entry (e.Seq) for those after it.
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

// Attempt is one attempt of a webhook or callback, sent or not, as its
// journal entry, as the emitter's listeners are told of it.
type Attempt struct {
	E    journal.Entry
	Sess *session.Session // the session whose journal has it
}

// Told is a listener: it is told of each answered exchange and each outbound attempt,
// once, in the order of the emitter's listeners; either func may be nil
// for a listener of one kind. It must not keep the value it is given:
// the emitter reuses an answered once every listener has returned.
type Told struct {
	Answered  func(*Answered)
	Attempted func(*Attempt)
}

// emitter tells every listener of each exchange the mock answered and
// each attempt of a webhook or callback: the one path after an answer.
// Engine.Listen registers its listeners.
//
// The answered values are pooled, which buys one allocation of about 400
// bytes per request: a listener is called through a func value, so the
// value it is given escapes to the heap. Measured with -benchmem on
// BenchmarkCreateValid: 20 allocations and 2,138 B/op without the pool
// (one run), 19 and 1,739 with it, as before the emitter (8 alternate
// runs of the builds before and after it, benchstat: equal);
// BenchmarkCreateInvalid, -Malformed and -NoToken likewise, one
// allocation more without the pool and none with it.
type emitter struct {
	listeners []Told
	pool      sync.Pool // of *answered, zeroed
}

// listen adds l after the listeners already there.
func (em *emitter) listen(l Told) { em.listeners = append(em.listeners, l) }

// get returns a zero *answered to fill in and emit.
func (em *emitter) get() *Answered {
	if a, ok := em.pool.Get().(*Answered); ok {
		return a
	}
	return new(Answered)
}

// emit tells every listener of a, in order, then takes a back.
func (em *emitter) emit(a *Answered) {
	for _, l := range em.listeners {
		if l.Answered != nil {
			l.Answered(a)
		}
	}
	*a = Answered{}
	em.pool.Put(a)
}

// EmitAttempt tells every listener of t, in order.
func (em *emitter) EmitAttempt(t *Attempt) {
	for _, l := range em.listeners {
		if l.Attempted != nil {
			l.Attempted(t)
		}
	}
}

// Listen registers what is told of each exchange and attempt, in the
// order they are told: the contract's counts, the journal (which numbers
// the entry), the log, then the listeners given, in their order (the
// recording, say, and last the Sender's, which sends the webhooks and
// callbacks an answer triggers, numbered by the journal).
func (s *Engine) Listen(more ...Told) {
	em := &s.Emitter
	em.listen(Told{Answered: s.countContract})
	if !s.NoJournal {
		em.listen(Told{Answered: s.journalAnswered, Attempted: s.journalAttempt})
	}
	em.listen(Told{Answered: s.logAnswered, Attempted: s.logAttempt})
	for _, l := range more {
		em.listen(l)
	}
}
