package mock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plantmock/plantmock/internal/redistest"
)

// TestAnswerBeforeJournalOnRedis: on Redis, an answer reaches the client
// before its journal entry is written, so that the client never waits on
// that round trip; the entry is written once Redis is reached. The mock
// reaches Redis through a relay that holds what carries the request's
// marker header, which only its journal entry does: before the answer
// was flushed first, the client had no answer while the relay held it.
func TestAnswerBeforeJournalOnRedis(t *testing.T) {
	rs := redistest.NewServer(t)
	const marker = "hold-this-entry-7f3a"
	rl := newHoldingRelay(t, rs.Addr, marker)
	// The store's timeout is long: a write that waited on it would not
	// end before the guard below.
	ts := replicas(t, "redis://"+rl.addr()+"/0", 1, Options{Store: StoreOptions{Timeout: 10 * time.Minute}})[0]
	if st, body := do(t, ts, "POST", "/plants", `{"id":1,"name":"fern"}`); st != 201 {
		t.Fatalf("create: %d %s", st, body)
	}

	type result struct {
		status int
		length string
		body   string
		err    error
	}
	got := make(chan result, 1)
	go func() {
		req, _ := http.NewRequest("GET", ts.URL+"/plants/1", nil)
		req.Header.Set("X-Trace", marker)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			got <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(io.LimitReader(resp.Body, 22)) // the whole answer, not its end: the handler is still held
		got <- result{resp.StatusCode, resp.Header.Get("Content-Length"), string(b), err}
	}()
	// A guard, not a measure: held, the entry is never written, and an
	// answer that waited on it would never come.
	select {
	case r := <-got:
		if r.err != nil {
			t.Fatal(r.err)
		}
		if r.status != 200 || r.body != `{"id":1,"name":"fern"}` || r.length != "22" {
			t.Errorf("answer while the journal waits: %d %q, Content-Length %q; want 200 %q, 22", r.status, r.body, r.length, `{"id":1,"name":"fern"}`)
		}
	case <-time.After(30 * time.Second):
		rl.release() // for the cleanup's sake
		t.Fatal("no answer while the journal's write was held: the answer waits on the journal")
	}
	if !rl.holding() {
		t.Fatal("the relay held nothing: the test's marker did not reach the journal's write")
	}
	rl.release()
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, body := do(t, ts, "GET", "/__admin/requests", "")
		var j struct {
			Requests []struct {
				Seq    uint64
				Method string
				Path   string
				Status int
			}
		}
		if err := json.Unmarshal([]byte(body), &j); st != 200 || err != nil {
			t.Fatalf("journal: %d %s %v", st, body, err)
		}
		if n := len(j.Requests); n == 2 {
			if e := j.Requests[1]; e.Method != "GET" || e.Path != "/plants/1" || e.Status != 200 || e.Seq != 2 {
				t.Errorf("the read's entry: %+v", e)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the journal has %d entries, want the create's and the read's: %s", len(j.Requests), body)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestNextRequestDoesNotWaitOnJournal: on Redis, the journal entry of
// an answer is written off the request's path, so that the next request
// on the same connection is read and answered while that write is still
// held; the entries keep the order of the answers, and a read of the
// journal through the mock waits for them. Before, the handler waited on
// the write: the second request was not read while the relay held it.
func TestNextRequestDoesNotWaitOnJournal(t *testing.T) {
	rs := redistest.NewServer(t)
	const marker = "hold-this-entry-2c9e"
	rl := newHoldingRelay(t, rs.Addr, marker)
	ts := replicas(t, "redis://"+rl.addr()+"/0", 1, Options{Store: StoreOptions{Timeout: 10 * time.Minute}})[0]
	if st, body := do(t, ts, "POST", "/plants", `{"id":1,"name":"fern"}`); st != 201 {
		t.Fatalf("create: %d %s", st, body)
	}
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
	t.Cleanup(client.CloseIdleConnections)
	type result struct {
		first, second string
		err           error
	}
	got := make(chan result, 1)
	go func() {
		var r result
		req, _ := http.NewRequest("GET", ts.URL+"/plants/1", nil)
		req.Header.Set("X-Trace", marker)
		if r.first, r.err = sentWith(client, req); r.err == nil {
			// The same connection: read once the first handler returns.
			// The admin API's document needs nothing of Redis, which
			// the relay holds.
			req, _ = http.NewRequest("GET", ts.URL+"/__admin/openapi.yaml", nil)
			r.second, r.err = sentWith(client, req)
		}
		got <- r
	}()
	select {
	case r := <-got:
		if r.err != nil {
			t.Fatal(r.err)
		}
		if want := `200 {"id":1,"name":"fern"}`; r.first != want {
			t.Errorf("first answer %s, want %s", r.first, want)
		}
		if want := "200 openapi: "; !strings.HasPrefix(r.second, want) {
			t.Errorf("second answer %.40s..., want %s...", r.second, want)
		}
	case <-time.After(30 * time.Second):
		rl.release()
		t.Fatal("no second answer while the first's journal write was held: the handler waits on the journal")
	}
	if !rl.holding() {
		t.Fatal("the relay held nothing: the marker did not reach the journal's write")
	}
	rl.release()
	req, _ := http.NewRequest("POST", ts.URL+"/plants", strings.NewReader(`{"id":2,"name":"ivy"}`))
	req.Header.Set("Content-Type", "application/json")
	if got, err := sentWith(client, req); err != nil || got != `201 {"id":2,"name":"ivy"}` {
		t.Errorf("a create after: %s %v, want 201", got, err)
	}
	st, body := do(t, ts, "GET", "/__admin/requests", "")
	var j struct {
		Requests []struct {
			Seq          uint64
			Method, Path string
			Status       int
		}
	}
	if err := json.Unmarshal([]byte(body), &j); st != 200 || err != nil {
		t.Fatalf("journal: %d %s %v", st, body, err)
	}
	var lines []string
	for _, e := range j.Requests {
		lines = append(lines, fmt.Sprint(e.Seq, " ", e.Method, " ", e.Path, " ", e.Status))
	}
	if got, want := strings.Join(lines, "; "), "1 POST /plants 201; 2 GET /plants/1 200; 3 POST /plants 201"; got != want {
		t.Errorf("journal: %s\nwant %s", got, want)
	}
}

// TestLateJournalTellsInOrder: with the journal in Redis, the listeners
// after the journal (Options.Observe here) are told of each answer once,
// with its entry's number, the answers of each client in the order it
// got them, from 40 clients at once; Close tells them of every answer
// before it returns.
func TestLateJournalTellsInOrder(t *testing.T) {
	var mu sync.Mutex
	byClient := map[string][]uint64{}
	s, err := New(Options{Spec: []byte(replicaSpec), Store: StoreOptions{URL: redistest.NewServer(t).URL(0)},
		Observe: func(e Entry) {
			mu.Lock()
			c := e.Header.Get("X-Client")
			byClient[c] = append(byClient[c], e.Seq)
			mu.Unlock()
		}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	const clients, each = 40, 10
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				if st, body := do(t, ts, "GET", "/plants", "", "X-Client", fmt.Sprint(c)); st != 200 {
					t.Errorf("GET /plants: %d %s", st, body)
				}
			}
		}()
	}
	wg.Wait()
	ts.Close()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	seen := map[uint64]bool{}
	for c, seqs := range byClient {
		if len(seqs) != each {
			t.Errorf("client %s: %d answers observed, want %d", c, len(seqs), each)
		}
		for i, seq := range seqs {
			if seen[seq] || seq == 0 || seq > clients*each || i > 0 && seq <= seqs[i-1] {
				t.Errorf("client %s: entries %v: each answer once, numbered 1 to %d, in the client's order", c, seqs, clients*each)
				break
			}
			seen[seq] = true
		}
	}
	if len(byClient) != clients || len(seen) != clients*each {
		t.Errorf("%d clients and %d entries observed, want %d and %d", len(byClient), len(seen), clients, clients*each)
	}
}

// sentWith sends req with client and returns the answer's status and
// body.
func sentWith(client *http.Client, req *http.Request) (string, error) {
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return fmt.Sprint(resp.StatusCode, " ", string(b)), err
}

// holdingRelay passes TCP connections on to a server, holding what a
// client sends from the first bytes that carry a marker until release.
type holdingRelay struct {
	ln      net.Listener
	held    chan struct{} // closed when the relay first holds
	free    chan struct{} // closed by release
	once    sync.Once
	freeing sync.Once
}

func newHoldingRelay(t *testing.T, to, marker string) *holdingRelay {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	rl := &holdingRelay{ln: ln, held: make(chan struct{}), free: make(chan struct{})}
	var wg sync.WaitGroup
	var mu sync.Mutex // guards conns
	var conns []net.Conn
	t.Cleanup(func() {
		rl.release()
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", to)
			if err != nil {
				c.Close()
				continue
			}
			mu.Lock()
			conns = append(conns, c, up)
			mu.Unlock()
			wg.Add(2)
			go func() { defer wg.Done(); io.Copy(c, up); c.Close() }()
			go func() { defer wg.Done(); rl.pass(up, c, []byte(marker)); up.Close() }()
		}
	}()
	return rl
}

func (rl *holdingRelay) addr() string { return rl.ln.Addr().String() }

// pass copies from src to dst, holding the first read whose bytes (with
// the end of the one before) carry marker until release.
func (rl *holdingRelay) pass(dst io.Writer, src io.Reader, marker []byte) {
	buf := make([]byte, 64<<10)
	var tail []byte
	for {
		n, err := src.Read(buf)
		if n > 0 {
			window := append(tail, buf[:n]...)
			if bytes.Contains(window, marker) {
				rl.once.Do(func() { close(rl.held) })
				<-rl.free
			}
			tail = append(tail[:0], window[max(0, len(window)-len(marker)):]...)
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// holding reports whether the relay holds, or held, the marker's bytes.
func (rl *holdingRelay) holding() bool {
	select {
	case <-rl.held:
		return true
	case <-time.After(30 * time.Second):
		return false
	}
}

// release lets what the relay holds go on.
func (rl *holdingRelay) release() { rl.freeing.Do(func() { close(rl.free) }) }
