package mock

import (
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"
)

// watchedPair returns both ends of a loopback connection whose accepted
// end w watches, with w stopped and both closed at cleanup. A safety
// deadline on the client ends a test the watch leaves hanging.
func watchedPair(t *testing.T, w *watch) (server net.Conn, client net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server, err = w.listener(ln).Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		server.Close()
		client.Close()
	})
	guard := time.AfterFunc(10*time.Second, func() { server.Close() }) // a hung read or write fails the test
	t.Cleanup(func() { guard.Stop() })
	return server, client
}

// newTestWatch returns a watch stopped at cleanup.
func newTestWatch(t *testing.T, tick time.Duration) *watch {
	w := newWatch(tick)
	t.Cleanup(func() {
		if !w.direct.Load() {
			w.handOver()
		}
	})
	return w
}

// readTimesOut reads from conn and checks that the read fails with a
// timeout between at least and 2 s after start.
func readTimesOut(t *testing.T, conn net.Conn, start time.Time, at time.Duration) {
	t.Helper()
	n, err := conn.Read(make([]byte, 1))
	if n != 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read %d, %v; want a timeout", n, err)
	}
	if d := time.Since(start); d < at || d >= 2*time.Second {
		t.Errorf("timed out after %v, want at least %v and under 2s", d, at)
	}
}

// TestWatchPassedDeadline: a deadline that has passed when it is set,
// long ago or just now, fails the read at once, though the watch never
// ticks; taken back, the next read waits for data again.
func TestWatchPassedDeadline(t *testing.T) {
	server, client := watchedPair(t, newTestWatch(t, time.Hour))
	// Now first, while the socket holds no deadline: passed by the time
	// it is kept.
	server.SetReadDeadline(time.Now())
	readTimesOut(t, server, time.Now(), 0)
	server.SetReadDeadline(time.Unix(1, 0)) // as net/http stops its background read
	readTimesOut(t, server, time.Now(), 0)
	server.SetReadDeadline(time.Time{})
	io.WriteString(client, "x")
	b := make([]byte, 1)
	if n, err := server.Read(b); n != 1 || err != nil || b[0] != 'x' {
		t.Fatalf("read %q, %v; want x", b[:n], err)
	}
}

// TestWatchDeadlineFires: a read or write waiting when its deadline
// passes fails, at the deadline or a little after it; a deadline put off
// before it passes does not fire, and one that fired no longer holds once
// it is put off.
func TestWatchDeadlineFires(t *testing.T) {
	const at = 50 * time.Millisecond
	t.Run("read", func(t *testing.T) {
		server, client := watchedPair(t, newTestWatch(t, 5*time.Millisecond))
		start := time.Now()
		server.SetReadDeadline(start.Add(at))
		readTimesOut(t, server, start, at)
		server.SetReadDeadline(time.Time{})
		io.WriteString(client, "y")
		if n, err := server.Read(make([]byte, 1)); n != 1 || err != nil {
			t.Fatalf("read %d, %v after the deadline was taken back", n, err)
		}
	})
	t.Run("write", func(t *testing.T) {
		server, _ := watchedPair(t, newTestWatch(t, 5*time.Millisecond))
		start := time.Now()
		server.SetWriteDeadline(start.Add(at))
		chunk := make([]byte, 64<<10)
		var err error
		for err == nil { // the client reads nothing: the buffers fill
			_, err = server.Write(chunk)
		}
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("write: %v; want a timeout", err)
		}
		if d := time.Since(start); d < at || d >= 2*time.Second {
			t.Errorf("timed out after %v, want at least %v and under 2s", d, at)
		}
	})
	t.Run("put off", func(t *testing.T) {
		server, client := watchedPair(t, newTestWatch(t, 5*time.Millisecond))
		start := time.Now()
		server.SetReadDeadline(start.Add(at))
		server.SetReadDeadline(start.Add(time.Hour))
		// The write comes after the first deadline has passed and the
		// watch has looked several times.
		time.AfterFunc(4*at, func() { io.WriteString(client, "z") })
		if n, err := server.Read(make([]byte, 1)); n != 1 || err != nil {
			t.Fatalf("read %d, %v; the deadline put off fired", n, err)
		}
		if d := time.Since(start); d < 4*at {
			t.Errorf("read after %v, before the write", d)
		}
	})
}

// TestWatchHandOver: once the watch is handed over, deadlines go on the
// sockets, those asked before it and those asked after it alike.
func TestWatchHandOver(t *testing.T) {
	const at = 50 * time.Millisecond
	w := newTestWatch(t, time.Hour) // never ticks: only the sockets can fire
	before, _ := watchedPair(t, w)
	start := time.Now()
	before.SetReadDeadline(start.Add(at))
	w.handOver()
	after, _ := watchedPair(t, w)
	after.SetReadDeadline(start.Add(at))
	readTimesOut(t, before, start, at)
	readTimesOut(t, after, start, at)
}

// TestWatchForgetsClosed: a connection closed leaves the watch, so that
// a long-running mock does not keep every connection it ever had.
func TestWatchForgetsClosed(t *testing.T) {
	w := newTestWatch(t, time.Hour)
	var conns []net.Conn
	for range 3 {
		c, _ := watchedPair(t, w)
		conns = append(conns, c)
	}
	count := func() int {
		w.mu.Lock()
		defer w.mu.Unlock()
		return len(w.conns)
	}
	if n := count(); n != 3 {
		t.Fatalf("watching %d connections, want 3", n)
	}
	for _, c := range conns {
		c.Close()
	}
	if n := count(); n != 0 {
		t.Errorf("watching %d connections after they closed, want 0", n)
	}
}

// pipeListener accepts one end of a pipe.
type pipeListener struct {
	net.Listener
	conn net.Conn
}

func (l pipeListener) Accept() (net.Conn, error) { return l.conn, nil }

// TestWatchTCPOnly: a connection that is not TCP (a TLS one, say, which
// net/http must see as one) is passed on as it is, keeping its deadlines.
func TestWatchTCPOnly(t *testing.T) {
	w := newTestWatch(t, time.Hour)
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	got, err := w.listener(pipeListener{conn: a}).Accept()
	if err != nil || got != a {
		t.Fatalf("Accept = %T, %v; want the pipe's own end", got, err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.conns) != 0 {
		t.Errorf("watching %d connections, want 0", len(w.conns))
	}
}
