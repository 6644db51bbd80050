package store

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// at is find's question for the item at pos.
func at(pos uint32) func(uint32) bool { return func(p uint32) bool { return p == pos } }

// item is an item of an index in a test: its hash and position.
type item struct{ h, pos uint32 }

// indexOf returns an index of 8 slots holding items, inserted in order.
func indexOf(items ...item) index {
	x := newIndex(4)
	for _, it := range items {
		x.insert(it.h, it.pos)
	}
	return x
}

// wantSlots checks an index's slots exactly, and its count of used slots.
func wantSlots(t *testing.T, x *index, want ...uint64) {
	t.Helper()
	if !slices.Equal(x.slots, want) {
		t.Errorf("slots = %s, want %s", slotsString(x.slots), slotsString(want))
	}
	used := len(want) - strings.Count(slotsString(want), "-")
	if x.n != used {
		t.Errorf("n = %d, want %d", x.n, used)
	}
}

// slotsString shows slots as hash:position, - for a free slot.
func slotsString(slots []uint64) string {
	var out []string
	for _, s := range slots {
		if s == 0 {
			out = append(out, "-")
		} else {
			out = append(out, fmt.Sprintf("%d:%d", s>>32, uint32(s)-1))
		}
	}
	return strings.Join(out, " ")
}

// TestIndexCollisions files items under hashes that share a home slot, in a
// run that wraps around the end of the slots.
func TestIndexCollisions(t *testing.T) {
	x := indexOf(item{6, 0}, item{6, 1}, item{7, 2}, item{0, 3}, item{6, 4})
	wantSlots(t, &x, slot(7, 2), slot(0, 3), slot(6, 4), 0, 0, 0, slot(6, 0), slot(6, 1))
	if t.Failed() {
		t.FailNow()
	}
	for _, tc := range []struct {
		name   string
		h, pos uint32
		found  bool
		asked  int // positions find asks about: those under the same hash
	}{
		{name: "first of three", h: 6, pos: 0, found: true, asked: 1},
		{name: "second of three", h: 6, pos: 1, found: true, asked: 2},
		{name: "third, after the wrap", h: 6, pos: 4, found: true, asked: 3},
		{name: "home taken by another hash", h: 7, pos: 2, found: true, asked: 1},
		{name: "home after the wrap", h: 0, pos: 3, found: true, asked: 1},
		{name: "same hash, not the item", h: 6, pos: 9, found: false, asked: 3},
		{name: "home inside the run", h: 1, pos: 3, found: false, asked: 0},
		{name: "free home", h: 3, pos: 3, found: false, asked: 0},
		{name: "other hash with the same home", h: 14, pos: 0, found: false, asked: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			asked := 0
			pos, ok := x.find(tc.h, func(p uint32) bool { asked++; return p == tc.pos })
			if ok != tc.found || (ok && pos != tc.pos) {
				t.Errorf("find(%d) = %d, %t; want %d, %t", tc.h, pos, ok, tc.pos, tc.found)
			}
			if asked != tc.asked {
				t.Errorf("find(%d) asked about %d positions, want %d", tc.h, asked, tc.asked)
			}
		})
	}
}

// TestIndexRemoveShifts removes items from runs that wrap around and checks
// that what follows moves back exactly where its home allows.
func TestIndexRemoveShifts(t *testing.T) {
	run := []item{{6, 0}, {6, 1}, {7, 2}, {0, 3}} // 7:2 0:3 - - - - 6:0 6:1
	for _, tc := range []struct {
		name   string
		items  []item
		remove item
		want   []uint64
	}{
		{
			name: "head of the run: all move back", items: run, remove: item{6, 0},
			want: []uint64{slot(0, 3), 0, 0, 0, 0, 0, slot(6, 1), slot(7, 2)},
		},
		{
			name: "follower moves to its home", items: run, remove: item{7, 2},
			want: []uint64{slot(0, 3), 0, 0, 0, 0, 0, slot(6, 0), slot(6, 1)},
		},
		{
			name: "last of the run", items: run, remove: item{0, 3},
			want: []uint64{slot(7, 2), 0, 0, 0, 0, 0, slot(6, 0), slot(6, 1)},
		},
		{
			name: "not there: nothing changes", items: run, remove: item{6, 7},
			want: []uint64{slot(7, 2), slot(0, 3), 0, 0, 0, 0, slot(6, 0), slot(6, 1)},
		},
		{
			name:  "followers at home stay",
			items: []item{{6, 0}, {6, 1}, {0, 2}, {0, 3}}, remove: item{6, 0},
			want: []uint64{slot(0, 2), slot(0, 3), 0, 0, 0, 0, slot(6, 1), 0},
		},
		{
			name:  "one at home stays, a later one moves past it",
			items: []item{{5, 0}, {6, 1}, {5, 2}}, remove: item{5, 0},
			want: []uint64{0, 0, 0, 0, 0, slot(5, 2), slot(6, 1), 0},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := indexOf(tc.items...)
			x.remove(tc.remove.h, tc.remove.pos)
			wantSlots(t, &x, tc.want...)
		})
	}
}

// TestIndexGrows checks the number of slots as items are inserted, and that
// every item is still found after each growth.
func TestIndexGrows(t *testing.T) {
	x := newIndex(0)
	if x.slots != nil {
		t.Fatalf("newIndex(0) has %d slots, want none", len(x.slots))
	}
	if _, ok := x.find(5, at(0)); ok {
		t.Fatal("find in an empty index found something")
	}
	x.remove(5, 0) // nothing to remove: no effect
	sizes := map[int]int{1: 8, 6: 8, 7: 16, 12: 16, 13: 32, 24: 32, 25: 64, 1000: 2048}
	for n := 1; n <= 1000; n++ {
		x.insert(uint32(n)*0x9E3779B1, uint32(n-1))
		if want, ok := sizes[n]; ok && len(x.slots) != want {
			t.Errorf("after %d inserts: %d slots, want %d", n, len(x.slots), want)
		}
	}
	for n := 1; n <= 1000; n++ {
		if pos, ok := x.find(uint32(n)*0x9E3779B1, at(uint32(n-1))); !ok || pos != uint32(n-1) {
			t.Fatalf("find(item %d) = %d, %t; want %d, true", n, pos, ok, n-1)
		}
	}
	if x.n != 1000 {
		t.Errorf("n = %d, want 1000", x.n)
	}
}

func TestSlotsFor(t *testing.T) {
	for _, tc := range []struct{ n, want int }{
		{1, 8}, {6, 8}, {7, 16}, {12, 16}, {13, 32}, {768, 1024}, {769, 2048}, {1_000_000, 2 << 20},
	} {
		if got := slotsFor(tc.n); got != tc.want {
			t.Errorf("slotsFor(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
}

// TestIndexModel inserts and removes at random under few hashes, so that
// runs are long and wrap, and compares every lookup with a map.
func TestIndexModel(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	x := newIndex(0)
	var hashes []uint32       // by position
	live := map[uint32]bool{} // positions inserted and not removed
	for step := range 5_000 {
		if len(live) > 0 && r.IntN(5) < 2 {
			for pos := range live {
				x.remove(hashes[pos], pos)
				delete(live, pos)
				break
			}
		} else {
			h := r.Uint32N(16)
			if r.IntN(4) == 0 {
				h = r.Uint32() // a few anywhere, some at the end of the slots
			}
			live[uint32(len(hashes))] = true
			x.insert(h, uint32(len(hashes)))
			hashes = append(hashes, h)
		}
		if step%50 != 0 {
			continue
		}
		n := 0
		for _, s := range x.slots {
			if s != 0 {
				n++
			}
		}
		if n != len(live) || x.n != len(live) {
			t.Fatalf("step %d: %d slots used, n = %d; want %d", step, n, x.n, len(live))
		}
		for pos, h := range hashes {
			pos := uint32(pos)
			got, ok := x.find(h, at(pos))
			if ok != live[pos] || (ok && got != pos) {
				t.Fatalf("step %d: find(%d, at(%d)) = %d, %t; want %t", step, h, pos, got, ok, live[pos])
			}
		}
	}
}
