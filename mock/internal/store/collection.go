package store

import "strconv"

// collection is one collection of a session: its items in creation order,
// each a key and a document, and the sequence its keys are assigned from.
// It is not safe for concurrent use; its space's mutex guards it.
type collection struct {
	arena arena  // every item's record, and the dead records of earlier ones
	refs  []ref  // each item's record, in creation order; gone for deleted items
	index index  // each item's position in refs, by key
	live  int    // items not deleted
	dead  int    // bytes of dead records in arena
	seq   uint64 // the last sequence number assigned
}

// gone is the ref of a deleted item.
const gone = ^ref(0)

// maxPositions is the most positions, deleted items' included until the
// collection is compacted, that refs may hold: the index keeps a position
// plus one in 32 bits.
const maxPositions = 1<<32 - 1

// A collection is compacted when more than half its arena is dead bytes,
// and at least minDead of them, or when more than half its positions are
// deleted items, and at least minHoles of them: a compaction costs what
// lives, and is paid for by at least as much that died since the last.
const (
	minDead  = 4 << 10
	minHoles = 32
)

// newCollection returns an empty collection with room for n items before
// its index and positions grow.
func newCollection(n int) *collection {
	return &collection{refs: make([]ref, 0, n), index: newIndex(n)}
}

// find returns the position of the item under key.
func (c *collection) find(key string) (pos uint32, ok bool) {
	return c.index.find(c.index.hash(key), func(p uint32) bool {
		k, _ := c.arena.record(c.refs[p])
		return string(k) == key
	})
}

// full reports whether there is no position left for another item.
func (c *collection) full() bool {
	if uint64(len(c.refs)) >= maxPositions && c.live < len(c.refs) {
		c.compact()
	}
	return uint64(len(c.refs)) >= maxPositions
}

// add appends an item under key, which no item has; the collection must not
// be full.
func (c *collection) add(key string, doc []byte) {
	c.index.insert(c.index.hash(key), uint32(len(c.refs)))
	c.refs = append(c.refs, c.arena.add(key, doc))
	c.live++
}

// doc returns the document of the item at pos.
func (c *collection) doc(pos uint32) []byte {
	_, d := c.arena.record(c.refs[pos])
	return d
}

// replace makes doc the document of the item at pos, whose key is key, and
// returns it as stored. The item keeps its place in creation order.
func (c *collection) replace(pos uint32, key string, doc []byte) []byte {
	c.dead += recordSize(len(key), len(c.doc(pos)))
	c.refs[pos] = c.arena.add(key, doc)
	return c.doc(pos)
}

// remove deletes the item at pos, whose key is key, and returns its
// document.
func (c *collection) remove(pos uint32, key string) []byte {
	d := c.doc(pos)
	c.dead += recordSize(len(key), len(d))
	c.refs[pos] = gone
	c.index.remove(c.index.hash(key), pos)
	c.live--
	return d
}

// tidy compacts the collection when enough of it is dead.
func (c *collection) tidy() {
	holes := len(c.refs) - c.live
	if (c.dead >= minDead && 2*c.dead > c.arena.used) || (holes >= minHoles && holes > c.live) {
		c.compact()
	}
}

// compact copies the live items to a new arena, positions and index. The
// old arena is left as it is, for the documents handed out from it.
func (c *collection) compact() {
	fresh := newCollection(c.live)
	fresh.arena = newArena(c.arena.used - c.dead)
	fresh.seq = c.seq
	for _, r := range c.refs {
		if r == gone {
			continue
		}
		key, _ := c.arena.record(r)
		fresh.index.insert(fresh.index.hashBytes(key), uint32(len(fresh.refs)))
		fresh.refs = append(fresh.refs, fresh.arena.copyFrom(&c.arena, r))
		fresh.live++
	}
	*c = *fresh
}

// list returns up to limit documents, oldest first; limit < 0 means all.
func (c *collection) list(limit int) [][]byte {
	n := c.live
	if limit >= 0 && limit < n {
		n = limit
	}
	out := make([][]byte, 0, n)
	for _, r := range c.refs {
		if len(out) == n {
			break
		}
		if r != gone {
			_, d := c.arena.record(r)
			out = append(out, d)
		}
	}
	return out
}

// next assigns the next sequence number that is not taken, neither in the
// collection nor in also.
func (c *collection) next(also map[string]bool) string {
	for {
		c.seq++
		k := strconv.FormatUint(c.seq, 10)
		if _, taken := c.find(k); !taken && !also[k] {
			return k
		}
	}
}

// above moves the sequence past key when key is a whole number in
// canonical decimal form: digits only, and no leading zero but for "0".
func (c *collection) above(key string) {
	if n, err := strconv.ParseUint(key, 10, 64); err == nil && n > c.seq && (key[0] != '0' || key == "0") {
		c.seq = n
	}
}
