package redisstore

import "time"

// Options configures a Store. The zero value, but for URL and Max, is
// valid.
type Options struct {
	// URL locates Redis: redis://[user:password@]HOST:PORT/DB, or
	// rediss:// for TLS.
	URL string

	// Prefix starts every key the store uses; DefaultPrefix when empty.
	// Stores with the same URL and prefix share their resources.
	Prefix string

	// Max bounds the resources of all sessions together. Stores sharing
	// resources should be given the same bound.
	Max int

	// Timeout bounds each call to Redis; DefaultTimeout when zero.
	Timeout time.Duration

	// Dial, when set, opens the TCP connections to Redis in place of a
	// net.Dialer (tests count dials with it). Either way dials wait
	// between them while they fail, a connection to itself is refused,
	// and rediss:// adds TLS over what Dial returns.
	Dial DialFunc

	// Session names the keys of what a session holds besides its
	// resources, which Touch keeps alive with the session and deletes
	// when it expires; the zero value names none.
	Session SessionKeys

	// Space, when set, names the key space of a collection: the keys of
	// a collection whose space is not "" start with Prefix, "d", the
	// space's length, ":", the space and ":" (plantmock:d7:billing:),
	// those of the rest with Prefix alone. A mock of several documents
	// gives each document's collections its own.
	Space func(col string) string

	// Ops is Lua that adds operations to the batch script, for Call and
	// Then: each a function ops.NAME(k, a, n) that finds its keys in
	// KEYS[k + 1] to KEYS[k + n] and its arguments from ARGV[a + 1] on,
	// and may give a key it makes the session's TTL with
	// inherit(key, clock) (see batchScript).
	Ops string
	// ReadOnly names the operations of Ops that only read: one that a
	// stale connection failed (Redis restarted) is sent again once, on
	// a fresh connection, as the store's own reads are.
	ReadOnly []string
}

// SessionKeys names the keys of what a session holds besides its
// resources by their suffixes: a session's key is its SessionBase and a
// suffix.
type SessionKeys struct {
	// Suffixes are the keys, in the order Touch takes them.
	Suffixes []string
	// Clock is the index in Suffixes of the session's clock: Touch makes
	// it on the session's first use, as "0" with the session's TTL, and
	// refreshes the TTL of every key once the clock's has run down by a
	// sixteenth of the idle time; a key made since takes the clock's TTL
	// with inherit.
	Clock int
	// Read is the index in Suffixes of the key whose value Touch returns
	// (Touched.Value).
	Read int
}

// DefaultTimeout is the deadline of each call to Redis when
// Options.Timeout is zero.
const DefaultTimeout = 2 * time.Second

// DefaultPrefix starts the store's keys when Options.Prefix is empty.
const DefaultPrefix = "plantmock:"
