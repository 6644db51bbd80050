package stream

import (
	"strconv"
	"strings"
)

// Event is one server-sent event, in the fields the HTML standard's
// event stream format gives it.
type Event struct {
	// Event is the event's type; "" sends none, which a browser's
	// EventSource dispatches as "message".
	Event string
	// Data is the event's data: lines of it are sent as data fields
	// each, and read back joined by line feeds.
	Data string
	// ID is the event's id, sent when HasID: a client that reconnects
	// sends the last one it saw as Last-Event-ID.
	ID    string
	HasID bool
	// Retry is the reconnection time in milliseconds, sent when
	// HasRetry.
	Retry    int64
	HasRetry bool
}

// AppendEvent appends e in the event stream format: its event, id and
// retry fields, a data field a line of its data, and the blank line that
// ends it. A line break in the event's type or id would end the field
// early; each is sent as a space. An id with NUL is left out, as a
// client would ignore it.
func AppendEvent(buf []byte, e Event) []byte {
	if e.Event != "" {
		buf = append(buf, "event: "...)
		buf = appendField(buf, e.Event)
	}
	if e.HasID && !strings.ContainsRune(e.ID, 0) {
		buf = append(buf, "id: "...)
		buf = appendField(buf, e.ID)
	}
	if e.HasRetry && e.Retry >= 0 {
		buf = append(buf, "retry: "...)
		buf = strconv.AppendInt(buf, e.Retry, 10)
		buf = append(buf, '\n')
	}
	data := e.Data
	for {
		i := strings.IndexAny(data, "\r\n")
		buf = append(buf, "data: "...)
		if i < 0 {
			buf = append(buf, data...)
			buf = append(buf, '\n')
			break
		}
		buf = append(buf, data[:i]...)
		buf = append(buf, '\n')
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			i++
		}
		data = data[i+1:]
	}
	return append(buf, '\n')
}

func appendField(buf []byte, v string) []byte {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '\r' || c == '\n' {
			c = ' '
		}
		buf = append(buf, c)
	}
	return append(buf, '\n')
}

// AppendLine appends one JSON text as a line of JSON Lines. The text must
// hold no line feed, as compact JSON does not.
func AppendLine(buf, text []byte) []byte {
	buf = append(buf, text...)
	return append(buf, '\n')
}

// RS is the record separator that starts each JSON text of a JSON text
// sequence (RFC 7464).
const RS = 0x1E

// AppendRecord appends one JSON text as a record of a JSON text
// sequence: the record separator, the text, a line feed.
func AppendRecord(buf, text []byte) []byte {
	buf = append(buf, RS)
	buf = append(buf, text...)
	return append(buf, '\n')
}

// Done is the data of the event that ends a stream of server-sent
// events where an API says so, as OpenAI's does ("data: [DONE]"), and
// Mistral's, Groq's and others' after it: the stream's end marker, not
// one of its items, so no item schema describes it.
const Done = "[DONE]"

// AppendEnd appends the end marker, an event of data Done, to buf: it is
// sent last.
func AppendEnd(buf []byte) []byte { return AppendEvent(buf, Event{Data: Done}) }

// Ends reports whether e is the end marker: its data is Done, whatever
// its type (OpenAI's assistants send it as "event: done").
func (e Event) Ends() bool { return e.Data == Done }
