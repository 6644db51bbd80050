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
}

// DefaultTimeout is the deadline of each call to Redis when
// Options.Timeout is zero.
const DefaultTimeout = 2 * time.Second

// DefaultPrefix starts the store's keys when Options.Prefix is empty.
const DefaultPrefix = "plantmock:"
