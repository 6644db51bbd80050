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
	return s.prefix + "s" + strconv.Itoa(len(sess)) + ":" + sess + ":cols"
}

// keys returns the keys of a collection.
func (s *Store) keys(sess, col string) keys {
	base := s.prefix + "s" + strconv.Itoa(len(sess)) + ":" + sess + ":c" + strconv.Itoa(len(col)) + ":" + col
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

// The keys the store's sessions share.
func (s *Store) count() string { return s.prefix + "count" } // resources and reservations
func (s *Store) token() string { return s.prefix + "token" } // the last reservation token
func (s *Store) held() string  { return s.prefix + "held" }  // reservation tokens by end of hold
func (s *Store) holds() string { return s.prefix + "holds" } // reservation token -> res key and key
