package state

import (
	"strings"
	"testing"
)

// entry is a journal entry of these tests, weighing its body.
type entry struct {
	seq  uint64
	body string
}

type entryCodec struct{}

func (entryCodec) Weight(e entry) int              { return len(e.body) }
func (entryCodec) Number(e *entry, seq uint64)     { e.seq = seq }
func (entryCodec) Append(b []byte, e entry) []byte { return append(b, e.body...) }
func (entryCodec) Decode(d []byte, e *entry) error { e.body = string(d); return nil }

// TestJournalBytesCounted: the journal in memory counts the bytes it
// holds as it adds and drops entries, and starts afresh when reset.
func TestJournalBytesCounted(t *testing.T) {
	j := newJournal[entry](entryCodec{}, keep{Size: 3, Bytes: 1000})
	e := entry{body: strings.Repeat("x", 100)}
	size := int64(len(e.body))
	for i := range 10 {
		j.add(e)
		n := min(int64(i+1), 3, 1000/size)
		if j.bytes != n*size || int64(len(j.entries())) != n {
			t.Errorf("after %d: %d bytes in %d entries, want %d in %d", i+1, j.bytes, len(j.entries()), n*size, n)
		}
	}
	huge := entry{body: strings.Repeat("x", 5000)}
	j.add(huge)
	if es := j.entries(); len(es) != 1 || j.bytes != int64(len(huge.body)) || es[0].seq != 11 {
		t.Errorf("after one over the bound: %d entries, %d bytes; want it alone", len(es), j.bytes)
	}
	j.reset()
	j.add(e)
	if j.bytes != size || j.entries()[0].seq != 1 {
		t.Errorf("after reset: %d bytes, want %d", j.bytes, size)
	}
}
