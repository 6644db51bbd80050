package mock

import (
	"math/rand/v2"
	"sync/atomic"
)

// A tally counts what the request path of every core adds at once (a
// plan's exchanges, for the contract report). One counter would be one
// cache line that every add takes from the other cores, and with it
// whatever else the line holds: a plan's first fields, which every
// request reads. A tally spreads its count over cells, each on a line of
// its own, away from its neighbours: an add goes to a cell at random, so
// concurrent adds rarely meet.
type tally struct {
	_     [cacheLine]byte
	cells [tallyCells]struct {
		n atomic.Int64
		_ [cacheLine - 8]byte
	}
}

// cacheLine is the size of a cache line on the machines the mock runs on
// (amd64; 64 or 128 bytes on arm64, where a tally's cells then share
// lines two by two).
const cacheLine = 64

// tallyCells is the number of cells: with a few cores adding at once,
// two meet on one cell rarely.
const tallyCells = 8

func (t *tally) add() { t.cells[rand.Uint32()%tallyCells].n.Add(1) }

// load returns the count; adds under way may or may not be in it.
func (t *tally) load() int64 {
	var n int64
	for i := range t.cells {
		n += t.cells[i].n.Load()
	}
	return n
}

// set makes the count n; no add may run meanwhile.
func (t *tally) set(n int64) {
	for i := range t.cells {
		t.cells[i].n.Store(0)
	}
	t.cells[0].n.Store(n)
}
