package media

import (
	"bytes"
	"encoding/json"
	"html"
	"strings"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/stream"
)

// appendText appends v as a text/* body. A string is written as it is,
// numbers and booleans as their JSON text, null as nothing. An object or
// an array is written by the subtype: text/csv as CSV (appendCSV),
// text/html as a small HTML document showing its JSON, others as JSON
// text. text/event-stream writes one event whose data is the text.
func appendText(dst []byte, r *mediaRange, v any, s *openapi.Schema) ([]byte, error) {
	if strings.EqualFold(r.sub, "event-stream") {
		return stream.AppendEvent(dst, stream.Event{Data: string(appendCell(nil, v))}), nil
	}
	if out, ok := appendScalar(dst, v); ok {
		return out, nil
	}
	switch {
	case strings.EqualFold(r.sub, "csv"):
		return appendCSV(dst, v, s)
	case strings.EqualFold(r.sub, "html"):
		return appendHTML(dst, v, s), nil
	}
	return jsonx.Append(dst, v), nil
}

// appendHTML appends an HTML document whose title is the schema's
// component name (else "Response") and whose body shows v as indented
// JSON.
func appendHTML(dst []byte, v any, s *openapi.Schema) []byte {
	title := "Response"
	if s != nil && s.Name != "" {
		title = s.Name
	}
	var pretty bytes.Buffer
	text := jsonx.Marshal(v)
	if json.Indent(&pretty, text, "", "  ") == nil {
		text = pretty.Bytes()
	}
	dst = append(dst, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>"...)
	dst = append(dst, html.EscapeString(title)...)
	dst = append(dst, "</title></head>\n<body><pre>"...)
	dst = append(dst, html.EscapeString(string(text))...)
	return append(dst, "</pre></body></html>\n"...)
}
