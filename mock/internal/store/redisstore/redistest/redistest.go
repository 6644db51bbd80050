// Package redistest starts redis-server processes for tests, as
// net/http/httptest starts HTTP servers.
package redistest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Server is a redis-server child process listening on a free loopback
// port, keeping nothing on disk.
type Server struct {
	Addr string // host:port

	cmd       *exec.Cmd
	closeOnce sync.Once
	done      chan struct{} // closed when the process has exited
}

// NewServer starts a redis-server and waits until it answers PING; the
// test's cleanup stops it. Where redis-server is not installed the test
// is skipped, or fails when the environment variable CI is set: CI must
// run what needs Redis.
func NewServer(tb testing.TB) *Server {
	tb.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		const msg = "redis-server not found: apt-get install redis-server"
		if os.Getenv("CI") != "" {
			tb.Fatal(msg)
		}
		tb.Skip(msg)
	}
	var tries []string
	for range 5 {
		s, err := start(tb, path)
		if err == nil {
			tb.Cleanup(s.Close)
			return s
		}
		tries = append(tries, err.Error()) // the port was taken meanwhile
	}
	tb.Fatalf("redistest: redis-server did not start: %q", tries)
	return nil
}

// start starts one redis-server on a port that was free a moment ago.
func start(tb testing.TB, path string) (*Server, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatalf("redistest: %v", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	var out bytes.Buffer
	cmd := exec.Command(path, "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", tb.TempDir())
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		tb.Fatalf("redistest: %v", err)
	}
	s := &Server{Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), cmd: cmd, done: make(chan struct{})}
	var waitErr error
	go func() {
		waitErr = cmd.Wait()
		close(s.done)
	}()
	if err := s.ready(); err != nil {
		s.Close()
		return nil, fmt.Errorf("%v (exit: %v): %s", err, waitErr, out.String())
	}
	return s, nil
}

// ready polls PING until it is answered, the process exits, or a deadline
// passes.
func (s *Server) ready() error {
	rdb := redis.NewClient(&redis.Options{Addr: s.Addr, MaxRetries: -1})
	defer rdb.Close()
	deadline := time.Now().Add(10 * time.Second)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := rdb.Ping(ctx).Err()
		cancel()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no answer to PING: %w", err)
		}
		select {
		case <-s.done:
			return fmt.Errorf("redis-server exited: %w", err)
		case <-tick.C:
		}
	}
}

// URL returns the URL of one of the server's databases.
func (s *Server) URL(db int) string {
	return "redis://" + s.Addr + "/" + strconv.Itoa(db)
}

// Close stops the server and waits for it to exit. It may be called more
// than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.cmd.Process.Kill()
		<-s.done
	})
}
