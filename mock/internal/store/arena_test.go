package store

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// TestArenaRecords stores records of keys and documents of many lengths,
// across the lengths where their uvarints grow, and reads them back.
func TestArenaRecords(t *testing.T) {
	tests := []struct {
		name     string
		key, doc string
		size     int // bytes the record takes
	}{
		{name: "empty key and document", key: "", doc: "", size: 2},
		{name: "one-byte key", key: "7", doc: `{"id":7}`, size: 2 + 1 + 8},
		{name: "empty document", key: "k", doc: "", size: 3},
		{name: "127-byte key", key: strings.Repeat("k", 127), doc: "{}", size: 2 + 127 + 2},
		{name: "128-byte key", key: strings.Repeat("k", 128), doc: "{}", size: 3 + 128 + 2},
		{name: "128-byte document", key: "k", doc: strings.Repeat("d", 128), size: 3 + 1 + 128},
		{name: "16384-byte document", key: "k", doc: strings.Repeat("d", 16384), size: 4 + 1 + 16384},
		{name: "non-ASCII key", key: "ĉiŭ-🌿", doc: `"x"`, size: 2 + len("ĉiŭ-🌿") + 3},
	}
	var a arena
	refs := make([]ref, len(tests))
	used := 0
	for i, tc := range tests {
		if got := recordSize(len(tc.key), len(tc.doc)); got != tc.size {
			t.Errorf("%s: recordSize = %d, want %d", tc.name, got, tc.size)
		}
		refs[i] = a.add(tc.key, []byte(tc.doc))
		used += tc.size
	}
	if a.used != used {
		t.Errorf("used = %d, want %d", a.used, used)
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			key, doc := a.record(refs[i])
			if string(key) != tc.key || string(doc) != tc.doc {
				t.Errorf("record = %q, %q; want %q, %q", key, doc, tc.key, tc.doc)
			}
			if cap(key) != len(key) || cap(doc) != len(doc) {
				t.Errorf("record has capacities %d, %d beyond lengths %d, %d", cap(key), cap(doc), len(key), len(doc))
			}
			if n := len(a.bytes(refs[i])); n != tc.size {
				t.Errorf("bytes has %d bytes, want %d", n, tc.size)
			}
		})
	}
}

// TestArenaChunks checks the chunks an arena makes: doubling from
// firstChunk to chunkSize for small records, one of its own for a large
// record, and none beyond the record when records fill a chunk.
func TestArenaChunks(t *testing.T) {
	var a arena
	doc := []byte(strings.Repeat("d", 1000-4)) // with key "k", a 1,000-byte record
	// The first record does not fit in firstChunk bytes: the first chunk
	// holds it exactly, and the next ones double up to chunkSize.
	var caps []int
	for range 300 {
		a.add("k", doc)
	}
	for _, c := range a.chunks {
		caps = append(caps, cap(c))
	}
	want := []int{1000, 2000, 4000, 8000, 16000, 32000, 64000, 64 << 10, 64 << 10, 64 << 10}
	if !slices.Equal(caps, want) {
		t.Fatalf("chunk caps = %v, want %v", caps, want)
	}
	if a.used != 300_000 {
		t.Errorf("used = %d, want 300000", a.used)
	}

	// A large record that does not fit in what is left of the shared chunk
	// gets a chunk of its own.
	big := bytes.Repeat([]byte("b"), chunkSize)
	r := a.add("big", big)
	if r>>32 != 10 || uint32(r) != 0 || cap(a.chunks[10]) != recordSize(3, chunkSize) {
		t.Errorf("large record at chunk %d offset %d in a chunk of %d; want 10, 0, %d", r>>32, uint32(r), cap(a.chunks[10]), recordSize(3, chunkSize))
	}
	// The next small record goes on filling the shared chunk, and so does a
	// record larger than ownChunk that fits in it.
	before := len(a.chunks[9])
	r = a.add("k", doc)
	if r>>32 != 9 || int(uint32(r)) != before {
		t.Errorf("small record after a large one at chunk %d offset %d, want 9, %d", r>>32, uint32(r), before)
	}
	if key, d := a.record(r); string(key) != "k" || !bytes.Equal(d, doc) {
		t.Errorf("small record after a large one = %q, %d bytes", key, len(d))
	}
	r = a.add("k", big[:ownChunk])
	if r>>32 != 9 || int(uint32(r)) != before+1000 {
		t.Errorf("record of ownChunk bytes at chunk %d offset %d, want 9, %d", r>>32, uint32(r), before+1000)
	}
	if len(a.chunks) != 11 {
		t.Errorf("%d chunks, want 11", len(a.chunks))
	}
}

// TestNewArena checks the size of the first chunk of an arena made for a
// given number of bytes.
func TestNewArena(t *testing.T) {
	for _, tc := range []struct{ size, first int }{
		{0, firstChunk}, {100, firstChunk}, {5000, 5000}, {1 << 20, chunkSize},
	} {
		a := newArena(tc.size)
		a.add("k", nil)
		if got := cap(a.chunks[0]); got != tc.first {
			t.Errorf("newArena(%d): first chunk of %d bytes, want %d", tc.size, got, tc.first)
		}
	}
}

// TestArenaKeepsWhatItHandsOut checks that documents read from an arena do
// not change as records are added, copied to another arena, or appended to
// by whoever holds them.
func TestArenaKeepsWhatItHandsOut(t *testing.T) {
	var a arena
	first := a.add("a", []byte(`{"v":1}`))
	second := a.add("b", []byte(`{"v":2}`))
	_, doc := a.record(first)
	_ = append(doc, `,"more":true}`...) // a holder appending gets a copy
	if _, d := a.record(second); string(d) != `{"v":2}` {
		t.Fatalf("after appending to the first document, the second = %q", d)
	}
	for i := range 10_000 {
		a.add("k", []byte(strings.Repeat("x", i%50)))
	}
	var b arena
	moved := b.copyFrom(&a, first)
	if string(doc) != `{"v":1}` {
		t.Errorf("document handed out = %q, want {\"v\":1}", doc)
	}
	if key, d := b.record(moved); string(key) != "a" || string(d) != `{"v":1}` {
		t.Errorf("copied record = %q, %q; want a, {\"v\":1}", key, d)
	}
	if b.used != recordSize(1, 7) {
		t.Errorf("used after one copy = %d, want %d", b.used, recordSize(1, 7))
	}
}
