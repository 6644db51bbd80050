package stream

import (
	"mime"
	"strings"
)

// Sequence is how a sequential media type frames the items of a body
// (OpenAPI 3.2's sequential media types): a stream of values, each
// described by the media type's itemSchema, sent and read one at a time.
type Sequence uint8

// The sequential media types. NotSequential is every other type: its
// body is one value.
const (
	NotSequential Sequence = iota
	// Events is text/event-stream: server-sent events, fields a line,
	// an event ended by a blank line (the HTML standard's event stream
	// format).
	Events
	// Lines is JSON Lines: application/jsonl, application/x-ndjson,
	// application/ndjson and application/x-jsonlines; one JSON value a
	// line.
	Lines
	// Records is application/json-seq (RFC 7464): each JSON value after
	// a record separator (0x1E), ended by a line feed.
	Records
	// Parts is multipart/mixed: each part an item (RFC 2046).
	Parts
)

// String returns the sequence's name: "events", "lines", "records",
// "parts", or "none".
func (q Sequence) String() string {
	switch q {
	case Events:
		return "events"
	case Lines:
		return "lines"
	case Records:
		return "records"
	case Parts:
		return "parts"
	}
	return "none"
}

// SequenceOf returns how a media type frames its items, parameters aside
// and case-insensitively; NotSequential for a type whose body is one value
// and for ranges.
func SequenceOf(mediaType string) Sequence {
	mt, _, err := mime.ParseMediaType(mediaType)
	if err != nil {
		return NotSequential
	}
	switch strings.ToLower(mt) {
	case "text/event-stream":
		return Events
	case "application/jsonl", "application/x-ndjson", "application/ndjson", "application/x-jsonlines":
		return Lines
	case "application/json-seq":
		return Records
	case "multipart/mixed":
		return Parts
	}
	return NotSequential
}
