package redisstore

import "strconv"

// keys are the Redis keys of one collection of one session.
type keys struct {
	sess  string // hash: collection path -> base
	base  string // what the collection's own keys start with
	docs  string // hash: resource key -> document
	order string // sorted set: resource keys by creation tick
	ticks string // the last creation tick
	seq   string // the last sequence number
	res   string // hash: reserved key -> token
}

// session returns the key of a session's hash of collections.
func (s *Store) session(sess string) string {
	if sess == "" {
		return s.shared.defCols
	}
	return colsKey(s.prefix, sess)
}

func colsKey(prefix, sess string) string { return sessionBase(prefix, sess) + "cols" }

// SessionBase is what the keys of session sess ("" for the default
// session) start with: those of its resources, and those Options.Session
// names.
func (s *Store) SessionBase(sess string) string {
	if sess == "" {
		return s.shared.defBase
	}
	return sessionBase(s.prefix, sess)
}

// sessionBase is SessionBase. batchScript's touch makes it too, to drop
// an expired session.
func sessionBase(prefix, sess string) string {
	return prefix + "s" + strconv.Itoa(len(sess)) + ":" + sess + ":"
}

// keys returns the keys of a collection. Those of the default session's
// first maxDefKeys collections are made once.
func (s *Store) keys(sess, col string) keys {
	if sess != "" || s.space != nil {
		return s.makeKeys(sess, col) // a collection's space may change with what is served
	}
	if k, ok := s.defKeys.Load(col); ok {
		return *k.(*keys)
	}
	k := s.makeKeys(sess, col)
	if s.defKeyCount.Add(1) <= maxDefKeys {
		s.defKeys.Store(col, &k)
	}
	return k
}

// maxDefKeys bounds the collections whose keys the store keeps: a
// collection's path holds the values of path parameters, as many as
// clients send.
const maxDefKeys = 1024

func (s *Store) makeKeys(sess, col string) keys {
	prefix := s.prefix
	if s.space != nil {
		if sp := s.space(col); sp != "" {
			prefix += "d" + strconv.Itoa(len(sp)) + ":" + sp + ":"
		}
	}
	base := sessionBase(prefix, sess) + "c" + strconv.Itoa(len(col)) + ":" + col
	return keys{
		sess:  s.session(sess),
		base:  base,
		docs:  base + ":d",
		order: base + ":o",
		ticks: base + ":t",
		seq:   base + ":s",
		res:   base + ":r",
	}
}

// shared are the keys the store's sessions share, made once.
type shared struct {
	count string // resources and reservations
	token string // the last reservation token
	held  string // reservation tokens by end of hold
	holds string // reservation token -> res key and key
	// sessions is the sorted set of named sessions by the time they were
	// last used.
	sessions string
	// defBase is the default session's SessionBase, and defCols its
	// hash of collections.
	defBase string
	defCols string
}

func sharedKeys(prefix string) shared {
	return shared{count: prefix + "count", token: prefix + "token", held: prefix + "held", holds: prefix + "holds",
		sessions: prefix + "sessions", defBase: sessionBase(prefix, ""), defCols: colsKey(prefix, "")}
}

// storeKeys are the keys of the operations that store a resource in
// collection k: create and commit, with room for those of the
// operation that follows them (see Then).
func (s *Store) storeKeys(k keys) []string {
	return append(make([]string, 0, 9+thenRoom), k.docs, k.res, k.seq, s.shared.count, k.order, k.ticks, k.sess, s.shared.held, s.shared.holds)
}
