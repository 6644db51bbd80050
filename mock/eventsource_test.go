package mock

import (
	"net/http/httptest"
	"testing"

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
        items: [{data: tick 1, retry: 10}, {data: tick 2}, {data: tick 3}, {data: tick 4}, {data: tick 5}, {data: tick 6}]
`
)

// TestEventSourceResumes: a browser's EventSource reads a scripted stream
// that the mock drops after every second event; it reconnects by itself
// with Last-Event-ID, and the mock resumes after that event, so the page
// reads each of the six events once, in order, over three connections.
func TestEventSourceResumes(t *testing.T) {
	sc, err := ParseScenario("ticks.yaml", []byte(ticksScenario))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Options{Spec: []byte(ticks), Scenarios: []*Scenario{sc}, Scenario: "ticks"})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	b := newBrowser(t)
	b.do("loading a page of the mock's origin", chromedp.Navigate(ts.URL+"/__admin/health"))
	b.do("opening an EventSource", chromedp.Evaluate[chromedp.Void](`
		window.got = []; window.opens = 0;
		window.es = new EventSource('/ticks');
		es.onopen = () => { opens++ };
		es.onmessage = e => { got.push(e.lastEventId + ':' + e.data); if (got.length === 6) es.close() };`))
	b.waitFor("the six events", `got`, []string{"1:tick 1", "2:tick 2", "3:tick 3", "4:tick 4", "5:tick 5", "6:tick 6"})
	b.waitFor("the connections", `opens`, 3)
	var resumed []string
	for _, e := range srv.Journal() {
		if e.Path == "/ticks" {
			resumed = append(resumed, e.Header.Get("Last-Event-ID")+"/"+string(rune('0'+e.Status/100)))
		}
	}
	if len(resumed) != 3 || resumed[0] != "/2" || resumed[1] != "2/2" || resumed[2] != "4/2" {
		t.Fatalf("the journal's requests (Last-Event-ID/status class): %v", resumed)
	}
}
