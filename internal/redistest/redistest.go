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
	"syscall"
	"testing"
	"time"

	"github.com/redis/rueidis"
)

// Server is a redis-server child process listening on a free loopback
// port. By default it keeps nothing on disk; a durable one (see
// NewDurableServer) writes every change to its append-only file before
// answering, and can be killed and restarted on the same port and data.
type Server struct {
	Addr string // host:port

	path    string // of redis-server
	port    int
	dir     string
	durable bool
	out     bytes.Buffer // the current process's output

	mu   sync.Mutex // guards cmd and done
	cmd  *exec.Cmd
	done chan struct{} // closed when the current process has exited
}

// NewServer starts a redis-server that keeps nothing on disk and waits
// until it answers PING; the test's cleanup stops it. Where redis-server
// is not installed the test is skipped, or fails when the environment
// variable CI is set: CI must run what needs Redis.
func NewServer(tb testing.TB) *Server { return newServer(tb, false) }

// NewDurableServer starts a redis-server with an append-only file synced
// on every write (appendfsync always), so that what it acknowledged
// survives Kill and Restart.
func NewDurableServer(tb testing.TB) *Server { return newServer(tb, true) }

func newServer(tb testing.TB, durable bool) *Server {
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
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			tb.Fatalf("redistest: %v", err)
		}
		s := &Server{path: path, port: l.Addr().(*net.TCPAddr).Port, dir: tb.TempDir(), durable: durable}
		l.Close()
		s.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port))
		if err := s.start(); err == nil {
			tb.Cleanup(s.Close)
			return s
		} else {
			tries = append(tries, err.Error()) // the port was taken meanwhile
		}
	}
	tb.Fatalf("redistest: redis-server did not start: %q", tries)
	return nil
}

// start starts the process and waits until it answers.
func (s *Server) start() error {
	args := []string{"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1", "--save", "", "--dir", s.dir}
	if s.durable {
		args = append(args, "--appendonly", "yes", "--appendfsync", "always")
	} else {
		args = append(args, "--appendonly", "no")
	}
	s.out.Reset()
	cmd := exec.Command(s.path, args...)
	cmd.Stdout, cmd.Stderr = &s.out, &s.out
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	var waitErr error
	go func() {
		waitErr = cmd.Wait()
		close(done)
	}()
	s.mu.Lock()
	s.cmd, s.done = cmd, done
	s.mu.Unlock()
	if err := s.ready(done); err != nil {
		s.Kill()
		return fmt.Errorf("%v (exit: %v): %s", err, waitErr, s.out.String())
	}
	return nil
}

// ready polls PING until it is answered, the process exits, or a deadline
// passes.
func (s *Server) ready(done chan struct{}) error {
	deadline := time.Now().Add(10 * time.Second)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		err := s.ping()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no answer to PING: %w", err)
		}
		select {
		case <-done:
			return fmt.Errorf("redis-server exited: %w", err)
		case <-tick.C:
		}
	}
}

func (s *Server) ping() error {
	c, err := s.client()
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return c.Do(ctx, c.B().Ping().Build()).Error()
}

func (s *Server) client() (rueidis.Client, error) {
	return rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{s.Addr}, ForceSingleClient: true,
		DisableCache: true, Dialer: net.Dialer{Timeout: time.Second}})
}

// Client returns a client of the server's database 0, for tests that look
// at keys themselves; the test's cleanup closes it.
func (s *Server) Client(tb testing.TB) rueidis.Client {
	tb.Helper()
	c, err := s.client()
	if err != nil {
		tb.Fatalf("redistest: %v", err)
	}
	tb.Cleanup(c.Close)
	return c
}

// URL returns the URL of one of the server's databases.
func (s *Server) URL(db int) string {
	return "redis://" + s.Addr + "/" + strconv.Itoa(db)
}

// Kill stops the process at once (SIGKILL), as a crash would, and waits
// for it to exit. It may be called more than once.
func (s *Server) Kill() {
	s.mu.Lock()
	cmd, done := s.cmd, s.done
	s.mu.Unlock()
	if cmd == nil {
		return
	}
	cmd.Process.Kill()
	<-done
}

// Pause stops the process (SIGSTOP) without ending it: it keeps its
// connections and answers nothing, as a server that hangs would, until
// Resume or the end of the test.
func (s *Server) Pause(tb testing.TB) {
	tb.Helper()
	s.mu.Lock()
	cmd := s.cmd
	s.mu.Unlock()
	if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		tb.Fatalf("redistest: pause: %v", err)
	}
	tb.Cleanup(s.Resume)
}

// Resume lets a paused process go on (SIGCONT).
func (s *Server) Resume() {
	s.mu.Lock()
	cmd := s.cmd
	s.mu.Unlock()
	cmd.Process.Signal(syscall.SIGCONT)
}

// Restart starts a killed server again on the same port and data
// directory, and waits until it answers: a durable server has what it
// acknowledged before Kill.
func (s *Server) Restart(tb testing.TB) {
	tb.Helper()
	s.Kill()
	if err := s.start(); err != nil {
		tb.Fatalf("redistest: restart: %v", err)
	}
}

// Close stops the server and waits for it to exit. It may be called more
// than once.
func (s *Server) Close() { s.Kill() }
