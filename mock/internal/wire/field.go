package wire

import (
	"mime"
	"sort"
	"strings"

	"github.com/plantmock/plantmock/internal/jsonx"
)

// style is a serialization style of the OpenAPI Parameter and Encoding
// objects.
type style uint8

const (
	styleForm style = iota
	styleSimple
	styleLabel
	styleMatrix
	styleSpace
	stylePipe
	styleDeep
)

var styleNames = [...]string{
	styleForm:   "form",
	styleSimple: "simple",
	styleLabel:  "label",
	styleMatrix: "matrix",
	styleSpace:  "spaceDelimited",
	stylePipe:   "pipeDelimited",
	styleDeep:   "deepObject",
}

func parseStyle(name string) (style, bool) {
	for s, n := range styleNames {
		if n == name {
			return style(s), true
		}
	}
	return 0, false
}

// mode is how the text of one value is read when no style applies.
type mode uint8

const (
	modeText mode = iota // text, coerced by the shape
	modeJSON             // JSON text
	modeRaw              // text kept as it is
)

// field is a parameter or a form property, compiled once.
type field struct {
	name string
	path string // of errors: "query.limit", or the property name
	// styled fields are read by style and explode. The others are
	// described by a media type: mode says how one value is read, and
	// whole that one value is the whole parameter (for parameters with
	// content; a form property's values are the items of an array).
	styled  bool
	style   style
	explode bool
	mode    mode
	whole   bool
	shape   *Shape
	kind    kind
	props   []string // declared properties of an object shape, sorted
	allowed string   // the content types a multipart part may have ("": any)
}

func newField(name, path string, s *Shape) field {
	f := field{name: name, path: path, shape: s, kind: kindOf(s)}
	if s != nil && len(s.Properties) > 0 {
		f.props = make([]string, 0, len(s.Properties))
		for p := range s.Properties {
			f.props = append(f.props, p)
		}
		sort.Strings(f.props)
	}
	return f
}

// setStyle sets a style and explode, explode defaulting to true for form
// and false otherwise.
func (f *field) setStyle(st style, explode *bool) {
	f.styled, f.style = true, st
	f.explode = st == styleForm
	if explode != nil {
		f.explode = *explode
	}
}

// interpret reads one text in mode m.
func interpret(path, text string, s *Shape, m mode) (any, *Error) {
	switch m {
	case modeJSON:
		return decodeJSON(path, text)
	case modeRaw:
		return text, nil
	}
	return Coerce(text, s), nil
}

func decodeJSON(path, text string) (any, *Error) {
	if strings.TrimSpace(text) == "" {
		return nil, &Error{Path: path, Reason: "value is empty, expected JSON"}
	}
	v, err := jsonx.Decode([]byte(text))
	if err != nil {
		return nil, &Error{Path: path, Reason: err.Error()}
	}
	return v, nil
}

// isJSON reports whether a media type is JSON: application/json or any
// type with the +json suffix.
func isJSON(mediaType string) bool {
	t := essence(mediaType)
	return strings.EqualFold(t, "application/json") || len(t) > 5 && strings.EqualFold(t[len(t)-5:], "+json")
}

// essence returns the type/subtype of a media type, without parameters
// and surrounding spaces.
func essence(mediaType string) string {
	t, _, _ := strings.Cut(mediaType, ";")
	return strings.TrimSpace(t)
}

// contentMode returns how a value described by a media type is read: JSON
// for JSON types, text coerced by the shape for text/plain, as it is for
// the others.
func contentMode(mediaType string) mode {
	switch {
	case isJSON(mediaType):
		return modeJSON
	case strings.EqualFold(essence(mediaType), "text/plain"):
		return modeText
	}
	return modeRaw
}

// validMediaType reports whether every entry of a comma-separated list of
// media types parses.
func validMediaType(list string) bool {
	for _, e := range splitList(list) {
		if _, _, err := mime.ParseMediaType(e); err != nil {
			return false
		}
	}
	return true
}
