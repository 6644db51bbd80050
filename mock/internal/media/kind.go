package media

import (
	"strconv"
	"strings"
)

// Kind is a family of media types whose bodies are written the same way.
type Kind uint8

// The kinds of media types. Every media type has one; those the package
// does not know are Binary.
const (
	// Binary bodies are octets that a JSON value does not describe
	// (images, PDF, archives, application/octet-stream, and every type
	// the package does not know): Sample gives one, and Encode writes a
	// string value as the octets or the base64 text it stands for.
	Binary Kind = iota
	// JSON bodies are the value as JSON: application/json, text/json,
	// types with the +json suffix, NDJSON (application/x-ndjson,
	// application/ndjson, application/jsonl, application/x-jsonlines),
	// and YAML types (application/yaml, application/x-yaml, text/yaml,
	// text/x-yaml, +yaml), since YAML 1.2 reads JSON.
	JSON
	// XML bodies follow the schemas' xml objects: application/xml,
	// text/xml, and types with the +xml suffix but image/svg+xml, which
	// is Binary.
	XML
	// Form bodies are application/x-www-form-urlencoded.
	Form
	// Text bodies are the other text/* types: text/plain, text/html,
	// text/csv, text/event-stream, ...
	Text
)

// String returns the kind's name: "binary", "json", "xml", "form" or
// "text".
func (k Kind) String() string {
	switch k {
	case Binary:
		return "binary"
	case JSON:
		return "json"
	case XML:
		return "xml"
	case Form:
		return "form"
	case Text:
		return "text"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// KindOf returns the kind of a media type, parameters aside and
// case-insensitively. A range is the kind of the type ContentType sends
// for it when the request asks for nothing narrower (*/* and
// application/* are JSON, text/* is Text, image/* is Binary). Text that is
// not a media type is Binary.
func KindOf(mediaType string) Kind {
	r, ok := parseRange(mediaType)
	if !ok {
		return Binary
	}
	return kindOf(&r)
}

// Writable reports whether Encode writes a body of the media type from
// any JSON value: the kind is not Binary. For Binary types, Sample gives
// a body.
func Writable(mediaType string) bool { return KindOf(mediaType) != Binary }

func kindOf(r *mediaRange) Kind {
	if !r.concrete() {
		c, ok := fallback(r)
		if !ok {
			return Binary
		}
		r = &c
	}
	typ, sub := r.typ, r.sub
	app, text := strings.EqualFold(typ, "application"), strings.EqualFold(typ, "text")
	switch {
	case app && isOne(sub, "json", "x-ndjson", "ndjson", "jsonl", "x-jsonlines", "yaml", "x-yaml"),
		text && isOne(sub, "json", "yaml", "x-yaml"),
		hasSuffixFold(sub, "+json"), hasSuffixFold(sub, "+yaml"):
		return JSON
	case strings.EqualFold(typ, "image") && strings.EqualFold(sub, "svg+xml"):
		return Binary
	case (app || text) && strings.EqualFold(sub, "xml"), hasSuffixFold(sub, "+xml"):
		return XML
	case app && strings.EqualFold(sub, "x-www-form-urlencoded"):
		return Form
	case text:
		return Text
	}
	return Binary
}

// lines reports whether a JSON type is a stream of values, one a line.
func lines(r *mediaRange) bool {
	return strings.EqualFold(r.typ, "application") && isOne(r.sub, "x-ndjson", "ndjson", "jsonl", "x-jsonlines")
}

func isOne(s string, list ...string) bool {
	for _, x := range list {
		if strings.EqualFold(s, x) {
			return true
		}
	}
	return false
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) > len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}
