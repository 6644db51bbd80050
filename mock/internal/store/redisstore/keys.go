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

// sessionKeys are the Redis keys of what a session holds besides its
// resources.
type sessionKeys struct {
	rules   string // hash: rule name + "|m" or "|a" -> count
	active  string // the session's active scenario; "" for none
	journal string // stream of journal records
	seq     string // the last journal sequence number
	hooks   string // hash: webhook name -> subscriber
}

// state returns the keys of a session's rule counters, active scenario
// and journal.
func (s *Store) state(sess string) sessionKeys {
	base := s.prefix + "s" + strconv.Itoa(len(sess)) + ":" + sess + ":"
	return sessionKeys{rules: base + "rules", active: base + "active", journal: base + "journal", seq: base + "jseq", hooks: base + "hooks"}
}

// sessions returns the key of the sorted set of named sessions by the
// time they were last used.
func (s *Store) sessions() string { return s.prefix + "sessions" }
