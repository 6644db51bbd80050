package mock

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/pipeline"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/stream"
)

// streamsSpec declares a stream of events whose data is a chunk as
// JSON, and the same chunks as JSON Lines. It is built at run time so
// that TestConformance, which serves every document written in the
// tests, leaves it out: these tests are of the proxy.
var streamsSpec = fmt.Sprintf("openapi: %s\n%s", "3.2.0", streamsPaths)

const streamsPaths = `info: {title: streams, version: '1'}
paths:
  /events:
    get:
      responses:
        '200':
          description: events
          content:
            text/event-stream:
              itemSchema:
                type: object
                required: [data]
                properties:
                  data:
                    type: string
                    contentMediaType: application/json
                    contentSchema: {$ref: '#/components/schemas/Chunk'}
  /raw:
    get:
      responses:
        '200':
          description: events the document says nothing more of
          content:
            text/event-stream: {}
  /lines:
    get:
      responses:
        '200':
          description: lines
          content:
            application/jsonl:
              itemSchema: {$ref: '#/components/schemas/Chunk'}
components:
  schemas:
    Chunk:
      type: object
      required: [n, text]
      properties:
        n: {type: integer}
        text: {type: string}
`

// stepper is an upstream that streams items one at a time: it writes
// and flushes an item each time the test sends on step, the item given,
// and ends the stream when step is closed. gone is closed when its
// client (the proxy) went before the end.
type stepper struct {
	step chan string
	gone chan struct{}
}

func (u *stepper) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/lines" {
		w.Header().Set("Content-Type", "application/jsonl")
	} else {
		w.Header().Set("Content-Type", "text/event-stream")
	}
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
	for {
		select {
		case item, ok := <-u.step:
			if !ok {
				return
			}
			if r.URL.Path == "/lines" {
				io.WriteString(w, item+"\n")
			} else {
				w.Write(stream.AppendEvent(nil, stream.Event{Data: item}))
			}
			w.(http.Flusher).Flush()
		case <-r.Context().Done():
			close(u.gone)
			return
		}
	}
}

func streamProxy(t *testing.T) (*stepper, *httptest.Server) {
	return streamProxyWithin(t, 0)
}

// streamProxyWithin is streamProxy with a proxy timeout (0: the
// default).
func streamProxyWithin(t *testing.T, timeout time.Duration) (*stepper, *httptest.Server) {
	t.Helper()
	u := &stepper{step: make(chan string), gone: make(chan struct{})}
	up := httptest.NewServer(u)
	t.Cleanup(up.Close)
	_, ts := newTestServer(t, Options{Spec: []byte(streamsSpec), Proxy: pipeline.ProxyOptions{URL: up.URL, Timeout: timeout}})
	return u, ts
}

// TestProxyStreamPassesThrough: each event reaches the client when the
// upstream sends it (the client reads the first before the upstream
// writes the second), and the first broken item is in the journal.
func TestProxyStreamPassesThrough(t *testing.T) {
	for _, c := range []struct{ path, bad, want string }{
		{"/events", `{"n":2,"text":2}`, "item[2].data.text"},
		{"/lines", `{"n":2}`, "item[2].text"},
	} {
		u, ts := streamProxy(t)
		resp, err := http.Get(ts.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != 200 || resp.Header.Get(ViolationsHeader) != "" {
			t.Fatalf("%s: %d, %s %q", c.path, resp.StatusCode, ViolationsHeader, resp.Header.Get(ViolationsHeader))
		}
		items, err := stream.NewReader(resp.Body, resp.Header.Get("Content-Type"), 1024)
		if err != nil {
			t.Fatal(err)
		}
		for i, item := range []string{`{"n":1,"text":"a"}`, c.bad, `{"n":3,"text":1}`} {
			u.step <- item // sent when the upstream takes it: after the client read the one before
			it, err := items.Next()
			if err != nil || string(it.Text) != item || it.N != i+1 {
				t.Fatalf("%s: item %d = %q, %v; want %q", c.path, i+1, it.Text, err, item)
			}
		}
		close(u.step)
		if _, err := items.Next(); err != io.EOF {
			t.Fatalf("%s: at the end: %v", c.path, err)
		}
		resp.Body.Close()

		_, _, j := send(t, ts, call{method: "GET", path: "/__admin/requests"})
		var found struct {
			Requests []struct {
				Path       string
				Proxied    bool
				Violations []journal.Violation
			}
		}
		if err := json.Unmarshal(j, &found); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range found.Requests {
			if e.Path == c.path {
				for _, v := range e.Violations {
					got = append(got, v.String())
				}
			}
		}
		if want := []string{"response " + c.want + ": " + map[string]string{"/events": "expected string, got number", "/lines": "required property is missing"}[c.path]}; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: the journal holds %q, want %q: %s", c.path, got, want, j)
		}
	}
}

// TestProxyStreamEndMarker: an upstream's stream of events that ends
// with data: [DONE], as OpenAI's service sends it, is passed on whole,
// and the marker is no broken item in the journal, though the document
// describes no such item.
func TestProxyStreamEndMarker(t *testing.T) {
	u, ts := streamProxy(t)
	resp, err := http.Get(ts.URL + "/events")
	if err != nil {
		t.Fatal(err)
	}
	items, err := stream.NewReader(resp.Body, resp.Header.Get("Content-Type"), 1024)
	if err != nil {
		t.Fatal(err)
	}
	for n, item := range []string{`{"n":1,"text":"a"}`, "[DONE]"} {
		u.step <- item
		if it, err := items.Next(); err != nil || it.Event.Data != item || it.N != n+1 {
			t.Fatalf("event %d: %+v, %v", n+1, it, err)
		}
	}
	close(u.step)
	if _, err := items.Next(); err != io.EOF {
		t.Fatalf("at the end: %v", err)
	}
	resp.Body.Close()
	_, _, j := send(t, ts, call{method: "GET", path: "/__admin/requests"})
	var found struct {
		Requests []struct {
			Path       string
			Violations []journal.Violation
		}
	}
	if err := json.Unmarshal(j, &found); err != nil {
		t.Fatal(err)
	}
	if len(found.Requests) != 1 || found.Requests[0].Path != "/events" || len(found.Requests[0].Violations) != 0 {
		t.Fatalf("the journal: %s", j)
	}
}

// TestProxyStreamWithoutSchema: a stream whose media type has no item
// schema is passed through as it comes too, not read whole first.
func TestProxyStreamWithoutSchema(t *testing.T) {
	u, ts := streamProxy(t)
	resp, err := http.Get(ts.URL + "/raw")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	items, _ := stream.NewReader(resp.Body, resp.Header.Get("Content-Type"), 1024)
	for n, item := range []string{"one", "two"} {
		u.step <- item // taken when the client has read the one before
		if it, err := items.Next(); err != nil || it.Event.Data != item || it.N != n+1 {
			t.Fatalf("event %d: %+v, %v", n+1, it, err)
		}
	}
	close(u.step)
	if _, err := items.Next(); err != io.EOF {
		t.Fatalf("at the end: %v", err)
	}
}

// TestProxyStreamClientGoes: a client that goes in the middle of a
// stream cancels the upstream's request.
func TestProxyStreamClientGoes(t *testing.T) {
	u, ts := streamProxy(t)
	resp, err := http.Get(ts.URL + "/events")
	if err != nil {
		t.Fatal(err)
	}
	items, _ := stream.NewReader(resp.Body, resp.Header.Get("Content-Type"), 1024)
	u.step <- `{"n":1,"text":"a"}`
	if it, err := items.Next(); err != nil || it.N != 1 {
		t.Fatalf("the first event: %+v, %v", it, err)
	}
	resp.Body.Close()
	<-u.gone // the upstream's request is cancelled: the test ends only then
}

// TestProxyStreamTimeout: the proxy timeout bounds each wait for a
// stream's next bytes, not the stream: six items 100ms apart pass a
// timeout of 400ms whole; then an upstream that sends nothing for the
// timeout is cut, and the client reads a stream cut short.
func TestProxyStreamTimeout(t *testing.T) {
	const timeout = 400 * time.Millisecond
	u, ts := streamProxyWithin(t, timeout)
	resp, err := http.Get(ts.URL + "/lines")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	items, _ := stream.NewReader(resp.Body, resp.Header.Get("Content-Type"), 1024)
	start := time.Now()
	for n := 1; n <= 6; n++ {
		if n > 1 {
			time.Sleep(timeout / 4) // a slow stream, not a wait for readiness
		}
		u.step <- fmt.Sprintf(`{"n":%d,"text":"a"}`, n)
		if it, err := items.Next(); err != nil || it.N != n {
			t.Fatalf("item %d after %s: %+v, %v", n, time.Since(start), it, err)
		}
	}
	// The upstream now sends nothing: the proxy cuts the stream.
	if _, err := items.Next(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("after the upstream stalled: %v, want a stream cut short", err)
	}
	<-u.gone
}

// TestRecordStream: a stream the real service sends through a recording
// proxy is recorded as a scripted stream of its items, and the mock
// replays the same items from the recording, with the end marker where
// the service sent it (data: [DONE], as OpenAI's does).
func TestRecordStream(t *testing.T) {
	dir := t.TempDir()
	items := []string{`{"n":1,"text":"a"}`, `{"n":2,"text":"b"}`}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body []byte
		for _, it := range items {
			if r.URL.Path == "/lines" {
				body = stream.AppendLine(body, []byte(it))
			} else {
				body = stream.AppendEvent(body, stream.Event{Event: "chunk", Data: it})
			}
		}
		if r.URL.Path == "/events" {
			body = stream.AppendEnd(body)
		}
		w.Header().Set("Content-Type", map[string]string{"/lines": "application/jsonl", "/events": "text/event-stream"}[r.URL.Path])
		w.Write(body)
	}))
	t.Cleanup(up.Close)
	_, ts := newTestServer(t, Options{Spec: []byte(streamsSpec), Proxy: pipeline.ProxyOptions{URL: up.URL, Record: dir}})
	want := map[string]string{}
	for _, path := range []string{"/events", "/lines"} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		want[path] = string(body)
	}
	snapshot(t, ts, "recorded-get-events.yaml recorded-get-lines.yaml seed-data.json")

	scs, err := scenario.LoadScenarios(os.DirFS(dir), ".")
	if err != nil {
		t.Fatal(err)
	}
	_, replay := newTestServer(t, Options{Spec: []byte(streamsSpec), Scenarios: scs})
	for _, c := range []struct{ path, scenario string }{{"/events", "recorded-get-events"}, {"/lines", "recorded-get-lines"}} {
		req, _ := http.NewRequest("GET", replay.URL+c.path, nil)
		req.Header.Set(ScenarioHeader, c.scenario)
		resp, err := replay.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(body) != want[c.path] {
			t.Errorf("%s replayed: %d %q, want the recorded %q", c.path, resp.StatusCode, body, want[c.path])
		}
	}
}
