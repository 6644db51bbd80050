package media

import (
	"errors"
	"fmt"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// ErrUnwritable is the error Encode returns, wrapped, when a value cannot
// be written in the media type, for the caller to fall back (to Sample,
// or to another media type).
var ErrUnwritable = errors.New("media: value not writable in the media type")

// Encode writes v, a JSON value (map[string]any, []any, string,
// json.Number, bool or nil), as a body of the media type, by its Kind and
// the schema s that describes v (nil when there is none). JSON, XML and
// Text bodies are written from any value; Form bodies need an object and
// Binary bodies a string. Otherwise, and when mediaType is not a media
// type, the error wraps ErrUnwritable.
//
// A range is written as the type ContentType would send for it without an
// Accept header; the caller should pass the type it sends.
func Encode(mediaType string, v any, s *openapi.Schema) ([]byte, error) {
	r, ok := parseRange(mediaType)
	if !ok {
		return nil, fmt.Errorf("%w: %q is not a media type", ErrUnwritable, mediaType)
	}
	if !r.concrete() {
		if r, ok = fallback(&r); !ok {
			r = known(octetStream)
		}
	}
	buf := make([]byte, 0, 256)
	switch kindOf(&r) {
	case JSON:
		return appendJSON(buf, &r, v), nil
	case XML:
		return appendXML(buf, v, s), nil
	case Form:
		return appendForm(buf, &r, v, s)
	case Text:
		return appendText(buf, &r, v, s)
	}
	return appendBinary(buf, &r, v, s)
}

// unwritable returns the error for a value a media type cannot carry.
func unwritable(r *mediaRange, v any) error {
	return fmt.Errorf("%w: %s as %s", ErrUnwritable, describe(v), r.essence())
}

// describe names the JSON type of v, with its article.
func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	}
	return "a number"
}
