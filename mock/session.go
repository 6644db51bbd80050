package mock

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plantmock/plantmock/mock/internal/store"
)

// SessionHeader gives a request its own session: its own store, journal,
// rule counters and active scenario. Requests without it share the
// default session.
const SessionHeader = "X-Mock-Session"

// Defaults for sessions.
const (
	DefaultMaxSessions = 100
	DefaultSessionIdle = 30 * time.Minute
	maxSessionName     = 128
)

// session is the state one set of clients sees besides its resources,
// which the store keeps under the session's name.
type session struct {
	name     string // "" for the default session
	journal  *journal
	counts   []ruleCount              // by rule.id
	active   atomic.Pointer[scenario] // the scenario for requests without X-Mock-Scenario
	lastUsed atomic.Int64             // unix nanoseconds
}

// ruleCount counts what one rule did in one session.
type ruleCount struct {
	matched  atomic.Int64 // requests that met When
	answered atomic.Int64 // requests the rule answered
}

// sessions owns the sessions of a Server: the default one and the named
// ones, bounded in number and idle time. A session that expires gives its
// resources back to the store.
type sessions struct {
	store       store.Store
	journalSize int
	scenarios   *scenarioSet // for each new session's rule counters and active scenario
	max         int
	idle        time.Duration
	now         func() time.Time // the clock sessions expire by

	def    *session
	mu     sync.Mutex // guards byName
	byName map[string]*session
}

func (sm *sessions) newSession(name string) *session {
	ss := &session{name: name, journal: newJournal(sm.journalSize), counts: make([]ruleCount, sm.scenarios.nrules)}
	ss.active.Store(sm.scenarios.initial)
	ss.lastUsed.Store(sm.now().UnixNano())
	return ss
}

// get returns the session an X-Mock-Session value names, making it if it
// is new; "" is the default session. A malformed name, or a new one
// beyond the limit, gets the default session and a problem.
func (sm *sessions) get(name string) (*session, *problem) {
	if name == "" {
		return sm.def, nil
	}
	if len(name) > maxSessionName || !isToken68(name) {
		return sm.def, invalid(CodeSession, classRequest, "%s must be 1 to %d letters, digits or -._~+/ characters", SessionHeader, maxSessionName)
	}
	now := sm.now()
	sm.mu.Lock()
	defer sm.mu.Unlock()
	ss := sm.byName[name]
	if ss == nil {
		if len(sm.byName) >= sm.max {
			sm.expire(now)
		}
		if len(sm.byName) >= sm.max {
			return sm.def, invalid(CodeSession, classRequest, "too many sessions (%d); reuse one, or wait until idle ones expire after %s", sm.max, sm.idle)
		}
		ss = sm.newSession(name)
		sm.byName[name] = ss
	}
	ss.lastUsed.Store(now.UnixNano())
	return ss, nil
}

// expire drops sessions idle for longer than the limit, and their
// resources. sm.mu is held.
func (sm *sessions) expire(now time.Time) {
	for name, ss := range sm.byName {
		if now.Sub(time.Unix(0, ss.lastUsed.Load())) > sm.idle {
			delete(sm.byName, name)
			sm.store.Reset(context.Background(), name)
		}
	}
}

// reset empties the session's resources and journal and restarts its rule
// counters; the active scenario stays.
func (sm *sessions) reset(ctx context.Context, ss *session) error {
	if ss.journal != nil {
		ss.journal.reset()
	}
	for i := range ss.counts {
		ss.counts[i].matched.Store(0)
		ss.counts[i].answered.Store(0)
	}
	return sm.store.Reset(ctx, ss.name)
}
