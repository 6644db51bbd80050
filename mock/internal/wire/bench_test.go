package wire

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkQuery decodes a typical query: ?limit=10&tags=a,b.
func BenchmarkQuery(b *testing.B) {
	ps, err := NewParams([]Param{
		{Name: "limit", In: "query", Shape: integer},
		{Name: "tags", In: "query", Explode: no, Shape: strs},
		{Name: "offset", In: "query", Shape: integer},
	})
	if err != nil {
		b.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodGet, "/plants?limit=10&tags=a,b", nil)
	dst := make([]Value, 0, 3)
	b.ReportAllocs()
	for b.Loop() {
		dst = ps.Decode(dst, r, nil)
	}
	if dst[0].Err != nil || dst[1].Err != nil {
		b.Fatal(dst)
	}
}

// BenchmarkPath decodes an integer path parameter, /plants/{id}.
func BenchmarkPath(b *testing.B) {
	ps, err := NewParams([]Param{{Name: "id", In: "path", Shape: integer}})
	if err != nil {
		b.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodGet, "/plants/12345", nil)
	path := func(string) (string, bool) { return "12345", true }
	dst := make([]Value, 0, 1)
	b.ReportAllocs()
	for b.Loop() {
		dst = ps.Decode(dst, r, path)
	}
	if dst[0].Err != nil {
		b.Fatal(dst)
	}
}

// BenchmarkPathString decodes a string path parameter that needs no
// decoding, the most common case.
func BenchmarkPathString(b *testing.B) {
	ps, err := NewParams([]Param{{Name: "name", In: "path", Shape: str}})
	if err != nil {
		b.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodGet, "/plants/monstera", nil)
	path := func(string) (string, bool) { return "monstera", true }
	dst := make([]Value, 0, 1)
	b.ReportAllocs()
	for b.Loop() {
		dst = ps.Decode(dst, r, path)
	}
}

func BenchmarkURLEncoded(b *testing.B) {
	f := newTestForm(b)
	body := []byte("id=f81d4fae&count=3&tags=x&tags=y&address=%7B%22zip%22%3A%2212%22%7D")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.DecodeURLEncoded(body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMultipart(b *testing.B) {
	f := newTestForm(b)
	body, ct := multipartBody(b, part{name: "id", body: "a1"}, part{name: "count", body: "3"},
		part{name: "avatar", filename: "a.png", contentType: "image/png", body: string(bytes.Repeat([]byte{0x89}, 4096))})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.DecodeMultipart(bytes.NewReader(body), ct, 1<<20); err != nil {
			b.Fatal(err)
		}
	}
}
