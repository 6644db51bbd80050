package media

import "github.com/plantmock/plantmock/internal/jsonx"

// appendJSON appends v as compact JSON. For a stream of values, one a
// line (NDJSON), each item of an array is a line, and any other value the
// only line.
func appendJSON(dst []byte, r *mediaRange, v any) []byte {
	if !lines(r) {
		return jsonx.Append(dst, v)
	}
	items, ok := v.([]any)
	if !ok {
		return append(jsonx.Append(dst, v), '\n')
	}
	for _, it := range items {
		dst = append(jsonx.Append(dst, it), '\n')
	}
	return dst
}
