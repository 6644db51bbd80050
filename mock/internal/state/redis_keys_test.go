package state

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plantmock/plantmock/internal/redistest"
	"github.com/plantmock/plantmock/mock/internal/store"
)

// text is a Codec of string entries, weighed by their length.
type text struct{}

func (text) Weight(e string) int                { return len(e) }
func (text) Number(*string, uint64)             {}
func (text) Append(buf []byte, e string) []byte { return append(buf, e...) }
func (text) Decode(data []byte, e *string) error {
	*e = string(data)
	return nil
}

// openTestRedis opens a Redis backend on srv whose keys start with "p:",
// whose sessions live an hour unused; the test's cleanup closes it.
func openTestRedis(t *testing.T, srv *redistest.Server, size int) *redis[string] {
	t.Helper()
	r, err := openRedis(context.Background(), Options[string]{URL: srv.URL(0), Prefix: "p:", Timeout: 5 * time.Second, MaxResources: 100,
		JournalSize: size, JournalBytes: 1 << 20, MaxSessions: 4, Idle: time.Hour, Codec: text{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// useAll makes every key of what session ss holds in Redis: a resource,
// its journal, rule counters, active scenario and subscribers; the rule
// and scenario of a document of several, whose forms are the longer.
func useAll(t *testing.T, r *redis[string], ss Session[string]) {
	t.Helper()
	ctx := context.Background()
	rl := NewRuleSet("doc").Add("r", 1)
	_, err := r.Store().Create(ctx, ss.Name(), "/plants", "a", func(string) ([]byte, error) { return []byte(`{}`), nil })
	if err == nil {
		_, err = ss.Record(ctx, "x")
	}
	if err == nil {
		_, err = ss.Hit(ctx, &rl)
	}
	if err == nil {
		err = ss.Activate(ctx, "doc", "slow")
	}
	if err == nil {
		err = ss.Subscribe(ctx, "hook", Subscriber{URL: "http://127.0.0.1:1/"})
	}
	if err != nil {
		t.Fatalf("session %q: %v", ss.Name(), err)
	}
}

// TestRedisSessionKeys checks the recipe of a new piece of per-session
// state: the keys of what a session holds are the ones sessionKeys
// names, every one of them is made by using the session, Reset deletes
// all but the active scenario, the subscribers and the journal's
// number, and an expired session leaves no key behind, resources
// included. A key that state uses but does not name, or names but does
// not delete, fails it.
func TestRedisSessionKeys(t *testing.T) {
	ctx := context.Background()
	srv := redistest.NewServer(t)
	c := srv.Client(t)
	r := openTestRedis(t, srv, 10)
	// under lists the state keys under a session's base by their
	// suffix, and its resources' keys as "resources".
	under := func(sess string) []string {
		t.Helper()
		base := r.rs.SessionBase(sess)
		keys, err := c.Do(ctx, c.B().Keys().Pattern(base+"*").Build()).AsStrSlice()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, k := range keys {
			suffix := strings.TrimPrefix(k, base)
			if suffix == "cols" || strings.HasPrefix(suffix, "c") && strings.Contains(suffix, ":") {
				suffix = "resources"
			}
			out = append(out, suffix)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	named := sessionKeys().Suffixes
	all := append(slices.Clone(named), "resources")
	slices.Sort(all)
	var kept []string // what Reset keeps
	for _, i := range []int{keySeq, keyActive, keyHooks} {
		kept = append(kept, named[i])
	}
	slices.Sort(kept)

	t0 := time.UnixMilli(1_000_000)
	a, err := r.Session(ctx, "a", t0, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, ss := range []Session[string]{r.Default(), a} {
		useAll(t, r, ss)
		if got := under(ss.Name()); !slices.Equal(got, all) {
			t.Errorf("session %q holds %q; want %q, what sessionKeys names and resources", ss.Name(), got, all)
		}
		if err := r.Reset(ctx, ss); err != nil {
			t.Fatal(err)
		}
		if got := under(ss.Name()); !slices.Equal(got, kept) {
			t.Errorf("session %q after Reset holds %q; want %q", ss.Name(), got, kept)
		}
		useAll(t, r, ss)
	}
	// Looked up past its idle time, a has expired: nothing of it stays,
	// and nothing is made.
	if ss, err := r.Session(ctx, "a", t0.Add(time.Hour+time.Millisecond), false); ss != nil || err != nil {
		t.Fatalf("a after its idle time: %v, %v; want none", ss, err)
	}
	if got := under("a"); len(got) != 0 {
		t.Errorf("expired session a holds %q; want nothing", got)
	}
	if got := under(""); !slices.Equal(got, all) {
		t.Errorf("the default session holds %q after a expired; want %q", got, all)
	}
}

// TestRedisKeysLive checks that every key of a named session expires
// after the idle time, also those its first use makes after Touch (a
// session used once leaves nothing behind) and a journal reset keeps it,
// and that the default session's keys do not expire.
func TestRedisKeysLive(t *testing.T) {
	ctx := context.Background()
	srv := redistest.NewServer(t)
	c := srv.Client(t)
	r := openTestRedis(t, srv, 10)
	idle := r.opts.Idle
	ttl := func(key string) string {
		t.Helper()
		ms, err := c.Do(ctx, c.B().Pttl().Key(key).Build()).AsInt64()
		switch d := time.Duration(ms) * time.Millisecond; {
		case err != nil:
			return err.Error()
		case ms < 0:
			return fmt.Sprint(ms)
		case d > idle-time.Minute && d <= idle+idle/16:
			return "idle"
		default:
			return d.String()
		}
	}
	a, err := r.Session(ctx, "a", time.UnixMilli(1_000_000), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, ss := range []Session[string]{a, r.Default()} {
		useAll(t, r, ss)
		if err := ss.Activate(ctx, "", "other"); err != nil { // a second SET keeps the TTL
			t.Fatal(err)
		}
		// A journal reset keeps the session's TTL: an entry recorded
		// after it, before the session's next Touch, is numbered 1 and
		// expires.
		if err := ss.ResetJournal(ctx); err != nil {
			t.Fatal(err)
		}
		if n, err := ss.Record(ctx, "y"); err != nil || n != 1 {
			t.Fatalf("session %q: first entry after the reset numbered %d, %v; want 1", ss.Name(), n, err)
		}
	}
	for _, k := range sessionKeys().Suffixes {
		if got := ttl("p:s1:a:" + k); got != "idle" {
			t.Errorf("TTL of a's %s: %s; want from %v to %v", k, got, idle, idle+idle/16)
		}
		if got := ttl("p:s0::" + k); got != "-1" {
			t.Errorf("TTL of the default session's %s: %s; want none (-1)", k, got)
		}
	}
}

// TestRedisJournalTrim checks that the journal's stream is trimmed 64
// records at a time (it keeps more than its size, but fewer than 64
// beyond it, and Entries reads the newest), and that its weight counts
// what it keeps.
func TestRedisJournalTrim(t *testing.T) {
	ctx := context.Background()
	srv := redistest.NewServer(t)
	c := srv.Client(t)
	r := openTestRedis(t, srv, 3)
	ss := r.Default()
	for i := 1; i <= 1000; i++ {
		if n, err := ss.Record(ctx, fmt.Sprint(i)); n != uint64(i) || err != nil {
			t.Fatalf("Record %d: %d, %v", i, n, err)
		}
	}
	if n, err := c.Do(ctx, c.B().Xlen().Key("p:s0::journal").Build()).AsInt64(); n < 3 || n > 66 || err != nil {
		t.Errorf("stream of size 3 after 1000: %d records, %v; want 3 to 66", n, err)
	}
	got, err := ss.Entries(ctx)
	if fmt.Sprint(got, err) != "[998 999 1000] <nil>" {
		t.Errorf("entries of size 3 after 1000: %v %v", got, err)
	}
	var weight int64
	msgs, err := c.Do(ctx, c.B().Xrange().Key("p:s0::journal").Start("-").End("+").Build()).AsXRange()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		weight += int64(len(m.FieldValues["d"]))
	}
	if w, err := c.Do(ctx, c.B().Get().Key("p:s0::jbytes").Build()).AsInt64(); w != weight || err != nil {
		t.Errorf("journal weight: %d, %v; want %d, that of the records kept", w, err, weight)
	}
}

// TestRedisUnavailable checks that the calls of sessions wrap
// store.ErrUnavailable once Redis is gone.
func TestRedisUnavailable(t *testing.T) {
	ctx := context.Background()
	srv := redistest.NewServer(t)
	r := openTestRedis(t, srv, 10)
	ss := r.Default()
	srv.Close()
	_, session := r.Session(ctx, "a", time.Now(), true)
	_, record := ss.Record(ctx, "x")
	_, entries := ss.Entries(ctx)
	rl := NewRuleSet("").Add("r", 1)
	_, hit := ss.Hit(ctx, &rl)
	_, active := ss.Active(ctx, "")
	_, subs := ss.Subscribers(ctx)
	_, _, created := ss.(CreateJournaler[string]).CreateJournaled(ctx, "/plants", "a", func(string) ([]byte, error) { return []byte(`{}`), nil }, func() string { return "x" })
	for name, err := range map[string]error{"Session": session, "Record": record, "Entries": entries, "ResetJournal": ss.ResetJournal(ctx),
		"Hit": hit, "ResetRules": ss.ResetRules(ctx), "Active": active, "Activate": ss.Activate(ctx, "", "x"),
		"Subscribers": subs, "Subscribe": ss.Subscribe(ctx, "h", Subscriber{}), "CreateJournaled": created, "Health": r.Health(ctx)} {
		if !errors.Is(err, store.ErrUnavailable) {
			t.Errorf("%s: %v, want an error wrapping store.ErrUnavailable", name, err)
		}
	}
}
