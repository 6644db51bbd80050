package mock

import (
	"context"
	"maps"
	"sync"
	"sync/atomic"
	"time"
)

// memState is the state of a session kept in this process.
type memState struct {
	journal  *journal                 // nil: no journal
	counts   []ruleCount              // by rule.id
	current  atomic.Pointer[scenario] // the scenario for requests without X-Mock-Scenario
	lastUsed atomic.Int64             // unix nanoseconds

	mu   sync.Mutex // guards subs
	subs map[string]Subscriber
}

// ruleCount counts what one rule did in one session.
type ruleCount struct {
	matched  atomic.Int64 // requests that met When
	answered atomic.Int64 // requests the rule answered
}

func newMemState(sm *sessions, now time.Time) *memState {
	st := &memState{journal: newJournal(sm.journalSize), counts: make([]ruleCount, sm.scenarios.nrules)}
	st.current.Store(sm.scenarios.initial)
	st.use(now)
	return st
}

func (st *memState) use(now time.Time) { st.lastUsed.Store(now.UnixNano()) }

func (st *memState) idleSince(now time.Time) time.Duration {
	return now.Sub(time.Unix(0, st.lastUsed.Load()))
}

func (st *memState) record(_ context.Context, e Entry) (uint64, error) {
	if st.journal == nil {
		return 0, nil
	}
	st.journal.add(&e)
	return e.Seq, nil
}

func (st *memState) entries(context.Context) ([]Entry, error) { return st.journal.entries(), nil }

func (st *memState) resetJournal(context.Context) error {
	st.journal.reset()
	return nil
}

func (st *memState) hit(_ context.Context, rl *rule) (int64, error) {
	c := &st.counts[rl.id]
	if m := c.matched.Add(1); rl.every > 1 && m%rl.every != 0 {
		return 0, nil
	}
	return c.answered.Add(1), nil
}

func (st *memState) resetRules(context.Context) error {
	for i := range st.counts {
		st.counts[i].matched.Store(0)
		st.counts[i].answered.Store(0)
	}
	return nil
}

func (st *memState) active(context.Context) (*scenario, error) { return st.current.Load(), nil }

func (st *memState) activate(_ context.Context, sc *scenario) error {
	st.current.Store(sc)
	return nil
}

func (st *memState) subscribers(context.Context) (map[string]Subscriber, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return maps.Clone(st.subs), nil
}

func (st *memState) subscribe(_ context.Context, name string, sub Subscriber) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.subs == nil {
		st.subs = map[string]Subscriber{}
	}
	st.subs[name] = sub
	return nil
}
