package mock

import (
	"bufio"
	"bytes"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/internal/redistest"
)

// TestJournalOutlivesItsClient: a client that reads its answer and
// leaves while the exchange's journal entry is on its way to Redis (the
// relay holds what carries the request's marker, which only the entry
// does) does not lose the entry: once Redis is reached it is stored and
// numbered, and the mock logs no loss. The request's context is
// cancelled before the write goes on, as the handler sees it; before,
// the write ended with it and the mock logged "the journal lost an
// exchange ... context canceled", though Redis stored the entry.
func TestJournalOutlivesItsClient(t *testing.T) {
	rs := redistest.NewServer(t)
	const marker = "leave-before-the-entry-9c2e"
	rl := newHoldingRelay(t, rs.Addr, marker)
	var logs bytes.Buffer
	var logMu sync.Mutex
	m, err := New(Options{Spec: []byte(replicaSpec), Store: StoreOptions{URL: "redis://" + rl.addr() + "/0"},
		Logger: slog.New(slog.NewTextHandler(lockedWriter{&logs, &logMu}, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	cancelled := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		go func() {
			<-r.Context().Done()
			close(cancelled)
		}()
		m.ServeHTTP(w, r)
	}))
	defer ts.Close()

	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(conn, "GET /plants HTTP/1.1\r\nHost: mock\r\nX-Trace: "+marker+"\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 2)) // the whole answer: the handler is still held
	if resp.StatusCode != 200 || string(body) != "[]" {
		t.Fatalf("GET /plants: %d %s, want 200 []", resp.StatusCode, body)
	}
	if !rl.holding() {
		t.Fatal("the relay held nothing: the marker did not reach the journal's write")
	}
	conn.Close() // the client leaves
	<-cancelled  // the mock sees it
	rl.release()
	ts.Close() // waits for the handler, and the journal's write in it

	entries := m.Journal()
	if len(entries) != 1 || entries[0].Seq != 1 || entries[0].Path != "/plants" || entries[0].Status != 200 {
		t.Errorf("journal = %+v, want the GET /plants numbered 1", entries)
	}
	logMu.Lock()
	defer logMu.Unlock()
	if bytes.Contains(logs.Bytes(), []byte("lost")) {
		t.Errorf("the mock logged a loss:\n%s", logs.String())
	}
}
