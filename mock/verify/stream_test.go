package verify_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock/verify"
)

// streamSpec declares three streams of the same items, {"n": 1, "text":
// "..."}: server-sent events whose data is the item as JSON, JSON Lines
// and a JSON text sequence.
const streamSpec = `openapi: 3.2.0
info: {title: streams, version: '1'}
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
                  event: {type: string}
                  data:
                    type: string
                    contentMediaType: application/json
                    contentSchema: {$ref: '#/components/schemas/Chunk'}
  /lines:
    get:
      responses:
        '200':
          description: lines
          content:
            application/jsonl:
              itemSchema: {$ref: '#/components/schemas/Chunk'}
  /records:
    get:
      responses:
        '200':
          description: records
          content:
            application/json-seq:
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

// streamer is a provider of the three streams, with a bug planted: the
// item at bad written wrong (a number for text), each item of a
// stream of events not JSON (notJSON), or streams that never end
// (endless: they write items until the client goes; stall: they write
// two, then nothing until the client goes).
type streamer struct {
	bad            int
	notJSON        bool
	done           bool // a stream of events ends with data: [DONE], as OpenAI's do
	endless, stall bool
	items          int // the items each stream has, when it ends
}

func (p streamer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ct := map[string]string{"/events": "text/event-stream", "/lines": "application/jsonl", "/records": "application/json-seq"}[r.URL.Path]
	if ct == "" {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Content-Type", ct)
	w.WriteHeader(http.StatusOK)
	for n := 1; p.endless || n <= p.items; n++ {
		if p.stall && n > 2 {
			<-r.Context().Done()
			return
		}
		item := fmt.Sprintf(`{"n":%d,"text":"chunk %d"}`, n, n)
		if n == p.bad {
			item = fmt.Sprintf(`{"n":%d,"text":%d}`, n, n)
		}
		var err error
		switch r.URL.Path {
		case "/events":
			if p.notJSON {
				item = "chunk " + fmt.Sprint(n)
			}
			_, err = fmt.Fprintf(w, "event: delta\ndata: %s\n\n", item)
		case "/lines":
			_, err = fmt.Fprintf(w, "%s\n", item)
		case "/records":
			_, err = fmt.Fprintf(w, "\x1e%s\n", item)
		}
		if err != nil {
			return // the client went
		}
		w.(http.Flusher).Flush()
	}
	if p.done && r.URL.Path == "/events" {
		io.WriteString(w, "data: [DONE]\n\n")
	}
}

func verifyStreams(t *testing.T, p streamer, opts verify.Options) *verify.Report {
	t.Helper()
	srv := httptest.NewServer(p)
	defer srv.Close()
	rep, err := verify.Run(context.Background(), []byte(streamSpec), srv.URL, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestVerifyStreams(t *testing.T) {
	if rep := verifyStreams(t, streamer{items: 5}, verify.Options{}); !rep.OK() || len(rep.Advice) != 0 || rep.Coverage.Statuses != 3 {
		t.Fatalf("a correct streaming service: %v %v, coverage %s", rep.Failures, rep.Advice, rep.Coverage)
	}
	rep := verifyStreams(t, streamer{items: 5, bad: 3}, verify.Options{})
	var got []string
	for _, f := range rep.Failures {
		got = append(got, f.String())
	}
	want := []string{
		"GET /events: positive: required only: body: status 200: item 3: data.text: expected string, got number (#/components/schemas/Chunk/properties/text/type)",
		"GET /lines: positive: required only: body: status 200: item 3: text: expected string, got number (#/components/schemas/Chunk/properties/text/type)",
		"GET /records: positive: required only: body: status 200: item 3: text: expected string, got number (#/components/schemas/Chunk/properties/text/type)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(rep.Advice) != 0 {
		t.Fatalf("a bad third item:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Every output format names the item.
	var text, github, junit bytes.Buffer
	rep.WriteSummary(&text)
	rep.WriteGitHub(&github, "streams.yaml")
	rep.WriteJUnit(&junit)
	js, _ := json.Marshal(rep)
	for name, out := range map[string]string{"text": text.String(), "github": github.String(), "junit": junit.String(), "json": string(js)} {
		if !strings.Contains(out, "status 200: item 3: data.text: expected string, got number") || !strings.Contains(out, "status 200: item 3: text: expected string, got number") {
			t.Errorf("%s output does not name the item:\n%s", name, out)
		}
	}
}

// TestVerifyStreamEndMarker: a stream of events that ends with data:
// [DONE], as OpenAI's service sends it, is no broken item, though the
// document describes no such item; a broken item before it still is.
func TestVerifyStreamEndMarker(t *testing.T) {
	if rep := verifyStreams(t, streamer{items: 3, done: true}, verify.Options{Only: []string{"GET /events"}}); !rep.OK() || len(rep.Advice) != 0 {
		t.Fatalf("a stream ended with data: [DONE]: %v %v", rep.Failures, rep.Advice)
	}
	rep := verifyStreams(t, streamer{items: 3, bad: 2, done: true}, verify.Options{Only: []string{"GET /events"}})
	if len(rep.Failures) != 1 || rep.Failures[0].Text != "status 200: item 2: data.text: expected string, got number" {
		t.Fatalf("a bad second item before data: [DONE]: %v", rep.Failures)
	}
}

func TestVerifyStreamNotJSON(t *testing.T) {
	rep := verifyStreams(t, streamer{items: 3, notJSON: true}, verify.Options{Only: []string{"GET /events"}})
	if len(rep.Failures) != 1 || rep.Failures[0].Text != "status 200: item 1: data: the data is not JSON, as its contentMediaType says: invalid JSON at offset 0: invalid character 'c' looking for beginning of value" {
		t.Fatalf("data that is not JSON: %v", rep.Failures)
	}
}

// TestVerifyEndlessStreams checks that streams that never end end
// their checks: one that keeps writing at the item bound, one that
// stalls at the time bound, each judged on the items that came. Of the
// six requests, three are the streams', three a method each path does
// not declare.
func TestVerifyEndlessStreams(t *testing.T) {
	if rep := verifyStreams(t, streamer{endless: true}, verify.Options{}); !rep.OK() || rep.Requests != 6 {
		t.Fatalf("endless streams: %v, %d requests", rep.Failures, rep.Requests)
	}
	if rep := verifyStreams(t, streamer{endless: true, bad: 7}, verify.Options{StreamItems: 10}); len(rep.Failures) != 3 || !strings.Contains(rep.Failures[2].Text, "item 7: text") {
		t.Fatalf("endless streams with a bad seventh item: %v", rep.Failures)
	}
	if rep := verifyStreams(t, streamer{endless: true, bad: 7}, verify.Options{StreamItems: 6}); !rep.OK() {
		t.Fatalf("endless streams read to their sixth item: %v", rep.Failures)
	}
	// Stalled: two items, then nothing. The bound is short for the
	// test's sake; the stream is judged on its two items either way. The
	// request's timeout is an hour, so that only the stream's bound can
	// end the read: without it, the test hangs.
	if rep := verifyStreams(t, streamer{endless: true, stall: true}, verify.Options{StreamTime: 50 * time.Millisecond, Timeout: time.Hour}); !rep.OK() || rep.Requests != 6 {
		t.Fatalf("stalled streams: %v", rep.Failures)
	}
	if rep := verifyStreams(t, streamer{endless: true, stall: true, bad: 2}, verify.Options{StreamTime: 50 * time.Millisecond, Timeout: time.Hour}); len(rep.Failures) != 3 {
		t.Fatalf("stalled streams with a bad second item: %v", rep.Failures)
	}
}

// firstLineOnly is a provider of POST /lines (testdata/streams.yaml)
// with a bug planted: it checks the first line of the body alone, so a
// broken later item is taken.
type firstLineOnly struct{}

func (firstLineOnly) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/lines" {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	first, _, _ := bufio.NewReader(r.Body).ReadLine()
	var p struct {
		Name *string `json:"name"`
	}
	if r.Header.Get("Content-Type") != "application/x-ndjson" || json.Unmarshal(first, &p) != nil || p.Name == nil || *p.Name == "" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error":400,"message":"bad item"}`)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// TestVerifyStreamedRequestItems: verify sends a streamed request body
// whose last item is broken, and finds a service that checks only the
// first.
func TestVerifyStreamedRequestItems(t *testing.T) {
	spec, err := os.ReadFile("testdata/streams.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(firstLineOnly{})
	defer srv.Close()
	rep, err := verify.Run(context.Background(), spec, srv.URL, verify.Options{Only: []string{"POST /lines"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range rep.Failures {
		got = append(got, f.String())
	}
	want := []string{
		"POST /lines: negative: missing required property item[2].name: accepted invalid input: status 202: the request was not refused, but item[2].name: required property is missing (#/components/schemas/Plant/required)",
		"POST /lines: negative: wrong type of item[2].name: accepted invalid input: status 202: the request was not refused, but item[2].name: expected string, got number (#/components/schemas/Plant/properties/name/type)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("a service that checks the first item alone:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
