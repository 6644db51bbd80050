package redisstore

import (
	"context"
	"fmt"
)

// A request that goes on with the active scenario its process saw last,
// instead of reading it first, has its create make sure of it: under
// ExpectActive, the create runs only while the session's active scenario
// is still the one expected, checked by the same operation in Redis, and
// otherwise stores nothing and says which one it is (StaleError). A
// change of scenario through another replica is then never missed, and
// a create makes one round trip to Redis fewer.

// ExpectActive returns a context under which Create stores nothing unless
// session's active scenario is still what Active returned as name and
// set; when it is another, Create fails with a *StaleError.
func ExpectActive(ctx context.Context, name string, set bool) context.Context {
	return context.WithValue(ctx, expectKey{}, activeValue(name, set))
}

type expectKey struct{}

// StaleError is the error of a Create under ExpectActive whose session's
// active scenario is another: Active and Set are what Active returns now.
type StaleError struct {
	Active string
	Set    bool
}

func (e *StaleError) Error() string {
	if !e.Set {
		return "redisstore: the session's active scenario changed: none is set"
	}
	return fmt.Sprintf("redisstore: the session's active scenario changed: it is %q", e.Active)
}

// activeValue is how a session's active scenario is compared in
// batchScript: "0" when none was set, "1" and the name when one was (""
// for none active).
func activeValue(name string, set bool) string {
	if !set {
		return "0"
	}
	return "1" + name
}

// guardOf returns the guard of session sess's creates under ctx: its
// active scenario as ExpectActive expects it, or none.
func (s *Store) guardOf(ctx context.Context, sess string) guard {
	want, ok := ctx.Value(expectKey{}).(string)
	if !ok {
		return guard{}
	}
	return guard{key: s.state(sess).active, want: want}
}

// staleError returns a *StaleError when an operation under g answered
// that its key holds another value ({"stale", value}), else nil.
func staleError(g guard, v any) error {
	a, ok := v.([]any)
	if g.key == "" || !ok || len(a) != 2 || a[0] != "stale" {
		return nil
	}
	now, _ := a[1].(string)
	if now == "0" {
		return &StaleError{}
	}
	return &StaleError{Active: now[1:], Set: true}
}
