package state

import (
	"sync"
)

// keep bounds a session's journal: the entries it keeps at most (none
// for a negative Size), and their weight in bytes (0: unbounded), but
// for the newest entry, which is kept whatever its weight. Both backends
// keep alike.
type keep struct {
	Size  int
	Bytes int64
}

// journal keeps the last entries of a session in memory: at most
// keep.Size, and no more bytes (by Codec.Weight) than keep.Bytes, but
// for the newest entry, which it keeps whatever its weight.
type journal[E any] struct {
	codec Codec[E]
	keep  keep
	mu    sync.Mutex // guards the rest
	es    []E        // the kept entries are es[start:], oldest first
	ws    []int      // ws[i] is the weight of es[i], weighed once
	start int
	bytes int64 // the weight of the kept entries
	seq   uint64
}

// newJournal returns a journal that keeps what bounds says, or nil for a
// negative size: no journal.
func newJournal[E any](codec Codec[E], bounds keep) *journal[E] {
	if bounds.Size < 0 {
		return nil
	}
	return &journal[E]{codec: codec, keep: bounds}
}

// add numbers e, keeps it, and returns its number.
func (j *journal[E]) add(e E) uint64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.seq++
	j.es = append(j.es, e)
	kept := &j.es[len(j.es)-1] // on the heap already: numbering it allocates nothing
	j.codec.Number(kept, j.seq)
	w := j.codec.Weight(*kept)
	j.ws = append(j.ws, w)
	j.bytes += int64(w)
	for n := len(j.es) - j.start; n > 1 && (n > j.keep.Size || j.keep.Bytes > 0 && j.bytes > j.keep.Bytes); n-- {
		j.bytes -= int64(j.ws[j.start])
		var zero E
		j.es[j.start] = zero
		j.start++
	}
	if j.start > 0 && j.start >= len(j.es)/2 {
		// Half the slice is dropped entries: move the kept ones down, so
		// that appends reuse the room.
		n := copy(j.es, j.es[j.start:])
		copy(j.ws, j.ws[j.start:])
		clear(j.es[n:])
		j.es, j.ws, j.start = j.es[:n], j.ws[:n], 0
	}
	return j.seq
}

// entries returns the kept entries, oldest first; nil for no journal.
func (j *journal[E]) entries() []E {
	if j == nil {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]E(nil), j.es[j.start:]...)
}

// len returns how many entries the journal keeps; 0 for no journal.
func (j *journal[E]) len() int {
	if j == nil {
		return 0
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.es) - j.start
}

func (j *journal[E]) reset() {
	if j == nil {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.es, j.ws, j.start, j.bytes, j.seq = nil, nil, 0, 0, 0
}
