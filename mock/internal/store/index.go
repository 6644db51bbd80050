package store

import "hash/maphash"

// index finds an item of a collection by its key: a hash table with open
// addressing and linear probing whose slots hold the item's position and
// 32 bits of its key's hash. The keys stay in the collection's arena; find
// asks its caller whether the item at a position has the key sought, and
// only for positions whose hash matches.
type index struct {
	seed  maphash.Seed
	slots []uint64 // hash<<32 | position+1, at or after the hash's home; 0 is free
	n     int      // slots in use, at most three quarters of them
}

// newIndex returns an index with room for n items before it grows.
func newIndex(n int) index {
	x := index{seed: maphash.MakeSeed()}
	if n > 0 {
		x.slots = make([]uint64, slotsFor(n))
	}
	return x
}

// slotsFor is the number of slots, a power of two, that holds n items.
func slotsFor(n int) int {
	size := 8
	for size*3 < n*4 {
		size *= 2
	}
	return size
}

// hash is the hash of key the index files it under.
func (x *index) hash(key string) uint32 { return uint32(maphash.String(x.seed, key)) }

// hashBytes is hash for a key held as bytes.
func (x *index) hashBytes(key []byte) uint32 { return uint32(maphash.Bytes(x.seed, key)) }

// find returns the position of the item whose key has hash h and for which
// is reports true.
func (x *index) find(h uint32, is func(pos uint32) bool) (pos uint32, ok bool) {
	if len(x.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(x.slots) - 1)
	for i := uint64(h) & mask; x.slots[i] != 0; i = (i + 1) & mask {
		if s := x.slots[i]; uint32(s>>32) == h && is(uint32(s)-1) {
			return uint32(s) - 1, true
		}
	}
	return 0, false
}

// insert files the item at pos under hash h. The index must not hold the
// item already.
func (x *index) insert(h, pos uint32) {
	if (x.n+1)*4 > len(x.slots)*3 {
		x.grow()
	}
	x.put(slot(h, pos))
	x.n++
}

// slot is what a slot holds for the item at pos under hash h.
func slot(h, pos uint32) uint64 { return uint64(h)<<32 | (uint64(pos) + 1) }

// home is the slot where probing for slot s starts.
func (x *index) home(s uint64) uint64 { return (s >> 32) & uint64(len(x.slots)-1) }

// put stores slot s in the first free slot from its home.
func (x *index) put(s uint64) {
	mask := uint64(len(x.slots) - 1)
	i := x.home(s)
	for x.slots[i] != 0 {
		i = (i + 1) & mask
	}
	x.slots[i] = s
}

// grow doubles the slots.
func (x *index) grow() {
	old := x.slots
	x.slots = make([]uint64, max(2*len(old), 8))
	for _, s := range old {
		if s != 0 {
			x.put(s)
		}
	}
}

// remove takes out the item at pos, filed under hash h. The slots after it
// up to the next free one move back where that keeps them reachable from
// their home, so that no marks of removed items are needed.
func (x *index) remove(h, pos uint32) {
	if len(x.slots) == 0 {
		return
	}
	mask := uint64(len(x.slots) - 1)
	want := slot(h, pos)
	i := x.home(want)
	for x.slots[i] != want {
		if x.slots[i] == 0 {
			return
		}
		i = (i + 1) & mask
	}
	for j := (i + 1) & mask; x.slots[j] != 0; j = (j + 1) & mask {
		home := x.home(x.slots[j])
		if (j-home)&mask >= (j-i)&mask { // i lies between home and j
			x.slots[i] = x.slots[j]
			i = j
		}
	}
	x.slots[i] = 0
	x.n--
}
