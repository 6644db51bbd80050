package pipeline

import (
	"context"
	"sync"

	"github.com/plantmock/plantmock/mock/internal/event"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/session"
	"github.com/plantmock/plantmock/mock/internal/state"
)

// lateJournal tells the listeners of the exchanges whose journal entry
// is written out of the process (Redis) off the request's path: the
// handler flushes the answer, hands the entry to the state
// (state.Session.StartRecord, which keeps the order entries are handed
// over in), hands the event here and returns; one goroutine waits for each
// entry's number in turn and tells the listeners, in the order the
// answers were made. The connection's next request then waits on no
// round trip to Redis.
//
// Settled is the barrier the mock's own reads of the journal and the
// contract report pass first: they see every exchange answered before
// they began, as when the listeners ran on the request's path.
type lateJournal struct {
	items   chan late
	hands   sync.Mutex    // orders handed with items; guards closed
	closed  bool          // CloseLate was called: events are told on the request's path
	mu      sync.Mutex    // guards handed, told and changed
	handed  uint64        // events handed over
	told    uint64        // events whose listeners were told
	changed chan struct{} // closed, and replaced, when told grows
	done    chan struct{} // closed when the goroutine has ended
}

// late is an event whose entry is on its way to the journal.
type late struct {
	a *event.Answered
	p state.Pending
}

// StartLate starts the goroutine that tells the listeners of late
// events; Close ends it.
func (s *Engine) StartLate() {
	s.late = &lateJournal{items: make(chan late, 1024), changed: make(chan struct{}), done: make(chan struct{})}
	go s.tellLate(s.late)
}

// hand hands an event whose entry p is on its way to the goroutine that
// tells the listeners of it, after the answer was flushed. It waits only
// while the goroutine is 1024 events behind.
func (s *Engine) handLate(a *event.Answered, p state.Pending) {
	lj := s.late
	lj.hands.Lock()
	defer lj.hands.Unlock()
	if lj.closed {
		s.tell(a, p)
		return
	}
	lj.mu.Lock()
	lj.handed++
	lj.mu.Unlock()
	lj.items <- late{a, p}
}

// tellLate tells the listeners of each late event, in order, once its
// entry has its number.
func (s *Engine) tellLate(lj *lateJournal) {
	defer close(lj.done)
	for it := range lj.items {
		s.tell(it.a, it.p)
		lj.mu.Lock()
		lj.told++
		close(lj.changed)
		lj.changed = make(chan struct{})
		lj.mu.Unlock()
	}
}

// tell tells the listeners of a, once its entry p has its number.
func (s *Engine) tell(a *event.Answered, p state.Pending) {
	seq, err := p.Wait(context.Background())
	if err != nil {
		s.Log.Error("the journal lost an exchange", "method", a.E.Method, "path", a.E.Path, "status", a.E.Status, "error", err.Error())
	}
	a.E.Seq, a.Late = seq, true
	s.Emitter.Emit(a)
}

// Settled returns once the listeners have been told of every exchange
// answered before it was called, or ctx ended. With the journal in the
// process it returns at once.
func (s *Engine) Settled(ctx context.Context) error {
	lj := s.late
	if lj == nil {
		return nil
	}
	lj.mu.Lock()
	want := lj.handed
	for lj.told < want {
		ch := lj.changed
		lj.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
		lj.mu.Lock()
	}
	lj.mu.Unlock()
	return nil
}

// CloseLate tells the listeners of the late events handed over so far
// and ends the goroutine, waiting for it until ctx ends; the listeners
// of later answers are told on their requests' path.
func (s *Engine) CloseLate(ctx context.Context) error {
	lj := s.late
	if lj == nil {
		return nil
	}
	lj.hands.Lock()
	if !lj.closed {
		lj.closed = true
		close(lj.items)
	}
	lj.hands.Unlock()
	select {
	case <-lj.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Entries returns the entries of ss's journal once the listeners have
// been told of every exchange answered before (see Settled).
func (s *Engine) Entries(ctx context.Context, ss *session.Session) ([]journal.Entry, error) {
	if err := s.Settled(ctx); err != nil {
		return nil, err
	}
	return ss.State.Entries(ctx)
}

// ResetJournal empties ss's journal once the entries of the exchanges
// answered before are in it (see Settled).
func (s *Engine) ResetJournal(ctx context.Context, ss *session.Session) error {
	if err := s.Settled(ctx); err != nil {
		return err
	}
	return ss.State.ResetJournal(ctx)
}

// Reset resets ss (session.Sessions.Reset) once the entries of the
// exchanges answered before are in its journal (see Settled).
func (s *Engine) Reset(ctx context.Context, ss *session.Session) error {
	if err := s.Settled(ctx); err != nil {
		return err
	}
	return s.Sessions.Reset(ctx, ss)
}
