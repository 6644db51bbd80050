package wire

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/textproto"
	"reflect"
	"strings"
	"testing"
)

// part is one part of a test body: a field, or a file when filename is
// set. An empty contentType leaves the header out.
type part struct {
	name, filename, contentType, body string
}

// multipartBody builds a multipart/form-data body and its Content-Type.
func multipartBody(tb testing.TB, parts ...part) ([]byte, string) {
	tb.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		disposition := fmt.Sprintf("form-data; name=%q", p.name)
		if p.filename != "" {
			disposition += fmt.Sprintf("; filename=%q", p.filename)
		}
		if p.name == "" {
			disposition = "form-data"
		}
		h.Set("Content-Disposition", disposition)
		if p.contentType != "" {
			h.Set("Content-Type", p.contentType)
		}
		pw, err := w.CreatePart(h)
		if err != nil {
			tb.Fatal(err)
		}
		pw.Write([]byte(p.body))
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes(), w.FormDataContentType()
}

func TestDecodeMultipart(t *testing.T) {
	f, err := NewForm(&Shape{Types: Object, Properties: map[string]*Shape{
		"id":      str,
		"count":   integer,
		"address": {Types: Object},
		"tags":    strs,
		"avatar":  str,
		"photos":  strs,
		"doc":     str,
		"meta":    {},
		"points":  {Types: Array, Items: &Shape{Types: Object}},
	}}, map[string]Encoding{
		"avatar": {ContentType: "image/png, image/jpeg"},
		"photos": {ContentType: "image/*"},
		"meta":   {ContentType: "application/json"},
	})
	if err != nil {
		t.Fatal(err)
	}
	png := "\x89PNG\r\n\x1a\n\x00\xff"
	tests := []multipartCase{
		{
			name: "accepted",
			parts: []part{
				{name: "id", body: "a1"},
				{name: "count", contentType: "text/plain; charset=utf-8", body: "3"},
				{name: "address", body: `{"zip":"1"}`},
				{name: "tags", body: "x"},
				{name: "tags", body: "y"},
				{name: "avatar", filename: "me.png", contentType: "image/png", body: png},
				{name: "photos", filename: "a.jpg", contentType: "image/jpeg", body: "j"},
				{name: "doc", filename: "d.json", contentType: "application/json", body: `{"not":"parsed"}`},
				{name: "meta", body: `[1,{"a":null}]`},
				{name: "points", contentType: "application/json", body: `{"x":1}`},
				{name: "points", body: `{"x":2}`},
				{name: "undeclared", body: "u"},
			},
			want: map[string]any{
				"id": "a1", "count": num("3"), "address": map[string]any{"zip": "1"}, "tags": []any{"x", "y"},
				"avatar": png, "photos": []any{"j"}, "doc": `{"not":"parsed"}`,
				"meta": []any{num("1"), map[string]any{"a": nil}}, "points": []any{map[string]any{"x": num("1")}, map[string]any{"x": num("2")}},
				"undeclared": "u",
			},
		},
		{name: "no parts", want: map[string]any{}},
		{name: "a file is its bytes", parts: []part{{name: "count", filename: "n.txt", contentType: "text/plain", body: "3"}}, want: map[string]any{"count": "3"}},
		{name: "a JSON file of a property that is not a string", parts: []part{{name: "address", filename: "a.json", contentType: "application/json", body: `{"a":1}`}}, want: map[string]any{"address": map[string]any{"a": num("1")}}},
		{name: "an octet-stream field is its text", parts: []part{{name: "count", contentType: "application/octet-stream", body: "3"}}, want: map[string]any{"count": "3"}},
		{name: "wrong part content type", parts: []part{{name: "avatar", filename: "a.gif", contentType: "image/gif", body: "GIF89a"}}, wantErr: `avatar: part content type "image/gif" is not "image/png, image/jpeg"`},
		{name: "wrong part content type for a wildcard", parts: []part{{name: "photos", filename: "a.txt", contentType: "text/plain", body: "t"}}, wantErr: `photos: part content type "text/plain" is not "image/*"`},
		{name: "repeated scalar", parts: []part{{name: "id", body: "a"}, {name: "id", body: "b"}}, wantErr: "id: appears 2 times but takes one value"},
		{name: "malformed JSON part", parts: []part{{name: "address", body: `{"zip":}`}}, wantErr: "address: invalid JSON at offset 7: invalid character '}' looking for beginning of value"},
		{name: "text not UTF-8", parts: []part{{name: "id", body: "\xff"}}, wantErr: "id: value is not valid UTF-8"},
		{name: "part without a name", parts: []part{{name: "id", body: "a"}, {body: "x"}}, wantErr: "body: part 2 has no form-data name"},
	}
	decodeCases(t, f, tests)
}

func TestDecodeMultipartRefusesBody(t *testing.T) {
	f, err := NewForm(&Shape{Types: Object}, nil)
	if err != nil {
		t.Fatal(err)
	}
	body, ct := multipartBody(t, part{name: "a", body: strings.Repeat("x", 100)})
	size := int64(len(body))
	tests := []struct {
		name        string
		body        string
		contentType string
		limit       int64
		wantErr     string
	}{
		{"no boundary", string(body), "multipart/form-data", size, "body: content type multipart/form-data has no boundary parameter"},
		{"malformed content type", string(body), "multipart/form-data; boundary", size, `body: malformed content type "multipart/form-data; boundary": mime: invalid media parameter`},
		{"not multipart", string(body), "application/json", size, "body: content type application/json is not multipart"},
		{"truncated", string(body[:len(body)-10]), ct, size, "body: malformed multipart body: unexpected EOF"},
		{"empty", "", ct, size, "body: malformed multipart body: NextPart: EOF"},
		{"not multipart at all", "hello", ct, size, "body: malformed multipart body: NextPart: EOF"},
		{"one byte over the limit", string(body), ct, size - 1, fmt.Sprintf("body: multipart body is larger than the limit of %d bytes", size-1)},
		{"far over the limit", string(body), ct, 10, "body: multipart body is larger than the limit of 10 bytes"},
		{"no limit", string(body), ct, 0, "body: multipart body is larger than the limit of 0 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.DecodeMultipart(strings.NewReader(tt.body), tt.contentType, tt.limit)
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("error = %v, want %q", err, tt.wantErr)
			}
		})
	}
	got, err := f.DecodeMultipart(bytes.NewReader(body), ct, size)
	if err != nil || got["a"] != strings.Repeat("x", 100) {
		t.Errorf("body of exactly the limit: %v, %v", got, err)
	}
}

// TestDecodeMultipartStyles: the text parts of a property whose encoding
// gives a style are read as that style's pairs, as OpenAPI 3.1's
// Encoding Object says ("style ... SHALL be ignored if the request body
// media type is not application/x-www-form-urlencoded or
// multipart/form-data"), and as Stripe's SDKs send a file's
// file_link_data; files and JSON parts of those names are still read by
// content type.
func TestDecodeMultipartStyles(t *testing.T) {
	deep := true
	f, err := NewForm(&Shape{Types: Object, Properties: map[string]*Shape{
		"file": str,
		"link": {Types: Object, Properties: map[string]*Shape{
			"create":   {Types: Boolean},
			"metadata": {Types: Object, Additional: str},
		}},
		"expand": strs,
	}}, map[string]Encoding{
		"link":   {Style: "deepObject", Explode: &deep},
		"expand": {Style: "deepObject", Explode: &deep},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []multipartCase{
		{
			name: "deepObject parts beside a file",
			parts: []part{
				{name: "file", filename: "a.pdf", contentType: "application/pdf", body: "%PDF"},
				{name: "link[create]", body: "true"},
				{name: "link[metadata][a b]", contentType: "text/plain", body: "x&y=%20+"},
				{name: "expand[0]", body: "links"},
				{name: "expand[1]", body: "owner"},
			},
			want: map[string]any{
				"file":   "%PDF",
				"link":   map[string]any{"create": true, "metadata": map[string]any{"a b": "x&y=%20+"}},
				"expand": []any{"links", "owner"},
			},
		},
		{name: "a wrong type is left to the schema", parts: []part{{name: "link[create]", body: "maybe"}}, want: map[string]any{"link": map[string]any{"create": "maybe"}}},
		{name: "a repeated scalar names the field", parts: []part{{name: "link[create]", body: "true"}, {name: "link[create]", body: "false"}}, wantErr: `link: property "link[create]" appears 2 times but takes one value`},
		{name: "text not UTF-8", parts: []part{{name: "link[create]", body: "\xff"}}, wantErr: "link[create]: value is not valid UTF-8"},
	}
	decodeCases(t, f, tests)
}

// multipartCase is a body of parts and what decoding it gives: the
// object, or the error's text.
type multipartCase struct {
	name    string
	parts   []part
	want    map[string]any
	wantErr string
}

// decodeCases decodes each case's body with f and checks the result.
func decodeCases(t *testing.T, f *Form, tests []multipartCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, ct := multipartBody(t, tt.parts...)
			got, err := f.DecodeMultipart(bytes.NewReader(body), ct, 1<<20)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %#v\nwant %#v", got, tt.want)
			}
		})
	}
}
