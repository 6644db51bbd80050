package session_test

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plantmock/plantmock"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/session"
	"github.com/plantmock/plantmock/mock/internal/state"
)

// memory opens the in-memory state backend, at most max named sessions
// each living idle unused.
func memory(t *testing.T, max int, idle time.Duration) state.Backend[journal.Entry] {
	t.Helper()
	b, err := state.Open(context.Background(), state.Options[journal.Entry]{
		Timeout: time.Second, MaxResources: 100, JournalSize: 10, JournalBytes: 1 << 20,
		MaxSessions: max, Idle: idle, Codec: journal.EntryCodec{},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// clocked returns the sessions of b on a clock the test moves: only the
// test's goroutine moves it, between calls.
func clocked(b state.Backend[journal.Entry], max int, idle time.Duration) (*session.Sessions, *time.Time) {
	sm := session.NewSessions(b, max, idle)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	sm.Now = func() time.Time { return now }
	return &sm, &now
}

// wantProblem fails unless p is the problem of code with message.
func wantProblem(t *testing.T, what string, p *problem.Problem, code problem.Code, message string) {
	t.Helper()
	if p == nil {
		t.Fatalf("%s: no problem, want %d %q", what, code, message)
	}
	if p.Code != code || p.Message != message {
		t.Errorf("%s: problem %d %q\nwant %d %q", what, p.Code, p.Message, code, message)
	}
}

// TestGetNames: "" is the default session; a malformed name is the
// default session and a problem; a well-formed one is looked up, and
// made only when asked to.
func TestGetNames(t *testing.T) {
	ctx := context.Background()
	b := memory(t, 5, time.Minute)
	sm, _ := clocked(b, 5, time.Minute)
	const malformed = "X-Mock-Session must be 1 to 128 letters, digits or -._~+/ characters"

	def, p := sm.Get(ctx, "", true)
	if p != nil || def != sm.Def || def.Name != "" || def.State != b.Default() {
		t.Errorf(`Get(""): %+v, %v; want the default session`, def, p)
	}
	for _, name := range []string{"has space", "semi;colon", "=", strings.Repeat("a", 129)} {
		ss, p := sm.Get(ctx, name, true)
		if ss != sm.Def {
			t.Errorf("Get(%.20q): %+v, want the default session", name, ss)
		}
		wantProblem(t, name, p, problem.CodeSession, malformed)
	}
	if ss, p := sm.Get(ctx, "job-a", false); ss != nil || p != nil {
		t.Errorf("Get(job-a) without create: %+v, %v; want nil, nil", ss, p)
	}
	if got := b.Names(); len(got) != 0 {
		t.Errorf("a lookup without create made sessions %q", got)
	}
	long := strings.Repeat("a", 126) + "=="
	for _, name := range []string{"job-a", "a.b_c~d+e/f", long} {
		ss, p := sm.Get(ctx, name, true)
		if p != nil || ss == nil || ss.Name != name || ss.State.Name() != name {
			t.Fatalf("Get(%.20q, create): %+v, %v", name, ss, p)
		}
		again, p := sm.Get(ctx, name, false)
		if p != nil || again == nil || again.State != ss.State {
			t.Errorf("Get(%.20q) once made: %+v, %v; want the same state", name, again, p)
		}
	}
}

// TestGetBound: a new session beyond the bound is refused until one has
// been idle for longer than the limit; a session in use stays alive.
func TestGetBound(t *testing.T) {
	ctx := context.Background()
	b := memory(t, 2, time.Minute)
	sm, now := clocked(b, 2, time.Minute)
	get := func(name string) *session.Session {
		t.Helper()
		ss, p := sm.Get(ctx, name, true)
		if p != nil || ss == nil || ss.Name != name {
			t.Fatalf("Get(%s): %+v, %v", name, ss, p)
		}
		return ss
	}
	a := get("job-a")
	get("job-b")
	ss, p := sm.Get(ctx, "job-c", true)
	if ss != sm.Def {
		t.Errorf("job-c beyond the bound: %+v, want the default session", ss)
	}
	wantProblem(t, "job-c beyond the bound", p, problem.CodeSession, "too many sessions (2); reuse one, or wait until idle ones expire after 1m0s")

	*now = now.Add(45 * time.Second)
	if again := get("job-a"); again.State != a.State {
		t.Error("job-a within its idle time is a new session")
	}
	*now = now.Add(45 * time.Second) // job-b idle 90s, job-a 45s
	get("job-c")
	if got, want := b.Names(), []string{"job-a", "job-c"}; !equal(got, want) {
		t.Errorf("sessions after job-b expired: %q, want %q", got, want)
	}
	*now = now.Add(61 * time.Second)
	if ss, p := sm.Get(ctx, "job-a", false); ss != nil || p != nil {
		t.Errorf("job-a after its idle time, without create: %+v, %v; want nil, nil", ss, p)
	}
	if fresh := get("job-a"); fresh.State == a.State {
		t.Error("job-a after its idle time is the expired session, not a new one")
	}
}

func equal(a, b []string) bool { return strings.Join(a, "\n") == strings.Join(b, "\n") }

// failing is a backend whose sessions cannot be reached, or, with
// shared, one that other processes share.
type failing struct {
	state.Backend[journal.Entry]
	err    error // Session's error
	shared bool
}

func (f failing) Session(ctx context.Context, name string, now time.Time, create bool) (state.Session[journal.Entry], error) {
	if f.err != nil {
		return nil, f.err
	}
	return f.Backend.Session(ctx, name, now, create)
}

func (f failing) Shared() bool { return f.shared }

// TestGetUnavailable: a backend that does not answer gives the default
// session and a 503 problem; a problem of its own is passed through.
func TestGetUnavailable(t *testing.T) {
	ctx := context.Background()
	down := failing{Backend: memory(t, 2, time.Minute), err: errors.New("dial tcp: connection refused")}
	sm := session.NewSessions(down, 2, time.Minute)
	ss, p := sm.Get(ctx, "job-a", true)
	if ss != sm.Def {
		t.Errorf("Get: %+v, want the default session", ss)
	}
	wantProblem(t, "backend down", p, problem.CodeUnavailable,
		"the mock's shared store did not answer in time; retry (a change asked for may or may not have been stored): dial tcp: connection refused")

	own := problem.Invalid(problem.CodeFull, problem.ClassRequest, "full")
	sm = session.NewSessions(failing{Backend: down.Backend, err: own}, 2, time.Minute)
	if _, p := sm.Get(ctx, "job-a", true); p != own {
		t.Errorf("Get with the backend's own problem: %v, want it passed through", p)
	}
}

// TestSizes: the sessions say what their state holds in all, as the
// backend does.
func TestSizes(t *testing.T) {
	ctx := context.Background()
	b := memory(t, 2, time.Minute)
	sm, _ := clocked(b, 2, time.Minute)
	a, _ := sm.Get(ctx, "job-a", true)
	for _, ss := range []*session.Session{sm.Def, a} {
		if _, err := ss.State.Record(ctx, journal.Entry{Method: "GET", Path: "/plants"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.Store().Create(ctx, "job-a", "/plants", "1", func(string) ([]byte, error) { return []byte(`{"id":1}`), nil }); err != nil {
		t.Fatal(err)
	}
	if entries, resources, ok := sm.Sizes(); entries != 2 || resources != 1 || !ok {
		t.Errorf("Sizes: %d entries, %d resources, %v; want 2, 1, true", entries, resources, ok)
	}
}

// TestReset: Reset empties the session's resources and journal and
// restarts its rule counters; its active scenario stays, and other
// sessions keep theirs.
func TestReset(t *testing.T) {
	ctx := context.Background()
	b := memory(t, 2, time.Minute)
	sm, _ := clocked(b, 2, time.Minute)
	set := compile(t, "a")
	rule := set.ByName["a"]
	fill := func(ss *session.Session) {
		t.Helper()
		if _, err := b.Store().Create(ctx, ss.Name, "/plants", "1", func(string) ([]byte, error) { return []byte(`{"id":1}`), nil }); err != nil {
			t.Fatal(err)
		}
		if _, err := ss.State.Record(ctx, journal.Entry{Method: "POST", Path: "/plants"}); err != nil {
			t.Fatal(err)
		}
		if sc, n := match(t, rule, ss); sc == nil || n != 1 {
			t.Fatalf("first match in %q: %v, %d", ss.Name, sc, n)
		}
	}
	a, _ := sm.Get(ctx, "job-a", true)
	other, _ := sm.Get(ctx, "job-b", true)
	fill(a)
	fill(other)
	if err := a.Activate(ctx, set, rule); err != nil {
		t.Fatal(err)
	}
	if err := sm.Reset(ctx, a); err != nil {
		t.Fatal(err)
	}
	if n, err := b.Store().Count(ctx, "job-a", "/plants"); n != 0 || err != nil {
		t.Errorf("job-a's plants after Reset: %d, %v; want 0", n, err)
	}
	if es, err := a.State.Entries(ctx); len(es) != 0 || err != nil {
		t.Errorf("job-a's journal after Reset: %d entries, %v; want 0", len(es), err)
	}
	if _, n := match(t, rule, a); n != 1 {
		t.Errorf("job-a's rule count after Reset: %d, want 1", n)
	}
	if sc, err := sm.Active(ctx, a, set); sc != rule || err != nil {
		t.Errorf("job-a's active scenario after Reset: %v, %v; want a", sc, err)
	}
	if n, _ := b.Store().Count(ctx, "job-b", "/plants"); n != 1 {
		t.Errorf("job-b's plants after job-a's Reset: %d, want 1", n)
	}
	if es, _ := other.State.Entries(ctx); len(es) != 1 {
		t.Errorf("job-b's journal after job-a's Reset: %d entries, want 1", len(es))
	}
	if _, n := match(t, rule, other); n != 2 {
		t.Errorf("job-b's rule count after job-a's Reset: %d, want 2", n)
	}
}

// compile compiles scenarios of one rule each (a 400 to every request),
// named names, against the Plant Store, the first active.
func compile(t *testing.T, names ...string) *scenario.Set {
	t.Helper()
	return compileFor(t, "", names...)
}

// compileFor is compile for the document called doc of a mock of
// several.
func compileFor(t *testing.T, doc string, names ...string) *scenario.Set {
	t.Helper()
	model, err := openapi.Load([]byte(plantmock.OpenAPI))
	if err != nil {
		t.Fatal(err)
	}
	var scs []*scenario.Scenario
	for _, n := range names {
		scs = append(scs, &scenario.Scenario{Name: n, Rules: []scenario.Rule{{Respond: scenario.Respond{Status: 400}}}})
	}
	c := scenario.Compiling{Doc: model, Name: doc, Success: func(*openapi.Operation) int { return 200 }, Log: slog.New(slog.DiscardHandler)}
	set, err := scenario.CompileScenarios(c, nil, scs, names[0])
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// match matches a create in ss against sc: the rule and its count.
func match(t *testing.T, sc *scenario.Compiled, ss *session.Session) (*scenario.Script, int64) {
	t.Helper()
	rl, n, err := sc.Match(context.Background(), scenario.Request{}, ss.State)
	if err != nil {
		t.Fatal(err)
	}
	return rl, n
}

// TestActive: a session's active scenario is the set's initial one until
// one is activated; nil activates none; a name the set does not load is
// none in memory, and a problem when replicas share the state.
func TestActive(t *testing.T) {
	ctx := context.Background()
	b := memory(t, 2, time.Minute)
	set := compile(t, "a", "b")
	sm, _ := clocked(b, 2, time.Minute)
	ss, _ := sm.Get(ctx, "job", true)
	active := func(sm *session.Sessions) string {
		t.Helper()
		sc, err := sm.Active(ctx, ss, set)
		if err != nil {
			return "error: " + err.Error()
		}
		if sc == nil {
			return "none"
		}
		return sc.Name
	}
	if got := active(sm); got != "a" {
		t.Errorf("before any activation: %s, want the initial a", got)
	}
	if err := ss.Activate(ctx, set, set.ByName["b"]); err != nil {
		t.Fatal(err)
	}
	if got := active(sm); got != "b" {
		t.Errorf("after activating b: %s", got)
	}
	if a, _ := sm.Def.State.Active(ctx, ""); a.Set {
		t.Errorf("activating in job set the default session's too: %+v", a)
	}
	if err := ss.Activate(ctx, set, nil); err != nil {
		t.Fatal(err)
	}
	if got := active(sm); got != "none" {
		t.Errorf("after activating none: %s", got)
	}

	// Several active together, the set's initial one, is found by name.
	if err := set.Activate("b,a", false); err != nil {
		t.Fatal(err)
	}
	if err := ss.Activate(ctx, set, set.Initial); err != nil {
		t.Fatal(err)
	}
	if got := active(sm); got != "b,a" {
		t.Errorf(`after activating "b,a": %s`, got)
	}

	gone := &scenario.Compiled{Name: "gone"}
	if err := ss.Activate(ctx, set, gone); err != nil {
		t.Fatal(err)
	}
	if got := active(sm); got != "none" {
		t.Errorf("a name not loaded, in memory: %s, want none", got)
	}
	shared := session.NewSessions(failing{Backend: b, shared: true}, 2, time.Minute)
	const want = `error: the active scenario "gone", set through another replica, is not loaded in this one; give every replica the same scenarios`
	if got := active(&shared); got != want {
		t.Errorf("a name not loaded, shared:\n%s\nwant\n%s", got, want)
	}
	_, err := shared.Active(ctx, ss, set)
	var p *problem.Problem
	if !errors.As(err, &p) || p.Code != problem.CodeScenario {
		t.Errorf("the error of a name not loaded: %#v, want a problem of code %d", err, problem.CodeScenario)
	}
}

// TestDocumentsApart: in a mock of several documents, each document's
// scenario is activated in a session apart from the others', and each
// document's rules count on when requests alternate between documents.
func TestDocumentsApart(t *testing.T) {
	ctx := context.Background()
	b := memory(t, 2, time.Minute)
	sm, _ := clocked(b, 2, time.Minute)
	one, two := compileFor(t, "one", "busy"), compileFor(t, "two", "busy", "down")
	ss, _ := sm.Get(ctx, "job", true)
	if err := ss.Activate(ctx, one, nil); err != nil {
		t.Fatal(err)
	}
	if err := ss.Activate(ctx, two, two.ByName["down"]); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		set  *scenario.Set
		want *scenario.Compiled
	}{{one, nil}, {two, two.ByName["down"]}} {
		if sc, err := sm.Active(ctx, ss, c.set); sc != c.want || err != nil {
			t.Errorf("%s's active: %v %v, want %v", c.set.Doc, sc, err, c.want)
		}
	}
	busy, nope := "busy", "nope"
	if found, err := ss.ActivateIn(ctx, &nope, one, two); found || err != nil {
		t.Errorf("ActivateIn a name no set loads: %v %v, want not found", found, err)
	}
	if found, err := ss.ActivateIn(ctx, &busy, one); !found || err != nil {
		t.Errorf("ActivateIn busy in one: %v %v, want found", found, err)
	}
	for _, c := range []struct {
		set  *scenario.Set
		want string
	}{{one, "busy"}, {two, "down"}} {
		if name, ok, err := sm.ActiveName(ctx, ss, c.set); name != c.want || !ok || err != nil {
			t.Errorf("%s's active after ActivateIn: %q %v %v, want %s", c.set.Doc, name, ok, err, c.want)
		}
	}
	var got []int64
	for range 3 {
		for _, sc := range []*scenario.Compiled{one.ByName["busy"], two.ByName["busy"]} {
			_, n := match(t, sc, ss)
			got = append(got, n)
		}
	}
	if want := []int64{1, 1, 2, 2, 3, 3}; !slices.Equal(got, want) {
		t.Errorf("counts of alternating requests: %v, want %v", got, want)
	}
}

// TestSubscribers: each session keeps the subscribers set for it; one
// with no URL stands for one removed.
func TestSubscribers(t *testing.T) {
	ctx := context.Background()
	b := memory(t, 2, time.Minute)
	sm, _ := clocked(b, 2, time.Minute)
	ss, _ := sm.Get(ctx, "job", true)
	if subs, err := ss.Subscribers(ctx); subs != nil || err != nil {
		t.Errorf("before any: %v, %v; want nil", subs, err)
	}
	want := map[string]session.Subscriber{
		"/plant/webhook": {URL: "http://127.0.0.1:1/hook", Token: "s3cret"},
		"removed":        {},
	}
	for name, sub := range want {
		if err := ss.Subscribe(ctx, name, sub); err != nil {
			t.Fatal(err)
		}
	}
	if subs, err := ss.Subscribers(ctx); !maps.Equal(subs, want) || err != nil {
		t.Errorf("job's subscribers: %v, %v\nwant %v", subs, err, want)
	}
	if subs, err := sm.Def.Subscribers(ctx); subs != nil || err != nil {
		t.Errorf("the default session's subscribers: %v, %v; want nil", subs, err)
	}
}
