package mock

import (
	"context"
	"errors"
	"time"

	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/state"
)

// maxSessionName bounds the length of a session's name.
const maxSessionName = 128

// session is the state one set of clients sees: its resources, which the
// store keeps under the session's name, and the rest (see state.Session).
type session struct {
	name  string // "" for the default session
	state state.Session[journal.Entry]
}

// sessions are the sessions of a Server: the default one and the named
// ones, which the state backend keeps, bounded in number and idle time.
type sessions struct {
	backend state.Backend[journal.Entry]
	max     int
	idle    time.Duration
	now     func() time.Time // the clock sessions expire by
	def     *session
}

func newSessions(b state.Backend[journal.Entry], opts Options) sessions {
	return sessions{
		backend: b, max: orDefault(opts.Limits.MaxSessions, DefaultMaxSessions), idle: orDefault(opts.Limits.SessionIdle, DefaultSessionIdle),
		now: time.Now, def: &session{state: b.Default()},
	}
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
func (sm *sessions) get(ctx context.Context, name string, create bool) (*session, *problem.Problem) {
	if name == "" {
		return sm.def, nil
	}
	if len(name) > maxSessionName || !isToken68(name) {
		return sm.def, problem.Invalid(problem.CodeSession, problem.ClassRequest, "%s must be 1 to %d letters, digits or -._~+/ characters", SessionHeader, maxSessionName)
	}
	st, err := sm.backend.Session(ctx, name, sm.now(), create)
	switch {
	case errors.Is(err, state.ErrTooManySessions):
		return sm.def, problem.Invalid(problem.CodeSession, problem.ClassRequest, "too many sessions (%d); reuse one, or wait until idle ones expire after %s", sm.max, sm.idle)
	case err != nil:
		return sm.def, problem.Unavailable(err)
	case st == nil:
		return nil, nil
	}
	return &session{name: name, state: st}, nil
}

// reset empties the session's resources and journal and restarts its rule
// counters; the active scenario stays.
func (sm *sessions) reset(ctx context.Context, ss *session) error {
	return sm.backend.Reset(ctx, ss.state)
}

// active returns the session's active scenario as set has it: after a
// Reload, the one of the same name, or none when none is loaded. With
// state shared by replicas, a name not loaded is an error: another
// replica, with other scenarios, set it.
func (sm *sessions) active(ctx context.Context, ss *session, set *scenario.ScenarioSet) (*scenario.Compiled, error) {
	a, err := ss.state.Active(ctx)
	switch {
	case err != nil:
		return nil, err
	case !a.Set:
		return set.Initial, nil
	case a.Name == "":
		return nil, nil
	}
	if sc := set.Named(a.Name); sc != nil || !sm.backend.Shared() {
		return sc, nil
	}
	return nil, problem.Invalid(problem.CodeScenario, problem.ClassRequest, "the active scenario %q, set through another replica, is not loaded in this one; give every replica the same scenarios", clip(a.Name, 60))
}

// activate makes sc the session's active scenario; nil for none.
func (ss *session) activate(ctx context.Context, sc *scenario.Compiled) error {
	name := ""
	if sc != nil {
		name = sc.Name
	}
	return ss.state.Activate(ctx, name)
}

// subscribers returns the webhook subscribers set for the session
// through the admin API, by webhook name; a Subscriber with no URL
// stands for one removed. Webhooks the map leaves out have the
// subscribers of Options.Webhooks.Subscribers.
func (ss *session) subscribers(ctx context.Context) (map[string]Subscriber, error) {
	subs, err := ss.state.Subscribers(ctx)
	if err != nil || len(subs) == 0 {
		return nil, err
	}
	out := make(map[string]Subscriber, len(subs))
	for name, sub := range subs {
		out[name] = Subscriber(sub)
	}
	return out, nil
}

// subscribe sets the session's subscriber of the webhook called name.
func (ss *session) subscribe(ctx context.Context, name string, sub Subscriber) error {
	return ss.state.Subscribe(ctx, name, state.Subscriber(sub))
}
