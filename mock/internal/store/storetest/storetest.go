package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/store"
)

// Run tests a Store implementation. newStore returns a fresh, empty store
// that holds at most max resources in all sessions together; Run calls it
// once per subtest.
func Run(t *testing.T, newStore func(t *testing.T, max int) store.Store) {
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			max := tc.max
			if max == 0 {
				max = roomy
			}
			tc.test(t, newStore(t, max))
		})
	}
}

// roomy is the bound of the subtests that are not about the bound.
const roomy = 10_000

// tests are the subtests Run runs, each on a fresh store holding at most
// max resources (roomy when max is 0).
var tests = []struct {
	name string
	max  int
	test func(t *testing.T, s store.Store)
}{
	{name: "CreateKey", test: testCreateKey},
	{name: "CreateTakenKey", test: testCreateTakenKey},
	{name: "GetUnknown", test: testGetUnknown},

	{name: "AssignSequence", test: testAssignSequence},
	{name: "AssignAboveHighest", test: testAssignAboveHighest},
	{name: "CreateDocFails", test: testCreateDocFails},
	{name: "AssignPerCollection", test: testAssignPerCollection},
	{name: "AssignPerSession", test: testAssignPerSession},
	{name: "AssignReset", test: testAssignReset},

	{name: "ListOrder", test: testListOrder},
	{name: "ListLimit", test: testListLimit},
	{name: "ListAfterDelete", test: testListAfterDelete},
	{name: "ListUnknown", test: testListUnknown},

	{name: "Update", test: testUpdate},
	{name: "UpdateUnknown", test: testUpdateUnknown},
	{name: "UpdateFnError", test: testUpdateFnError},

	{name: "Delete", test: testDelete},
	{name: "DeleteMany", test: testDeleteMany},

	{name: "Count", test: testCount},
	{name: "DumpSorted", test: testDumpSorted},
	{name: "DumpEmpty", test: testDumpEmpty},

	{name: "FillReplaces", test: testFillReplaces},
	{name: "FillAssignSkipsGiven", test: testFillAssignSkipsGiven},
	{name: "FillRestartsSequence", test: testFillRestartsSequence},
	{name: "FillDuplicateKey", test: testFillDuplicateKey},
	{name: "FillEmpty", test: testFillEmpty},

	{name: "SessionIsolated", test: testSessionIsolated},
	{name: "SessionReset", test: testSessionReset},
	{name: "SessionResetUnknown", test: testSessionResetUnknown},

	{name: "BoundCreate", max: 3, test: testBoundCreate},
	{name: "BoundDelete", max: 3, test: testBoundDelete},
	{name: "BoundReset", max: 3, test: testBoundReset},
	{name: "BoundFillDifference", max: 3, test: testBoundFillDifference},
	{name: "BoundFillBeyond", max: 3, test: testBoundFillBeyond},
	{name: "BoundTakenKey", max: 2, test: testBoundTakenKey},
	{name: "BoundDocFails", max: 2, test: testBoundDocFails},

	{name: "ConcurrentSameKeys", test: testConcurrentSameKeys},
	{name: "ConcurrentAssigned", test: testConcurrentAssigned},
	{name: "ConcurrentBound", max: 50, test: testConcurrentBound},
	{name: "ConcurrentTakenKeys", max: 10, test: testConcurrentTakenKeys},
	{name: "ConcurrentFull", max: 10, test: testConcurrentFull},
	{name: "ConcurrentUpdate", test: testConcurrentUpdate},
	{name: "ConcurrentReset", max: concurrentResetMax, test: testConcurrentReset},
}

var ctx = context.Background()

// errSentinel is the error the failing document and update functions of
// the tests return.
var errSentinel = errors.New("storetest: the function given failed")

// Create, Get and key assignment.

func testCreateKey(t *testing.T, s store.Store) {
	var got []string
	key, err := s.Create(ctx, "", "/plants", "monstera", func(key string) ([]byte, error) {
		got = append(got, key)
		return []byte(`{"name":"Monstera"}`), nil
	})
	if err != nil || key != "monstera" {
		t.Fatalf(`Create("", /plants, "monstera") = %q, %v; want "monstera", no error`, key, err)
	}
	if !slices.Contains(got, "monstera") {
		t.Errorf(`the document function got keys %q, want "monstera"`, got)
	}
	wantGet(t, s, "", "/plants", "monstera", `{"name":"Monstera"}`)
	wantCount(t, s, "", "/plants", 1)
	wantList(t, s, "", "/plants", -1, `{"name":"Monstera"}`)
}

func testCreateTakenKey(t *testing.T, s store.Store) {
	create(t, s, "", "/plants", "a", `{"v":1}`)
	create(t, s, "", "/plants", "b", `{"v":2}`)
	wantCreateErr(t, s, "", "/plants", "a", store.ErrExists)
	wantGet(t, s, "", "/plants", "a", `{"v":1}`)
	wantCount(t, s, "", "/plants", 2)
	wantList(t, s, "", "/plants", -1, `{"v":1}`, `{"v":2}`)

	// A key the store assigned is taken as well.
	assign(t, s, "", "/plants", "1")
	wantCreateErr(t, s, "", "/plants", "1", store.ErrExists)
	wantGet(t, s, "", "/plants", "1", idJSON("1", "assigned"))
	wantCount(t, s, "", "/plants", 3)
}

func testGetUnknown(t *testing.T, s store.Store) {
	wantMissing(t, s, "", "/plants", "a") // empty store
	create(t, s, "", "/plants", "a", `{"v":1}`)
	wantMissing(t, s, "", "/plants", "b")        // unknown key
	wantMissing(t, s, "", "/pets", "a")          // unknown collection
	wantMissing(t, s, "other", "/plants", "a")   // unknown session
	wantMissing(t, s, "", "/plants/a", "a")      // not a prefix match
	wantMissing(t, s, "", "/plants", "A")        // keys are exact
	wantGet(t, s, "", "/plants", "a", `{"v":1}`) // still there
}

func testAssignSequence(t *testing.T, s store.Store) {
	for _, want := range []string{"1", "2", "3"} {
		assign(t, s, "", "/plants", want)
	}
	// A deleted resource does not give its number back.
	remove(t, s, "", "/plants", "3", idJSON("3", "assigned"))
	assign(t, s, "", "/plants", "4")
	wantList(t, s, "", "/plants", -1, idJSON("1", "assigned"), idJSON("2", "assigned"), idJSON("4", "assigned"))
}

func testAssignAboveHighest(t *testing.T, s store.Store) {
	create(t, s, "", "/plants", "2", `{"explicit":2}`)
	assign(t, s, "", "/plants", "3")
	assign(t, s, "", "/plants", "4")
	create(t, s, "", "/plants", "10", `{"explicit":10}`)
	assign(t, s, "", "/plants", "11")
	create(t, s, "", "/plants", "7", `{"explicit":7}`) // below: the sequence stays
	assign(t, s, "", "/plants", "12")
	// Keys that are not whole numbers in canonical form leave it alone.
	create(t, s, "", "/plants", "x", `{"explicit":"x"}`)
	create(t, s, "", "/plants", "0013", `{"explicit":"0013"}`)
	create(t, s, "", "/plants", "-20", `{"explicit":-20}`)
	assign(t, s, "", "/plants", "13")
	wantGet(t, s, "", "/plants", "2", `{"explicit":2}`)
	wantGet(t, s, "", "/plants", "0013", `{"explicit":"0013"}`)
	wantCount(t, s, "", "/plants", 11)
}

func testCreateDocFails(t *testing.T, s store.Store) {
	assign(t, s, "", "/plants", "1")
	for _, key := range []string{"", "k"} {
		got, err := s.Create(ctx, "", "/plants", key, func(string) ([]byte, error) { return nil, errSentinel })
		if err != errSentinel {
			t.Errorf("Create(\"\", /plants, %q) with a failing document = %q, %v; want error %v as it is", key, got, err, errSentinel)
		}
		got, err = s.Create(ctx, "", "/new", key, func(string) ([]byte, error) { return nil, errSentinel })
		if err != errSentinel {
			t.Errorf("Create(\"\", /new, %q) with a failing document = %q, %v; want error %v as it is", key, got, err, errSentinel)
		}
	}
	wantMissing(t, s, "", "/plants", "k")
	wantCount(t, s, "", "/plants", 1)
	wantDump(t, s, "", dumped{"/plants", []string{idJSON("1", "assigned")}})
	assign(t, s, "", "/plants", "2") // the failed create used no number
	assign(t, s, "", "/new", "1")
}

func testAssignPerCollection(t *testing.T, s store.Store) {
	assign(t, s, "", "/plants", "1")
	assign(t, s, "", "/plants", "2")
	assign(t, s, "", "/pets", "1")
	assign(t, s, "", "/plants", "3")
	assign(t, s, "", "/pets", "2")
}

func testAssignPerSession(t *testing.T, s store.Store) {
	assign(t, s, "", "/plants", "1")
	assign(t, s, "s1", "/plants", "1")
	assign(t, s, "", "/plants", "2")
	assign(t, s, "s2", "/plants", "1")
	assign(t, s, "s1", "/plants", "2")
}

func testAssignReset(t *testing.T, s store.Store) {
	assign(t, s, "", "/plants", "1")
	assign(t, s, "", "/plants", "2")
	assign(t, s, "", "/pets", "1")
	assign(t, s, "s1", "/plants", "1")
	reset(t, s, "")
	assign(t, s, "", "/plants", "1")
	assign(t, s, "", "/pets", "1")
	assign(t, s, "s1", "/plants", "2") // another session's sequence goes on
	// Collections made again after the reset are the session's again.
	wantDump(t, s, "", dumped{"/pets", []string{idJSON("1", "assigned")}}, dumped{"/plants", []string{idJSON("1", "assigned")}})
	create(t, s, "", "/trees", "oak", `{"n":"oak"}`)
	reset(t, s, "")
	create(t, s, "", "/trees", "elm", `{"n":"elm"}`)
	wantDump(t, s, "", dumped{"/trees", []string{`{"n":"elm"}`}})
}

// List.

func testListOrder(t *testing.T, s store.Store) {
	// Neither the keys nor the documents sort in creation order.
	create(t, s, "", "/plants", "c", `{"n":"c"}`)
	create(t, s, "", "/plants", "a", `{"n":"a"}`)
	assign(t, s, "", "/plants", "1")
	create(t, s, "", "/plants", "b", `{"n":"b"}`)
	wantList(t, s, "", "/plants", -1, `{"n":"c"}`, `{"n":"a"}`, idJSON("1", "assigned"), `{"n":"b"}`)

	// An update does not make a resource younger.
	update(t, s, "", "/plants", "c", `{"n":"c2"}`)
	wantList(t, s, "", "/plants", -1, `{"n":"c2"}`, `{"n":"a"}`, idJSON("1", "assigned"), `{"n":"b"}`)
}

func testListLimit(t *testing.T, s store.Store) {
	create(t, s, "", "/plants", "z", `{"n":1}`)
	create(t, s, "", "/plants", "y", `{"n":2}`)
	create(t, s, "", "/plants", "x", `{"n":3}`)
	wantList(t, s, "", "/plants", 0)
	wantList(t, s, "", "/plants", 1, `{"n":1}`)
	wantList(t, s, "", "/plants", 2, `{"n":1}`, `{"n":2}`)
	wantList(t, s, "", "/plants", 3, `{"n":1}`, `{"n":2}`, `{"n":3}`)
	wantList(t, s, "", "/plants", 10, `{"n":1}`, `{"n":2}`, `{"n":3}`)
	wantList(t, s, "", "/plants", -1, `{"n":1}`, `{"n":2}`, `{"n":3}`)
}

func testListAfterDelete(t *testing.T, s store.Store) {
	for i := 1; i <= 5; i++ {
		create(t, s, "", "/plants", "k"+strconv.Itoa(i), numJSON(i))
	}
	remove(t, s, "", "/plants", "k2", numJSON(2))
	remove(t, s, "", "/plants", "k4", numJSON(4))
	wantList(t, s, "", "/plants", -1, numJSON(1), numJSON(3), numJSON(5))
	wantList(t, s, "", "/plants", 2, numJSON(1), numJSON(3))

	remove(t, s, "", "/plants", "k1", numJSON(1))
	create(t, s, "", "/plants", "k6", numJSON(6))
	// A key created again is the newest.
	create(t, s, "", "/plants", "k2", numJSON(22))
	wantList(t, s, "", "/plants", -1, numJSON(3), numJSON(5), numJSON(6), numJSON(22))
}

func testListUnknown(t *testing.T, s store.Store) {
	wantList(t, s, "", "/plants", -1)
	wantList(t, s, "", "/plants", 10)
	create(t, s, "", "/plants", "a", `{"v":1}`)
	wantList(t, s, "", "/pets", -1)
	wantList(t, s, "other", "/plants", -1)
}

// Update.

func testUpdate(t *testing.T, s store.Store) {
	create(t, s, "", "/plants", "a", `{"n":1}`)
	create(t, s, "", "/plants", "b", `{"n":9}`)
	got, err := s.Update(ctx, "", "/plants", "a", func(old []byte) ([]byte, error) {
		if string(old) != `{"n":1}` {
			return nil, fmt.Errorf(`the update function got %s, want {"n":1}`, old)
		}
		return []byte(`{"n":2}`), nil
	})
	if err != nil || string(got) != `{"n":2}` {
		t.Fatalf(`Update("", /plants, "a") = %s, %v; want {"n":2}, no error`, got, err)
	}
	wantGet(t, s, "", "/plants", "a", `{"n":2}`)
	wantGet(t, s, "", "/plants", "b", `{"n":9}`)
	wantCount(t, s, "", "/plants", 2)
	wantList(t, s, "", "/plants", -1, `{"n":2}`, `{"n":9}`)
}

func testUpdateUnknown(t *testing.T, s store.Store) {
	create(t, s, "", "/plants", "a", `{"v":1}`)
	for _, c := range []struct{ sess, col, key string }{
		{"", "/plants", "b"},      // unknown key
		{"", "/pets", "a"},        // unknown collection
		{"other", "/plants", "a"}, // unknown session
	} {
		called := false
		got, err := s.Update(ctx, c.sess, c.col, c.key, func(old []byte) ([]byte, error) {
			called = true
			return []byte(`{"v":2}`), nil
		})
		if !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Update(%q, %s, %q) = %s, %v; want error %v", c.sess, c.col, c.key, got, err, store.ErrNotFound)
		}
		if called {
			t.Errorf("Update(%q, %s, %q) called the update function; want it not called", c.sess, c.col, c.key)
		}
		wantMissing(t, s, c.sess, c.col, c.key)
	}
	wantGet(t, s, "", "/plants", "a", `{"v":1}`)
	wantCount(t, s, "", "/plants", 1)
}

func testUpdateFnError(t *testing.T, s store.Store) {
	create(t, s, "", "/plants", "a", `{"n":1}`)
	got, err := s.Update(ctx, "", "/plants", "a", func(old []byte) ([]byte, error) {
		return []byte(`{"n":"half-made"}`), errSentinel
	})
	if !errors.Is(err, errSentinel) {
		t.Errorf(`Update("", /plants, "a") with a failing function = %s, %v; want error %v`, got, err, errSentinel)
	}
	wantGet(t, s, "", "/plants", "a", `{"n":1}`)
	wantList(t, s, "", "/plants", -1, `{"n":1}`)
}

// Delete.

func testDelete(t *testing.T, s store.Store) {
	create(t, s, "", "/plants", "a", `{"v":"a"}`)
	create(t, s, "", "/plants", "b", `{"v":"b"}`)
	remove(t, s, "", "/plants", "a", `{"v":"a"}`)
	wantMissing(t, s, "", "/plants", "a")
	wantDeleteMissing(t, s, "", "/plants", "a")
	wantCount(t, s, "", "/plants", 1)
	wantGet(t, s, "", "/plants", "b", `{"v":"b"}`)
	wantList(t, s, "", "/plants", -1, `{"v":"b"}`)

	wantDeleteMissing(t, s, "", "/pets", "b")        // unknown collection
	wantDeleteMissing(t, s, "other", "/plants", "b") // unknown session
	wantGet(t, s, "", "/plants", "b", `{"v":"b"}`)

	remove(t, s, "", "/plants", "b", `{"v":"b"}`)
	wantCount(t, s, "", "/plants", 0)
	wantList(t, s, "", "/plants", -1)
}

func testDeleteMany(t *testing.T, s store.Store) {
	const n = 1000
	kept := func(i int) bool { return i%10 == 7 }
	for i := range n {
		create(t, s, "", "/plants", "k"+strconv.Itoa(i), numJSON(i))
	}
	wantSurvivors := func(deleted func(i int) bool) {
		t.Helper()
		var want []string
		for i := range n {
			if !deleted(i) {
				want = append(want, numJSON(i))
			}
		}
		wantCount(t, s, "", "/plants", len(want))
		wantList(t, s, "", "/plants", -1, want...)
		for i := range n {
			if deleted(i) {
				wantMissing(t, s, "", "/plants", "k"+strconv.Itoa(i))
			} else {
				wantGet(t, s, "", "/plants", "k"+strconv.Itoa(i), numJSON(i))
			}
		}
	}

	// First the odd ones, newest first, then the even ones, oldest first:
	// 900 in all.
	for i := n - 1; i >= 0; i -= 2 {
		if !kept(i) {
			remove(t, s, "", "/plants", "k"+strconv.Itoa(i), numJSON(i))
		}
	}
	wantSurvivors(func(i int) bool { return i%2 == 1 && !kept(i) })
	for i := 0; i < n; i += 2 {
		remove(t, s, "", "/plants", "k"+strconv.Itoa(i), numJSON(i))
	}
	if t.Failed() {
		t.FailNow()
	}
	wantSurvivors(func(i int) bool { return !kept(i) })

	// New resources, and one with a deleted key, come after the survivors.
	create(t, s, "", "/plants", "k1000", numJSON(1000))
	create(t, s, "", "/plants", "k0", numJSON(-1))
	list, err := s.List(ctx, "", "/plants", -1)
	if err != nil || len(list) != 102 {
		t.Fatalf(`List("", /plants, -1) = %d documents, %v; want 102, no error`, len(list), err)
	}
	wantDocs(t, `the last two of List("", /plants, -1)`, list[100:], numJSON(1000), numJSON(-1))
	wantGet(t, s, "", "/plants", "k0", numJSON(-1))
	wantGet(t, s, "", "/plants", "k997", numJSON(997))
}

// Count and Dump.

func testCount(t *testing.T, s store.Store) {
	wantCount(t, s, "", "/plants", 0)
	create(t, s, "", "/plants", "a", `{"v":1}`)
	create(t, s, "", "/plants", "b", `{"v":2}`)
	create(t, s, "", "/pets", "a", `{"v":3}`)
	create(t, s, "other", "/plants", "a", `{"v":4}`)
	wantCount(t, s, "", "/plants", 2)
	wantCount(t, s, "", "/pets", 1)
	wantCount(t, s, "", "/none", 0)
	wantCount(t, s, "other", "/plants", 1)
	wantCount(t, s, "other", "/pets", 0)
	wantCount(t, s, "nobody", "/plants", 0)
	remove(t, s, "", "/plants", "a", `{"v":1}`)
	wantCount(t, s, "", "/plants", 1)
}

func testDumpSorted(t *testing.T, s store.Store) {
	create(t, s, "", "/zoo", "z", `{"c":"zoo"}`)
	create(t, s, "", "/plants", "p1", `{"c":"plants","n":1}`)
	create(t, s, "", "/animals", "a", `{"c":"animals"}`)
	create(t, s, "", "/plants/1/leaves", "l", `{"c":"leaves"}`)
	create(t, s, "", "/plants", "p2", `{"c":"plants","n":2}`)
	create(t, s, "", "/gone", "g", `{"c":"gone"}`)
	remove(t, s, "", "/gone", "g", `{"c":"gone"}`)
	fill(t, s, "", "/emptied", nil)
	create(t, s, "other", "/aaa", "x", `{"c":"other"}`)

	wantDump(t, s, "",
		dumped{"/animals", []string{`{"c":"animals"}`}},
		dumped{"/plants", []string{`{"c":"plants","n":1}`, `{"c":"plants","n":2}`}},
		dumped{"/plants/1/leaves", []string{`{"c":"leaves"}`}},
		dumped{"/zoo", []string{`{"c":"zoo"}`}},
	)
	wantDump(t, s, "other", dumped{"/aaa", []string{`{"c":"other"}`}})
}

func testDumpEmpty(t *testing.T, s store.Store) {
	wantDump(t, s, "")
	wantDump(t, s, "nobody")
	create(t, s, "s", "/plants", "a", `{"v":1}`)
	remove(t, s, "s", "/plants", "a", `{"v":1}`)
	wantDump(t, s, "s")
	create(t, s, "r", "/plants", "a", `{"v":1}`)
	reset(t, s, "r")
	wantDump(t, s, "r")
}

// Fill.

func testFillReplaces(t *testing.T, s store.Store) {
	create(t, s, "", "/plants", "a", `{"v":"a"}`)
	create(t, s, "", "/plants", "b", `{"v":"b"}`)
	create(t, s, "", "/plants", "c", `{"v":"c"}`)
	create(t, s, "", "/pets", "x", `{"v":"x"}`)
	keys := fill(t, s, "", "/plants", []store.Item{
		{Key: "m", Doc: idDoc("first")},
		{Key: "k", Doc: idDoc("second")},
		{Key: "b", Doc: idDoc("third")},
	})
	wantKeys(t, `Fill("", /plants, m k b)`, keys, "m", "k", "b")
	wantList(t, s, "", "/plants", -1, idJSON("m", "first"), idJSON("k", "second"), idJSON("b", "third"))
	wantCount(t, s, "", "/plants", 3)
	wantMissing(t, s, "", "/plants", "a")
	wantMissing(t, s, "", "/plants", "c")
	wantGet(t, s, "", "/plants", "b", idJSON("b", "third"))
	wantGet(t, s, "", "/plants", "m", idJSON("m", "first"))
	wantGet(t, s, "", "/pets", "x", `{"v":"x"}`)
	wantCount(t, s, "", "/pets", 1)
}

func testFillAssignSkipsGiven(t *testing.T, s store.Store) {
	keys := fill(t, s, "", "/plants", []store.Item{
		{Key: "", Doc: idDoc("a")},
		{Key: "1", Doc: idDoc("b")},
		{Key: "", Doc: idDoc("c")},
		{Key: "3", Doc: idDoc("d")},
	})
	wantKeys(t, `Fill("", /plants, "" 1 "" 3)`, keys, "4", "1", "5", "3")
	wantList(t, s, "", "/plants", -1, idJSON("4", "a"), idJSON("1", "b"), idJSON("5", "c"), idJSON("3", "d"))
	wantGet(t, s, "", "/plants", "1", idJSON("1", "b"))
	wantGet(t, s, "", "/plants", "3", idJSON("3", "d"))
	wantGet(t, s, "", "/plants", "4", idJSON("4", "a"))
	wantGet(t, s, "", "/plants", "5", idJSON("5", "c"))
	wantMissing(t, s, "", "/plants", "2")
	assign(t, s, "", "/plants", "6")
}

func testFillRestartsSequence(t *testing.T, s store.Store) {
	for _, k := range []string{"1", "2", "3", "4", "5"} {
		assign(t, s, "", "/plants", k)
	}
	keys := fill(t, s, "", "/plants", []store.Item{
		{Key: "", Doc: idDoc("a")},
		{Key: "1", Doc: idDoc("b")},
	})
	wantKeys(t, `Fill("", /plants, "" 1)`, keys, "2", "1")
	assign(t, s, "", "/plants", "3") // after the fill's "2", not after "5"
	create(t, s, "", "/plants", "5", `{"explicit":5}`)
	assign(t, s, "", "/plants", "6")

	// A fill whose items all have keys restarts the sequence above the
	// highest of them.
	for _, k := range []string{"1", "2", "3"} {
		assign(t, s, "", "/pets", k)
	}
	keys = fill(t, s, "", "/pets", []store.Item{{Key: "2", Doc: idDoc("x")}})
	wantKeys(t, `Fill("", /pets, 2)`, keys, "2")
	assign(t, s, "", "/pets", "3")
}

func testFillDuplicateKey(t *testing.T, s store.Store) {
	assign(t, s, "", "/plants", "1")
	assign(t, s, "", "/plants", "2")
	keys, err := s.Fill(ctx, "", "/plants", []store.Item{
		{Key: "x", Doc: idDoc("a")},
		{Key: "", Doc: idDoc("b")},
		{Key: "x", Doc: idDoc("c")},
	})
	if !errors.Is(err, store.ErrExists) {
		t.Errorf(`Fill("", /plants, x "" x) = %q, %v; want error %v`, keys, err, store.ErrExists)
	}
	wantList(t, s, "", "/plants", -1, idJSON("1", "assigned"), idJSON("2", "assigned"))
	wantCount(t, s, "", "/plants", 2)
	wantMissing(t, s, "", "/plants", "x")
	assign(t, s, "", "/plants", "3") // the sequence goes on
}

func testFillEmpty(t *testing.T, s store.Store) {
	for _, k := range []string{"1", "2", "3"} {
		assign(t, s, "", "/plants", k)
	}
	create(t, s, "", "/pets", "p", `{"v":"p"}`)
	keys := fill(t, s, "", "/plants", nil)
	wantKeys(t, `Fill("", /plants, nothing)`, keys)
	wantCount(t, s, "", "/plants", 0)
	wantList(t, s, "", "/plants", -1)
	wantMissing(t, s, "", "/plants", "1")
	wantDump(t, s, "", dumped{"/pets", []string{`{"v":"p"}`}})

	keys = fill(t, s, "", "/new", []store.Item{})
	wantKeys(t, `Fill("", /new, nothing)`, keys)
	wantCount(t, s, "", "/new", 0)
	wantDump(t, s, "", dumped{"/pets", []string{`{"v":"p"}`}})

	assign(t, s, "", "/plants", "1") // restarted

	// A collection filled with nothing, then given a resource, is dumped.
	create(t, s, "", "/new", "n", `{"v":"n"}`)
	wantDump(t, s, "", dumped{"/new", []string{`{"v":"n"}`}}, dumped{"/pets", []string{`{"v":"p"}`}}, dumped{"/plants", []string{idJSON("1", "assigned")}})
}

// Sessions.

func testSessionIsolated(t *testing.T, s store.Store) {
	create(t, s, "s1", "/plants", "a", `{"s":1}`)
	wantMissing(t, s, "s2", "/plants", "a")
	wantMissing(t, s, "", "/plants", "a")
	wantList(t, s, "s2", "/plants", -1)
	wantCount(t, s, "s2", "/plants", 0)
	wantDump(t, s, "s2")
	wantDump(t, s, "")

	create(t, s, "s2", "/plants", "a", `{"s":2}`) // not taken in s2
	update(t, s, "s2", "/plants", "a", `{"s":22}`)
	wantGet(t, s, "s1", "/plants", "a", `{"s":1}`)
	remove(t, s, "s2", "/plants", "a", `{"s":22}`)
	wantGet(t, s, "s1", "/plants", "a", `{"s":1}`)
	fill(t, s, "s2", "/plants", []store.Item{{Key: "b", Doc: idDoc("b")}})
	create(t, s, "", "/plants", "a", `{"s":0}`)

	wantDump(t, s, "s1", dumped{"/plants", []string{`{"s":1}`}})
	wantDump(t, s, "s2", dumped{"/plants", []string{idJSON("b", "b")}})
	wantDump(t, s, "", dumped{"/plants", []string{`{"s":0}`}})
}

func testSessionReset(t *testing.T, s store.Store) {
	create(t, s, "", "/plants", "a", `{"s":0}`)
	create(t, s, "s1", "/plants", "a", `{"s":1}`)
	create(t, s, "s1", "/pets", "b", `{"s":1,"pet":true}`)
	create(t, s, "s2", "/plants", "a", `{"s":2}`)
	reset(t, s, "s1")
	wantDump(t, s, "s1")
	wantMissing(t, s, "s1", "/plants", "a")
	wantMissing(t, s, "s1", "/pets", "b")
	wantCount(t, s, "s1", "/plants", 0)
	wantDump(t, s, "", dumped{"/plants", []string{`{"s":0}`}})
	wantDump(t, s, "s2", dumped{"/plants", []string{`{"s":2}`}})

	create(t, s, "s1", "/plants", "a", `{"s":11}`) // free again
	wantDump(t, s, "s1", dumped{"/plants", []string{`{"s":11}`}})
}

func testSessionResetUnknown(t *testing.T, s store.Store) {
	reset(t, s, "nobody")
	reset(t, s, "")
	create(t, s, "", "/plants", "a", `{"s":0}`)
	create(t, s, "s1", "/plants", "a", `{"s":1}`)
	reset(t, s, "nobody")
	wantDump(t, s, "", dumped{"/plants", []string{`{"s":0}`}})
	wantDump(t, s, "s1", dumped{"/plants", []string{`{"s":1}`}})
	wantDump(t, s, "nobody")
}

// The bound on resources.

func testBoundCreate(t *testing.T, s store.Store) { // max 3
	create(t, s, "s1", "/plants", "a", `{"v":"a"}`)
	create(t, s, "s1", "/pets", "b", `{"v":"b"}`)
	create(t, s, "s2", "/plants", "c", `{"v":"c"}`)

	wantCreateErr(t, s, "s2", "/plants", "d", store.ErrFull)
	wantMissing(t, s, "s2", "/plants", "d")
	wantCreateErr(t, s, "s1", "/plants", "", store.ErrFull)
	wantCreateErr(t, s, "s3", "/plants", "e", store.ErrFull)
	wantFillErr(t, s, "s3", "/plants", []store.Item{{Key: "f", Doc: idDoc("f")}}, store.ErrFull)

	wantDump(t, s, "s1", dumped{"/pets", []string{`{"v":"b"}`}}, dumped{"/plants", []string{`{"v":"a"}`}})
	wantDump(t, s, "s2", dumped{"/plants", []string{`{"v":"c"}`}})
	wantDump(t, s, "s3")
}

func testBoundDelete(t *testing.T, s store.Store) { // max 3
	create(t, s, "", "/plants", "a", `{"v":"a"}`)
	create(t, s, "", "/plants", "b", `{"v":"b"}`)
	create(t, s, "s1", "/plants", "c", `{"v":"c"}`)
	wantCreateErr(t, s, "", "/plants", "d", store.ErrFull)
	remove(t, s, "", "/plants", "b", `{"v":"b"}`)
	create(t, s, "", "/plants", "d", `{"v":"d"}`)
	wantCreateErr(t, s, "", "/plants", "e", store.ErrFull)
	wantList(t, s, "", "/plants", -1, `{"v":"a"}`, `{"v":"d"}`)
}

func testBoundReset(t *testing.T, s store.Store) { // max 3
	create(t, s, "s1", "/plants", "a", `{"v":"a"}`)
	create(t, s, "s1", "/pets", "b", `{"v":"b"}`)
	create(t, s, "s2", "/plants", "c", `{"v":"c"}`)
	wantCreateErr(t, s, "s2", "/plants", "d", store.ErrFull)
	reset(t, s, "s1")
	create(t, s, "s2", "/plants", "d", `{"v":"d"}`)
	create(t, s, "s2", "/plants", "e", `{"v":"e"}`)
	wantCreateErr(t, s, "s2", "/plants", "f", store.ErrFull)
	reset(t, s, "s1") // nothing more to free
	wantCreateErr(t, s, "s2", "/plants", "f", store.ErrFull)
	wantList(t, s, "s2", "/plants", -1, `{"v":"c"}`, `{"v":"d"}`, `{"v":"e"}`)
}

func testBoundFillDifference(t *testing.T, s store.Store) { // max 3
	create(t, s, "", "/plants", "a", `{"v":"a"}`)
	create(t, s, "", "/plants", "b", `{"v":"b"}`)
	keys := fill(t, s, "", "/plants", []store.Item{
		{Key: "x", Doc: idDoc("x")},
		{Key: "y", Doc: idDoc("y")},
		{Key: "z", Doc: idDoc("z")},
	})
	wantKeys(t, `Fill("", /plants, x y z)`, keys, "x", "y", "z")
	wantCount(t, s, "", "/plants", 3)
	wantCreateErr(t, s, "", "/pets", "p", store.ErrFull)

	fill(t, s, "", "/plants", []store.Item{{Key: "x", Doc: idDoc("x")}}) // frees 2
	create(t, s, "", "/pets", "p", `{"v":"p"}`)
	create(t, s, "s1", "/pets", "q", `{"v":"q"}`)
	wantCreateErr(t, s, "", "/pets", "r", store.ErrFull)
	wantList(t, s, "", "/plants", -1, idJSON("x", "x"))
}

func testBoundFillBeyond(t *testing.T, s store.Store) { // max 3
	create(t, s, "", "/plants", "a", `{"v":"a"}`)
	create(t, s, "", "/plants", "b", `{"v":"b"}`)
	create(t, s, "", "/pets", "p", `{"v":"p"}`)
	xyz := []store.Item{
		{Key: "x", Doc: idDoc("x")},
		{Key: "y", Doc: idDoc("y")},
		{Key: "z", Doc: idDoc("z")},
	}
	wantFillErr(t, s, "", "/plants", xyz, store.ErrFull)
	wantList(t, s, "", "/plants", -1, `{"v":"a"}`, `{"v":"b"}`)
	wantGet(t, s, "", "/plants", "a", `{"v":"a"}`)
	wantMissing(t, s, "", "/plants", "x")
	wantFillErr(t, s, "", "/new", xyz[:1], store.ErrFull)
	wantCount(t, s, "", "/new", 0)

	fill(t, s, "", "/plants", xyz[:2]) // as many as before
	remove(t, s, "", "/pets", "p", `{"v":"p"}`)
	wantFillErr(t, s, "", "/pets", xyz[1:], store.ErrFull) // 2 where 1 is free
	wantCount(t, s, "", "/pets", 0)
	fill(t, s, "", "/plants", xyz) // 1 more where 1 is free
	wantList(t, s, "", "/plants", -1, idJSON("x", "x"), idJSON("y", "y"), idJSON("z", "z"))
}

func testBoundTakenKey(t *testing.T, s store.Store) { // max 2
	create(t, s, "", "/plants", "a", `{"v":"a"}`)
	for range 3 {
		wantCreateErr(t, s, "", "/plants", "a", store.ErrExists)
	}
	create(t, s, "", "/plants", "b", `{"v":"b"}`)
	wantCreateErr(t, s, "", "/plants", "c", store.ErrFull)
	wantCreateErr(t, s, "", "/plants", "a", store.ErrExists) // a taken key before a full store
	wantList(t, s, "", "/plants", -1, `{"v":"a"}`, `{"v":"b"}`)
	wantCreateErr(t, s, "", "/plants", "c", store.ErrFull) // counted nothing
}

// testBoundDocFails checks the order of Create's errors when the document
// fails too: a taken key first, then a full store, then the document's
// error.
func testBoundDocFails(t *testing.T, s store.Store) { // max 2
	fails := func(string) ([]byte, error) { return nil, errSentinel }
	create(t, s, "", "/plants", "a", `{"v":"a"}`)
	wantCreateFails(t, s, "", "/plants", "a", fails, store.ErrExists)
	wantCreateFails(t, s, "", "/plants", "c", fails, errSentinel)
	wantCreateFails(t, s, "", "/plants", "", fails, errSentinel)
	create(t, s, "", "/plants", "b", `{"v":"b"}`)
	wantCreateFails(t, s, "", "/plants", "a", fails, store.ErrExists)
	wantCreateFails(t, s, "", "/plants", "c", fails, store.ErrFull)
	wantCreateFails(t, s, "", "/plants", "", fails, store.ErrFull)
	wantCreateFails(t, s, "", "/new", "c", fails, store.ErrFull)
	wantList(t, s, "", "/plants", -1, `{"v":"a"}`, `{"v":"b"}`)
}

// Concurrent use.

const workers = 8

func testConcurrentSameKeys(t *testing.T, s store.Store) {
	const keys = 200
	errs := make([][]error, workers) // by worker, then key
	var wg sync.WaitGroup
	for w := range workers {
		errs[w] = make([]error, keys)
		wg.Go(func() {
			for j := range keys {
				i := (j + w*keys/workers) % keys // each worker starts elsewhere
				_, errs[w][i] = s.Create(ctx, "", "/plants", strconv.Itoa(i), doc(workerJSON(w, i)))
			}
		})
	}
	wg.Wait()

	created := 0
	for i := range keys {
		var by []int
		for w := range workers {
			switch err := errs[w][i]; {
			case err == nil:
				by = append(by, w)
			case !errors.Is(err, store.ErrExists):
				t.Errorf("Create of key %d by worker %d: got error %v, want none or %v", i, w, err, store.ErrExists)
			}
		}
		created += len(by)
		if len(by) != 1 {
			t.Errorf("key %d was created by workers %v, want by exactly one", i, by)
			continue
		}
		wantGet(t, s, "", "/plants", strconv.Itoa(i), workerJSON(by[0], i))
	}
	if created != keys {
		t.Errorf("%d creates succeeded, want %d", created, keys)
	}
	wantCount(t, s, "", "/plants", keys)
}

func testConcurrentAssigned(t *testing.T, s store.Store) {
	const each = 100
	keys := make([][]string, workers)
	errs := make([][]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		keys[w], errs[w] = make([]string, each), make([]error, each)
		wg.Go(func() {
			name := "w" + strconv.Itoa(w)
			for i := range each {
				keys[w][i], errs[w][i] = s.Create(ctx, "", "/plants", "", idCreate(name))
			}
		})
	}
	wg.Wait()

	by := map[string]int{} // worker by key
	for w := range workers {
		for i, k := range keys[w] {
			if err := errs[w][i]; err != nil {
				t.Errorf("assigned create %d of worker %d: got error %v, want none", i, w, err)
				continue
			}
			if other, dup := by[k]; dup {
				t.Errorf("key %q was assigned to workers %d and %d, want once", k, other, w)
				continue
			}
			by[k] = w
		}
	}
	for n := 1; n <= workers*each; n++ {
		k := strconv.Itoa(n)
		w, ok := by[k]
		if !ok {
			t.Errorf("key %q was not assigned, want keys 1 to %d", k, workers*each)
			continue
		}
		delete(by, k)
		wantGet(t, s, "", "/plants", k, idJSON(k, "w"+strconv.Itoa(w)))
	}
	for k := range by {
		t.Errorf("key %q was assigned, want keys 1 to %d", k, workers*each)
	}
	wantCount(t, s, "", "/plants", workers*each)
}

func testConcurrentBound(t *testing.T, s store.Store) { // max 50
	const each = 20
	created := make([]int, workers)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var unexpected []error
	for w := range workers {
		wg.Go(func() {
			sess := "s" + strconv.Itoa(w)
			for range each {
				_, err := s.Create(ctx, sess, "/plants", "", idCreate(sess))
				switch {
				case err == nil:
					created[w]++
				case !errors.Is(err, store.ErrFull):
					mu.Lock()
					unexpected = append(unexpected, fmt.Errorf("create in session %s: %w", sess, err))
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()

	for _, err := range unexpected {
		t.Errorf("%v; want none or %v", err, store.ErrFull)
	}
	total := 0
	for w, n := range created {
		total += n
		wantCount(t, s, "s"+strconv.Itoa(w), "/plants", n)
	}
	if total != 50 {
		t.Errorf("%d of %d creates succeeded with a bound of 50, want 50", total, workers*each)
	}
	wantCreateErr(t, s, "late", "/plants", "", store.ErrFull)
}

// refusals is how many refused creates each worker of
// testConcurrentTakenKeys and testConcurrentFull makes, and how many
// operations that fit the bound their last worker makes meanwhile. A store
// whose refused creates hold room for a moment fails these subtests often,
// not every time: the moments must coincide.
const refusals = 1000

// fillItems returns n items with keys prefix1, prefix2, ... and documents
// idJSON(key, prefix).
func fillItems(prefix string, n int) []store.Item {
	items := make([]store.Item, n)
	for i := range items {
		items[i] = store.Item{Key: prefix + strconv.Itoa(i+1), Doc: idDoc(prefix)}
	}
	return items
}

// testConcurrentTakenKeys checks that creates of a taken key do not use up
// room, not even for a moment: while they are refused, a create that fits
// the bound succeeds every time.
func testConcurrentTakenKeys(t *testing.T, s store.Store) { // max 10
	fill(t, s, "", "/plants", fillItems("p", 9))
	var wg sync.WaitGroup
	var mu sync.Mutex
	var unexpected []error
	report := func(err error) {
		mu.Lock()
		unexpected = append(unexpected, err)
		mu.Unlock()
	}
	for w := range workers - 1 {
		wg.Go(func() {
			for range refusals {
				// The store is full while the other worker holds its
				// resource: which of the two errors a store then gives
				// is not promised.
				_, err := s.Create(ctx, "", "/plants", "p"+strconv.Itoa(w+1), doc(`{"taken":true}`))
				if !errors.Is(err, store.ErrExists) && !errors.Is(err, store.ErrFull) {
					report(fmt.Errorf("create of taken key p%d: got error %v, want %v", w+1, err, store.ErrExists))
				}
			}
		})
	}
	wg.Go(func() {
		for i := range refusals {
			if k, err := s.Create(ctx, "other", "/room", "x", doc(`{"fits":true}`)); err != nil || k != "x" {
				report(fmt.Errorf("create %d of a 10th resource with a bound of 10 = %q, %v; want \"x\", no error", i, k, err))
				continue
			}
			if _, err := s.Delete(ctx, "other", "/room", "x"); err != nil {
				report(fmt.Errorf("delete %d of the 10th resource: got error %v, want none", i, err))
			}
		}
	})
	wg.Wait()
	for _, err := range unexpected {
		t.Error(err)
	}
	want := make([]string, 9)
	for i := range want {
		want[i] = idJSON("p"+strconv.Itoa(i+1), "p")
	}
	wantList(t, s, "", "/plants", -1, want...)
	create(t, s, "other", "/room", "x", `{"fits":true}`)
	wantCreateErr(t, s, "other", "/room", "y", store.ErrFull)
}

// testConcurrentFull checks that creates refused by a full store do not
// make operations that keep the number of resources fail: while they are
// refused, fills that replace as many resources as they add succeed every
// time.
func testConcurrentFull(t *testing.T, s store.Store) { // max 10
	fill(t, s, "", "/plants", fillItems("p", 5))
	fill(t, s, "", "/pets", fillItems("q", 5))
	var wg sync.WaitGroup
	var mu sync.Mutex
	var unexpected []error
	report := func(err error) {
		mu.Lock()
		unexpected = append(unexpected, err)
		mu.Unlock()
	}
	for w := range workers - 1 {
		wg.Go(func() {
			sess := "s" + strconv.Itoa(w)
			for range refusals {
				if _, err := s.Create(ctx, sess, "/plants", "", idCreate(sess)); !errors.Is(err, store.ErrFull) {
					report(fmt.Errorf("create in session %s of a full store: got error %v, want %v", sess, err, store.ErrFull))
				}
			}
		})
	}
	wg.Go(func() {
		for i := range refusals {
			prefix := "r"
			if i%2 == 1 {
				prefix = "p"
			}
			if _, err := s.Fill(ctx, "", "/plants", fillItems(prefix, 5)); err != nil {
				report(fmt.Errorf("fill %d of 5 resources in place of 5: got error %v, want none", i, err))
			}
		}
	})
	wg.Wait()
	for _, err := range unexpected {
		t.Error(err)
	}
	want := make([]string, 5)
	for i := range want {
		want[i] = idJSON("p"+strconv.Itoa(i+1), "p")
	}
	wantList(t, s, "", "/plants", -1, want...)
	wantCreateErr(t, s, "", "/plants", "", store.ErrFull)
	for w := range workers - 1 {
		wantDump(t, s, "s"+strconv.Itoa(w))
	}
}

func testConcurrentUpdate(t *testing.T, s store.Store) {
	const each = 100
	create(t, s, "", "/counters", "c", "0")
	got := make([][]string, workers)
	errs := make([][]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		got[w], errs[w] = make([]string, each), make([]error, each)
		wg.Go(func() {
			for i := range each {
				doc, err := s.Update(ctx, "", "/counters", "c", increment)
				got[w][i], errs[w][i] = string(doc), err
			}
		})
	}
	wg.Wait()

	seen := map[string]bool{}
	for w := range workers {
		for i, v := range got[w] {
			if err := errs[w][i]; err != nil {
				t.Errorf("update %d of worker %d: got error %v, want none", i, w, err)
				continue
			}
			if seen[v] {
				t.Errorf("two updates returned %s, want each count once", v)
			}
			seen[v] = true
		}
	}
	for n := 1; n <= workers*each; n++ {
		if !seen[strconv.Itoa(n)] {
			t.Errorf("no update returned %d, want every count from 1 to %d once", n, workers*each)
			break
		}
	}
	wantGet(t, s, "", "/counters", "c", strconv.Itoa(workers*each))
}

// increment is an Update function: the document is a decimal number.
func increment(old []byte) ([]byte, error) {
	n, err := strconv.Atoi(string(old))
	if err != nil {
		return nil, err
	}
	return []byte(strconv.Itoa(n + 1)), nil
}

// concurrentResetMax is the bound of testConcurrentReset: the keepers'
// resources and the most the churning session can hold.
const concurrentResetMax = keepers*perKeeper + churns

const (
	keepers   = 4   // sessions that only create
	perKeeper = 100 // creates in each
	churns    = 200 // creates in the session being reset meanwhile
)

func testConcurrentReset(t *testing.T, s store.Store) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var unexpected []error
	report := func(err error) {
		mu.Lock()
		unexpected = append(unexpected, err)
		mu.Unlock()
	}
	for w := range keepers {
		wg.Go(func() {
			sess := "keep" + strconv.Itoa(w)
			for i := range perKeeper {
				want := strconv.Itoa(i + 1)
				k, err := s.Create(ctx, sess, "/plants", "", doc(workerJSON(w, i)))
				if err != nil || k != want {
					report(fmt.Errorf("create %d in session %s = %q, %v; want %q, no error", i, sess, k, err, want))
				}
			}
		})
	}
	wg.Go(func() {
		for i := range churns {
			if _, err := s.Create(ctx, "churn", "/plants", "", doc(workerJSON(-1, i))); err != nil {
				report(fmt.Errorf("create %d in session churn: %v; want no error", i, err))
			}
		}
	})
	wg.Go(func() {
		for range churns / 4 {
			if err := s.Reset(ctx, "churn"); err != nil {
				report(fmt.Errorf("Reset(churn): %v; want no error", err))
			}
		}
	})
	wg.Wait()
	for _, err := range unexpected {
		t.Error(err)
	}

	for w := range keepers {
		sess := "keep" + strconv.Itoa(w)
		var want []string
		for i := range perKeeper {
			want = append(want, workerJSON(w, i))
		}
		wantDump(t, s, sess, dumped{"/plants", want})
	}

	// The store holds exactly the keepers' resources: the rest is free.
	reset(t, s, "churn")
	wantDump(t, s, "churn")
	items := make([]store.Item, churns)
	for i := range items {
		items[i] = store.Item{Doc: idDoc("after")}
	}
	fill(t, s, "after", "/plants", items)
	wantCreateErr(t, s, "after", "/pets", "", store.ErrFull)
}

// Documents.

// doc returns a document function that makes d whatever the key.
func doc(d string) func(key string) ([]byte, error) {
	return func(string) ([]byte, error) { return []byte(d), nil }
}

// idDoc returns an item document function that makes idJSON(key, name).
func idDoc(name string) func(key string) []byte {
	return func(key string) []byte { return []byte(idJSON(key, name)) }
}

// idCreate returns a document function that makes idJSON(key, name).
func idCreate(name string) func(key string) ([]byte, error) {
	return func(key string) ([]byte, error) { return []byte(idJSON(key, name)), nil }
}

// idJSON returns a document holding a key and a name.
func idJSON(key, name string) string {
	return `{"id":"` + key + `","name":"` + name + `"}`
}

func numJSON(n int) string { return `{"n":` + strconv.Itoa(n) + `}` }

func workerJSON(w, i int) string {
	return `{"worker":` + strconv.Itoa(w) + `,"i":` + strconv.Itoa(i) + `}`
}

// Operations that must succeed.

// create creates d under key, which must be given, and stops the test when
// that fails.
func create(t *testing.T, s store.Store, sess, col, key, d string) {
	t.Helper()
	got, err := s.Create(ctx, sess, col, key, doc(d))
	if err != nil || got != key {
		t.Fatalf("Create(%q, %s, %q) = %q, %v; want %q, no error", sess, col, key, got, err, key)
	}
}

// assign creates a resource with key "" and checks that it is assigned key
// want, that the document function got that key and that the stored
// document is what it made: idJSON(want, "assigned").
func assign(t *testing.T, s store.Store, sess, col, want string) {
	t.Helper()
	var mu sync.Mutex
	var given []string
	got, err := s.Create(ctx, sess, col, "", func(key string) ([]byte, error) {
		mu.Lock()
		given = append(given, key)
		mu.Unlock()
		return []byte(idJSON(key, "assigned")), nil
	})
	if err != nil || got != want {
		t.Fatalf("Create(%q, %s, \"\") = %q, %v; want assigned key %q, no error", sess, col, got, err, want)
	}
	if !slices.Contains(given, want) {
		t.Errorf("Create(%q, %s, \"\"): the document function got keys %q, want %q", sess, col, given, want)
	}
	wantGet(t, s, sess, col, want, idJSON(want, "assigned"))
}

func update(t *testing.T, s store.Store, sess, col, key, d string) {
	t.Helper()
	got, err := s.Update(ctx, sess, col, key, func([]byte) ([]byte, error) { return []byte(d), nil })
	if err != nil || string(got) != d {
		t.Fatalf("Update(%q, %s, %q) = %s, %v; want %s, no error", sess, col, key, got, err, d)
	}
	wantGet(t, s, sess, col, key, d)
}

// remove deletes the resource under key, which must be want.
func remove(t *testing.T, s store.Store, sess, col, key, want string) {
	t.Helper()
	got, err := s.Delete(ctx, sess, col, key)
	if err != nil || string(got) != want {
		t.Fatalf("Delete(%q, %s, %q) = %s, %v; want %s, no error", sess, col, key, got, err, want)
	}
}

func fill(t *testing.T, s store.Store, sess, col string, items []store.Item) []string {
	t.Helper()
	keys, err := s.Fill(ctx, sess, col, items)
	if err != nil {
		t.Fatalf("Fill(%q, %s, %d items): got error %v, want none", sess, col, len(items), err)
	}
	return keys
}

func reset(t *testing.T, s store.Store, sess string) {
	t.Helper()
	if err := s.Reset(ctx, sess); err != nil {
		t.Fatalf("Reset(%q): got error %v, want none", sess, err)
	}
}

// Checks.

func wantGet(t *testing.T, s store.Store, sess, col, key, want string) {
	t.Helper()
	got, err := s.Get(ctx, sess, col, key)
	if err != nil || string(got) != want {
		t.Errorf("Get(%q, %s, %q) = %s, %v; want %s, no error", sess, col, key, got, err, want)
	}
}

func wantMissing(t *testing.T, s store.Store, sess, col, key string) {
	t.Helper()
	got, err := s.Get(ctx, sess, col, key)
	if !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Get(%q, %s, %q) = %s, %v; want error %v", sess, col, key, got, err, store.ErrNotFound)
	}
}

func wantDeleteMissing(t *testing.T, s store.Store, sess, col, key string) {
	t.Helper()
	got, err := s.Delete(ctx, sess, col, key)
	if !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Delete(%q, %s, %q) = %s, %v; want error %v", sess, col, key, got, err, store.ErrNotFound)
	}
}

// wantCreateErr checks that a create of key fails with target and stores
// nothing: the collection's count stays as it was.
func wantCreateErr(t *testing.T, s store.Store, sess, col, key string, target error) {
	t.Helper()
	wantCreateFails(t, s, sess, col, key, doc(`{"refused":true}`), target)
}

// wantCreateFails checks that a create with the document function d fails
// with target and stores nothing.
func wantCreateFails(t *testing.T, s store.Store, sess, col, key string, d func(string) ([]byte, error), target error) {
	t.Helper()
	before, err := s.Count(ctx, sess, col)
	if err != nil {
		t.Fatalf("Count(%q, %s): got error %v, want none", sess, col, err)
	}
	got, err := s.Create(ctx, sess, col, key, d)
	if !errors.Is(err, target) {
		t.Errorf("Create(%q, %s, %q) = %q, %v; want error %v", sess, col, key, got, err, target)
	}
	wantCount(t, s, sess, col, before)
}

// wantFillErr checks that a fill fails with target and leaves the
// collection as it was.
func wantFillErr(t *testing.T, s store.Store, sess, col string, items []store.Item, target error) {
	t.Helper()
	before, err := s.List(ctx, sess, col, -1)
	if err != nil {
		t.Fatalf("List(%q, %s, -1): got error %v, want none", sess, col, err)
	}
	keys, err := s.Fill(ctx, sess, col, items)
	if !errors.Is(err, target) {
		t.Errorf("Fill(%q, %s, %d items) = %q, %v; want error %v", sess, col, len(items), keys, err, target)
	}
	want := make([]string, len(before))
	for i, d := range before {
		want[i] = string(d)
	}
	wantList(t, s, sess, col, -1, want...)
}

func wantCount(t *testing.T, s store.Store, sess, col string, want int) {
	t.Helper()
	got, err := s.Count(ctx, sess, col)
	if err != nil || got != want {
		t.Errorf("Count(%q, %s) = %d, %v; want %d, no error", sess, col, got, err, want)
	}
}

func wantList(t *testing.T, s store.Store, sess, col string, limit int, want ...string) {
	t.Helper()
	got, err := s.List(ctx, sess, col, limit)
	if err != nil {
		t.Errorf("List(%q, %s, %d): got error %v, want %s", sess, col, limit, err, want)
		return
	}
	wantDocs(t, fmt.Sprintf("List(%q, %s, %d)", sess, col, limit), got, want...)
}

func wantDocs(t *testing.T, what string, got [][]byte, want ...string) {
	t.Helper()
	if !equalDocs(got, want) {
		t.Errorf("%s = %s (%d), want %s (%d)", what, got, len(got), want, len(want))
	}
}

func equalDocs(got [][]byte, want []string) bool {
	return slices.EqualFunc(got, want, func(g []byte, w string) bool { return string(g) == w })
}

func wantKeys(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s returned keys %q, want %q", what, got, want)
	}
}

// dumped is a collection as a check expects Dump to return it.
type dumped struct {
	name string
	docs []string
}

func (d dumped) String() string { return fmt.Sprintf("%s: %s", d.name, d.docs) }

func wantDump(t *testing.T, s store.Store, sess string, want ...dumped) {
	t.Helper()
	got, err := s.Dump(ctx, sess)
	if err != nil {
		t.Errorf("Dump(%q): got error %v, want %v", sess, err, want)
		return
	}
	same := slices.EqualFunc(got, want, func(g store.Collection, w dumped) bool {
		return g.Name == w.name && equalDocs(g.Docs, w.docs)
	})
	if !same {
		shown := make([]dumped, len(got))
		for i, c := range got {
			shown[i].name = c.Name
			for _, d := range c.Docs {
				shown[i].docs = append(shown[i].docs, string(d))
			}
		}
		t.Errorf("Dump(%q) = %v, want %v", sess, shown, want)
	}
}
