package mock

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plantmock/plantmock/mock/internal/store"
	"github.com/plantmock/plantmock/mock/internal/store/redisstore"
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
	name  string // "" for the default session
	state sessionState
}

// sessionState keeps a session's journal, rule counters and active
// scenario: in this process (memState), or in Redis beside the resources
// (sharedState), where every replica of the mock sees the same.
type sessionState interface {
	// record adds an exchange to the journal and returns its Seq. The
	// entry is passed by value: through the interface, a pointer would
	// move it to the heap on every request.
	record(ctx context.Context, e Entry) (uint64, error)
	// entries returns the exchanges the journal keeps, oldest first.
	entries(ctx context.Context) ([]Entry, error)
	resetJournal(ctx context.Context) error

	// hit counts a match of rl and returns how many times rl has answered
	// in the session, this time included; 0 when rl answers only every
	// n-th match and this is not one.
	hit(ctx context.Context, rl *rule) (int64, error)
	resetRules(ctx context.Context) error

	// active returns the scenario for requests that do not name one, as
	// set has it: a request's set, which a Reload may have replaced since
	// the scenario was activated.
	active(ctx context.Context, set *scenarioSet) (*scenario, error)
	activate(ctx context.Context, sc *scenario) error

	// subscribers returns the webhook subscribers set for the session
	// through the admin API, by webhook name; a Subscriber with no URL
	// stands for one removed. Webhooks the map leaves out have the
	// subscribers of Options.Webhooks.
	subscribers(ctx context.Context) (map[string]Subscriber, error)
	subscribe(ctx context.Context, name string, sub Subscriber) error
}

// sessions owns the sessions of a Server: the default one and the named
// ones, bounded in number and idle time. A session that expires gives its
// resources back to the store. With a shared store (Redis), sessions are
// kept there: bound, idle time and state hold across the replicas.
type sessions struct {
	store       store.Store
	shared      *redisstore.Store // nil: sessions live in this process
	journalSize int
	// journalBytes bounds the bytes of every session's journal together:
	// each may hold its share, journalBytes / (max + 1).
	journalBytes int64
	sv           *atomic.Pointer[served] // the Server's: the scenarios sessions count rules of and start with
	max          int
	idle         time.Duration
	now          func() time.Time // the clock sessions expire by

	def    *session
	mu     sync.Mutex // guards byName
	byName map[string]*session
}

// journalKeep is how much each session's journal keeps: journalSize
// entries and its share of journalBytes. The share is fixed, so that the
// journals of the default session and of max named ones hold no more
// than journalBytes together, in memory or in Redis, whatever the order
// of their requests (each keeps at least its newest entry).
func (sm *sessions) journalKeep() redisstore.Keep {
	return redisstore.Keep{
		Size:  orDefault(sm.journalSize, DefaultJournalSize),
		Bytes: max(orDefault(sm.journalBytes, DefaultJournalBytes)/int64(sm.max+1), 1),
	}
}

// newSession returns a session that has not been used.
func (sm *sessions) newSession(name string) *session {
	if sm.shared != nil {
		return &session{name: name, state: &sharedState{sm: sm, name: name}}
	}
	return &session{name: name, state: newMemState(sm, sm.now())}
}

// get returns the session an X-Mock-Session value names; "" is the
// default session. A session not alive (new, or expired) is made only
// when create is set: else get returns nil and no problem. A malformed
// name, or a new one beyond the limit, gets the default session and a
// problem.
//
// Requests look their session up, and make it only once they are routed
// and authenticated (see checkSession), so that requests to no
// operation, or without credentials, cannot take the sessions' slots.
func (sm *sessions) get(ctx context.Context, name string, create bool) (*session, *problem) {
	if name == "" {
		return sm.def, nil
	}
	if len(name) > maxSessionName || !isToken68(name) {
		return sm.def, invalid(CodeSession, classRequest, "%s must be 1 to %d letters, digits or -._~+/ characters", SessionHeader, maxSessionName)
	}
	if sm.shared != nil {
		return sm.getShared(ctx, name, create)
	}
	now := sm.now()
	sm.mu.Lock()
	defer sm.mu.Unlock()
	ss := sm.byName[name]
	if ss != nil && ss.state.(*memState).idleSince(now) > sm.idle {
		sm.drop(name) // expired: start afresh
		ss = nil
	}
	if ss == nil {
		if !create {
			return nil, nil
		}
		if len(sm.byName) >= sm.max {
			sm.expire(now)
		}
		if len(sm.byName) >= sm.max {
			return sm.def, sm.tooMany()
		}
		ss = sm.newSession(name)
		sm.byName[name] = ss
	}
	ss.state.(*memState).use(now)
	return ss, nil
}

// getShared is get for sessions kept in Redis. The session it returns
// is the request's own: it keeps the active scenario that the call which
// noted the session's use read.
func (sm *sessions) getShared(ctx context.Context, name string, create bool) (*session, *problem) {
	t, err := sm.shared.Touch(ctx, name, sm.now(), sm.idle, sm.max, create)
	if err == redisstore.ErrTooManySessions {
		return sm.def, sm.tooMany()
	}
	if err != nil {
		return sm.def, unavailable(err)
	}
	for _, n := range t.Expired {
		if err := sm.store.Reset(ctx, n); err != nil {
			return sm.def, unavailable(err)
		}
	}
	if t.New {
		return nil, nil
	}
	return &session{name: name, state: &sharedState{sm: sm, name: name, seen: &seenActive{t.Active, t.ActiveSet}}}, nil
}

func (sm *sessions) tooMany() *problem {
	return invalid(CodeSession, classRequest, "too many sessions (%d); reuse one, or wait until idle ones expire after %s", sm.max, sm.idle)
}

// expire drops sessions idle for longer than the limit, and their
// resources. sm.mu is held.
func (sm *sessions) expire(now time.Time) {
	for name, ss := range sm.byName {
		if ss.state.(*memState).idleSince(now) > sm.idle {
			sm.drop(name)
		}
	}
}

// drop forgets a session and its resources. sm.mu is held.
func (sm *sessions) drop(name string) {
	delete(sm.byName, name)
	sm.store.Reset(context.Background(), name)
}

// reset empties the session's resources and journal and restarts its rule
// counters; the active scenario stays.
func (sm *sessions) reset(ctx context.Context, ss *session) error {
	if err := ss.state.resetJournal(ctx); err != nil {
		return err
	}
	if err := ss.state.resetRules(ctx); err != nil {
		return err
	}
	return sm.store.Reset(ctx, ss.name)
}
