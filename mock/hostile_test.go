package mock

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock/internal/problem"
)

// The hostile-input catalogue: each test sends one kind of abuse and
// checks for a clear answer in the contract's error shape, quickly, with
// nothing stored.

func TestHostileDeepJSON(t *testing.T) {
	s, ts := newTestServer(t, Options{})
	body := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)
	check(t, s, ts, post(body).expect(400, errBody(problem.CodeBodyNotJSON, "invalid JSON: nested deeper than 10000 levels")))
	deepObj := `{"id":1,"name":"a","x":` + strings.Repeat(`{"a":`, 100_000) + "1" + strings.Repeat("}", 100_000) + "}"
	check(t, s, ts, post(deepObj).expect(400, errBody(problem.CodeBodyNotJSON, "invalid JSON: nested deeper than 10000 levels")))
}

// TestHostileHugeNumber sends numbers of many digits: up to 1,000 digits
// a number is judged (quoted clipped, with its length), beyond it is
// refused wherever it is, before any arithmetic.
func TestHostileHugeNumber(t *testing.T) {
	s, ts := newTestServer(t, Options{})
	digits := strings.Repeat("9", 1000)
	check(t, s, ts, post(`{"id":`+digits+`,"name":"a"}`).expect(400,
		errBody(problem.CodeSchema, "request body does not match the schema: id: 99999999999999999999999999999999...(1000 bytes) is over the int64 maximum 9223372036854775807")))
	check(t, s, ts, post(`{"id":1,"name":"a","extra":`+digits+`}`).expect(200, `{"name":"a"}`))
	check(t, s, ts, post(`{"id":2,"name":"a","extra":`+digits+`9}`).expect(400,
		errBody(problem.CodeSchema, "request body does not match the schema: extra: 99999999999999999999999999999999...(1001 bytes) has more than 1000 digits")))
	check(t, s, ts, post(`{"id":1e100000,"name":"a"}`).expect(400,
		errBody(problem.CodeSchema, "request body does not match the schema: id: 1e100000 is over the int64 maximum 9223372036854775807")))
	check(t, s, ts, post(`{"id":3,"name":"a","extra":1e1000000000}`).expect(400,
		errBody(problem.CodeSchema, "request body does not match the schema: extra: 1e1000000000 has an exponent of more than 9 digits")))
}

func TestHostileNULBytes(t *testing.T) {
	s, ts := newTestServer(t, Options{})
	check(t, s, ts, post("{\"id\":1,\"name\":\"a\x00b\"}").expect(400,
		errBody(problem.CodeBodyNotJSON, "invalid JSON at offset 17: invalid character '\\x00' in string literal")))
	check(t, s, ts, post(`{"id":1,"name":"a\u0000b"}`).expect(200, `{"name":"a\u0000b"}`))
}

// rawRequest writes raw bytes to a fresh connection and returns the status
// line of the answer.
func rawRequest(t *testing.T, addr, req string) string {
	t.Helper()
	line, err := bufio.NewReader(rawConn(t, addr, req)).ReadString('\n')
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	return strings.TrimSpace(line)
}

// rawConn writes raw bytes to a fresh connection to addr, given 10 s
// to answer, and returns it to be read; it is closed at cleanup.
func rawConn(t *testing.T, addr, req string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	return conn
}

func TestHostileLyingContentLength(t *testing.T) {
	s, ts := newTestServer(t, Options{})
	// 1 GiB announced, 20 bytes sent: refused at once, nothing is read.
	got := rawRequest(t, ts.Listener.Addr().String(), "POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\r\nContent-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n{\"id\":1,\"name\":\"a\"}")
	if got != "HTTP/1.1 400 Bad Request" {
		t.Errorf("status line %q", got)
	}
	if n := stored(s, "/plants"); n != 0 {
		t.Errorf("stored %d", n)
	}
}

func TestHostileChunkedBody(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	body := `{"id":1,"name":"chunked"}`
	req := "POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" +
		fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(body), body)
	if got := rawRequest(t, ts.Listener.Addr().String(), req); got != "HTTP/1.1 200 OK" {
		t.Errorf("status line %q", got)
	}
}

func TestHostileHeaders(t *testing.T) {
	addr := serveReal(t)
	head := "POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\r\nContent-Type: application/json\r\nContent-Length: 19\r\n"
	tests := []struct{ name, extra, body, want string }{
		// Headers up to 64 KiB in all are read; beyond, the answer is 431.
		{"a 60 KiB header", "X-Big: " + strings.Repeat("a", 60<<10) + "\r\n", `{"id":1,"name":"a"}`, "HTTP/1.1 200 OK"},
		{"a 100 KiB header", "X-Big: " + strings.Repeat("a", 100<<10) + "\r\n", `{"id":2,"name":"a"}`, "HTTP/1.1 431 Request Header Fields Too Large"},
		{"10,000 headers", strings.Repeat("X-H: 1\r\n", 10_000), `{"id":3,"name":"a"}`, "HTTP/1.1 431 Request Header Fields Too Large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rawRequest(t, addr, head+tt.extra+"\r\n"+tt.body); got != tt.want {
				t.Errorf("status line %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("an 8 KiB URL", func(t *testing.T) {
		got := rawRequest(t, addr, "GET /"+strings.Repeat("p", 8<<10)+" HTTP/1.1\r\nHost: x\r\n\r\n")
		if got != "HTTP/1.1 404 Not Found" {
			t.Errorf("status line %q", got)
		}
	})
	t.Run("still answering", func(t *testing.T) {
		if got := rawRequest(t, addr, head+"\r\n"+`{"id":4,"name":"a"}`); got != "HTTP/1.1 200 OK" {
			t.Errorf("status line %q", got)
		}
	})
}

func TestHostileClientGoneMidBody(t *testing.T) {
	s, ts := newTestServer(t, Options{})
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(conn, "POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\":1,")
	conn.Close()
	// The mock goes on answering, and stored nothing.
	check(t, s, ts, post(`{"id":2,"name":"b"}`).expect(200, `{"name":"b"}`))
	if _, ok := storedDoc(s, "/plants", "1"); ok {
		t.Error("a half-sent create was stored")
	}
}

func TestHostileRegexCost(t *testing.T) {
	// RE2 is linear: a pattern that backtracks exponentially elsewhere is
	// cheap here, even on a large body.
	_, ts := scenarioServer(t, "name: s\nrules:\n  - when: {body: {name: '/^(a+)+$/'}}\n    respond: {status: 400, body: {error: 1, message: matched}}\n", Options{Limits: Limits{MaxBody: 2 << 20}})
	name := strings.Repeat("a", 1<<20) + "!"
	start := time.Now()
	_, resp, _ := send(t, ts, post(`{"id":1,"name":"`+name+`"}`))
	if resp.StatusCode != 200 {
		t.Errorf("status %d", resp.StatusCode)
	}
	t.Logf("1 MiB body against (a+)+$ answered in %v", time.Since(start))
}

// TestMaxResources checks the cap on stored resources, across sessions,
// and that deletes, resets and seeding keep the count.
func TestMaxResources(t *testing.T) {
	s, ts := newTestServer(t, Options{Limits: Limits{MaxResources: 3}})
	full := errBody(problem.CodeFull, "the mock holds the most resources it may (3, --max-resources); delete some or reset the store")
	check(t, s, ts, post(`{"id":1,"name":"a"}`).expect(200, `{"name":"a"}`))
	check(t, s, ts, post(`{"id":2,"name":"b"}`).expect(200, `{"name":"b"}`))
	check(t, s, ts, post(`{"id":1,"name":"a"}`, SessionHeader, "other").expect(200, `{"name":"a"}`))
	check(t, s, ts, post(`{"id":3,"name":"c"}`).expect(400, full))
	s.Reset()
	check(t, s, ts, post(`{"id":3,"name":"c"}`).expect(200, `{"name":"c"}`))
	check(t, s, ts, post(`{"id":4,"name":"d"}`).expect(200, `{"name":"d"}`))
	check(t, s, ts, post(`{"id":5,"name":"e"}`).expect(400, full))
	if got := stored(s, "/plants"); got != 2 {
		t.Errorf("default session holds %d plants, want 2", got)
	}
	// Seeding counts what it adds, and a delete gives room back.
	callAdmin(t, ts, adminDoc(t), adminCall{name: "seed beyond the cap", method: "PUT", path: "/__admin/store/plants", body: `[{"id":7,"name":"x"},{"id":8,"name":"y"},{"id":9,"name":"z"}]`, status: 400,
		want: full})
	callAdmin(t, ts, adminDoc(t), adminCall{name: "seed within the cap", method: "PUT", path: "/__admin/store/plants", body: `[{"id":7,"name":"x"}]`, status: 200,
		want: `{"collection":"/plants","count":1}`})
	check(t, s, ts, post(`{"id":8,"name":"y"}`).expect(200, `{"name":"y"}`))
	check(t, s, ts, post(`{"id":9,"name":"z"}`).expect(400, full))
}

// TestIdleAndSlowConnections holds 1,000 connections open, idle or
// trickling a request byte by byte, and checks that a new client is still
// answered at once.
func TestIdleAndSlowConnections(t *testing.T) {
	addr := serveReal(t)
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := 0; i < 1000; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		if i%2 == 1 { // half of them start a request and stop after a few bytes
			io.WriteString(c, "POST /plants HTTP/1.1\r\nHost: x\r\nContent-Le")
		}
		conns = append(conns, c)
	}
	start := time.Now()
	got := rawRequest(t, addr, "POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\r\nContent-Type: application/json\r\nContent-Length: 19\r\n\r\n{\"id\":1,\"name\":\"a\"}")
	if got != "HTTP/1.1 200 OK" {
		t.Errorf("status line %q", got)
	}
	t.Logf("answered in %v beside 1,000 idle or slow connections", time.Since(start))
}

// serveReal runs a mock with Serve, its own http.Server and its limits,
// on a loopback listener stopped at cleanup; it returns the address.
func serveReal(t *testing.T) string {
	t.Helper()
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	return serveLoopback(t, s)
}

// serveLoopback runs s with Serve on a loopback listener stopped at
// cleanup, and returns its address.
func serveLoopback(t *testing.T, s *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-done })
	return ln.Addr().String()
}

// TestTricklingBody sends a create a byte at a time while other clients
// are answered; the trickled create is answered in full when it arrives.
func TestTricklingBody(t *testing.T) {
	addr := serveReal(t)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"id":1,"name":"slow"}`
	fmt.Fprintf(conn, "POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body))
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for i := 0; i < len(body); i++ {
		<-tick.C
		if _, err := conn.Write([]byte{body[i]}); err != nil {
			t.Fatal(err)
		}
		if i%5 == 0 { // meanwhile, another client is answered
			other := fmt.Sprintf(`{"id":%d,"name":"b"}`, 100+i)
			if got := rawRequest(t, addr, fmt.Sprintf("POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(other), other)); got != "HTTP/1.1 200 OK" {
				t.Errorf("other client: %q", got)
			}
		}
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || string(b) != `{"name":"slow"}` {
		t.Errorf("trickled create: %d %s", resp.StatusCode, b)
	}
}
