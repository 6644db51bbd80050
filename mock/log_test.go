package mock

import (
	"bytes"
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"
)

// TestRequestLog: one line per request, in the text and JSON forms the
// README shows, with what the journal knows of the exchange and no token.
func TestRequestLog(t *testing.T) {
	// Time and duration vary; every other attribute is exact.
	steady := func(_ []string, a slog.Attr) slog.Attr {
		switch a.Key {
		case slog.TimeKey:
			return slog.Attr{}
		case "duration":
			return slog.Int("duration", 1)
		}
		return a
	}
	calls := []call{
		{method: "POST", path: "/plants", header: bearerJSON, body: `{"id":1,"name":"Fern"}`},
		{method: "POST", path: "/plants", header: with(bearerJSON, "X-Mock-Session", "job-7"), body: `{"id":"x","name":7}`},
		{method: "POST", path: "/plants", header: with(bearerJSON, "Authorization", ""), body: `{"id":2,"name":"Fern"}`},
	}
	for _, tc := range []struct {
		name    string
		handler func(*bytes.Buffer) slog.Handler
		want    string
	}{
		{"text", func(b *bytes.Buffer) slog.Handler {
			return slog.NewTextHandler(&syncWriter{w: b}, &slog.HandlerOptions{ReplaceAttr: steady})
		}, `level=INFO msg=request method=POST path=/plants status=200 duration=1
level=INFO msg=request method=POST path=/plants status=400 duration=1 session=job-7 error=40004 violations="[id: expected integer, got string name: expected string, got number]"
level=INFO msg=request method=POST path=/plants status=401 duration=1 error=40100
`},
		{"json", func(b *bytes.Buffer) slog.Handler {
			return slog.NewJSONHandler(&syncWriter{w: b}, &slog.HandlerOptions{ReplaceAttr: steady})
		}, `{"level":"INFO","msg":"request","method":"POST","path":"/plants","status":200,"duration":1}
{"level":"INFO","msg":"request","method":"POST","path":"/plants","status":400,"duration":1,"session":"job-7","error":40004,"violations":["id: expected integer, got string","name: expected string, got number"]}
{"level":"INFO","msg":"request","method":"POST","path":"/plants","status":401,"duration":1,"error":40100}
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			_, ts := newTestServer(t, Options{LogRequests: true, Logger: slog.New(tc.handler(&logs))})
			for _, c := range calls {
				send(t, ts, c)
			}
			if got := logs.String(); got != tc.want {
				t.Errorf("log lines:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestRequestLogTime: a request's line bears the time its journal entry's
// duration ends, so that the log and the journal agree.
func TestRequestLogTime(t *testing.T) {
	var rec timeRecorder
	s, ts := newTestServer(t, Options{LogRequests: true, Logger: slog.New(&rec)})
	send(t, ts, call{method: "POST", path: "/plants", header: bearerJSON, body: `{"id":1,"name":"Fern"}`})
	es := s.Journal()
	if len(es) != 1 || len(rec.times) != 1 {
		t.Fatalf("%d journal entries and %d log lines, want 1 of each", len(es), len(rec.times))
	}
	if want := es[0].Time.Add(es[0].Duration); !rec.times[0].Equal(want) {
		t.Errorf("logged at %v, want %v (the entry's time plus its duration)", rec.times[0], want)
	}
}

// timeRecorder is a slog.Handler that keeps the time of each record.
type timeRecorder struct {
	mu    sync.Mutex
	times []time.Time
}

func (h *timeRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (h *timeRecorder) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *timeRecorder) WithGroup(string) slog.Handler            { return h }
func (h *timeRecorder) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.times = append(h.times, r.Time)
	return nil
}
