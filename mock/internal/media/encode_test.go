package media

import (
	"errors"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

func TestEncode(t *testing.T) {
	pet := object("Pet", prop("id", typed("integer")), prop("name", typed("string")))
	tests := []struct {
		name, mt string
		value    string
		schema   *openapi.Schema
		want     string
	}{
		{"JSON", "application/json", `{"name":"Rex","id":1}`, pet, `{"id":1,"name":"Rex"}`},
		{"JSON with parameters", "application/json; charset=utf-8", `[1,"a"]`, nil, `[1,"a"]`},
		{"problem JSON", "application/problem+json", `{"title":"x"}`, nil, `{"title":"x"}`},
		{"any is JSON", "*/*", `{"a":1}`, nil, `{"a":1}`},
		{"YAML as JSON", "application/yaml", `{"a":"b: c"}`, nil, `{"a":"b: c"}`},
		{"NDJSON array", "application/x-ndjson", `[{"a":1},2,null]`, nil, "{\"a\":1}\n2\nnull\n"},
		{"NDJSON value", "application/x-ndjson", `{"a":1}`, nil, "{\"a\":1}\n"},
		{"NDJSON empty", "application/jsonl", `[]`, nil, ""},
		{"XML", "text/xml", `{"id":1}`, pet, xmlDecl + "<Pet><id>1</id></Pet>\n"},
		{"XML range", "application/*+xml", `{"id":1}`, pet, xmlDecl + "<Pet><id>1</id></Pet>\n"},
		{"form", "application/x-www-form-urlencoded", `{"name":"Rex","id":1}`, pet, "id=1&name=Rex"},
		{"text", "text/plain", `"hello"`, nil, "hello"},
		{"text range", "text/*", `12`, nil, "12"},
		{"binary string", "application/octet-stream", `"raw"`, nil, "raw"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Encode(tt.mt, value(t, tt.value), tt.schema)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("Encode(%s) = %q, want %q", tt.mt, got, tt.want)
			}
		})
	}
}

func TestEncodeUnwritable(t *testing.T) {
	tests := []struct {
		name, mt, value, err string
	}{
		{"array as form", "application/x-www-form-urlencoded", `[1]`, "media: value not writable in the media type: an array as application/x-www-form-urlencoded"},
		{"string as form", "application/x-www-form-urlencoded", `"a=b"`, "media: value not writable in the media type: a string as application/x-www-form-urlencoded"},
		{"number as image", "image/png", `1`, "media: value not writable in the media type: a number as image/png"},
		{"object as PDF", "Application/PDF", `{}`, "media: value not writable in the media type: an object as Application/PDF"},
		{"null as octets", "application/octet-stream", `null`, "media: value not writable in the media type: null as application/octet-stream"},
		{"boolean as octets", "application/octet-stream", `true`, "media: value not writable in the media type: a boolean as application/octet-stream"},
		{"array as video range", "video/*", `[]`, "media: value not writable in the media type: an array as video/mp4"},
		{"not a media type", "json", `{}`, `media: value not writable in the media type: "json" is not a media type`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Encode(tt.mt, value(t, tt.value), nil)
			if !errors.Is(err, ErrUnwritable) || err.Error() != tt.err {
				t.Fatalf("Encode(%s) = %q, %v; want the error %q", tt.mt, got, err, tt.err)
			}
			if got != nil {
				t.Errorf("Encode returned a body with its error: %q", got)
			}
		})
	}
}
