package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/plantmock/plantmock/internal/redistest"
	"github.com/plantmock/plantmock/mock/internal/store/redisstore"
)

// sessionKeys returns the keys of session sess that newOpsStore's
// Options.Session names, in their order.
func sessionKeys(s *redisstore.Store, sess string) []string {
	base := s.SessionBase(sess)
	return []string{base + "clock", base + "read", base + "other"}
}

// TestTouch checks the bound on sessions, expiry by idle time, that a
// session's keys carry the idle time as their TTL and are deleted when
// it expires, and that Touch reads the key it is to read.
func TestTouch(t *testing.T) {
	ctx := context.Background()
	srv := redistest.NewServer(t)
	s := newOpsStore(t, srv, 10)
	c := srv.Client(t)
	t0 := time.UnixMilli(1_000_000)
	const idle = time.Minute
	touch := func(sess string, at time.Time) string {
		t.Helper()
		got, err := s.Touch(ctx, sess, sessionKeys(s, sess), at, idle, 2, true)
		return fmt.Sprintf("%v %q %v %v", got.Expired, got.Value, got.ValueSet, err)
	}
	look := func(sess string, at time.Time) string {
		t.Helper()
		got, err := s.Touch(ctx, sess, sessionKeys(s, sess), at, idle, 2, false)
		return fmt.Sprintf("%v %v %v", got.New, got.Expired, err)
	}
	put := func(sess string, key int, v string) {
		t.Helper()
		keys := sessionKeys(s, sess)
		if _, err := s.Call(ctx, "put", []string{keys[key], keys[0]}, []string{v}); err != nil {
			t.Fatal(err)
		}
	}
	ttl := func(key string) time.Duration {
		t.Helper()
		ms, err := c.Do(ctx, c.B().Pttl().Key(key).Build()).AsInt64()
		if err != nil {
			t.Fatal(err)
		}
		return time.Duration(ms) * time.Millisecond
	}
	// Looking a new session up makes nothing, however often.
	for _, n := range []string{"x", "y", "z"} {
		if got := look(n, t0); got != `true [] <nil>` {
			t.Errorf("looking %s up: %s", n, got)
		}
	}
	if got := touch("a", t0); got != `[] "" false <nil>` {
		t.Errorf("new a: %s", got)
	}
	if got := look("a", t0); got != `false [] <nil>` {
		t.Errorf("looking a up: %s", got)
	}
	put("a", 1, "slow")
	if got := touch("b", t0.Add(time.Second)); got != `[] "" false <nil>` {
		t.Errorf("new b: %s", got)
	}
	put("b", 1, "")
	if got := touch("b", t0.Add(2*time.Second)); got != `[] "" true <nil>` {
		t.Errorf("b with an empty value: %s", got)
	}
	if got := touch("c", t0.Add(30*time.Second)); got != `[] "" false `+redisstore.ErrTooManySessions.Error() {
		t.Errorf("a third within the idle time: %s", got)
	}
	if got := touch("a", t0.Add(50*time.Second)); got != `[] "slow" true <nil>` {
		t.Errorf("a again: %s", got)
	}
	// The session's keys live for the idle time from their last use.
	if d := ttl("p:s1:a:read"); d <= idle-time.Second || d > idle+idle/16 {
		t.Errorf("TTL of a's read key: %v; want from %v to %v", d, idle, idle+idle/16)
	}
	// A use within a sixteenth of idle of the last refresh refreshes
	// nothing: a key made since inherits the clock's TTL.
	touch("a", t0.Add(51*time.Second))
	put("a", 2, "x")
	touch("a", t0.Add(52*time.Second))
	for _, k := range []string{"clock", "read", "other"} {
		if d := ttl("p:s1:a:" + k); d <= idle-time.Second || d > idle+idle/16 {
			t.Errorf("TTL of a's %s: %v; want from %v to %v", k, d, idle, idle+idle/16)
		}
	}
	// b is idle past the limit at 1m3s: c takes its place, and b's keys
	// are gone.
	if got := touch("c", t0.Add(63*time.Second)); got != `[b] "" false <nil>` {
		t.Errorf("c once b is idle: %s", got)
	}
	// a, used again after its idle time, starts afresh: its keys are
	// gone, but for the clock, made again.
	if got := touch("a", t0.Add(3*time.Minute)); got != `[a] "" false <nil>` {
		t.Errorf("a after its idle time: %s", got)
	}
	for _, key := range append(sessionKeys(s, "a")[1:], sessionKeys(s, "b")...) {
		if n, err := c.Do(ctx, c.B().Exists().Key(key).Build()).AsInt64(); n != 0 || err != nil {
			t.Errorf("%s after its session expired: exists %d, %v; want gone", key, n, err)
		}
	}
	// The default session's keys have no TTL.
	put("", 1, "x")
	if d := ttl("p:s0::read"); d != -time.Millisecond {
		t.Errorf("TTL of the default session's read key: %v; want none", d)
	}
}

// TestSessionCallsUnavailable checks that the calls of sessions wrap
// ErrUnavailable once Redis is gone.
func TestSessionCallsUnavailable(t *testing.T) {
	ctx := context.Background()
	srv := redistest.NewServer(t)
	s := newOpsStore(t, srv, 10)
	srv.Close()
	_, touch := s.Touch(ctx, "a", sessionKeys(s, "a"), time.Now(), time.Minute, 10, true)
	_, call := s.Call(ctx, "note", []string{"p:n"}, []string{"x"})
	_, run := s.Run(ctx, "run", redisstore.NewScript("return 1"), nil)
	_, strMap := s.Do(ctx, "hgetall", "HGETALL", "p:h").StrMap()
	for name, err := range map[string]error{"Touch": touch, "Call": call, "Run": run, "Do": s.Do(ctx, "del", "DEL", "p:n").Err(),
		"Do StrMap": strMap, "Ping": s.Ping(ctx)} {
		if !errors.Is(err, redisstore.ErrUnavailable) {
			t.Errorf("%s: %v, want an error wrapping ErrUnavailable", name, err)
		}
	}
}
