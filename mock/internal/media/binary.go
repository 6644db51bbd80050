package media

import (
	"encoding/base64"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// appendBinary appends a string value as a Binary body. When the schema
// says the body is base64 text (format byte or base64), the value is that
// text: it is written as it is when it is standard base64, else
// base64-encoded. Otherwise the value is the octets themselves (format
// binary, or no format). Other values cannot be written.
func appendBinary(dst []byte, r *mediaRange, v any, s *openapi.Schema) ([]byte, error) {
	text, ok := v.(string)
	if !ok {
		return nil, unwritable(r, v)
	}
	if base64Text(s) {
		if _, err := base64.StdEncoding.DecodeString(text); err != nil {
			return base64.StdEncoding.AppendEncode(dst, []byte(text)), nil
		}
	}
	return append(dst, text...), nil
}

// base64Text reports whether a schema describes a body sent as base64
// text: type string with format byte (OpenAPI 3.0, for string values)
// or base64 (OpenAPI 3.0, for bodies). OpenAPI 3.1's contentEncoding
// is not in the schema model and is not seen.
func base64Text(s *openapi.Schema) bool {
	return s != nil && (s.Format == "byte" || s.Format == "base64") && (len(s.Types) == 0 || s.Is("string"))
}
