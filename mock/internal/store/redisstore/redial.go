package redisstore

import (
	"context"
	"crypto/tls"
	"fmt"
	"math/rand/v2"
	"net"
	"sync"
	"time"

	"github.com/redis/rueidis"
)

// The wait between dials while Redis is down: it starts at minRedial
// and doubles with each failed dial, up to maxRedial, the second half of
// each wait drawn at random so that replicas do not dial in step.
const (
	minRedial = 50 * time.Millisecond
	maxRedial = 2 * time.Second
)

// DialFunc opens a connection to Redis at addr, as net.Dialer's
// DialContext does.
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// redialer opens the store's connections to Redis. rueidis dials again
// on every call that finds no connection, so that a mock whose Redis is
// down would dial thousands of times a second; the redialer lets one
// dial through per wait (see minRedial) while dials fail, and fails the
// others at once with the last dial's error, so that requests get their
// 503 without waiting. The first dial that succeeds ends the waits.
//
// It also refuses a connection to itself: dialing a loopback port in the
// ephemeral range where nothing listens can connect the socket to its
// own address (TCP simultaneous open), which then holds the port and
// keeps Redis from listening there again.
type redialer struct {
	dial DialFunc // nil for the net.Dialer rueidis passes

	mu    sync.Mutex // guards the rest
	fails int        // dials failed in a row
	until time.Time  // while fails > 0, no dial before it
	last  error      // the last failed dial's error
}

// dialCtx is rueidis's ClientOption.DialCtxFn.
func (r *redialer) dialCtx(ctx context.Context, dst string, nd *net.Dialer, tc *tls.Config) (net.Conn, error) {
	r.mu.Lock()
	if r.fails > 0 {
		now := time.Now()
		if now.Before(r.until) {
			err := r.last
			r.mu.Unlock()
			return nil, &dialError{err}
		}
		r.until = now.Add(redialWait(r.fails + 1)) // this dial's: the others wait for it
	}
	r.mu.Unlock()
	conn, err := r.connect(ctx, dst, nd, tc)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.fails++
		r.last = err
		r.until = time.Now().Add(redialWait(r.fails))
		return nil, &dialError{err}
	}
	r.fails, r.last = 0, nil
	return conn, nil
}

// retryDelay is rueidis's ClientOption.RetryDelay, for read-only calls
// that failed on the network. A call whose connection went stale is
// sent again at once, until it goes out on a fresh one (see
// staleTries), whatever the dials before did (see fresh). While dials fail there is no other retry: the call fails
// at once rather than wait for its deadline. Otherwise the wait is as
// rueidis's own: a few microseconds, doubling with each attempt, within
// the call's deadline.
func (r *redialer) retryDelay(attempts int, _ rueidis.Completed, err error) time.Duration {
	if attempts <= staleTries && stale(err) {
		r.fresh()
		return 0
	}
	r.mu.Lock()
	down := r.fails > 0
	r.mu.Unlock()
	if down {
		return -1
	}
	d := time.Microsecond << min(attempts, 20)
	return min(time.Second, d+rand.N(d))
}

// redialWait is the wait after the nth failed dial in a row.
func redialWait(n int) time.Duration {
	d := maxRedial
	if n < 16 {
		d = min(maxRedial, minRedial<<(n-1))
	}
	return d/2 + rand.N(d/2+1)
}

// connect dials dst, refuses a connection to itself, and makes the TLS
// handshake when tc is set.
func (r *redialer) connect(ctx context.Context, dst string, nd *net.Dialer, tc *tls.Config) (net.Conn, error) {
	dial := r.dial
	if dial == nil {
		dial = nd.DialContext
	}
	conn, err := dial(ctx, "tcp", dst)
	if err != nil {
		return nil, err
	}
	if selfConnected(conn) {
		if l, ok := conn.(interface{ SetLinger(int) error }); ok {
			l.SetLinger(0) // a reset: a plain close would hold the port a minute more
		}
		conn.Close()
		return nil, fmt.Errorf("dial tcp %s: connected to itself: nothing listens there", dst)
	}
	if tc == nil {
		return conn, nil
	}
	if tc.ServerName == "" {
		host, _, err := net.SplitHostPort(dst)
		if err != nil {
			conn.Close()
			return nil, err
		}
		tc = tc.Clone()
		tc.ServerName = host
	}
	tlsConn := tls.Client(conn, tc)
	if err := tlsConn.HandshakeContext(ctx); err != nil {
		conn.Close()
		return nil, err
	}
	return tlsConn, nil
}

// selfConnected reports whether a connection's two ends are one address.
func selfConnected(c net.Conn) bool {
	l, r := c.LocalAddr(), c.RemoteAddr()
	return l != nil && r != nil && l.Network() == r.Network() && l.String() == r.String()
}
