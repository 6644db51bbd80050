package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/plantmock/plantmock/internal/redistest"
	"github.com/plantmock/plantmock/mock/internal/store/redisstore"
)

// TestTouch checks the bound on sessions, expiry by idle time, that a
// session's keys carry the idle time as their TTL, and that Touch reads
// the active scenario.
func TestTouch(t *testing.T) {
	ctx := context.Background()
	srv := redistest.NewServer(t)
	s := redisstore.NewTestStore(t, srv, "p:", 10)
	t0 := time.UnixMilli(1_000_000)
	const idle = time.Minute
	touch := func(sess string, at time.Time) string {
		t.Helper()
		got, err := s.Touch(ctx, sess, at, idle, 2, true)
		return fmt.Sprintf("%v %q %v %v", got.Expired, got.Active, got.ActiveSet, err)
	}
	look := func(sess string, at time.Time) string {
		t.Helper()
		got, err := s.Touch(ctx, sess, at, idle, 2, false)
		return fmt.Sprintf("%v %v %v", got.New, got.Expired, err)
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
	if err := s.SetActive(ctx, "a", "slow"); err != nil {
		t.Fatal(err)
	}
	if got := touch("b", t0.Add(time.Second)); got != `[] "" false <nil>` {
		t.Errorf("new b: %s", got)
	}
	if err := s.SetActive(ctx, "b", ""); err != nil {
		t.Fatal(err)
	}
	if got := touch("b", t0.Add(2*time.Second)); got != `[] "" true <nil>` {
		t.Errorf("b with none active: %s", got)
	}
	if got := touch("c", t0.Add(30*time.Second)); got != `[] "" false `+redisstore.ErrTooManySessions.Error() {
		t.Errorf("a third within the idle time: %s", got)
	}
	if got := touch("a", t0.Add(50*time.Second)); got != `[] "slow" true <nil>` {
		t.Errorf("a again: %s", got)
	}
	// The session's keys live for the idle time from their last use.
	c := srv.Client(t)
	if ms, err := c.Do(ctx, c.B().Pttl().Key("p:s1:a:active").Build()).AsInt64(); err != nil || time.Duration(ms)*time.Millisecond <= idle-time.Second || time.Duration(ms)*time.Millisecond > idle+idle/16 {
		ttl := time.Duration(ms) * time.Millisecond
		t.Errorf("TTL of a's active scenario: %v, %v; want from %v to %v", ttl, err, idle, idle+idle/16)
	}
	// A use within a sixteenth of idle of the last refresh refreshes
	// nothing: a key made since inherits the journal number's TTL, and the
	// others still live idle past the use.
	if _, err := s.Append(ctx, "a", redisstore.Keep{Size: 10}, []byte("x"), 1); err != nil {
		t.Fatal(err)
	}
	touch("a", t0.Add(51*time.Second)) // the journal's number has no TTL: a refresh
	if _, err := s.Hit(ctx, "a", "r", 1); err != nil {
		t.Fatal(err)
	}
	touch("a", t0.Add(52*time.Second))
	if ms, err := c.Do(ctx, c.B().Pttl().Key("p:s1:a:rules").Build()).AsInt64(); err != nil || time.Duration(ms)*time.Millisecond <= idle-time.Second {
		t.Errorf("TTL of a's rule counters, made after the last refresh: %d ms, %v; want over %v", ms, err, idle)
	}
	if ms, err := c.Do(ctx, c.B().Pttl().Key("p:s1:a:jseq").Build()).AsInt64(); err != nil || time.Duration(ms)*time.Millisecond <= idle-time.Second {
		t.Errorf("TTL of a's journal number: %d ms, %v; want over %v", ms, err, idle)
	}
	// b is idle past the limit at 1m3s: c takes its place.
	if got := touch("c", t0.Add(63*time.Second)); got != `[b] "" false <nil>` {
		t.Errorf("c once b is idle: %s", got)
	}
	// a, used again after its idle time, starts afresh.
	if got := touch("a", t0.Add(3*time.Minute)); got != `[a] "" false <nil>` {
		t.Errorf("a after its idle time: %s", got)
	}
	if name, ok, err := s.Active(ctx, "a"); name != "" || ok || err != nil {
		t.Errorf("a's active scenario after it expired: %q, %v, %v; want none set", name, ok, err)
	}
}

// TestSessionKeysExpire checks that every key of a named session expires
// after the idle time, also those its first use makes after Touch (a
// session used once leaves nothing behind), and that the default
// session's keys do not expire.
func TestSessionKeysExpire(t *testing.T) {
	ctx := context.Background()
	srv := redistest.NewServer(t)
	s := redisstore.NewTestStore(t, srv, "p:", 10)
	c := srv.Client(t)
	const idle = time.Minute
	ttl := func(key string) string {
		t.Helper()
		ms, err := c.Do(ctx, c.B().Pttl().Key(key).Build()).AsInt64()
		switch d := time.Duration(ms) * time.Millisecond; {
		case err != nil:
			return err.Error()
		case ms < 0:
			return fmt.Sprint(ms)
		case d > idle-time.Second && d <= idle+idle/16:
			return "idle"
		default:
			return d.String()
		}
	}
	// use makes every key of session sess, the active scenario twice (a
	// second SET keeps the TTL).
	use := func(sess string) {
		t.Helper()
		_, err := s.Append(ctx, sess, redisstore.Keep{Size: 10}, []byte("x"), 1)
		if err == nil {
			_, err = s.Hit(ctx, sess, "r", 1)
		}
		for _, name := range []string{"slow", "other"} {
			if err == nil {
				err = s.SetActive(ctx, sess, name)
			}
		}
		if err == nil {
			err = s.Subscribe(ctx, sess, "hook", []byte("{}"))
		}
		if err != nil {
			t.Fatalf("session %q: %v", sess, err)
		}
	}
	if _, err := s.Touch(ctx, "a", time.UnixMilli(1_000_000), idle, 10, true); err != nil {
		t.Fatal(err)
	}
	use("a")
	use("")
	// A journal reset keeps the session's TTL: a record appended after
	// it, before the session's next Touch, is numbered 1 and expires.
	for _, sess := range []string{"a", ""} {
		if err := s.ResetJournal(ctx, sess); err != nil {
			t.Fatal(err)
		}
		if n, err := s.Append(ctx, sess, redisstore.Keep{Size: 10}, []byte("y"), 1); err != nil || n != 1 {
			t.Fatalf("session %q: first record after the reset numbered %d, %v; want 1", sess, n, err)
		}
	}
	for _, k := range []string{"jseq", "journal", "rules", "active", "hooks"} {
		if got := ttl("p:s1:a:" + k); got != "idle" {
			t.Errorf("TTL of a's %s: %s; want from %v to %v", k, got, idle, idle+idle/16)
		}
		if got := ttl("p:s0::" + k); got != "-1" {
			t.Errorf("TTL of the default session's %s: %s; want none (-1)", k, got)
		}
	}
}

// TestHitAndJournal checks rule counters with every, and a journal capped
// at its size whose numbers run on, restarting at reset, whose stream is
// trimmed.
func TestHitAndJournal(t *testing.T) {
	ctx := context.Background()
	srv := redistest.NewServer(t)
	s := redisstore.NewTestStore(t, srv, "p:", 10)
	var got []int64
	for range 6 {
		n, err := s.Hit(ctx, "", "rule 1", 2)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, n)
	}
	if fmt.Sprint(got) != "[0 1 0 2 0 3]" {
		t.Errorf("every 2: answers %v, want [0 1 0 2 0 3]", got)
	}
	if err := s.ResetRules(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Hit(ctx, "", "rule 1", 1); n != 1 || err != nil {
		t.Errorf("after reset: %d, %v; want 1", n, err)
	}
	for i := 1; i <= 5; i++ {
		if seq, err := s.Append(ctx, "x", redisstore.Keep{Size: 3}, []byte(fmt.Sprint(i)), 1); seq != uint64(i) || err != nil {
			t.Errorf("Append %d: %d, %v", i, seq, err)
		}
	}
	recs, err := s.Journal(ctx, "x", 3)
	if fmt.Sprintf("%v %v", recs, err) != "[{3 [51]} {4 [52]} {5 [53]}] <nil>" {
		t.Errorf("journal of size 3 after 5: %v %v", recs, err)
	}
	// The stream is trimmed 64 records at a time: it keeps more than
	// size, but fewer than 64 beyond it, and Journal reads the newest
	// size.
	for i := 6; i <= 1000; i++ {
		if _, err := s.Append(ctx, "x", redisstore.Keep{Size: 3}, []byte(fmt.Sprint(i)), 1); err != nil {
			t.Fatal(err)
		}
	}
	c := srv.Client(t)
	if n, err := c.Do(ctx, c.B().Xlen().Key("p:s1:x:journal").Build()).AsInt64(); n < 3 || n > 66 || err != nil {
		t.Errorf("stream of size 3 after 1000: %d records, %v; want 3 to 66", n, err)
	}
	recs, err = s.Journal(ctx, "x", 3)
	if fmt.Sprintf("%v %v", recs, err) != "[{998 [57 57 56]} {999 [57 57 57]} {1000 [49 48 48 48]}] <nil>" {
		t.Errorf("journal of size 3 after 1000: %v %v", recs, err)
	}
	if err := s.ResetJournal(ctx, "x"); err != nil {
		t.Fatal(err)
	}
	if seq, err := s.Append(ctx, "x", redisstore.Keep{Size: 3}, []byte("a"), 1); seq != 1 || err != nil {
		t.Errorf("Append after reset: %d, %v; want 1", seq, err)
	}
	if recs, err := s.Journal(ctx, "", 3); len(recs) != 0 || err != nil {
		t.Errorf("another session's journal: %v, %v; want none", recs, err)
	}
}

// TestSessionCallsUnavailable checks that the calls of sessions wrap
// ErrUnavailable once Redis is gone.
func TestSessionCallsUnavailable(t *testing.T) {
	ctx := context.Background()
	srv := redistest.NewServer(t)
	s := redisstore.NewTestStore(t, srv, "p:", 10)
	srv.Close()
	_, touch := s.Touch(ctx, "a", time.Now(), time.Minute, 10, true)
	_, hit := s.Hit(ctx, "", "r", 1)
	_, _, active := s.Active(ctx, "")
	_, appendErr := s.Append(ctx, "", redisstore.Keep{Size: 10}, []byte("x"), 1)
	_, journal := s.Journal(ctx, "", 3)
	for name, err := range map[string]error{"Touch": touch, "Hit": hit, "Active": active, "SetActive": s.SetActive(ctx, "", "x"),
		"Append": appendErr, "Journal": journal, "ResetJournal": s.ResetJournal(ctx, ""), "ResetRules": s.ResetRules(ctx, ""), "Ping": s.Ping(ctx)} {
		if !errors.Is(err, redisstore.ErrUnavailable) {
			t.Errorf("%s: %v, want an error wrapping ErrUnavailable", name, err)
		}
	}
}

// TestAppendTogether checks that records appended at the same time, to
// two sessions, each get their own number in their session, and that
// the journal holds every one.
func TestAppendTogether(t *testing.T) {
	ctx := context.Background()
	s := redisstore.NewTestStore(t, redistest.NewServer(t), "p:", 10)
	const each = 200
	seqs := map[string][]uint64{"a": make([]uint64, each), "b": make([]uint64, each)}
	var wg sync.WaitGroup
	for sess, got := range seqs {
		for i := range each {
			wg.Go(func() {
				n, err := s.Append(ctx, sess, redisstore.Keep{Size: 1000}, []byte(fmt.Sprint(i)), 1)
				if err != nil {
					t.Error(err)
				}
				got[i] = n
			})
		}
	}
	wg.Wait()
	for sess, got := range seqs {
		slices.Sort(got)
		for i, n := range got {
			if n != uint64(i+1) {
				t.Fatalf("session %s: numbers %v, want 1 to %d once each", sess, got, each)
			}
		}
		recs, err := s.Journal(ctx, sess, 1000)
		if err != nil || len(recs) != each || recs[0].Seq != 1 || recs[each-1].Seq != each {
			t.Errorf("session %s: %d records, %v; want %d numbered 1 to %d", sess, len(recs), err, each, each)
		}
	}
	s.Close()
	if _, err := s.Append(ctx, "a", redisstore.Keep{Size: 10}, []byte("x"), 1); !errors.Is(err, redisstore.ErrUnavailable) {
		t.Errorf("Append after Close: %v, want an error wrapping ErrUnavailable", err)
	}
}

// TestJournalBytes: a journal drops its oldest records while their
// weights add up to more than its bound, keeps the newest whatever its
// weight, and counts its weight afresh once reset.
func TestJournalBytes(t *testing.T) {
	ctx := context.Background()
	srv := redistest.NewServer(t)
	s := redisstore.NewTestStore(t, srv, "p:", 10)
	c := srv.Client(t)
	weight := func() string {
		v, err := c.Do(ctx, c.B().Get().Key("p:s1:w:jbytes").Build()).ToString()
		return fmt.Sprintf("%s %v", v, err)
	}
	journal := func() string {
		recs, err := s.Journal(ctx, "w", 100)
		out := fmt.Sprint(err)
		for _, r := range recs {
			out += fmt.Sprintf(" %d:%s", r.Seq, r.Data)
		}
		return out
	}
	keep := redisstore.Keep{Size: 100, Bytes: 10}
	for i := 1; i <= 5; i++ {
		if seq, err := s.Append(ctx, "w", keep, []byte(fmt.Sprint(i)), 4); seq != uint64(i) || err != nil {
			t.Errorf("Append %d: %d, %v", i, seq, err)
		}
	}
	if got := journal(); got != "<nil> 4:4 5:5" {
		t.Errorf("records of 4 bytes under a bound of 10: %s", got)
	}
	if got := weight(); got != "8 <nil>" {
		t.Errorf("weight: %s, want 8", got)
	}
	if _, err := s.Append(ctx, "w", keep, []byte("big"), 30); err != nil {
		t.Fatal(err)
	}
	if got, w := journal(), weight(); got != "<nil> 6:big" || w != "30 <nil>" {
		t.Errorf("a record over the bound: %s, weight %s; want it alone, 30", got, w)
	}
	if err := s.ResetJournal(ctx, "w"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "w", keep, []byte("a"), 4); err != nil {
		t.Fatal(err)
	}
	if got, w := journal(), weight(); got != "<nil> 1:a" || w != "4 <nil>" {
		t.Errorf("after reset: %s, weight %s; want a alone, 4", got, w)
	}
}
