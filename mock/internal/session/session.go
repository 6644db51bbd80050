package session

import (
	"context"
	"errors"
	"time"

	cliptext "github.com/plantmock/plantmock/internal/clip"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/state"
	"github.com/plantmock/plantmock/mock/internal/wire"
)

// Header gives a request its own session: its own store, journal, rule
// counters and active scenario. Requests without it share the default
// session.
const Header = "X-Mock-Session"

// maxSessionName bounds the length of a session's name.
const maxSessionName = 128

// Session is the state one set of clients sees: its resources, which the
// store keeps under the session's name, and the rest (see state.Session).
type Session struct {
	Name  string // "" for the default session
	State state.Session[journal.Entry]
}

// Sessions are the sessions of a Server: the default one and the named
// ones, which the state backend keeps, bounded in number and idle time.
type Sessions struct {
	Backend state.Backend[journal.Entry]
	max     int
	idle    time.Duration
	Now     func() time.Time // the clock sessions expire by
	Def     *Session
}

// NewSessions returns the sessions of b, at most max named ones, each
// expiring after idle.
func NewSessions(b state.Backend[journal.Entry], max int, idle time.Duration) Sessions {
	return Sessions{Backend: b, max: max, idle: idle, Now: time.Now, Def: &Session{State: b.Default()}}
}

// Get returns the session an X-Mock-Session value names; "" is the
// default session. A session not alive (new, or expired) is made only
// when create is set: else get returns nil and no problem. A malformed
// name, or a new one beyond the limit, gets the default session and a
// problem.
//
// Requests look their session up, and make it only once they are routed
// and authenticated (see checkSession), so that requests to no
// operation, or without credentials, cannot take the sessions' slots.
func (sm *Sessions) Get(ctx context.Context, name string, create bool) (*Session, *problem.Problem) {
	if name == "" {
		return sm.Def, nil
	}
	if len(name) > maxSessionName || !wire.IsToken68(name) {
		return sm.Def, problem.Invalid(problem.CodeSession, problem.ClassRequest, "%s must be 1 to %d letters, digits or -._~+/ characters", Header, maxSessionName)
	}
	st, err := sm.Backend.Session(ctx, name, sm.Now(), create)
	switch {
	case errors.Is(err, state.ErrTooManySessions):
		return sm.Def, problem.Invalid(problem.CodeSession, problem.ClassRequest, "too many sessions (%d); reuse one, or wait until idle ones expire after %s", sm.max, sm.idle)
	case err != nil:
		return sm.Def, problem.Unavailable(err)
	case st == nil:
		return nil, nil
	}
	return &Session{Name: name, State: st}, nil
}

// Sizes returns what the state holds in all sessions, as
// state.Backend.Sizes says.
func (sm *Sessions) Sizes() (entries, resources int64, ok bool) { return sm.Backend.Sizes() }

// Reset empties the session's resources and journal and restarts its rule
// counters; the active scenario stays.
func (sm *Sessions) Reset(ctx context.Context, ss *Session) error {
	return sm.Backend.Reset(ctx, ss.State)
}

// Active returns the session's active scenario of the document whose
// scenarios set holds, as set has it: after a Reload, the one of the
// same name, or none when none is loaded. Each document of a mock of
// several has its own (set.Doc). With state shared by replicas, a name
// not loaded is an error: another replica, with other scenarios, set it.
func (sm *Sessions) Active(ctx context.Context, ss *Session, set *scenario.Set) (*scenario.Compiled, error) {
	a, err := ss.State.Active(ctx, set.Doc)
	switch {
	case err != nil:
		return nil, err
	case !a.Set:
		return set.Initial, nil
	case a.Name == "":
		return nil, nil
	}
	if sc := set.Named(a.Name); sc != nil || !sm.Backend.Shared() {
		return sc, nil
	}
	return nil, problem.Invalid(problem.CodeScenario, problem.ClassRequest, "the active scenario %q, set through another replica, is not loaded in this one; give every replica the same scenarios", cliptext.To(a.Name, 60))
}

// Activate makes sc the session's active scenario of the document whose
// scenarios set holds; nil for none. Other documents' stay.
func (ss *Session) Activate(ctx context.Context, set *scenario.Set, sc *scenario.Compiled) error {
	name := ""
	if sc != nil {
		name = sc.Name
	}
	return ss.State.Activate(ctx, set.Doc, name)
}

// ActiveName names the session's active scenario of the document whose
// scenarios set holds (see Active); ok is false for none.
func (sm *Sessions) ActiveName(ctx context.Context, ss *Session, set *scenario.Set) (name string, ok bool, err error) {
	sc, err := sm.Active(ctx, ss, set)
	if sc == nil || err != nil {
		return "", false, err
	}
	return sc.Name, true, nil
}

// ActivateIn makes the scenario called *name active in the session for
// each document whose scenarios one of sets holds and loads one of that
// name, the others keeping theirs; nil makes none active in each. found
// reports whether a set loads the name (always, for nil).
func (ss *Session) ActivateIn(ctx context.Context, name *string, sets ...*scenario.Set) (found bool, err error) {
	for _, set := range sets {
		var sc *scenario.Compiled
		if name != nil {
			if sc = set.ByName[*name]; sc == nil {
				continue
			}
		}
		found = true
		if err := ss.Activate(ctx, set, sc); err != nil {
			return found, err
		}
	}
	return found || name == nil, nil
}

// Subscribers returns the webhook subscribers set for the session
// through the admin API, by webhook name; a Subscriber with no URL
// stands for one removed. Webhooks the map leaves out have the
// subscribers of Options.Webhooks.Subscribers.
func (ss *Session) Subscribers(ctx context.Context) (map[string]Subscriber, error) {
	subs, err := ss.State.Subscribers(ctx)
	if err != nil || len(subs) == 0 {
		return nil, err
	}
	out := make(map[string]Subscriber, len(subs))
	for name, sub := range subs {
		out[name] = Subscriber(sub)
	}
	return out, nil
}

// Subscribe sets the session's subscriber of the webhook called name.
func (ss *Session) Subscribe(ctx context.Context, name string, sub Subscriber) error {
	return ss.State.Subscribe(ctx, name, state.Subscriber(sub))
}

// Subscriber receives a webhook: the mock sends the webhook's requests
// to URL. Token, if set, is the credential for the security the webhook
// declares (a bearer token, an API key, or user:password for basic).
type Subscriber struct {
	URL   string `json:"url"`
	Token string `json:"token,omitempty"`
}
