package mock

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// ticks is a document with one stream of server-sent events, and a
// scenario that numbers six of them and drops the connection after
// every second one.
const (
	ticks = `openapi: 3.2.0
info: {title: Ticks, version: '1'}
paths:
  /ticks:
    get:
      responses:
        '200':
          description: a tick an event
          content:
            text/event-stream:
              itemSchema:
                type: object
                required: [data]
                properties:
                  data: {type: string, pattern: '^tick [0-9]$'}
                  id: {type: string}
                  retry: {type: integer}
`
	ticksScenario = `name: ticks
rules:
  - respond:
      stream:
        ids: true
        drop: 2
        interval: 50ms
        items: [{data: tick 1, retry: 10}, {data: tick 2}, {data: tick 3}, {data: tick 4}, {data: tick 5}, {data: tick 6}]
`
)

// TestEventSourceResumes: a browser's EventSource reads a scripted stream
// that the mock drops after every second event; it reconnects by itself
// with Last-Event-ID, and the mock resumes after that event, so the page
// reads each of the six events once, in order, over three answers that
// stream (the journal's notes say which items each sent).
func TestEventSourceResumes(t *testing.T) {
	sc, err := ParseScenario("ticks.yaml", []byte(ticksScenario))
	if err != nil {
		t.Fatal(err)
	}
	entries := make(chan Entry, 64)
	_, ts := newTestServer(t, Options{Spec: []byte(ticks), Scenarios: []*Scenario{sc}, Scenario: "ticks",
		Observe: func(e Entry) { entries <- e }})
	b := newBrowser(t)
	b.do("loading a page of the mock's origin", chromedp.Navigate(ts.URL+"/__admin/health"))
	b.do("opening an EventSource", chromedp.Evaluate[chromedp.Void](`
		window.got = [];
		window.es = new EventSource('/ticks');
		es.onmessage = e => { got.push(e.lastEventId + ':' + e.data); if (got.length === 6) es.close() };`))
	b.waitFor("the six events", `got`, []string{"1:tick 1", "2:tick 2", "3:tick 3", "4:tick 4", "5:tick 5", "6:tick 6"})
	// The answers that streamed, each with the Last-Event-ID it was
	// asked with and the item it began with: each resumes after the id
	// it names, and the page asked with 2 and with 4. (A browser may
	// also start again from the top where its network stack took the
	// items and the break as one read.)
	asked := map[string]bool{}
	for !asked["4"] {
		select {
		case e := <-entries:
			if e.Path != "/ticks" || e.Status != 200 || len(e.Notes) == 0 {
				continue
			}
			id, note := e.Header.Get("Last-Event-ID"), e.Notes[len(e.Notes)-1]
			from := 1
			if id != "" {
				from, _ = strconv.Atoi(id)
				from++
			}
			if !strings.HasSuffix(note, fmt.Sprintf(" of 6 items, from item %d", from)) {
				t.Fatalf("asked with Last-Event-ID %q, the answer %s", id, note)
			}
			asked[id] = true
		case <-time.After(waitLimit):
			t.Fatalf("after %s, the answers asked with Last-Event-ID %v", waitLimit, asked)
		}
	}
	if !asked["2"] {
		t.Fatalf("no answer was asked with Last-Event-ID 2: %v", asked)
	}
}
