package mock

import (
	"context"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"sync"
)

// heard is what the emitter's listeners are told of: one exchange the
// mock answered, or one attempt of a webhook or callback (sent or not),
// as its journal entry.
type heard struct {
	// e is the journal entry, credentials masked and clipped; the
	// journal's listener numbers it (Seq) for those after it.
	e    journal.Entry
	x    *exchange       // the request answered; nil for an outbound attempt
	sess *session        // the session whose journal has it
	ctx  context.Context // the request's; context.Background for an attempt
}

// entryListener is told of each exchange and attempt, once, in the
// order of the emitter's listeners. It must not keep the *heard: the
// emitter reuses it once every listener has returned.
type entryListener func(*heard)

// emitter tells every listener of each exchange the mock answered and
// each attempt of a webhook or callback: the one path after an answer.
// Server.listen registers its listeners.
//
// The heard values are pooled, which buys one allocation of about 400
// bytes per request: a listener is called through a func value, so the
// entry it is given escapes to the heap. Measured with -benchmem on
// BenchmarkCreateValid: 20 allocations and 2,138 B/op without the pool
// (one run), 19 and 1,739 with it, as before the emitter (8 alternate
// runs of the builds before and after it, benchstat: equal);
// BenchmarkCreateInvalid, -Malformed and -NoToken likewise, one
// allocation more without the pool and none with it.
type emitter struct {
	listeners []entryListener
	pool      sync.Pool // of *heard, zeroed
}

// listen adds l after the listeners already there.
func (em *emitter) listen(l entryListener) { em.listeners = append(em.listeners, l) }

// get returns a zero *heard to fill in and emit.
func (em *emitter) get() *heard {
	if h, ok := em.pool.Get().(*heard); ok {
		return h
	}
	return new(heard)
}

// emit tells every listener of h, in order, then takes h back.
func (em *emitter) emit(h *heard) {
	for _, l := range em.listeners {
		l(h)
	}
	*h = heard{}
	em.pool.Put(h)
}

// listen registers what is told of each exchange and attempt, in the
// order they are told: the contract's counts, the recording, the
// journal (which numbers the entry), the log, Options.Observe, the
// dashboard's events, and the webhooks and callbacks an answer sends.
// Each listener passes over what is not its own (an outbound attempt,
// say).
func (s *Server) listen() {
	em := &s.emitter
	em.listen(s.countContract)
	if s.recording != nil {
		em.listen(s.recordProxied)
	}
	if !s.noJournal {
		em.listen(s.journalEntry)
	}
	em.listen(s.logEntry)
	if s.observe != nil {
		em.listen(func(h *heard) { s.observe(h.e) })
	}
	em.listen(func(h *heard) { s.events.publish(h.e) })
	em.listen(s.afterAnswer)
}

// recordProxied adds an exchange the real service answered to the
// recording, in memory: snapshots write the files.
func (s *Server) recordProxied(h *heard) {
	x := h.x
	if x == nil || !x.proxied || x.problem != nil || x.plan == nil || x.w.hijacked {
		return
	}
	s.recording.add(x, &h.e)
}
