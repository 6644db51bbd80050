package mock

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock/internal/session"
)

// readEvent reads one Server-Sent Event: its name and data.
func readEvent(t *testing.T, br *bufio.Reader) (name, data string) {
	t.Helper()
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("event stream: %v", err)
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "" && (name != "" || data != ""):
			return name, data
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data = strings.TrimPrefix(line, "data: ")
		case strings.HasPrefix(line, "retry: "):
			name = "retry"
			data = strings.TrimPrefix(line, "retry: ")
		}
	}
}

// TestEvents: the stream says how soon to reconnect, then carries each
// entry as it is recorded, of every session, outbound ones too.
func TestEvents(t *testing.T) {
	sub := newSubscriber(t, always(200))
	_, ts := newTestServer(t, Options{Spec: webhookSpec(t), Webhooks: WebhookOptions{Subscribers: map[string]session.Subscriber{"/plant/webhook": {URL: sub.URL}}}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/__admin/events", nil)
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("%d %v", resp.StatusCode, resp.Header)
	}
	br := bufio.NewReader(resp.Body)
	if name, data := readEvent(t, br); name != "retry" || data != "2000" {
		t.Errorf("first event: %q %q", name, data)
	}
	do(t, ts, "POST", "/plants", `{"id":1}`, "Authorization", "Bearer abc", SessionHeader, "s1")
	name, data := readEvent(t, br)
	if name != "entry" || !strings.HasPrefix(data, `{"seq":1,"time":"`) ||
		!strings.Contains(data, `"method":"POST","path":"/plants","headers":{`) ||
		!strings.HasSuffix(data, `"session":"s1","status":400,"code":40004,"violations":[{"path":"name","reason":"required property is missing","schema":"#/components/schemas/Plant/required"}],"body":{"id":1},"response":{"error":40004,"message":"request body does not match the schema: name: required property is missing"}}`) {
		t.Errorf("entry: %s %s", name, data)
	}
	do(t, ts, "POST", "/plants", `{"id":2,"name":"fern"}`, "Authorization", "Bearer abc")
	name, data = readEvent(t, br)
	if name != "entry" || !strings.HasSuffix(data, `"operation":"POST /plants","status":200,"body":{"id":2,"name":"fern"},"response":{"name":"fern"}}`) {
		t.Errorf("second entry: %s %s", name, data)
	}
	sub.next(t)
	name, data = readEvent(t, br)
	if name != "entry" || !strings.HasPrefix(data, `{"seq":2,`) || !strings.Contains(data, `"direction":"outbound","url":"`+sub.URL+`","trigger":1,"attempt":1`) {
		t.Errorf("outbound entry: %s %s", name, data)
	}
}

// TestEventsEndAtShutdown: Serve's shutdown ends the open streams instead
// of waiting for them.
func TestEventsEndAtShutdown(t *testing.T) {
	s, err := New(Options{ShutdownTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/__admin/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	readEvent(t, br)
	stop()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Serve still waiting for an event stream 30s after shutdown began (its timeout is a minute)")
	}
	if _, err := br.ReadString('\n'); err == nil {
		t.Error("the stream goes on after shutdown")
	}
}
