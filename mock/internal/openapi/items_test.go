package openapi

import (
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/stream"
)

// streamsDoc declares one answer of each sequential media type, in a
// document of version.
func streamsDoc(t *testing.T, version, content string) *Media {
	t.Helper()
	doc, err := Load([]byte("openapi: " + version + `
info: {title: t, version: '1'}
paths:
  /s:
    get:
      responses:
        '200':
          description: a stream
          content:
` + content))
	if err != nil {
		t.Fatal(err)
	}
	route, _, _ := doc.Find("/s", "GET")
	return route.Operation("GET").Response(200).Content[0]
}

func TestEventItems(t *testing.T) {
	m := streamsDoc(t, "3.2.0", `
            text/event-stream:
              itemSchema:
                type: object
                required: [data]
                properties:
                  event: {type: string, enum: [delta, done]}
                  id: {type: string}
                  retry: {type: integer}
                  data:
                    type: string
                    contentMediaType: application/json
                    contentSchema:
                      type: object
                      required: [text]
                      properties: {text: {type: string}}`)
	if m.Seq != stream.Events || m.ItemSchema == nil || m.EventContent(map[string]any{}) == nil {
		t.Fatalf("Seq %s, ItemSchema %v, EventContent %v", m.Seq, m.ItemSchema, m.EventContent(map[string]any{}))
	}
	for _, c := range []struct {
		e    stream.Event
		want string
	}{
		{stream.Event{Event: "delta", ID: "1", HasID: true, Data: `{"text":"hi"}`}, ""},
		{stream.Event{Event: "oops", Data: `{"text":"hi"}`}, "item[1].event"},
		{stream.Event{Event: "delta", Data: `{"text":1}`}, "item[1].data.text"},
		{stream.Event{Event: "delta", Data: `{"text":`}, "item[1].data"},
	} {
		vs := m.CheckItem(stream.Item{N: 1, Event: c.e}, false)
		got := ""
		if len(vs) > 0 {
			got = vs[0].Path
		}
		if got != c.want {
			t.Errorf("CheckItem(%+v) = %v, want a violation at %q", c.e, vs, c.want)
		}
	}
	e := m.Event(map[string]any{"event": "delta", "id": "9", "data": `{"text":"x"}`, "other": 1})
	if e != (stream.Event{Event: "delta", ID: "9", HasID: true, Data: `{"text":"x"}`}) {
		t.Fatalf("Event = %+v", e)
	}
}

// TestEventItemsOfData checks the two other readings of an event
// schema: a data property that is not a string holds JSON, and a schema
// without data (a 3.0 or 3.1 document's, mostly) describes the data.
func TestEventItemsOfData(t *testing.T) {
	m := streamsDoc(t, "3.2.0", `
            text/event-stream:
              itemSchema:
                properties:
                  data: {type: object, required: [n], properties: {n: {type: integer}}}`)
	if vs := m.CheckItem(stream.Item{N: 2, Event: stream.Event{Data: `{"n":1}`}}, false); len(vs) != 0 {
		t.Fatalf("a fitting event: %v", vs)
	}
	if vs := m.CheckItem(stream.Item{N: 2, Event: stream.Event{Data: `{"n":"1"}`}}, false); len(vs) != 1 || vs[0].Path != "item[2].data.n" {
		t.Fatalf("a wrong event: %v", vs)
	}
	if e := m.Event(map[string]any{"data": map[string]any{"n": 1}}); e.Data != `{"n":1}` {
		t.Fatalf("Event = %+v", e)
	}
	m = streamsDoc(t, "3.1.0", `
            text/event-stream:
              schema: {type: object, required: [n], properties: {n: {type: integer}}}`)
	if vs := m.CheckItem(stream.Item{N: 1, Event: stream.Event{Event: "x", Data: `{"n":1}`}}, false); len(vs) != 0 {
		t.Fatalf("3.1, a fitting event: %v", vs)
	}
	if vs := m.CheckItem(stream.Item{N: 1, Event: stream.Event{Data: `not json`}}, false); len(vs) != 1 || !strings.Contains(vs[0].Reason, "not JSON") {
		t.Fatalf("3.1, data that is not JSON: %v", vs)
	}
	if e := m.Event(map[string]any{"n": 2}); e.Data != `{"n":2}` || e.Event != "" {
		t.Fatalf("Event = %+v", e)
	}
}

func TestLineItems(t *testing.T) {
	for version, content := range map[string]string{
		"3.2.0": `
            application/jsonl:
              itemSchema: {type: object, required: [n]}`,
		"3.1.0": `
            application/x-ndjson:
              schema: {type: array, items: {type: object, required: [n]}}`,
		"3.0.3": `
            application/json-seq:
              schema: {type: object, required: [n]}`,
	} {
		m := streamsDoc(t, version, content)
		if vs := m.CheckItem(stream.Item{N: 1, Text: []byte(`{"n":1}`)}, false); len(vs) != 0 {
			t.Errorf("%s: a fitting item: %v", version, vs)
		}
		if vs := m.CheckItem(stream.Item{N: 4, Text: []byte(`{}`)}, false); len(vs) != 1 || vs[0].Path != "item[4].n" {
			t.Errorf("%s: an item without n: %v", version, vs)
		}
		if vs := m.CheckItem(stream.Item{N: 5, Text: []byte(`{`)}, false); len(vs) != 1 || vs[0].Path != "item[5]" {
			t.Errorf("%s: an item that is not JSON: %v", version, vs)
		}
	}
}
