package store

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Memory is a Store in the process's memory: the default, and the one Go
// tests get. It copies the documents it is given; a collection keeps its
// keys and documents back to back in a few large chunks, so that a
// resource costs little more than its bytes, and the documents it returns
// stay as they are for as long as the caller holds them.
type Memory struct {
	max   int64        // the bound on resources in all sessions
	count atomic.Int64 // resources in all sessions, reserved before storing

	mu     sync.RWMutex      // guards spaces (the map, not what it holds)
	spaces map[string]*space // by session name
}

var _ Store = (*Memory)(nil)

// NewMemory returns an empty Memory store that holds at most max resources
// in all sessions together.
func NewMemory(max int) *Memory {
	return &Memory{max: int64(max), spaces: map[string]*space{}}
}

// space is one session's collections.
type space struct {
	mu   sync.Mutex             // guards cols, everything in them, and gone
	cols map[string]*collection // by collection path
	gone bool                   // Reset took the space out of Memory.spaces
}

// space returns a session's space, making it when create is set.
func (m *Memory) space(sess string, create bool) *space {
	m.mu.RLock()
	sp := m.spaces[sess]
	m.mu.RUnlock()
	if sp != nil || !create {
		return sp
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if sp = m.spaces[sess]; sp == nil {
		sp = &space{cols: map[string]*collection{}}
		m.spaces[sess] = sp
	}
	return sp
}

// lock returns a session's space, locked, or nil (nothing locked) when it
// does not exist and create is not set. Unlock sp.mu after.
func (m *Memory) lock(sess string, create bool) *space {
	for {
		sp := m.space(sess, create)
		if sp == nil {
			return nil
		}
		sp.mu.Lock()
		if !sp.gone {
			return sp
		}
		sp.mu.Unlock() // reset meanwhile: its successor is in m.spaces
	}
}

// collection returns a collection of a session, locked, or nil (nothing
// locked) when it does not exist and create is not set. Unlock sp.mu after.
func (m *Memory) collection(sess, col string, create bool) (*space, *collection) {
	sp := m.lock(sess, create)
	if sp == nil {
		return nil, nil
	}
	c := sp.cols[col]
	if c == nil && create {
		c = newCollection(0)
		sp.cols[col] = c
	}
	if c == nil {
		sp.mu.Unlock()
		return nil, nil
	}
	return sp, c
}

// reserve counts n more resources against the bound, or reports false. A
// refused reservation never shows in the count, so it cannot make another
// one fail.
func (m *Memory) reserve(n int64) bool {
	for {
		c := m.count.Load()
		if c+n > m.max {
			return false
		}
		if m.count.CompareAndSwap(c, c+n) {
			return true
		}
	}
}

// Create implements Store.
func (m *Memory) Create(_ context.Context, sess, col, key string, doc func(string) ([]byte, error)) (string, error) {
	// A create into an existing collection reserves only once the key is
	// known to be free, so that a create of a taken key does not hold room
	// another create needs; a new collection is made only when there is
	// room.
	sp, c := m.collection(sess, col, false)
	reserved := false
	if c == nil {
		if !m.reserve(1) {
			return "", ErrFull
		}
		reserved = true
		sp, c = m.collection(sess, col, true)
	}
	defer sp.mu.Unlock()
	if _, taken := c.find(key); taken { // never for key "": no resource has it
		if reserved {
			m.count.Add(-1)
		}
		return "", ErrExists
	}
	if c.full() {
		if reserved {
			m.count.Add(-1)
		}
		return "", ErrFull
	}
	if !reserved && !m.reserve(1) {
		return "", ErrFull
	}
	seq := c.seq
	assigned := key == ""
	if assigned {
		key = c.next(nil)
	}
	d, err := doc(key)
	if err != nil {
		c.seq = seq // the number is not used
		m.count.Add(-1)
		return "", err
	}
	if !assigned {
		c.above(key)
	}
	c.add(key, d)
	return key, nil
}

// find returns the collection that holds key, locked, and key's place in
// it; ok is false, and nothing locked, when there is none.
func (m *Memory) find(sess, col, key string) (sp *space, c *collection, i uint32, ok bool) {
	sp, c = m.collection(sess, col, false)
	if c == nil {
		return nil, nil, 0, false
	}
	if i, ok = c.find(key); !ok {
		sp.mu.Unlock()
		return nil, nil, 0, false
	}
	return sp, c, i, true
}

// Get implements Store.
func (m *Memory) Get(_ context.Context, sess, col, key string) ([]byte, error) {
	sp, c, i, ok := m.find(sess, col, key)
	if !ok {
		return nil, ErrNotFound
	}
	defer sp.mu.Unlock()
	return c.doc(i), nil
}

// List implements Store.
func (m *Memory) List(_ context.Context, sess, col string, limit int) ([][]byte, error) {
	sp, c := m.collection(sess, col, false)
	if c == nil {
		return nil, nil
	}
	defer sp.mu.Unlock()
	return c.list(limit), nil
}

// Update implements Store.
func (m *Memory) Update(_ context.Context, sess, col, key string, fn func([]byte) ([]byte, error)) ([]byte, error) {
	sp, c, i, ok := m.find(sess, col, key)
	if !ok {
		return nil, ErrNotFound
	}
	defer sp.mu.Unlock()
	doc, err := fn(c.doc(i))
	if err != nil {
		return nil, err
	}
	doc = c.replace(i, key, doc)
	c.tidy()
	return doc, nil
}

// Delete implements Store.
func (m *Memory) Delete(_ context.Context, sess, col, key string) ([]byte, error) {
	sp, c, i, ok := m.find(sess, col, key)
	if !ok {
		return nil, ErrNotFound
	}
	defer sp.mu.Unlock()
	doc := c.remove(i, key)
	m.count.Add(-1)
	c.tidy()
	return doc, nil
}

// Held returns how many resources the store holds in all sessions, as
// they count against its bound: the marks of deleted items that exist
// until deleted (see answer's deletedPrefix) among them. It takes no lock.
func (m *Memory) Held() int64 { return m.count.Load() }

// Count implements Store.
func (m *Memory) Count(_ context.Context, sess, col string) (int, error) {
	sp, c := m.collection(sess, col, false)
	if c == nil {
		return 0, nil
	}
	defer sp.mu.Unlock()
	return c.live, nil
}

// Dump implements Store.
func (m *Memory) Dump(_ context.Context, sess string) ([]Collection, error) {
	sp := m.lock(sess, false)
	if sp == nil {
		return nil, nil
	}
	defer sp.mu.Unlock()
	var out []Collection
	for name, c := range sp.cols {
		if c.live > 0 {
			out = append(out, Collection{Name: name, Docs: c.list(-1)})
		}
	}
	slices.SortFunc(out, func(a, b Collection) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// Fill implements Store.
func (m *Memory) Fill(_ context.Context, sess, col string, items []Item) ([]string, error) {
	given := make(map[string]bool, len(items))
	for _, it := range items {
		if it.Key == "" {
			continue
		}
		if given[it.Key] {
			return nil, ErrExists
		}
		given[it.Key] = true
	}
	if uint64(len(items)) > maxPositions {
		return nil, ErrFull
	}
	c := newCollection(len(items))
	for k := range given {
		c.above(k)
	}
	keys := make([]string, len(items))
	for i, it := range items {
		k := it.Key
		if k == "" {
			k = c.next(given)
		}
		keys[i] = k
		c.add(k, it.Doc(k))
	}
	sp := m.lock(sess, true)
	defer sp.mu.Unlock()
	before := 0
	if old := sp.cols[col]; old != nil {
		before = old.live
	}
	if !m.reserve(int64(len(items) - before)) {
		return nil, ErrFull
	}
	sp.cols[col] = c
	return keys, nil
}

// Reset implements Store.
func (m *Memory) Reset(_ context.Context, sess string) error {
	m.mu.Lock()
	sp := m.spaces[sess]
	delete(m.spaces, sess)
	m.mu.Unlock()
	if sp == nil {
		return nil
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	n := 0
	for _, c := range sp.cols {
		n += c.live
	}
	sp.cols, sp.gone = nil, true
	m.count.Add(-int64(n))
	return nil
}
