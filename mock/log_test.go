package mock

import (
	"bytes"
	"log/slog"
	"testing"
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
