// Package store keeps the resources a mock has created, by collection and
// identifier, in insertion order. Resources are stored as compact JSON.
package store

import "sync"

// Store is an in-memory resource store, safe for concurrent use. The zero
// value is empty and ready.
type Store struct {
	mu   sync.Mutex             // guards cols
	cols map[string]*collection // by collection path, e.g. /plants
}

type collection struct {
	index map[string]int // identifier -> position in items
	items []item         // insertion order; deleted items have a nil doc
	dead  int            // deleted items still in items
}

type item struct {
	key string
	doc []byte
}

func (s *Store) col(name string, create bool) *collection {
	c := s.cols[name]
	if c == nil && create {
		if s.cols == nil {
			s.cols = map[string]*collection{}
		}
		c = &collection{index: map[string]int{}}
		s.cols[name] = c
	}
	return c
}

// Create stores doc under key unless the key is taken; it reports whether
// it stored.
func (s *Store) Create(col, key string, doc []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.col(col, true)
	if _, ok := c.index[key]; ok {
		return false
	}
	c.index[key] = len(c.items)
	c.items = append(c.items, item{key: key, doc: doc})
	return true
}

// Get returns the resource stored under key.
func (s *Store) Get(col, key string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.col(col, false)
	if c == nil {
		return nil, false
	}
	i, ok := c.index[key]
	if !ok {
		return nil, false
	}
	return c.items[i].doc, true
}

// Update replaces the resource under key with what fn returns from the
// current one, atomically. It reports whether the key exists; fn's error
// leaves the resource as it was and is returned.
func (s *Store) Update(col, key string, fn func(old []byte) ([]byte, error)) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.col(col, false)
	if c == nil {
		return false, nil
	}
	i, ok := c.index[key]
	if !ok {
		return false, nil
	}
	doc, err := fn(c.items[i].doc)
	if err != nil {
		return true, err
	}
	c.items[i].doc = doc
	return true, nil
}

// Delete removes the resource under key and returns it.
func (s *Store) Delete(col, key string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.col(col, false)
	if c == nil {
		return nil, false
	}
	i, ok := c.index[key]
	if !ok {
		return nil, false
	}
	doc := c.items[i].doc
	delete(c.index, key)
	c.items[i] = item{}
	c.dead++
	if c.dead > 32 && c.dead > len(c.items)/2 {
		c.compact()
	}
	return doc, true
}

func (c *collection) compact() {
	live := c.items[:0]
	for _, it := range c.items {
		if it.doc != nil {
			c.index[it.key] = len(live)
			live = append(live, it)
		}
	}
	clear(c.items[len(live):])
	c.items, c.dead = live, 0
}

// List returns up to limit resources of a collection in insertion order;
// limit < 0 means all.
func (s *Store) List(col string, limit int) [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.col(col, false)
	if c == nil {
		return nil
	}
	n := len(c.items) - c.dead
	if limit >= 0 && limit < n {
		n = limit
	}
	out := make([][]byte, 0, n)
	for _, it := range c.items {
		if len(out) == n {
			break
		}
		if it.doc != nil {
			out = append(out, it.doc)
		}
	}
	return out
}

// Len returns the number of resources in a collection.
func (s *Store) Len(col string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.col(col, false)
	if c == nil {
		return 0
	}
	return len(c.items) - c.dead
}

// Collections returns the names of collections that hold resources.
func (s *Store) Collections() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for name, c := range s.cols {
		if len(c.items)-c.dead > 0 {
			out = append(out, name)
		}
	}
	return out
}

// Reset removes everything and returns how many resources it removed.
func (s *Store) Reset() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.cols {
		n += len(c.items) - c.dead
	}
	s.cols = nil
	return n
}

// Replace makes a collection hold exactly the given resources, in order;
// keys[i] is the identifier of docs[i] and keys are distinct. It returns
// how many resources the collection held before.
func (s *Store) Replace(col string, keys []string, docs [][]byte) int {
	c := &collection{index: make(map[string]int, len(keys)), items: make([]item, len(keys))}
	for i, k := range keys {
		c.index[k] = i
		c.items[i] = item{key: k, doc: docs[i]}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cols == nil {
		s.cols = map[string]*collection{}
	}
	before := 0
	if old := s.cols[col]; old != nil {
		before = len(old.items) - old.dead
	}
	s.cols[col] = c
	return before
}
