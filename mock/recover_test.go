package mock

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/problem"
)

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex // guards buf
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestPanicBecomes500 checks the guard ServeHTTP runs under: a panic is
// answered with a 500 in the error shape and logged with its stack, and the
// server goes on answering. The panic comes from the writer the mock is
// given, the first time the mock reads its header.
func TestPanicBecomes500(t *testing.T) {
	var logs syncBuffer
	s, err := New(Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/boom" {
			w = &panicsOnce{ResponseWriter: w}
		}
		s.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	want := errBody(problem.CodeInternal, "internal error in plantmock; see its log")
	check(t, s, ts, call{method: "GET", path: "/boom", status: 500, wantHeader: jsonHeader(want), wantBody: want})
	if l := logs.String(); !strings.Contains(l, `panic=boom`) || !strings.Contains(l, "goroutine") {
		t.Errorf("log does not show the panic and its stack:\n%s", l)
	}
	b := `{"name":"a"}`
	check(t, s, ts, call{method: "POST", path: "/plants", header: bearerJSON, body: `{"id":1,"name":"a"}`, status: 200, wantHeader: jsonHeader(b), wantBody: b})
}

// panicsOnce is a writer whose Header panics the first time it is called.
type panicsOnce struct {
	http.ResponseWriter
	done bool
}

func (w *panicsOnce) Header() http.Header {
	if !w.done {
		w.done = true
		panic("boom")
	}
	return w.ResponseWriter.Header()
}
