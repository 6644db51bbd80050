package statetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock/internal/state"
	"github.com/plantmock/plantmock/mock/internal/store"
)

// Entry is the suite's journal entry.
type Entry struct {
	Seq  uint64
	Data string
}

// Codec is the suite's state.Codec: an entry weighs the bytes of its
// Data, and is stored as its Data.
type Codec struct{}

var _ state.Codec[Entry] = Codec{}

func (Codec) Weight(e Entry) int                { return len(e.Data) }
func (Codec) Number(e *Entry, seq uint64)       { e.Seq = seq }
func (Codec) Append(buf []byte, e Entry) []byte { return append(buf, e.Data...) }
func (Codec) Decode(data []byte, e *Entry) error {
	if strings.HasPrefix(string(data), "bad") {
		return errors.New("a bad entry")
	}
	e.Data = string(data)
	return nil
}

// Open returns a fresh backend with opts, whose Codec is Codec; Run
// calls it once per subtest.
type Open func(t *testing.T, opts state.Options[Entry]) state.Backend[Entry]

// Run tests a Backend implementation.
func Run(t *testing.T, open Open) {
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := state.Options[Entry]{MaxResources: 100, JournalSize: 1000, JournalBytes: 1 << 20, MaxSessions: 4, Idle: time.Hour, Codec: Codec{}}
			if tc.opts != nil {
				tc.opts(&opts)
			}
			b := open(t, opts)
			t.Cleanup(func() { b.Close() })
			tc.test(t, b)
		})
	}
}

var tests = []struct {
	name string
	opts func(*state.Options[Entry])
	test func(t *testing.T, b state.Backend[Entry])
}{
	{name: "JournalNumbersAndKeepsNewest", opts: func(o *state.Options[Entry]) { o.JournalSize = 3 }, test: testJournalNewest},
	{name: "JournalByteShare", opts: func(o *state.Options[Entry]) { o.MaxSessions, o.JournalBytes = 1, 600 }, test: testJournalBytes},
	{name: "StartRecordInOrder", test: testStartRecord},
	{name: "NoJournal", opts: func(o *state.Options[Entry]) { o.JournalSize = -1 }, test: testNoJournal},
	{name: "SessionsApart", test: testSessionsApart},
	{name: "SessionMadeWhenAsked", test: testSessionMade},
	{name: "SessionBound", opts: func(o *state.Options[Entry]) { o.MaxSessions = 2 }, test: testSessionBound},
	{name: "Rules", test: testRules},
	{name: "Active", test: testActive},
	{name: "DocumentsApart", test: testDocumentsApart},
	{name: "Subscribers", test: testSubscribers},
	{name: "Reset", test: testReset},
	{name: "CreateJournaled", test: testCreateJournaled},
	{name: "Backend", test: testBackend},
}

var ctx = context.Background()

// t0 is the suite's clock at the start of a subtest.
var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func session(t *testing.T, b state.Backend[Entry], name string, now time.Time) state.Session[Entry] {
	t.Helper()
	ss, err := b.Session(ctx, name, now, true)
	if err != nil || ss == nil || ss.Name() != name {
		t.Fatalf("session %q: %v %v", name, ss, err)
	}
	return ss
}

func record(t *testing.T, ss state.Session[Entry], data string, want uint64) {
	t.Helper()
	if seq, err := ss.Record(ctx, Entry{Data: data}); err != nil || seq != want {
		t.Fatalf("record %.20q in %q: %d %v, want %d", data, ss.Name(), seq, err, want)
	}
}

// journal returns the session's journal as "seq data" pairs.
func journal(t *testing.T, ss state.Session[Entry]) string {
	t.Helper()
	es, err := ss.Entries(ctx)
	if err != nil {
		t.Fatalf("entries of %q: %v", ss.Name(), err)
	}
	var out []string
	for _, e := range es {
		out = append(out, strconv.FormatUint(e.Seq, 10)+" "+e.Data)
	}
	return strings.Join(out, ", ")
}

func expect(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s: %s\nwant %s", what, got, want)
	}
}

// testStartRecord: entries started one after another, their numbers
// waited for later, are numbered in that order, before an entry recorded
// after them; in two sessions apart.
func testStartRecord(t *testing.T, b state.Backend[Entry]) {
	for _, ss := range []state.Session[Entry]{b.Default(), session(t, b, "s", t0)} {
		var ps []state.Pending
		for i := range 20 {
			ps = append(ps, ss.StartRecord(ctx, Entry{Data: fmt.Sprint("e", i+1)}))
		}
		record(t, ss, "after", 21)
		for i, p := range ps {
			if seq, err := p.Wait(ctx); err != nil || seq != uint64(i+1) {
				t.Errorf("%q: entry %d numbered %d %v", ss.Name(), i+1, seq, err)
			}
		}
		es, err := ss.Entries(ctx)
		if err != nil || len(es) != 21 || es[0].Data != "e1" || es[19].Data != "e20" || es[20].Data != "after" || es[20].Seq != 21 {
			t.Errorf("%q: entries %v %v", ss.Name(), es, err)
		}
	}
}

func testJournalNewest(t *testing.T, b state.Backend[Entry]) {
	ss := b.Default()
	for i := range 5 {
		record(t, ss, fmt.Sprint("e", i+1), uint64(i+1))
	}
	expect(t, "the newest 3", journal(t, ss), "3 e3, 4 e4, 5 e5")
	if err := ss.ResetJournal(ctx); err != nil {
		t.Fatal(err)
	}
	expect(t, "after reset", journal(t, ss), "")
	record(t, ss, "again", 1)
	expect(t, "numbered afresh", journal(t, ss), "1 again")
}

// testJournalBytes: each session's journal keeps its share of
// JournalBytes, 600 / (1 + 1), of the newest entries, and the newest
// whatever its weight.
func testJournalBytes(t *testing.T, b state.Backend[Entry]) {
	for _, ss := range []state.Session[Entry]{b.Default(), session(t, b, "a", t0)} {
		for i := range 5 {
			record(t, ss, fmt.Sprintf("%d%s", i+1, strings.Repeat("x", 99)), uint64(i+1))
		}
		es, _ := ss.Entries(ctx)
		if len(es) != 3 || es[0].Seq != 3 {
			t.Errorf("%q: %d entries from %d, want 3 from 3", ss.Name(), len(es), es[0].Seq)
		}
		record(t, ss, strings.Repeat("y", 1000), 6)
		if es, _ := ss.Entries(ctx); len(es) != 1 || es[0].Seq != 6 {
			t.Errorf("%q: %d entries after one over the share, want the newest alone", ss.Name(), len(es))
		}
	}
}

func testNoJournal(t *testing.T, b state.Backend[Entry]) {
	for _, ss := range []state.Session[Entry]{b.Default(), session(t, b, "a", t0)} {
		record(t, ss, "e", 0)
		expect(t, ss.Name()+": entries", journal(t, ss), "")
		if cj, ok := ss.(state.CreateJournaler[Entry]); ok {
			key, seq, err := cj.CreateJournaled(ctx, "/c", "k", doc(`{}`), func() Entry { return Entry{Data: "created"} })
			if key != "k" || seq != 0 || err != nil {
				t.Errorf("%q: create journaled without a journal: %q %d %v", ss.Name(), key, seq, err)
			}
		}
	}
}

func doc(s string) func(string) ([]byte, error) {
	return func(string) ([]byte, error) { return []byte(s), nil }
}

func testSessionsApart(t *testing.T, b state.Backend[Entry]) {
	def, a, bb := b.Default(), session(t, b, "a", t0), session(t, b, "b", t0)
	record(t, def, "d1", 1)
	record(t, a, "a1", 1)
	record(t, a, "a2", 2)
	expect(t, "default", journal(t, def), "1 d1")
	expect(t, "a", journal(t, a), "1 a1, 2 a2")
	expect(t, "b", journal(t, bb), "")
	if _, err := b.Store().Create(ctx, "a", "/c", "1", doc(`{"v":1}`)); err != nil {
		t.Fatal(err)
	}
	for _, sess := range []string{"", "b"} {
		if _, err := b.Store().Get(ctx, sess, "/c", "1"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a's resource in %q: %v", sess, err)
		}
	}
	// A session's state holds from one Session call to the next.
	expect(t, "a again", journal(t, session(t, b, "a", t0.Add(time.Minute))), "1 a1, 2 a2")
}

func testSessionMade(t *testing.T, b state.Backend[Entry]) {
	if ss, err := b.Session(ctx, "a", t0, false); ss != nil || err != nil {
		t.Fatalf("a session not asked for: %v %v", ss, err)
	}
	session(t, b, "a", t0)
	if ss, err := b.Session(ctx, "a", t0, false); ss == nil || err != nil || ss.Name() != "a" {
		t.Fatalf("a session made: %v %v", ss, err)
	}
}

// testSessionBound: with two sessions alive, a third is refused, until
// one has been idle for longer than Idle: it is dropped with its
// resources and journal.
func testSessionBound(t *testing.T, b state.Backend[Entry]) {
	a := session(t, b, "a", t0)
	record(t, a, "a1", 1)
	if _, err := b.Store().Create(ctx, "a", "/c", "1", doc(`{}`)); err != nil {
		t.Fatal(err)
	}
	session(t, b, "b", t0.Add(30*time.Minute))
	if ss, err := b.Session(ctx, "c", t0.Add(30*time.Minute), true); ss != nil || !errors.Is(err, state.ErrTooManySessions) {
		t.Fatalf("a third session: %v %v, want %v", ss, err, state.ErrTooManySessions)
	}
	session(t, b, "c", t0.Add(61*time.Minute)) // a has expired
	if _, err := b.Store().Get(ctx, "a", "/c", "1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the expired session's resource: %v", err)
	}
	if ss, err := b.Session(ctx, "a", t0.Add(62*time.Minute), false); ss != nil || err != nil {
		t.Errorf("the expired session: %v %v, want none", ss, err)
	}
}

func testRules(t *testing.T, b state.Backend[Entry]) {
	set := state.NewRuleSet("")
	r1, r2 := set.Add("rule 1", 0), set.Add("rule 2", 2)
	def, a := b.Default(), session(t, b, "a", t0)
	hits := func(ss state.Session[Entry], r *state.Rule, n int) string {
		t.Helper()
		var out []string
		for range n {
			h, err := ss.Hit(ctx, r)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, strconv.FormatInt(h, 10))
		}
		return strings.Join(out, " ")
	}
	expect(t, "rule 1", hits(def, &r1, 3), "1 2 3")
	expect(t, "rule 2, every second", hits(def, &r2, 4), "0 1 0 2")
	expect(t, "rule 1 in a", hits(a, &r1, 1), "1")
	if err := def.ResetRules(ctx); err != nil {
		t.Fatal(err)
	}
	expect(t, "rule 1 after reset", hits(def, &r1, 1), "1")
	expect(t, "rule 2 after reset", hits(def, &r2, 2), "0 1")
	expect(t, "rule 1 in a, not reset", hits(a, &r1, 1), "2")
}

func active(t *testing.T, ss state.Session[Entry]) state.Active {
	t.Helper()
	a, err := ss.Active(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func testActive(t *testing.T, b state.Backend[Entry]) {
	def := b.Default()
	if got := active(t, def); got != (state.Active{}) {
		t.Errorf("none set: %+v", got)
	}
	for _, name := range []string{"x", ""} {
		if err := def.Activate(ctx, "", name); err != nil {
			t.Fatal(err)
		}
		if got, want := active(t, def), (state.Active{Name: name, Set: true}); got != want {
			t.Errorf("after %q: %+v, want %+v", name, got, want)
		}
	}
	a := session(t, b, "a", t0)
	if got := active(t, a); got != (state.Active{}) {
		t.Errorf("a, none set: %+v", got)
	}
	if err := a.Activate(ctx, "", "y"); err != nil {
		t.Fatal(err)
	}
	want := state.Active{Name: "y", Set: true}
	if got := active(t, a); got != want {
		t.Errorf("a, as set: %+v", got)
	}
	if got := active(t, session(t, b, "a", t0)); got != want {
		t.Errorf("a, looked up again: %+v", got)
	}
	if got := active(t, def); got != (state.Active{Name: "", Set: true}) {
		t.Errorf("default, after a's: %+v", got)
	}
}

// testDocumentsApart: each document of a mock of several has its own
// active scenario and rule counters in a session, which requests to
// another document in between neither change nor restart.
func testDocumentsApart(t *testing.T, b state.Backend[Entry]) {
	one, two := state.NewRuleSet("one"), state.NewRuleSet("two")
	r1, r2 := one.Add("rule", 0), two.Add("rule", 0)
	for _, ss := range []state.Session[Entry]{b.Default(), session(t, b, "a", t0)} {
		var got []string
		for range 3 { // traffic switching document at every request
			for _, r := range []*state.Rule{&r1, &r2} {
				n, err := ss.Hit(ctx, r)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, strconv.FormatInt(n, 10))
			}
		}
		expect(t, ss.Name()+": counts, alternating", strings.Join(got, " "), "1 1 2 2 3 3")
		for _, a := range [][2]string{{"one", "x"}, {"two", "y"}, {"one", "z"}} {
			if err := ss.Activate(ctx, a[0], a[1]); err != nil {
				t.Fatal(err)
			}
		}
		for doc, want := range map[string]state.Active{"one": {Name: "z", Set: true}, "two": {Name: "y", Set: true}, "three": {}} {
			if got, err := ss.Active(ctx, doc); got != want || err != nil {
				t.Errorf("%s: %s's active: %+v %v, want %+v", ss.Name(), doc, got, err, want)
			}
		}
	}
	if got, err := session(t, b, "a", t0).Active(ctx, "two"); got != (state.Active{Name: "y", Set: true}) || err != nil {
		t.Errorf("a looked up again: two's active: %+v %v", got, err)
	}
	if err := b.Default().ResetRules(ctx); err != nil {
		t.Fatal(err)
	}
	for _, r := range []*state.Rule{&r1, &r2} {
		if n, err := b.Default().Hit(ctx, r); n != 1 || err != nil {
			t.Errorf("after ResetRules: %d %v, want 1", n, err)
		}
	}
}

func subscribers(t *testing.T, ss state.Session[Entry]) map[string]state.Subscriber {
	t.Helper()
	subs, err := ss.Subscribers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return subs
}

func testSubscribers(t *testing.T, b state.Backend[Entry]) {
	def, a := b.Default(), session(t, b, "a", t0)
	if subs := subscribers(t, def); len(subs) != 0 {
		t.Errorf("none set: %v", subs)
	}
	for _, s := range []struct {
		name string
		sub  state.Subscriber
	}{{"created", state.Subscriber{URL: "http://127.0.0.1:1/hook", Token: "t"}}, {"removed", state.Subscriber{URL: "http://127.0.0.1:2/"}}, {"removed", state.Subscriber{}}} {
		if err := def.Subscribe(ctx, s.name, s.sub); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]state.Subscriber{"created": {URL: "http://127.0.0.1:1/hook", Token: "t"}, "removed": {}}
	if subs := subscribers(t, def); !reflect.DeepEqual(subs, want) {
		t.Errorf("subscribers: %v, want %v", subs, want)
	}
	if subs := subscribers(t, a); len(subs) != 0 {
		t.Errorf("a's: %v", subs)
	}
}

// testReset: Reset empties resources and journal and restarts the rule
// counters of one session; its active scenario and subscribers stay, and
// other sessions keep theirs.
func testReset(t *testing.T, b state.Backend[Entry]) {
	set := state.NewRuleSet("")
	r := set.Add("rule", 0)
	for _, name := range []string{"", "a"} {
		ss := b.Default()
		if name != "" {
			ss = session(t, b, name, t0)
		}
		record(t, ss, "e", 1)
		if _, err := b.Store().Create(ctx, name, "/c", "1", doc(`{}`)); err != nil {
			t.Fatal(err)
		}
		if _, err := ss.Hit(ctx, &r); err != nil {
			t.Fatal(err)
		}
		if err := ss.Activate(ctx, "", "x"); err != nil {
			t.Fatal(err)
		}
		if err := ss.Subscribe(ctx, "hook", state.Subscriber{URL: "http://127.0.0.1:1/"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Reset(ctx, b.Default()); err != nil {
		t.Fatal(err)
	}
	def, a := b.Default(), session(t, b, "a", t0)
	expect(t, "journal", journal(t, def), "")
	if _, err := b.Store().Get(ctx, "", "/c", "1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("resource: %v", err)
	}
	if n, _ := def.Hit(ctx, &r); n != 1 {
		t.Errorf("rule count: %d, want 1", n)
	}
	if got := active(t, def); got != (state.Active{Name: "x", Set: true}) {
		t.Errorf("active: %+v", got)
	}
	if subs := subscribers(t, def); len(subs) != 1 {
		t.Errorf("subscribers: %v", subs)
	}
	expect(t, "a's journal", journal(t, a), "1 e")
	if _, err := b.Store().Get(ctx, "a", "/c", "1"); err != nil {
		t.Errorf("a's resource: %v", err)
	}
	if n, _ := a.Hit(ctx, &r); n != 2 {
		t.Errorf("a's rule count: %d, want 2", n)
	}
}

// testCreateJournaled: a session that stores a resource and its journal
// entry together has the entry exactly when it has the resource.
func testCreateJournaled(t *testing.T, b state.Backend[Entry]) {
	for _, ss := range []state.Session[Entry]{b.Default(), session(t, b, "a", t0)} {
		cj, ok := ss.(state.CreateJournaler[Entry])
		if !ok {
			return // an optional interface: the caller stores and records apart
		}
		record(t, ss, "before", 1)
		made := 0
		entry := func() Entry { made++; return Entry{Data: "created"} }
		key, seq, err := cj.CreateJournaled(ctx, "/c", "k", doc(`{"v":1}`), entry)
		if key != "k" || seq != 2 || err != nil {
			t.Errorf("%q: create: %q %d %v", ss.Name(), key, seq, err)
		}
		key, seq, err = cj.CreateJournaled(ctx, "/c", "k", doc(`{"v":2}`), entry)
		if key != "" || seq != 0 || !errors.Is(err, store.ErrExists) {
			t.Errorf("%q: create again: %q %d %v", ss.Name(), key, seq, err)
		}
		noDoc := errors.New("no document")
		key, seq, err = cj.CreateJournaled(ctx, "/c", "", func(string) ([]byte, error) { return nil, noDoc }, entry)
		if key != "" || seq != 0 || err != noDoc {
			t.Errorf("%q: create without a document: %q %d %v", ss.Name(), key, seq, err)
		}
		expect(t, ss.Name()+": journal", journal(t, ss), "1 before, 2 created")
		if got, err := b.Store().Get(ctx, ss.Name(), "/c", "k"); string(got) != `{"v":1}` || err != nil {
			t.Errorf("%q: stored %s %v", ss.Name(), got, err)
		}
	}
}

func testBackend(t *testing.T, b state.Backend[Entry]) {
	session(t, b, "b", t0)
	session(t, b, "a", t0)
	var want []string
	if !b.Shared() {
		want = []string{"a", "b"}
	}
	if got := b.Names(); !reflect.DeepEqual(got, want) {
		t.Errorf("names: %q, want %q", got, want)
	}
	if b.Kind() == "" {
		t.Error("no kind")
	}
	if err := b.Health(ctx); err != nil {
		t.Errorf("health: %v", err)
	}
}
