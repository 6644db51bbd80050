package stream

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestAppendEvent(t *testing.T) {
	got := string(AppendEvent(nil, Event{Event: "delta\nx", ID: "7", HasID: true, Retry: 1500, HasRetry: true, Data: "a\r\nb\rc\nd"}))
	want := "event: delta x\nid: 7\nretry: 1500\ndata: a\ndata: b\ndata: c\ndata: d\n\n"
	if got != want {
		t.Fatalf("AppendEvent = %q, want %q", got, want)
	}
	if got := string(AppendEvent(nil, Event{ID: "a\x00b", HasID: true})); got != "data: \n\n" {
		t.Fatalf("an id with NUL: %q", got)
	}
}

// TestEnd: the end marker is written as OpenAI's service writes it, and
// read back as the end whatever its type; data that only starts with
// [DONE] is not it.
func TestEnd(t *testing.T) {
	if got := string(AppendEnd(nil)); got != "data: [DONE]\n\n" {
		t.Fatalf("the end marker: %q", got)
	}
	r, _ := NewReader(strings.NewReader("data: [DONE]\n\nevent: done\ndata: [DONE]\n\ndata: [DONE] \n\ndata: [DONE]\ndata: x\n\n"), "text/event-stream", 64)
	for _, want := range []bool{true, true, false, false} {
		it, err := r.Next()
		if err != nil || it.Event.Ends() != want {
			t.Fatalf("event %d %+v: Ends() = %v, %v; want %v", it.N, it.Event, it.Event.Ends(), err, want)
		}
	}
}

func TestReadEvents(t *testing.T) {
	body := "\xEF\xBB\xBF: a comment\r\nevent: delta\r\nid: 1\r\ndata: {\"a\":\r\ndata:1}\r\n\r\n" +
		"retry: 20\rdata\r\r" + // data with no value, CR line ends
		"id: 2\nretry: x\nfoo: bar\n\n" + // no data: not dispatched
		"data: last\n\n" +
		"data: cut"
	r, err := NewReader(strings.NewReader(body), "text/event-stream; charset=utf-8", 1024)
	if err != nil {
		t.Fatal(err)
	}
	want := []Event{
		{Event: "delta", ID: "1", HasID: true, Data: "{\"a\":\n1}"},
		{Retry: 20, HasRetry: true, Data: ""},
		{Data: "last"},
	}
	for i, w := range want {
		it, err := r.Next()
		if err != nil {
			t.Fatalf("event %d: %v", i+1, err)
		}
		if it.N != i+1 || it.Event != w || string(it.Text) != w.Data {
			t.Fatalf("event %d = %+v, want %+v", i+1, it, w)
		}
	}
	if _, err := r.Next(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("a cut event: %v, want io.ErrUnexpectedEOF", err)
	}
}

func TestEventsRoundTrip(t *testing.T) {
	events := []Event{
		{Event: "chunk", ID: "1", HasID: true, Data: `{"text":"hi"}`},
		{Data: "two\nlines"},
		{Data: "", Retry: 0, HasRetry: true},
	}
	var buf []byte
	for _, e := range events {
		buf = AppendEvent(buf, e)
	}
	r, _ := NewReader(strings.NewReader(string(buf)), "text/event-stream", 64)
	for i, w := range events {
		it, err := r.Next()
		if err != nil || it.Event != w {
			t.Fatalf("event %d = %+v, %v; want %+v", i+1, it.Event, err, w)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("after the last: %v, want io.EOF", err)
	}
}

func TestReadLinesAndRecords(t *testing.T) {
	for _, c := range []struct{ ct, body string }{
		{"application/jsonl", "{\"a\":1}\r\n\n  [2]\n3"},
		{"application/x-ndjson", string(AppendLine(AppendLine(AppendLine(nil, []byte(`{"a":1}`)), []byte("[2]")), []byte("3")))},
		{"application/json-seq", "\x1e{\"a\":1}\n\x1e[2]\n\x1e3\n"},
		{"application/json-seq", string(AppendRecord(AppendRecord(AppendRecord(nil, []byte(`{"a":1}`)), []byte("[2]")), []byte("3")))},
	} {
		r, err := NewReader(strings.NewReader(c.body), c.ct, 64)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range []string{`{"a":1}`, "[2]", "3"} {
			it, err := r.Next()
			if err != nil || string(it.Text) != w || it.N != i+1 {
				t.Fatalf("%s item %d = %q (%d), %v; want %q", c.ct, i+1, it.Text, it.N, err, w)
			}
		}
		if _, err := r.Next(); err != io.EOF {
			t.Fatalf("%s: after the last: %v, want io.EOF", c.ct, err)
		}
	}
}

func TestReadLimits(t *testing.T) {
	for _, c := range []struct{ ct, body string }{
		{"application/jsonl", "[1]\n" + strings.Repeat("1", 100) + "\n"},
		{"application/json-seq", "\x1e[1]\n\x1e" + strings.Repeat("1", 100)},
		{"text/event-stream", "data: 1\n\n" + strings.Repeat("data: 12345\n", 20) + "\n"},
		{"multipart/mixed; boundary=b", "--b\r\n\r\n1\r\n--b\r\n\r\n" + strings.Repeat("x", 100) + "\r\n--b--\r\n"},
	} {
		r, _ := NewReader(strings.NewReader(c.body), c.ct, 50)
		if _, err := r.Next(); err != nil {
			t.Fatalf("%s: the first item: %v", c.ct, err)
		}
		if _, err := r.Next(); !errors.Is(err, ErrTooLong) {
			t.Fatalf("%s: an item over the limit: %v, want ErrTooLong", c.ct, err)
		}
	}
}

func TestReadParts(t *testing.T) {
	body := "--b\r\nContent-Type: application/json\r\n\r\n{\"a\":1}\r\n--b\r\n\r\nplain\r\n--b--\r\n"
	r, err := NewReader(strings.NewReader(body), "multipart/mixed; boundary=b", 64)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range []Item{{N: 1, Text: []byte(`{"a":1}`), Type: "application/json"}, {N: 2, Text: []byte("plain"), Type: "text/plain"}} {
		it, err := r.Next()
		if err != nil || it.N != w.N || string(it.Text) != string(w.Text) || it.Type != w.Type {
			t.Fatalf("part %d = %+v, %v; want %+v", i+1, it, err, w)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("after the last part: %v", err)
	}
	if _, err := NewReader(strings.NewReader(body), "multipart/mixed", 64); err == nil {
		t.Fatal("multipart/mixed without a boundary was taken")
	}
	if _, err := NewReader(strings.NewReader(body), "application/json", 64); !errors.Is(err, ErrNotSequential) {
		t.Fatalf("application/json: %v, want ErrNotSequential", err)
	}
}

func TestSequenceOf(t *testing.T) {
	for ct, want := range map[string]Sequence{
		"text/event-stream": Events, "Text/Event-Stream; charset=utf-8": Events, "application/jsonl": Lines,
		"application/x-ndjson": Lines, "application/ndjson": Lines, "application/x-jsonlines": Lines,
		"application/json-seq": Records, "multipart/mixed; boundary=x": Parts, "application/json": NotSequential,
		"text/*": NotSequential, "nonsense": NotSequential,
	} {
		if got := SequenceOf(ct); got != want {
			t.Errorf("SequenceOf(%q) = %s, want %s", ct, got, want)
		}
	}
}
