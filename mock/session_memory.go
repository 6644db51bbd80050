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
	journal  *journal                   // nil: no journal
	counts   atomic.Pointer[ruleCounts] // of the rules of the set served when they were first counted
	current  atomic.Pointer[scenario]   // the scenario for requests without X-Mock-Scenario
	lastUsed atomic.Int64               // unix nanoseconds

	mu   sync.Mutex // guards subs
	subs map[string]Subscriber
}

// ruleCounts are a session's counters of the rules of one scenario set,
// by rule.id. A Reload brings another set, whose rules count afresh.
type ruleCounts struct {
	set *scenarioSet
	c   []ruleCount
}

// ruleCount counts what one rule did in one session.
type ruleCount struct {
	matched  atomic.Int64 // requests that met When
	answered atomic.Int64 // requests the rule answered
}

func newMemState(sm *sessions, now time.Time) *memState {
	st := &memState{journal: newJournal(sm.journalSize, sm.journalKeep().Bytes)}
	st.current.Store(sm.sv.Load().scenarios.initial)
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
	cs := st.counts.Load()
	for cs == nil || cs.set != rl.set {
		fresh := &ruleCounts{set: rl.set, c: make([]ruleCount, rl.set.nrules)}
		if st.counts.CompareAndSwap(cs, fresh) {
			cs = fresh
		} else {
			cs = st.counts.Load()
		}
	}
	c := &cs.c[rl.id]
	if m := c.matched.Add(1); rl.every > 1 && m%rl.every != 0 {
		return 0, nil
	}
	return c.answered.Add(1), nil
}

func (st *memState) resetRules(context.Context) error {
	st.counts.Store(nil)
	return nil
}

// active returns the session's active scenario as set has it: after a
// Reload, the one of the same name, if any.
func (st *memState) active(_ context.Context, set *scenarioSet) (*scenario, error) {
	sc := st.current.Load()
	if sc == nil {
		return nil, nil
	}
	if set.byName[sc.name] == sc || set.initial == sc {
		return sc, nil
	}
	return set.named(sc.name), nil
}

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
