package mock

import (
	"math"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plantmock/plantmock/mock/internal/pipeline"
)

// A watch keeps the read and write deadlines of the connections Serve
// accepts, instead of their sockets.
//
// With the server's timeouts set, net/http moves a connection's deadlines
// five times an exchange, and every move of a deadline on a socket stops
// or starts a runtime timer: about 0.8 µs an exchange more than a server
// without timeouts. Yet a deadline almost never passes. So a watched
// connection keeps the deadline net/http asks for as a number, and the
// watch looks at every connection once a tick: a deadline that has
// passed goes on the socket then, and the read or write waiting on it
// fails as it would have at the deadline, at most about a tick late. A
// deadline that has already passed when it is set (net/http sets one to
// stop its background read at the end of an exchange) goes on the socket
// at once.
//
// When Serve ends, the watch hands each connection still open back to
// its socket's own deadlines (handOver).
//
// What it buys: paired runs of .ci/bench (BENCH_PAIR_AGAINST=before, 10
// alternate pairs a mix of 3 s after 1 s of warm-up, quiet machine), the
// mock against the same build serving its listener unwatched: processor
// time a request 36.6 against 38.5 µs on valid creates (-1.87, standard
// error 0.89), 34.2 against 35.0 on invalid ones (-0.83 +/- 0.36) and
// 31.6 against 32.9 without a token (-1.33 +/- 0.48): 4-5% on two mixes.
// Requests/s moved by 1.01-1.03, within those runs' noise.
type watch struct {
	tick time.Duration
	base time.Time    // deadlines are kept as nanoseconds since base
	now  atomic.Int64 // nanoseconds since base at the last tick, never ahead of the clock

	mu     sync.Mutex
	conns  map[*watchedConn]struct{}
	direct atomic.Bool // handed over: every deadline goes on the socket

	stop chan struct{}
	done chan struct{}
}

// never is the deadline of a side that has none.
const never = math.MaxInt64

// newWatch starts a watch that looks at its connections every tick.
func newWatch(tick time.Duration) *watch {
	w := &watch{tick: tick, base: time.Now(), conns: map[*watchedConn]struct{}{},
		stop: make(chan struct{}), done: make(chan struct{})}
	go w.run()
	return w
}

// watchTick returns the tick of a watch over the timeouts to: a tenth
// of the shortest, so that each fires at most about a tenth late.
func watchTick(to pipeline.Timeouts) time.Duration {
	tick := time.Duration(math.MaxInt64)
	for _, d := range []time.Duration{to.Header, to.Read, to.Write, to.Idle} {
		if d > 0 {
			tick = min(tick, d/10)
		}
	}
	return max(tick, time.Millisecond)
}

func (w *watch) run() {
	defer close(w.done)
	t := time.NewTicker(w.tick)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
		}
		now := int64(time.Since(w.base))
		w.now.Store(now)
		w.mu.Lock()
		for c := range w.conns {
			c.read.expire(c, now)
			c.write.expire(c, now)
		}
		w.mu.Unlock()
	}
}

// handOver stops the watch and puts the deadlines of the connections
// still open on their sockets, where every later one goes too.
func (w *watch) handOver() {
	close(w.stop)
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	w.direct.Store(true)
	for c := range w.conns {
		c.read.handOver(c)
		c.write.handOver(c)
	}
}

// listener returns ln with its connections watched by w.
func (w *watch) listener(ln net.Listener) net.Listener { return watchedListener{ln, w} }

type watchedListener struct {
	net.Listener
	w *watch
}

// Accept implements net.Listener. It watches TCP connections only: any
// other (a TLS connection, which net/http must see as one) keeps its own
// deadlines.
func (l watchedListener) Accept() (net.Conn, error) {
	conn, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	tc, ok := conn.(*net.TCPConn)
	if !ok {
		return conn, nil
	}
	c := &watchedConn{TCPConn: tc, w: l.w}
	l.w.mu.Lock()
	c.read.init(tc.SetReadDeadline, l.w.direct.Load())
	c.write.init(tc.SetWriteDeadline, l.w.direct.Load())
	l.w.conns[c] = struct{}{}
	l.w.mu.Unlock()
	return c, nil
}

// A watchedConn is a TCP connection whose deadlines its watch keeps. The
// rest of the socket's methods are its own: net/http's half-close
// (CloseWrite) and copying (ReadFrom), the reset fault's SetLinger.
type watchedConn struct {
	*net.TCPConn
	w           *watch
	read, write deadline
}

// SetReadDeadline implements net.Conn.
func (c *watchedConn) SetReadDeadline(t time.Time) error { return c.read.ask(c, t) }

// SetWriteDeadline implements net.Conn.
func (c *watchedConn) SetWriteDeadline(t time.Time) error { return c.write.ask(c, t) }

// SetDeadline implements net.Conn.
func (c *watchedConn) SetDeadline(t time.Time) error {
	if err := c.read.ask(c, t); err != nil {
		return err
	}
	return c.write.ask(c, t)
}

// Close implements net.Conn; the watch forgets c.
func (c *watchedConn) Close() error {
	c.w.mu.Lock()
	delete(c.w.conns, c)
	c.w.mu.Unlock()
	return c.TCPConn.Close()
}

// since returns t as a watch keeps it: never for no deadline.
func (w *watch) since(t time.Time) int64 {
	if t.IsZero() {
		return never
	}
	return int64(t.Sub(w.base))
}

// timeOf is the inverse of since.
func (w *watch) timeOf(at int64) time.Time {
	if at == never {
		return time.Time{}
	}
	return w.base.Add(time.Duration(at))
}

// A deadline is one side of a watched connection: the deadline asked
// for, and whether the socket holds one of this side, so that it needs
// every change.
type deadline struct {
	at       atomic.Int64
	onSocket atomic.Bool
	mu       sync.Mutex // orders what goes on the socket
	set      func(time.Time) error
}

func (d *deadline) init(set func(time.Time) error, direct bool) {
	d.set = set
	d.at.Store(never)
	d.onSocket.Store(direct)
}

// ask keeps t as the deadline. It goes on the socket when it has already
// passed (time.Now() included, the usual way to stop a read at once),
// when the socket holds an earlier one, or after the hand-over. Only a
// deadline after the watch's last look and within a tick of it needs the
// clock read: net/http's are seconds ahead, or long past (to stop its
// background read), or none.
//
// The watch (expire) marks onSocket before it reads at, and ask reads
// onSocket after it stores at: either the watch sees the new deadline, or
// ask sees the mark and puts the new deadline right, after the watch.
func (d *deadline) ask(c *watchedConn, t time.Time) error {
	at := c.w.since(t)
	d.at.Store(at)
	if !d.onSocket.Load() && at > c.w.now.Load()+int64(c.w.tick) {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	at = d.at.Load() // the latest asked for, which sync puts right
	now := c.w.now.Load()
	if at > now && at != never {
		now = int64(time.Since(c.w.base)) // only the clock tells whether it has passed
	}
	return d.sync(c, now)
}

// sync puts the socket right for the deadline asked for at now
// (nanoseconds since the watch's base); d.mu is held.
func (d *deadline) sync(c *watchedConn, now int64) error {
	at := d.at.Load()
	switch {
	case d.onSocket.Load() && c.w.direct.Load():
		return d.set(c.w.timeOf(at))
	case at <= now: // passed
		d.onSocket.Store(true)
		return d.set(c.w.timeOf(at))
	case d.onSocket.Load():
		d.onSocket.Store(false)
		return d.set(time.Time{})
	}
	return nil
}

// expire puts the deadline on the socket if it has passed by now; the
// watch's mu is held.
func (d *deadline) expire(c *watchedConn, now int64) {
	if d.at.Load() > now || d.onSocket.Load() {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.onSocket.Store(true)
	if d.at.Load() <= now {
		d.set(c.w.timeOf(d.at.Load()))
		return
	}
	d.onSocket.Store(false)
}

// handOver puts the deadline asked for on the socket for good; the
// watch's mu is held, with direct set.
func (d *deadline) handOver(c *watchedConn) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.onSocket.Store(true)
	d.set(c.w.timeOf(d.at.Load()))
}
