package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plantmock/plantmock/internal/redistest"
	"github.com/plantmock/plantmock/mock/internal/store"
	"github.com/plantmock/plantmock/mock/internal/store/redisstore"
)

// countingDial dials as net.Dialer does and counts the dials.
func countingDial(n *atomic.Int64) redisstore.DialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		n.Add(1)
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
}

// TestRedialBackoff: while Redis is down, 200 calls in a row (scripts,
// and read-only commands, which rueidis would retry until their
// deadline of a minute) each get the unavailable error at once, and
// make a few dials between them, not one each; once Redis is back, the
// store works again by itself.
func TestRedialBackoff(t *testing.T) {
	ctx := context.Background()
	srv := redistest.NewServer(t)
	var dials atomic.Int64
	s, err := redisstore.New(ctx, redisstore.Options{URL: srv.URL(0), Prefix: "backoff:", Max: 10, Timeout: time.Minute, Dial: countingDial(&dials)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Create(ctx, "", "/plants", "fern", constant(`{}`)); err != nil {
		t.Fatalf("Create: %v", err)
	}

	srv.Kill()
	before := dials.Load()
	const calls = 200
	done := make(chan error, 1)
	go func() {
		for i := range calls {
			var err error
			switch i % 3 {
			case 0:
				_, err = s.Get(ctx, "", "/plants", "fern")
			case 1:
				err = s.Ping(ctx)
			case 2:
				_, err = s.Count(ctx, "", "/plants")
			}
			if !errors.Is(err, store.ErrUnavailable) {
				done <- fmt.Errorf("call %d while Redis is down: %v, want %v", i, err, store.ErrUnavailable)
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second): // only keeps a hang from stalling the run
		t.Fatal("the calls wait for their deadline of a minute instead of failing at once")
	}
	n := dials.Load() - before
	t.Logf("%d dials for %d calls while Redis was down", n, calls)
	if n < 1 || n > calls/20 {
		t.Errorf("%d dials for %d calls while Redis was down; want at least one, at most %d", n, calls, calls/20)
	}

	srv.Restart(t) // the data is gone with it: the server keeps nothing
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := s.Create(ctx, "", "/plants", "ivy", constant(`{"name":"ivy"}`))
		if err == nil {
			break
		}
		if !errors.Is(err, store.ErrUnavailable) || time.Now().After(deadline) {
			t.Fatalf("Create after the restart: %v", err)
		}
		time.Sleep(10 * time.Millisecond) // polling with a deadline: the wait between dials is at most 2 s
	}
	if got, err := s.Get(ctx, "", "/plants", "ivy"); err != nil || string(got) != `{"name":"ivy"}` {
		t.Errorf(`Get after the restart = %s, %v; want {"name":"ivy"}`, got, err)
	}
}

// TestSelfConnectionRefused: a dial that connects a socket to its own
// address (what TCP simultaneous open does on a loopback port where
// nothing listens) is refused and closed, so that the port is free for
// Redis to listen on.
func TestSelfConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().(*net.TCPAddr)
	l.Close()
	var self atomic.Bool
	dial := func(ctx context.Context, network, dst string) (net.Conn, error) {
		d := net.Dialer{LocalAddr: addr} // bound to the port it dials: the socket meets itself
		c, err := d.DialContext(ctx, network, dst)
		if err == nil && c.LocalAddr().String() == c.RemoteAddr().String() {
			self.Store(true)
		}
		return c, err
	}
	_, err = redisstore.New(context.Background(), redisstore.Options{URL: "redis://" + addr.String() + "/0", Max: 10, Dial: dial})
	if !self.Load() {
		t.Skipf("this system did not connect the socket to itself: %v", err)
	}
	if want := "dial tcp " + addr.String() + ": connected to itself: nothing listens there"; err == nil || !errors.Is(err, store.ErrUnavailable) || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("New: %v; want an unavailable error ending %q", err, want)
	}
	l, err = net.Listen("tcp", addr.String())
	if err != nil {
		t.Fatalf("the port is still held: %v", err)
	}
	l.Close()
}
