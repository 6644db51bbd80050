package store

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// docsOf returns the documents of a collection, oldest first, as strings.
func docsOf(c *collection) []string {
	var out []string
	for _, d := range c.list(-1) {
		out = append(out, string(d))
	}
	return out
}

// wantFind checks that key is at pos with document doc.
func wantFind(t *testing.T, c *collection, key string, pos uint32, doc string) {
	t.Helper()
	got, ok := c.find(key)
	if !ok || got != pos {
		t.Errorf("find(%q) = %d, %t; want %d, true", key, got, ok, pos)
		return
	}
	if d := c.doc(got); string(d) != doc {
		t.Errorf("doc of %q = %q, want %q", key, d, doc)
	}
}

// TestCollectionKeys stores keys of many lengths, some the prefix of
// others, and finds each exactly.
func TestCollectionKeys(t *testing.T) {
	keys := []string{"a", "ab", "abc", "b", "1", "10", "01", strings.Repeat("k", 127), strings.Repeat("k", 128), strings.Repeat("k", 129), strings.Repeat("k", 5000), "ĉiŭ", "🌿"}
	c := newCollection(0)
	for i, k := range keys {
		c.add(k, []byte(strconv.Itoa(i)))
	}
	for i, k := range keys {
		wantFind(t, c, k, uint32(i), strconv.Itoa(i))
	}
	for _, k := range []string{"", "A", "abcd", "0", strings.Repeat("k", 126), strings.Repeat("k", 5001), "ĉi"} {
		if pos, ok := c.find(k); ok {
			t.Errorf("find(%q) = %d, true; want not found", k, pos)
		}
	}
	if c.live != len(keys) {
		t.Errorf("live = %d, want %d", c.live, len(keys))
	}
}

// TestCollectionReplace replaces the document of a key: it keeps its place,
// the record it had is dead, and the document handed out before stays.
func TestCollectionReplace(t *testing.T) {
	c := newCollection(0)
	c.add("a", []byte(`{"v":"a"}`))
	c.add("b", []byte(`{"v":"b"}`))
	c.add("c", []byte(`{"v":"c"}`))
	old := c.doc(1)
	got := c.replace(1, "b", []byte(`{"v":"b2","longer":true}`))
	if string(got) != `{"v":"b2","longer":true}` || cap(got) != len(got) {
		t.Errorf("replace = %q with capacity %d", got, cap(got))
	}
	if string(old) != `{"v":"b"}` {
		t.Errorf("document handed out before the replace = %q, want {\"v\":\"b\"}", old)
	}
	wantFind(t, c, "b", 1, `{"v":"b2","longer":true}`)
	if want := []string{`{"v":"a"}`, `{"v":"b2","longer":true}`, `{"v":"c"}`}; !slices.Equal(docsOf(c), want) {
		t.Errorf("list = %q, want %q", docsOf(c), want)
	}
	if c.dead != recordSize(1, 9) || c.live != 3 || len(c.refs) != 3 {
		t.Errorf("dead, live, positions = %d, %d, %d; want %d, 3, 3", c.dead, c.live, len(c.refs), recordSize(1, 9))
	}
}

// TestCollectionCompactsDeleted deletes items until more than half the
// positions are deleted ones, and checks the compaction that follows.
func TestCollectionCompactsDeleted(t *testing.T) {
	c := newCollection(0)
	for i := range 100 {
		c.add("k"+strconv.Itoa(i), []byte(strconv.Itoa(i)))
	}
	var handedOut [][]byte
	// Delete k0, k2, ..., k98: 50 holes and 50 live, not yet a majority.
	for i := 0; i < 100; i += 2 {
		pos, ok := c.find("k" + strconv.Itoa(i))
		if !ok {
			t.Fatalf("k%d not found", i)
		}
		handedOut = append(handedOut, c.remove(pos, "k"+strconv.Itoa(i)))
		c.tidy()
	}
	if len(c.refs) != 100 || c.live != 50 {
		t.Fatalf("after 50 deletions of 100: %d positions, %d live; want 100, 50 (not compacted yet)", len(c.refs), c.live)
	}
	// Deleting k1 makes the holes a majority.
	pos, _ := c.find("k1")
	handedOut = append(handedOut, c.remove(pos, "k1"))
	c.tidy()
	if len(c.refs) != 49 || c.live != 49 || c.dead != 0 {
		t.Fatalf("after the 51st deletion: %d positions, %d live, %d dead bytes; want 49, 49, 0", len(c.refs), c.live, c.dead)
	}
	used := 0
	var want []string
	for i := 3; i < 100; i += 2 {
		used += recordSize(len("k"+strconv.Itoa(i)), len(strconv.Itoa(i)))
		want = append(want, strconv.Itoa(i))
		wantFind(t, c, "k"+strconv.Itoa(i), uint32(len(want)-1), strconv.Itoa(i))
	}
	if c.arena.used != used {
		t.Errorf("arena used = %d, want %d", c.arena.used, used)
	}
	if !slices.Equal(docsOf(c), want) {
		t.Errorf("list = %q, want %q", docsOf(c), want)
	}
	for i := 0; i < 100; i += 2 {
		if _, ok := c.find("k" + strconv.Itoa(i)); ok {
			t.Errorf("deleted k%d found", i)
		}
	}
	for i, d := range handedOut {
		n := 2 * i
		if i == 50 {
			n = 1
		}
		if string(d) != strconv.Itoa(n) {
			t.Errorf("deleted document %d handed out = %q, want %q", i, d, strconv.Itoa(n))
		}
	}
	// After compaction the collection goes on as before: new items come last.
	c.add("k0", []byte("new"))
	wantFind(t, c, "k0", 49, "new")
}

// TestCollectionCompactsReplaced replaces one document again and again:
// the arena is compacted whenever more than half of it is dead bytes, and
// at least minDead of them.
func TestCollectionCompactsReplaced(t *testing.T) {
	c := newCollection(0)
	c.add("other", []byte(`{"v":"other"}`))
	c.add("k", []byte(`{"v":0}`))
	first := c.doc(1)
	compactions := 0
	for i := 1; i <= 10_000; i++ {
		pos, _ := c.find("k")
		before := c.arena.used
		c.replace(pos, "k", []byte(`{"v":`+strconv.Itoa(i)+`}`))
		c.tidy()
		if c.arena.used < before {
			compactions++
			want := recordSize(5, 13) + recordSize(1, len(`{"v":`+strconv.Itoa(i)+`}`))
			if c.dead != 0 || c.arena.used != want {
				t.Fatalf("replace %d compacted to %d bytes used, %d dead; want %d, 0", i, c.arena.used, c.dead, want)
			}
		}
		if c.dead > minDead+16 {
			t.Fatalf("replace %d: %d dead bytes, more than minDead and a record", i, c.dead)
		}
	}
	// Every replace leaves a record of 10 to 13 bytes dead: a compaction
	// every 4 Ki / ~12 bytes.
	if compactions < 10_000*12/minDead-5 || compactions > 10_000*13/minDead+1 {
		t.Errorf("%d compactions in 10,000 replaces", compactions)
	}
	if string(first) != `{"v":0}` {
		t.Errorf("first document handed out = %q", first)
	}
	wantFind(t, c, "other", 0, `{"v":"other"}`)
	wantFind(t, c, "k", 1, `{"v":10000}`)
}

// TestMemoryKeepsWhatItHandsOut checks that the documents a Memory store
// returns stay as they were through updates, deletes and the compactions
// they bring, and that appending to one does not reach the store.
func TestMemoryKeepsWhatItHandsOut(t *testing.T) {
	ctx := context.Background()
	m := NewMemory(1000)
	doc := func(s string) func(string) ([]byte, error) {
		return func(string) ([]byte, error) { return []byte(s), nil }
	}
	for i := range 100 {
		if _, err := m.Create(ctx, "", "/plants", "", doc(`{"n":`+strconv.Itoa(i)+`}`)); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := m.Get(ctx, "", "/plants", "1")
	list, _ := m.List(ctx, "", "/plants", -1)
	_ = append(got, "tail"...)
	if next, _ := m.Get(ctx, "", "/plants", "2"); string(next) != `{"n":1}` {
		t.Fatalf("after appending to a returned document, the next one = %q", next)
	}
	for i := 1; i <= 100; i++ {
		k := strconv.Itoa(i)
		for range 50 {
			m.Update(ctx, "", "/plants", k, func(old []byte) ([]byte, error) { return append([]byte(`{"x":1,`), old[1:]...), nil })
		}
		if i%2 == 0 {
			m.Delete(ctx, "", "/plants", k)
		}
	}
	if string(got) != `{"n":0}` {
		t.Errorf("document got before = %q", got)
	}
	for i, d := range list {
		if want := `{"n":` + strconv.Itoa(i) + `}`; string(d) != want {
			t.Errorf("document %d listed before = %q, want %q", i, d, want)
		}
	}
	if n, _ := m.Count(ctx, "", "/plants"); n != 50 {
		t.Errorf("count = %d, want 50", n)
	}
	if d, _ := m.Get(ctx, "", "/plants", "99"); string(d) != `{`+strings.Repeat(`"x":1,`, 50)+`"n":98}` {
		t.Errorf("document 99 = %q", d)
	}
}
