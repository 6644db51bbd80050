package mock_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/stream"
)

// streams is an OpenAPI 3.2 document of streamed answers: a chat whose
// events carry JSON data (contentSchema), an export in JSON Lines whose
// example lists its items, and a feed as a JSON text sequence.
const streams = `openapi: 3.2.0
info: {title: Streams, version: '1'}
paths:
  /chat:
    post:
      requestBody:
        content: {application/json: {schema: {type: object, properties: {prompt: {type: string}}}}}
      responses:
        '200':
          description: the answer, a token at a time
          content:
            application/json:
              schema: {type: object, required: [text], properties: {text: {type: string}}}
            text/event-stream:
              itemSchema:
                type: object
                required: [data]
                properties:
                  event: {type: string, enum: [delta, done, error]}
                  id: {type: string}
                  data:
                    type: string
                    contentMediaType: application/json
                    contentSchema:
                      type: object
                      required: [text]
                      properties: {text: {type: string, maxLength: 12}}
  /export:
    get:
      responses:
        '200':
          description: every plant, one a line
          content:
            application/jsonl:
              itemSchema:
                type: object
                required: [id, name]
                properties: {id: {type: integer}, name: {type: string}}
              examples:
                three:
                  value: [{id: 1, name: Fern}, {id: 2, name: Monstera}, {id: 3, name: Ivy}]
  /notes:
    get:
      responses:
        '200':
          description: notes, the example written as sent
          content:
            text/event-stream:
              itemSchema: {type: object, required: [n], properties: {n: {type: integer}}}
              example: "data: {\"n\":1}\n\n: a comment\ndata: {\"n\":2}\n\n"
  /feed:
    get:
      responses:
        '200':
          description: readings
          content:
            application/json-seq:
              itemSchema: {type: object, required: [level], properties: {level: {type: integer, minimum: 0, maximum: 9}}}
`

// chatScenario scripts the chat: four numbered deltas, templates of the
// request, then an error event; the second rule drops the connection
// after two.
const chatScenario = `name: chat
rules:
  - when: {operation: POST /chat, headers: {X-Drop: "yes"}}
    respond:
      stream: {count: 4, ids: true, drop: 2}
  - when: {operation: POST /chat}
    respond:
      stream:
        ids: true
        items:
          - {event: delta, data: '{"text":"{{.body.prompt}}"}'}
          - {event: delta, data: '{"text":"#{{.item}}"}'}
        count: 4
        error: {event: error, data: '{"text":"overloaded"}'}
`

func streamServer(t *testing.T) *httptest.Server {
	t.Helper()
	sc, err := mock.ParseScenario("chat.yaml", []byte(chatScenario))
	if err != nil {
		t.Fatal(err)
	}
	return serveStreams(t, mock.Options{Spec: []byte(streams), Scenarios: []*mock.Scenario{sc}, Seed: 7})
}

func serveStreams(t *testing.T, opts mock.Options) *httptest.Server {
	t.Helper()
	srv, err := mock.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts
}

func streamRequest(t *testing.T, ts *httptest.Server, method, path, accept string, header ...string) *http.Response {
	t.Helper()
	var body io.Reader
	if method == "POST" {
		body = strings.NewReader(`{"prompt":"hi"}`)
	}
	req, _ := http.NewRequest(method, ts.URL+path, body)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", accept)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// TestStreamScripted: a rule's items are rendered in order, numbered,
// followed by the generated ones and the error event; each is a
// well-formed event whose data fits its contentSchema.
func TestStreamScripted(t *testing.T) {
	ts := streamServer(t)
	resp := streamRequest(t, ts, "POST", "/chat", "text/event-stream", "X-Mock-Scenario", "chat", "Prefer", "seed=3")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("status %d, header %v", resp.StatusCode, resp.Header)
	}
	body, _ := io.ReadAll(resp.Body)
	want := "event: delta\nid: 1\ndata: {\"text\":\"hi\"}\n\n" + "event: delta\nid: 2\ndata: {\"text\":\"#2\"}\n\n"
	if !strings.HasPrefix(string(body), want) {
		t.Fatalf("body starts %q, want %q", body, want)
	}
	if !strings.HasSuffix(string(body), "event: error\ndata: {\"text\":\"overloaded\"}\n\n") {
		t.Fatalf("body ends %q, want the error event", body)
	}
	m := streamMedia(t, "POST", "/chat", "text/event-stream")
	r, _ := stream.NewReader(strings.NewReader(string(body)), "text/event-stream", 1<<16)
	for n := 1; ; n++ {
		it, err := r.Next()
		if err == io.EOF {
			if n != 6 {
				t.Fatalf("%d events, want 5", n-1)
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if vs := m.CheckItem(it, false); len(vs) > 0 {
			t.Errorf("event %d %+v: %v", n, it.Event, vs)
		}
		if n <= 4 && it.Event.ID != string(rune('0'+n)) {
			t.Errorf("event %d has id %q", n, it.Event.ID)
		}
	}
}

// TestStreamResumes: with numbered events, Last-Event-ID resumes after
// the event it names; an id the stream never sent starts it again.
func TestStreamResumes(t *testing.T) {
	ts := streamServer(t)
	resp := streamRequest(t, ts, "POST", "/chat", "text/event-stream", "X-Mock-Scenario", "chat", "Last-Event-ID", "3")
	body, _ := io.ReadAll(resp.Body)
	r, _ := stream.NewReader(strings.NewReader(string(body)), "text/event-stream", 1<<16)
	var ids []string
	for {
		it, err := r.Next()
		if err != nil {
			break
		}
		ids = append(ids, it.Event.ID+"/"+it.Event.Event)
	}
	if got := strings.Join(ids, " "); len(ids) != 2 || !strings.HasPrefix(ids[0], "4/") || ids[1] != "/error" {
		t.Fatalf("events after Last-Event-ID 3: %s, want item 4 and the error", got)
	}
	resp = streamRequest(t, ts, "POST", "/chat", "text/event-stream", "X-Mock-Scenario", "chat", "Last-Event-ID", "not a number")
	body, _ = io.ReadAll(resp.Body)
	if !strings.HasPrefix(string(body), "event: delta\nid: 1\n") {
		t.Fatalf("an id the stream never sent restarts it: %q", body)
	}
}

// TestStreamEndsReconnecting: a reconnect that names a stream's last
// numbered event gets 204 No Content, which tells a browser's
// EventSource to stop reconnecting (the HTML standard's server-sent
// events); one that names an earlier event, or a stream that numbers
// none, still streams.
func TestStreamEndsReconnecting(t *testing.T) {
	sc, err := mock.ParseScenario("chat.yaml", []byte(chatScenario))
	if err != nil {
		t.Fatal(err)
	}
	entries := make(chan mock.Entry, 8)
	ts := serveStreams(t, mock.Options{Spec: []byte(streams), Scenarios: []*mock.Scenario{sc}, Seed: 7,
		Observe: func(e mock.Entry) { entries <- e }})
	tests := []struct {
		name       string
		header     []string
		status     int
		bodyPrefix string // "" wants an empty body
	}{
		{"after the rule's last event", []string{"X-Mock-Scenario", "chat", "Last-Event-ID", "4"}, 204, ""},
		{"after Prefer's last event", []string{"Prefer", "stream-ids=true, stream-items=2", "Last-Event-ID", "2"}, 204, ""},
		{"after an earlier event", []string{"Prefer", "stream-ids=true, stream-items=2", "Last-Event-ID", "1"}, 200, "event: "},
		{"events not numbered", []string{"Prefer", "stream-items=2", "Last-Event-ID", "2"}, 200, "event: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := streamRequest(t, ts, "POST", "/chat", "text/event-stream", tt.header...)
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d; body %q", resp.StatusCode, tt.status, body)
			}
			if tt.bodyPrefix == "" {
				if len(body) != 0 || resp.Header.Get("Content-Type") != "" {
					t.Errorf("a 204 with Content-Type %q and body %q", resp.Header.Get("Content-Type"), body)
				}
			} else if !strings.HasPrefix(string(body), tt.bodyPrefix) {
				t.Errorf("body %q, want it to begin %q", body, tt.bodyPrefix)
			}
			var e mock.Entry
			select {
			case e = <-entries: // told once the answer is written
			case <-time.After(10 * time.Second):
				t.Fatal("no journal entry after 10s")
			}
			if e.Status != tt.status {
				t.Errorf("the journal's status %d, want %d", e.Status, tt.status)
			}
			if tt.status == 204 && (len(e.Notes) == 0 || !strings.Contains(e.Notes[len(e.Notes)-1], "204 No Content ends its reconnecting")) {
				t.Errorf("the journal's notes %q", e.Notes)
			}
		})
	}
}

// TestStreamDropped: a drop fault breaks the connection after two
// items; the client reads them, then an unexpected EOF, not an end.
func TestStreamDropped(t *testing.T) {
	ts := streamServer(t)
	resp := streamRequest(t, ts, "POST", "/chat", "text/event-stream", "X-Mock-Scenario", "chat", "X-Drop", "yes")
	r, _ := stream.NewReader(resp.Body, "text/event-stream", 1<<16)
	for n := 1; n <= 2; n++ {
		if it, err := r.Next(); err != nil || it.Event.ID != string(rune('0'+n)) {
			t.Fatalf("event %d: %+v, %v", n, it, err)
		}
	}
	if _, err := r.Next(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("after the drop: %v, want io.ErrUnexpectedEOF", err)
	}
}

// TestStreamExampleItems: an example whose value is an array gives the
// items, one a line, in order.
func TestStreamExampleItems(t *testing.T) {
	ts := streamServer(t)
	resp := streamRequest(t, ts, "GET", "/export", "")
	body, _ := io.ReadAll(resp.Body)
	want := "{\"id\":1,\"name\":\"Fern\"}\n{\"id\":2,\"name\":\"Monstera\"}\n{\"id\":3,\"name\":\"Ivy\"}\n"
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/jsonl" || string(body) != want {
		t.Fatalf("status %d, type %q, body %q; want %q", resp.StatusCode, resp.Header.Get("Content-Type"), body, want)
	}
	resp = streamRequest(t, ts, "GET", "/export", "", "Prefer", "stream-items=5")
	body, _ = io.ReadAll(resp.Body)
	if lines := strings.Split(strings.TrimSuffix(string(body), "\n"), "\n"); len(lines) != 5 || !strings.HasPrefix(string(body), want) {
		t.Fatalf("stream-items=5: %q", body)
	}
}

// TestStreamExampleText: an example written as the stream's own text is
// read into its items, and sent item by item.
func TestStreamExampleText(t *testing.T) {
	ts := streamServer(t)
	resp := streamRequest(t, ts, "GET", "/notes", "")
	body, _ := io.ReadAll(resp.Body)
	if want := "data: {\"n\":1}\n\ndata: {\"n\":2}\n\n"; resp.StatusCode != 200 || string(body) != want {
		t.Fatalf("%d %q, want %q", resp.StatusCode, body, want)
	}
}

// TestStreamRecords: a JSON text sequence of generated items, each after
// a record separator, each fitting the item schema.
func TestStreamRecords(t *testing.T) {
	ts := streamServer(t)
	resp := streamRequest(t, ts, "GET", "/feed", "", "Prefer", "stream-items=20")
	body, _ := io.ReadAll(resp.Body)
	m := streamMedia(t, "GET", "/feed", "application/json-seq")
	r, _ := stream.NewReader(strings.NewReader(string(body)), "application/json-seq", 1<<16)
	n := 0
	for {
		it, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
		if vs := m.CheckItem(it, false); len(vs) > 0 {
			t.Errorf("item %d %s: %v", n, it.Text, vs)
		}
	}
	if n != 20 || strings.Count(string(body), "\x1e") != 20 {
		t.Fatalf("%d items: %q", n, body)
	}
}

// eventKinds is a stream whose item schema is a oneOf of three kinds of
// event, as Anthropic's and OpenAI's streams have.
const eventKinds = `openapi: 3.2.0
info: {title: Events, version: '1'}
paths:
  /messages:
    get:
      responses:
        '200':
          description: the message, an event at a time
          content:
            text/event-stream:
              itemSchema:
                oneOf:
                  - {type: object, required: [event, data], properties: {event: {const: message_start}, data: {type: string}}}
                  - {type: object, required: [event, data], properties: {event: {const: content_block_delta}, data: {type: string}}}
                  - {type: object, required: [event, data], properties: {event: {const: message_stop}, data: {type: string}}}
`

// TestStreamItemsTakeEveryBranch: 60 generated events of a three-branch
// oneOf item schema are of all three kinds, each fitting the item
// schema, and a server of the same seed sends the same ones. Before,
// every event was the first kind.
func TestStreamItemsTakeEveryBranch(t *testing.T) {
	get := func() string {
		t.Helper()
		ts := serveStreams(t, mock.Options{Spec: []byte(eventKinds), Seed: 7})
		resp := streamRequest(t, ts, "GET", "/messages", "text/event-stream", "Prefer", "stream-items=60")
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("status %d: %s", resp.StatusCode, body)
		}
		return string(body)
	}
	doc, err := openapi.Load([]byte(eventKinds))
	if err != nil {
		t.Fatal(err)
	}
	route, _, _ := doc.Find("/messages", "GET")
	m := route.Operation("GET").Response(200).Content[0]
	body := get()
	kinds := map[string]int{}
	r, _ := stream.NewReader(strings.NewReader(body), "text/event-stream", 1<<16)
	n := 0
	for {
		it, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
		if vs := m.CheckItem(it, false); len(vs) > 0 {
			t.Errorf("event %d %+v: %v", n, it.Event, vs)
		}
		kinds[it.Event.Event]++
	}
	if n != 60 {
		t.Fatalf("%d events, want 60", n)
	}
	for _, k := range []string{"message_start", "content_block_delta", "message_stop"} {
		if kinds[k] == 0 {
			t.Errorf("no %s among 60 events: %v", k, kinds)
		}
	}
	if again := get(); again != body {
		t.Errorf("a server of the same seed streamed other events:\n%s\nthen\n%s", body, again)
	}
}

// TestStreamPreferErrors: stream preferences that are not counts or
// durations are refused in the error shape.
func TestStreamPreferErrors(t *testing.T) {
	ts := streamServer(t)
	for prefer, want := range map[string]string{
		"stream-items=-1":      `{"error":40007,"message":"Prefer: stream-items=-1 is not a count from 1 to 65535"}`,
		"stream-items=0":       `{"error":40007,"message":"Prefer: stream-items=0 is not a count from 1 to 65535"}`,
		"stream-drop=x":        `{"error":40007,"message":"Prefer: stream-drop=x is not a count from 0 to 65535"}`,
		"stream-interval=soon": `{"error":40007,"message":"Prefer: stream-interval=soon is not a duration from 0 to 5m0s (200ms, 1s)"}`,
	} {
		resp := streamRequest(t, ts, "GET", "/export", "", "Prefer", prefer)
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 400 || string(body) != want {
			t.Errorf("Prefer: %s: %d %s, want 400 %s", prefer, resp.StatusCode, body, want)
		}
	}
}

// TestStreamFlushesEachItem: a client reads each JSON Lines item as it is
// flushed. With an interval of a minute, the first item can only be read
// if it was sent alone; the client then leaves, and the answer ends with
// the one item (its journal entry is written, so its handler returned).
// A second request, at 150ms, logs when each item arrives.
func TestStreamFlushesEachItem(t *testing.T) {
	entries := make(chan mock.Entry, 4)
	ts := serveStreams(t, mock.Options{Spec: []byte(streams), Observe: func(e mock.Entry) { entries <- e }})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/export", nil)
	req.Header.Set("Prefer", "stream-interval=1m")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || line != "{\"id\":1,\"name\":\"Fern\"}\n" {
		t.Fatalf("the first item: %q, %v", line, err)
	}
	cancel()
	resp.Body.Close()
	var e mock.Entry
	select {
	case e = <-entries:
	case <-time.After(time.Minute):
		t.Fatal("the answer did not end when its client left")
	}
	if e.Status != 200 || string(e.Response) != line || strings.Join(e.Notes, "; ") != "streamed 1 of 3 items, from item 1" {
		t.Fatalf("journal: %d %q %q, want the one item sent", e.Status, e.Response, e.Notes)
	}

	req, _ = http.NewRequest("GET", ts.URL+"/export", nil)
	req.Header.Set("Prefer", "stream-interval=150ms")
	start := time.Now()
	resp, err = ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	for n := 1; ; n++ {
		line, err := br.ReadString('\n')
		if err == io.EOF {
			break
		}
		t.Logf("item %d at %s: %s", n, time.Since(start).Round(time.Millisecond), strings.TrimSpace(line))
	}
}

// streamMedia is the 200 answer's media type ct of an operation of
// streams.
func streamMedia(t *testing.T, method, path, ct string) *openapi.Media {
	t.Helper()
	doc, err := openapi.Load([]byte(streams))
	if err != nil {
		t.Fatal(err)
	}
	route, _, _ := doc.Find(path, method)
	for _, m := range route.Operation(method).Response(200).Content {
		if m.Type == ct {
			return m
		}
	}
	t.Fatalf("%s %s declares no %s", method, path, ct)
	return nil
}

// TestStreamScenarioRefused: a stream a rule cannot send is refused when
// the scenario is loaded, with the rule's line.
func TestStreamScenarioRefused(t *testing.T) {
	for rule, want := range map[string]string{
		"{when: {operation: GET /export}, respond: {stream: {count: -1, interval: 6m, drop: -2}}}": "bad.yaml:3: rule 1: respond.stream.count -1 is not between 0 and 1000000\n" +
			"bad.yaml:3: rule 1: respond.stream.interval 6m0s is not between 0 and 5m0s\nbad.yaml:3: rule 1: respond.stream.drop may not be negative",
		"{when: {operation: GET /export}, respond: {body: [], stream: {count: 1}}}": "bad.yaml:3: rule 1: GET /export: status 200 declares no JSON body\n" +
			"bad.yaml:3: rule 1: respond.stream and respond.body cannot both be given: the stream is the body",
		"{when: {operation: POST /chat}, respond: {status: 200, stream: {items: [{nope: '{{'}]}}}": "bad.yaml:3: rule 1: respond.stream.items[0].nope: respond.stream.items[0].nope:1: unclosed action",
	} {
		sc, err := mock.ParseScenario("bad.yaml", []byte("name: bad\nrules:\n  - "+rule+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = mock.New(mock.Options{Spec: []byte(streams), Scenarios: []*mock.Scenario{sc}})
		if err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", rule, err, want)
		}
	}
	doc := strings.Replace(streams, "  /feed:", "  /plain:\n    get:\n      responses: {'200': {description: ok, content: {application/json: {schema: {type: object}}}}}\n  /feed:", 1)
	sc, _ := mock.ParseScenario("bad.yaml", []byte("name: bad\nrules:\n  - {when: {operation: GET /plain}, respond: {stream: {count: 2}}}\n"))
	_, err := mock.New(mock.Options{Spec: []byte(doc), Scenarios: []*mock.Scenario{sc}})
	if want := "bad.yaml:3: rule 1: respond.stream: GET /plain declares no streamed answer (text/event-stream, JSON Lines or application/json-seq) for status 200"; err == nil || err.Error() != want {
		t.Errorf("a stream for a JSON answer:\n got %v\nwant %s", err, want)
	}
}

// postChat sends body to /chat of ts with Accept accept (none when
// empty) and the other headers given as name, value pairs.
func postChat(t *testing.T, ts *httptest.Server, body, accept string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("POST", ts.URL+"/chat", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// TestStreamField: where an answer is offered as JSON and as a stream,
// a request body whose stream member is true gets the stream whatever
// Accept says, as OpenAI's SDK asks for it (Accept: application/json);
// false, a string, or no member leave Accept to choose; with
// IgnoreStreamField, Accept alone chooses.
func TestStreamField(t *testing.T) {
	on := serveStreams(t, mock.Options{Spec: []byte(streams), Seed: 7})
	off := serveStreams(t, mock.Options{Spec: []byte(streams), Seed: 7, IgnoreStreamField: true})
	m := streamMedia(t, "POST", "/chat", "text/event-stream")
	for _, tt := range []struct {
		name         string
		ts           *httptest.Server
		body, accept string
		stream       bool // the answer is the stream, else JSON
	}{
		{"stream true, Accept JSON", on, `{"prompt":"hi","stream":true}`, "application/json", true},
		{"stream true, no Accept", on, `{"stream":true}`, "", true},
		{"stream true, Accept JSON with q", on, `{"stream":true}`, "application/json, text/event-stream;q=0.1", true},
		{"stream false, Accept JSON", on, `{"stream":false}`, "application/json", false},
		{"stream false, Accept a stream", on, `{"stream":false}`, "text/event-stream", true},
		{"stream a string", on, `{"stream":"true"}`, "application/json", false},
		{"no stream member", on, `{"prompt":"hi"}`, "", false},
		{"ignored, stream true, Accept JSON", off, `{"stream":true}`, "application/json", false},
		{"ignored, stream true, no Accept", off, `{"stream":true}`, "", false},
		{"ignored, Accept a stream", off, `{"stream":true}`, "text/event-stream", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := postChat(t, tt.ts, tt.body, tt.accept)
			if resp.StatusCode != 200 {
				t.Fatalf("status %d: %s", resp.StatusCode, body)
			}
			if !tt.stream {
				var v struct{ Text *string }
				if ct := resp.Header.Get("Content-Type"); ct != "application/json" || json.Unmarshal(body, &v) != nil || v.Text == nil {
					t.Fatalf("Content-Type %q, body %s; want the JSON answer", ct, body)
				}
				return
			}
			if ct, cc := resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"); ct != "text/event-stream" || cc != "no-cache" {
				t.Fatalf("Content-Type %q, Cache-Control %q; want the stream", ct, cc)
			}
			if n := checkEvents(t, m, body); n != 3 {
				t.Fatalf("%d events, want 3: %q", n, body)
			}
		})
	}
}

// checkEvents reads body, a stream of events of m, checks each against
// the item schema and returns how many there were.
func checkEvents(t *testing.T, m *openapi.Media, body []byte) int {
	t.Helper()
	r, err := stream.NewReader(strings.NewReader(string(body)), "text/event-stream", 1<<16)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; ; n++ {
		it, err := r.Next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatal(err)
		}
		if vs := m.CheckItem(it, false); len(vs) > 0 {
			t.Errorf("event %d %+v: %v", n+1, it.Event, vs)
		}
	}
}

// TestStreamRuleWhateverAccept: a rule's respond.stream is sent as the
// stream whatever Accept names, also with IgnoreStreamField; the journal
// names the rule.
func TestStreamRuleWhateverAccept(t *testing.T) {
	sc, err := mock.ParseScenario("two.yaml", []byte(`name: two
rules:
  - when: {operation: POST /chat}
    respond:
      stream:
        items:
          - {event: delta, data: '{"text":"one"}'}
          - {event: delta, data: '{"text":"two"}'}
`))
	if err != nil {
		t.Fatal(err)
	}
	const want = "event: delta\ndata: {\"text\":\"one\"}\n\nevent: delta\ndata: {\"text\":\"two\"}\n\n"
	for _, ignore := range []bool{false, true} {
		entries := make(chan mock.Entry, 8)
		ts := serveStreams(t, mock.Options{Spec: []byte(streams), Scenarios: []*mock.Scenario{sc}, IgnoreStreamField: ignore,
			Observe: func(e mock.Entry) { entries <- e }})
		for _, accept := range []string{"application/json", "", "text/event-stream", "application/json;q=1, text/event-stream;q=0.5"} {
			resp, body := postChat(t, ts, `{"prompt":"hi"}`, accept, "X-Mock-Scenario", "two")
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" || string(body) != want {
				t.Errorf("IgnoreStreamField %v, Accept %q: %d %q %q; want 200 text/event-stream %q",
					ignore, accept, resp.StatusCode, resp.Header.Get("Content-Type"), body, want)
			}
			if e := <-entries; e.Scenario != "two" || e.Rule != 1 || string(e.Response) != want {
				t.Errorf("Accept %q: journal rule %s %d, response %q", accept, e.Scenario, e.Rule, e.Response)
			}
		}
	}
}

// endDocs are one API in OpenAPI 3.0, 3.1 and 3.2: POST /chat answers
// a completion as JSON or its chunks as server-sent events (in 3.0 and
// 3.1 the schema is each event's data, as OpenAI's description writes
// it; in 3.2 the itemSchema describes the event), GET /tokens a stream
// whose example, written as sent, ends with data: [DONE], and GET
// /lines JSON Lines. None describes [DONE] as an item.
var endDocs = map[string]string{
	"3.0": endDoc("3.0.3", "schema: {$ref: '#/components/schemas/Chunk'}", "nullable: true"),
	"3.1": endDoc("3.1.0", "schema: {$ref: '#/components/schemas/Chunk'}", "type: [string, 'null']"),
	"3.2": endDoc("3.2.0", `itemSchema:
                type: object
                required: [data]
                properties:
                  data: {type: string, contentMediaType: application/json, contentSchema: {$ref: '#/components/schemas/Chunk'}}`, "type: [string, 'null']"),
}

func endDoc(version, events, nullable string) string {
	return `openapi: ` + version + `
info: {title: end, version: '1'}
paths:
  /chat:
    post:
      requestBody:
        content: {application/json: {schema: {type: object, properties: {stream: {type: boolean}}}}}
      responses:
        '200':
          description: the completion, or its chunks
          content:
            application/json:
              schema: {type: object, required: [text], properties: {text: {type: string}}}
            text/event-stream:
              ` + events + `
  /tokens:
    get:
      responses:
        '200':
          description: tokens
          content:
            text/event-stream:
              ` + events + `
              example: "data: {\"stop\":null,\"text\":\"a\"}\n\ndata: {\"stop\":\"end\",\"text\":\"b\"}\n\ndata: [DONE]\n\n"
  /lines:
    get:
      responses:
        '200':
          description: lines
          content:
            application/jsonl:
              schema: {$ref: '#/components/schemas/Chunk'}
components:
  schemas:
    Chunk:
      type: object
      required: [text]
      properties:
        text: {type: string, maxLength: 12}
        stop: {` + nullable + `, enum: [end, null]}
`
}

// TestStreamEndMarker: a stream of server-sent events ends with data:
// [DONE] where a rule's done, Prefer's stream-done=true or the example
// says so, in a 3.0, 3.1 and 3.2 document alike; the marker is no item,
// so the document need not describe it, and the mock's own check of
// the stream, item by item, accepts it. stream-done=false leaves it
// out.
func TestStreamEndMarker(t *testing.T) {
	for version, doc := range endDocs {
		t.Run(version, func(t *testing.T) {
			sc, err := mock.ParseScenario("end.yaml", []byte(`name: end
rules:
  - when: {operation: POST /chat}
    respond:
      stream:
        items: [`+map[bool]string{true: `{data: '{"text":"hi"}'}`, false: `{text: hi}`}[version == "3.2"]+`]
        done: true
`))
			if err != nil {
				t.Fatal(err)
			}
			ts := serveStreams(t, mock.Options{Spec: []byte(doc), Scenarios: []*mock.Scenario{sc}, Seed: 7})
			m := endMedia(t, doc, "/chat", "POST")
			for _, tt := range []struct {
				name, method, path string
				header             []string
				want               string // the whole body, or with "..." in front its end
				events             int    // the events before the marker
			}{
				{"the rule's done", "POST", "/chat", []string{"X-Mock-Scenario", "end"}, "data: {\"text\":\"hi\"}\n\ndata: [DONE]\n\n", 1},
				{"stream-done=false over the rule's", "POST", "/chat", []string{"X-Mock-Scenario", "end", "Prefer", "stream-done=false"}, "data: {\"text\":\"hi\"}\n\n", 1},
				{"Prefer", "POST", "/chat", []string{"Prefer", "stream-items=2, stream-done=true"}, "...}\n\ndata: [DONE]\n\n", 2},
				{"Prefer with ids", "POST", "/chat", []string{"Prefer", "stream-items=2, stream-done=true, stream-ids=true"}, "...}\n\ndata: [DONE]\n\n", 2},
				{"none asked", "POST", "/chat", nil, "...}\n\n", 3},
				{"the example's", "GET", "/tokens", nil, "data: {\"stop\":null,\"text\":\"a\"}\n\ndata: {\"stop\":\"end\",\"text\":\"b\"}\n\ndata: [DONE]\n\n", 2},
				{"the example's, stream-done=false", "GET", "/tokens", []string{"Prefer", "stream-done=false"}, "data: {\"stop\":null,\"text\":\"a\"}\n\ndata: {\"stop\":\"end\",\"text\":\"b\"}\n\n", 2},
			} {
				t.Run(tt.name, func(t *testing.T) {
					var body io.Reader
					if tt.method == "POST" {
						body = strings.NewReader(`{"stream":true}`)
					}
					req, _ := http.NewRequest(tt.method, ts.URL+tt.path, body)
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Accept", "application/json")
					for i := 0; i+1 < len(tt.header); i += 2 {
						req.Header.Set(tt.header[i], tt.header[i+1])
					}
					resp, err := ts.Client().Do(req)
					if err != nil {
						t.Fatal(err)
					}
					b, err := io.ReadAll(resp.Body)
					resp.Body.Close()
					if err != nil {
						t.Fatal(err)
					}
					end, whole := strings.CutPrefix(tt.want, "...")
					if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" ||
						!whole && string(b) != tt.want || whole && !strings.HasSuffix(string(b), end) {
						t.Fatalf("%d %q %q, want 200 text/event-stream %q", resp.StatusCode, resp.Header.Get("Content-Type"), b, tt.want)
					}
					if n := strings.Count(string(b), "\n\n") - strings.Count(string(b), "data: [DONE]"); n != tt.events {
						t.Errorf("%d events before the marker, want %d: %q", n, tt.events, b)
					}
					if vs, err := m.CheckItems(strings.NewReader(string(b)), "text/event-stream", false); len(vs) > 0 || err != nil {
						t.Errorf("the stream's check: %v %v", vs, err)
					}
				})
			}
		})
	}
}

// endMedia is the text/event-stream media type of the 200 answer of an
// operation of doc.
func endMedia(t *testing.T, doc, path, method string) *openapi.Media {
	t.Helper()
	d, err := openapi.Load([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	route, _, _ := d.Find(path, method)
	for _, m := range route.Operation(method).Response(200).Content {
		if m.Type == "text/event-stream" {
			return m
		}
	}
	t.Fatalf("%s %s streams no events", method, path)
	return nil
}

// TestStreamEndMarkerRefused: a rule's done for a stream that is not of
// server-sent events is refused when the scenario is loaded; Prefer's
// stream-done there is ignored, as the other stream preferences are for
// an answer that does not stream.
func TestStreamEndMarkerRefused(t *testing.T) {
	sc, err := mock.ParseScenario("bad.yaml", []byte("name: bad\nrules:\n  - {when: {operation: GET /lines}, respond: {stream: {count: 1, done: true}}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = mock.New(mock.Options{Spec: []byte(endDocs["3.1"]), Scenarios: []*mock.Scenario{sc}})
	if want := "bad.yaml:3: rule 1: respond.stream.done: GET /lines streams application/jsonl for status 200; only server-sent events end with data: [DONE]"; err == nil || err.Error() != want {
		t.Fatalf("done for JSON Lines:\n got %v\nwant %s", err, want)
	}
	ts := serveStreams(t, mock.Options{Spec: []byte(endDocs["3.1"]), Seed: 7})
	resp := streamRequest(t, ts, "GET", "/lines", "", "Prefer", "stream-items=2, stream-done=true")
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || strings.Count(string(body), "\n") != 2 || strings.Contains(string(body), "DONE") {
		t.Fatalf("JSON Lines with stream-done=true: %d %q", resp.StatusCode, body)
	}
}
