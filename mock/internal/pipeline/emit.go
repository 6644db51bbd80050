package pipeline

import (
	"github.com/plantmock/plantmock/mock/internal/event"
)

// Told is a listener of answered exchanges and outbound attempts.
type Told = event.Listener

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
