package media

import (
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

func TestEncodeBinary(t *testing.T) {
	format := func(f string) *openapi.Schema { s := typed("string"); s.Format = f; return s }
	tests := []struct {
		name, mt string
		schema   *openapi.Schema
		value    any
		want     string
	}{
		{"octets of a string", "application/octet-stream", format("binary"), "\x00raw\xff", "\x00raw\xff"},
		{"no schema", "image/png", nil, "abc", "abc"},
		{"base64 kept", "image/png", format("byte"), "aGVsbG8=", "aGVsbG8="},
		{"base64 format kept", "application/pdf", format("base64"), "aGk=", "aGk="},
		{"not base64 encoded", "application/octet-stream", format("byte"), "hello", "aGVsbG8="},
		{"unpadded base64 encoded", "application/octet-stream", format("byte"), "aGk", "YUdr"},
		{"base64 of nothing", "application/octet-stream", format("byte"), "", ""},
		{"format of another type", "application/octet-stream", &openapi.Schema{Types: []string{"integer"}, Format: "byte"}, "x", "x"},
		{"bytes", "application/octet-stream", nil, []byte{1, 2}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Encode(tt.mt, tt.value, tt.schema)
			if _, isBytes := tt.value.([]byte); isBytes {
				if err == nil {
					t.Fatalf("Encode of []byte = %q, want an error: values are JSON values", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
