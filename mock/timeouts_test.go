package mock

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// shortTimeout and longTimeout stand in for defaultTimeouts: each test
// makes the timeout it is about short, and the others long, so that
// net/http's falling back on another timeout when one is left unset
// shows.
const (
	shortTimeout = 100 * time.Millisecond
	longTimeout  = 2 * time.Second
)

// serveTimed runs a mock of opts with the timeouts to (serveLoopback), and
// returns a connection to it (see dialTimed).
func serveTimed(t *testing.T, opts Options, to Timeouts) (net.Conn, time.Time) {
	t.Helper()
	_, addr := startTimed(t, opts, to)
	return dialTimed(t, addr)
}

// startTimed runs a mock of opts with the timeouts to, alongside the
// test's other parallel tests, and returns it and its address.
func startTimed(t *testing.T, opts Options, to Timeouts) (*Server, string) {
	t.Helper()
	t.Parallel()
	opts.Limits.Timeouts = to
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s, serveLoopback(t, s)
}

// dialTimed returns a connection to addr, closed at cleanup, with a
// deadline that ends a test the mock leaves hanging, and the time just
// before it was dialled: before the mock's clock for the first request
// started.
func dialTimed(t *testing.T, addr string) (net.Conn, time.Time) {
	t.Helper()
	start := time.Now()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	return conn, start
}

// closedAfter checks that the mock closes the connection r reads, with
// nothing more sent, once the short timeout has passed since start (taken
// before the mock's clock started), and before a long one could have.
func closedAfter(t *testing.T, r io.Reader, start time.Time) {
	t.Helper()
	rest, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("the mock did not close the connection: %v", err)
	}
	if len(rest) > 0 {
		t.Errorf("sent before closing: %q", rest)
	}
	if d := time.Since(start); d < shortTimeout || d >= longTimeout {
		t.Errorf("closed after %v, not between %v and %v", d, shortTimeout, longTimeout)
	}
}

// created sends the create of plant 1 on conn and checks its answer, a
// 200 with the plant; it returns the reader the answer came through.
func created(t *testing.T, conn net.Conn) *bufio.Reader {
	t.Helper()
	body := `{"id":1,"name":"a"}`
	fmt.Fprintf(conn, "POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || string(got) != `{"name":"a"}` {
		t.Fatalf("create: %d %s", resp.StatusCode, got)
	}
	return br
}

// TestTimeoutHeader: a client that stops halfway through its header loses
// the connection once the header timeout has passed, with no answer.
func TestTimeoutHeader(t *testing.T) {
	conn, start := serveTimed(t, Options{}, Timeouts{Header: shortTimeout, Read: longTimeout, Write: longTimeout, Idle: longTimeout})
	io.WriteString(conn, "POST /plants HTTP/1.1\r\nHost: x\r\n")
	closedAfter(t, conn, start)
}

// TestTimeoutBody: a client that stops halfway through its body is
// answered 400 in the contract's error shape once the read timeout has
// passed, and loses the connection. The answer has its own write timeout
// after the read timeout: here half the read timeout, so that an answer
// whose write timeout did not wait for the read timeout would come too
// late every time.
func TestTimeoutBody(t *testing.T) {
	conn, start := serveTimed(t, Options{}, Timeouts{Header: longTimeout, Read: shortTimeout, Write: shortTimeout / 2, Idle: longTimeout})
	fmt.Fprintf(conn, "POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{\"id\":1,")
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	if d := time.Since(start); d < shortTimeout || d >= longTimeout {
		t.Errorf("answered after %v, not between %v and %v", d, shortTimeout, longTimeout)
	}
	// The mock's side of the connection: the client's remote address is
	// its local one.
	want := fmt.Sprintf(`{"error":%d,"message":"request body could not be read: read tcp %s->%s: i/o timeout"}`,
		problem.CodeBodyNotJSON, conn.RemoteAddr(), conn.LocalAddr())
	if resp.StatusCode != 400 || string(body) != want {
		t.Errorf("got %d %s\nwant 400 %s", resp.StatusCode, body, want)
	}
	if got := resp.Header.Get("Content-Type"); got != "application/json" {
		t.Errorf("Content-Type %q", got)
	}
	closedAfter(t, br, start)
}

// TestTimeoutIdle: a connection left idle after an answer is closed once
// the idle timeout has passed.
func TestTimeoutIdle(t *testing.T) {
	conn, _ := serveTimed(t, Options{}, Timeouts{Header: longTimeout, Read: longTimeout, Write: longTimeout, Idle: shortTimeout})
	start := time.Now() // before the mock's idle clock starts, at its answer
	closedAfter(t, created(t, conn), start)
}

// TestTimeoutWriteAfterDelay: a scripted delay starts the write timeout
// again when it ends, so an answer delayed longer than the read and write
// timeouts together still arrives in full; so does one whose delay came
// with a reload after Serve began (the scenario of the same name stays
// active). No shipped scenario is loaded: their delays are not the point.
func TestTimeoutWriteAfterDelay(t *testing.T) {
	scenario := func(delay string) Options {
		sc, err := scenario.ParseScenario("test.yaml", []byte("name: s\nrules:\n  - respond: {delay: "+delay+"}\n"))
		if err != nil {
			t.Fatal(err)
		}
		return Options{Scenarios: []*scenario.Scenario{sc}, Scenario: sc.Name, NoShippedScenarios: true}
	}
	for _, reload := range []bool{false, true} {
		t.Run(map[bool]string{false: "at start", true: "reloaded"}[reload], func(t *testing.T) {
			opts := scenario("300ms")
			start := opts
			if reload {
				start = scenario("0s")
			}
			s, addr := startTimed(t, start, Timeouts{Header: longTimeout, Read: shortTimeout, Write: shortTimeout, Idle: longTimeout})
			if reload {
				if _, err := s.Reload(given(opts.Content())); err != nil {
					t.Fatal(err)
				}
			}
			conn, _ := dialTimed(t, addr)
			sent := time.Now()
			created(t, conn)
			if d := time.Since(sent); d < 300*time.Millisecond {
				t.Errorf("answered after %v, before the scripted 300ms", d)
			}
		})
	}
}
