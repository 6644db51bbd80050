package openapi

import (
	"bytes"
)

// isForm reports whether a media type is a form or multipart body.
func isForm(mt string) bool {
	return mt == "application/x-www-form-urlencoded" || mt == "multipart/form-data"
}

// IsForm reports whether the media type is a form or multipart body,
// decoded into an object and validated against its schema.
func (m *Media) IsForm() bool { return m.form != nil }

// DecodeForm decodes a form or multipart body into a JSON object;
// contentType is the request's Content-Type (multipart needs its
// boundary).
func (m *Media) DecodeForm(raw []byte, contentType string) (map[string]any, []Violation) {
	var (
		v   map[string]any
		err error
	)
	if m.Type == "multipart/form-data" {
		v, err = m.form.DecodeMultipart(bytes.NewReader(raw), contentType, int64(len(raw))+1)
	} else {
		v, err = m.form.DecodeURLEncoded(raw)
	}
	if err != nil {
		return nil, []Violation{wireViolation(err)}
	}
	return v, nil
}
