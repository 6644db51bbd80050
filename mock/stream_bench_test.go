package mock

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/journal"
)

// streamBench is a JSON Lines export whose items are generated.
const streamBench = `openapi: 3.2.0
info: {title: Export, version: '1'}
paths:
  /export:
    get:
      responses:
        '200':
          description: every plant, one a line
          content:
            application/jsonl:
              itemSchema:
                type: object
                required: [id, name, tag]
                properties: {id: {type: integer, minimum: 1}, name: {type: string, maxLength: 40}, tag: {type: string, enum: [fern, ivy, palm]}}
`

// flushed is a ResponseWriter that discards the body, and can flush.
type flushed struct{ discard }

func (flushed) Flush() {}

// BenchmarkStream serves streams of 10, 100 and 1,000 generated JSON
// Lines items through the whole handler and reports the bytes and
// allocations of each item: the same at every length when each item's
// memory is let go as the next is made, as the one buffer reused and the
// journal's bounded copy let it be.
func BenchmarkStream(b *testing.B) {
	s, err := New(Options{Spec: []byte(streamBench), Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			req := httptest.NewRequest("GET", "/export", nil)
			req.Header.Set("Prefer", fmt.Sprintf("stream-items=%d", n))
			w := &flushed{discard{h: http.Header{}}}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			for range b.N {
				clear(w.h)
				s.ServeHTTP(w, req)
				if w.status != 200 {
					b.Fatalf("status %d", w.status)
				}
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			items := float64(b.N * n)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/items, "B/item")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/items, "allocs/item")
		})
	}
}

// TestStreamJournalBounded: a stream of 5,000 items, some 300 KB, is
// journaled with the first MaxJournalBody bytes, and says how many it
// had: what the mock holds of a stream does not grow with it.
func TestStreamJournalBounded(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(streamBench), Seed: 1})
	req, _ := http.NewRequest("GET", ts.URL+"/export", nil)
	req.Header.Set("Prefer", "stream-items=5000")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	buf := make([]byte, 32<<10)
	for {
		k, err := resp.Body.Read(buf)
		for _, c := range buf[:k] {
			if c == '\n' {
				n++
			}
		}
		if err != nil {
			break
		}
	}
	resp.Body.Close()
	if n != 5000 {
		t.Fatalf("%d items, want 5000", n)
	}
	e := s.Journal()[0]
	if len(e.Response) != journal.MaxJournalBody || e.Clipped == nil || e.Clipped.Response <= journal.MaxJournalBody {
		t.Fatalf("the journal holds %d bytes of the stream, clipped %+v; want %d and the whole length", len(e.Response), e.Clipped, journal.MaxJournalBody)
	}
}

// TestDashboardStreamLive: the dashboard shows a streamed answer's items
// as they are sent, above the rows, and its row once it ends: here a
// stream whose second item would come a minute after its first, which
// the client leaves after reading the first.
func TestDashboardStreamLive(t *testing.T) {
	_, ts := newTestServer(t, Options{Spec: []byte(streamBench), Seed: 1})
	b := newBrowser(t)
	b.open(ts.URL)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/export", nil)
	req.Header.Set("Prefer", "stream-items=3, stream-interval=1m")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	const liveJS = `[...document.querySelectorAll('#live li')].map(li => li.textContent)`
	b.waitFor("the first item, live", liveJS, []string{"GET /export streaming: item 1 of 3: " + strings.TrimSpace(line)})
	b.waitFor("no row while it streams", shownJS, "0 of 0 requests")
	cancel()
	resp.Body.Close()
	b.waitFor("the stream's row", rowsJS, [][]string{{"GET", "/export", "200", "GET /export", "", ""}})
	b.waitFor("no stream under way", liveJS, []string{})
}
