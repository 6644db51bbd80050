package store

import "encoding/binary"

// Sizes of an arena's chunks, in bytes.
const (
	firstChunk = 256      // an arena's first chunk, for collections that stay small
	chunkSize  = 64 << 10 // the largest chunk records share; chunks double up to it
	ownChunk   = 8 << 10  // a larger record that does not fit in the shared chunk gets one of its own
)

// arena keeps a collection's records back to back in a few large chunks, so
// that a record costs its bytes and no allocation of its own. A record is a
// key and a document: the key's length and the document's length as
// uvarints, then the key, then the document.
//
// An arena only ever appends: bytes once written are never written again,
// so the documents it hands out stay as they are for as long as anyone
// holds them. Records that are replaced or deleted stay behind as dead
// bytes until the collection copies its live records to a new arena.
type arena struct {
	chunks [][]byte // filled up to their length, never written below it
	cur    int      // the shared chunk: records are added to it while they fit
	next   int      // the size of the next shared chunk; 0 means firstChunk
	used   int      // bytes in records, live and dead
}

// ref names a record in an arena: its chunk in the high 32 bits, its offset
// in the chunk in the low 32 bits.
type ref uint64

// newArena returns an empty arena whose first chunk holds size bytes, up to
// chunkSize.
func newArena(size int) arena {
	return arena{next: min(max(size, firstChunk), chunkSize)}
}

// recordSize is the number of bytes a record of a key and a document of
// these lengths takes.
func recordSize(keyLen, docLen int) int {
	return uvarintLen(keyLen) + uvarintLen(docLen) + keyLen + docLen
}

// uvarintLen is the number of bytes of n as a uvarint.
func uvarintLen(n int) int {
	l := 1
	for ; n >= 0x80; n >>= 7 {
		l++
	}
	return l
}

// add appends a record of key and doc and returns where it is.
func (a *arena) add(key string, doc []byte) ref {
	i := a.room(recordSize(len(key), len(doc)))
	c := a.chunks[i]
	off := len(c)
	c = binary.AppendUvarint(c, uint64(len(key)))
	c = binary.AppendUvarint(c, uint64(len(doc)))
	c = append(c, key...)
	c = append(c, doc...)
	a.chunks[i] = c
	a.used += len(c) - off
	return ref(uint64(i)<<32 | uint64(off))
}

// copyFrom appends the record r of arena from and returns where it is now.
func (a *arena) copyFrom(from *arena, r ref) ref {
	rec := from.bytes(r)
	i := a.room(len(rec))
	off := len(a.chunks[i])
	a.chunks[i] = append(a.chunks[i], rec...)
	a.used += len(rec)
	return ref(uint64(i)<<32 | uint64(off))
}

// room returns a chunk with room for n more bytes within its capacity,
// making one when the current chunk has too little: appending to a chunk
// never moves what it holds.
func (a *arena) room(n int) int {
	if len(a.chunks) > 0 {
		if c := a.chunks[a.cur]; cap(c)-len(c) >= n {
			return a.cur
		}
	}
	if n > ownChunk {
		a.chunks = append(a.chunks, make([]byte, 0, n))
		return len(a.chunks) - 1
	}
	size := max(a.next, firstChunk, n)
	a.chunks = append(a.chunks, make([]byte, 0, size))
	a.cur = len(a.chunks) - 1
	a.next = min(2*size, chunkSize)
	return a.cur
}

// record returns the key and the document of record r. Neither can be
// appended to in place: their capacity is their length.
func (a *arena) record(r ref) (key, doc []byte) {
	c := a.chunks[r>>32][uint32(r):]
	kl, n := binary.Uvarint(c)
	dl, m := binary.Uvarint(c[n:])
	c = c[n+m:]
	return c[:kl:kl], c[kl : kl+dl : kl+dl]
}

// bytes returns the whole of record r.
func (a *arena) bytes(r ref) []byte {
	key, doc := a.record(r)
	n := recordSize(len(key), len(doc))
	off := uint32(r)
	return a.chunks[r>>32][off : int(off)+n]
}
