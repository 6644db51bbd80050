package mock

import (
	"fmt"
	"net/http"
	"sort"
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

// session is the state one set of clients sees.
type session struct {
	name     string
	store    store.Store
	journal  *journal
	counts   []ruleCount            // by scriptRule.id
	active   atomic.Pointer[script] // the scenario for requests without X-Mock-Scenario
	lastUsed atomic.Int64           // unix nanoseconds
}

// ruleCount counts what one rule did in one session.
type ruleCount struct {
	matched  atomic.Int64 // requests that met When
	answered atomic.Int64 // requests the rule answered
}

func (s *Server) newSession(name string) *session {
	ss := &session{name: name, journal: newJournal(s.journalSize), counts: make([]ruleCount, s.nrules)}
	ss.active.Store(s.initial)
	ss.lastUsed.Store(s.now().UnixNano())
	return ss
}

// reset empties the session's store and journal and restarts its rule
// counters; the active scenario stays.
func (ss *session) reset(s *Server) {
	s.resources.Add(-int64(ss.store.Reset()))
	if ss.journal != nil {
		ss.journal.reset()
	}
	for i := range ss.counts {
		ss.counts[i].matched.Store(0)
		ss.counts[i].answered.Store(0)
	}
}

// sessions holds the named sessions, bounded in number and idle time.
type sessions struct {
	mu     sync.Mutex // guards byName
	byName map[string]*session
	max    int
	idle   time.Duration
}

// session returns the session a request names, making it if it is new.
func (s *Server) session(r *http.Request) (*session, *problem) {
	name := r.Header.Get(SessionHeader)
	if name == "" {
		return s.defaultSession, nil
	}
	if len(name) > maxSessionName || !isToken68(name) {
		return nil, invalid(CodeSession, classRequest, "%s must be 1 to %d letters, digits or -._~+/ characters", SessionHeader, maxSessionName)
	}
	now := s.now()
	sm := &s.sessions
	sm.mu.Lock()
	defer sm.mu.Unlock()
	ss := sm.byName[name]
	if ss == nil {
		if len(sm.byName) >= sm.max {
			s.expireSessions(now)
		}
		if len(sm.byName) >= sm.max {
			return nil, invalid(CodeSession, classRequest, "too many sessions (%d); reuse one, or wait until idle ones expire after %s", sm.max, sm.idle)
		}
		ss = s.newSession(name)
		sm.byName[name] = ss
	}
	ss.lastUsed.Store(now.UnixNano())
	return ss, nil
}

// expireSessions drops sessions idle for longer than the limit, and their
// resources. s.sessions.mu is held.
func (s *Server) expireSessions(now time.Time) {
	sm := &s.sessions
	for name, ss := range sm.byName {
		if now.Sub(time.Unix(0, ss.lastUsed.Load())) > sm.idle {
			delete(sm.byName, name)
			s.resources.Add(-int64(ss.store.Reset()))
		}
	}
}

// sessionNames returns the live named sessions, sorted.
func (s *Server) sessionNames() []string {
	sm := &s.sessions
	sm.mu.Lock()
	defer sm.mu.Unlock()
	s.expireSessions(s.now())
	names := make([]string, 0, len(sm.byName))
	for n := range sm.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (ss *session) String() string {
	if ss.name == "" {
		return "default"
	}
	return fmt.Sprintf("%q", ss.name)
}
