package mock

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"testing"
)

// discard is a minimal ResponseWriter, so that benchmarks measure the
// handler and not a recorder.
type discard struct {
	h      http.Header
	status int
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(b []byte) (int, error) { return len(b), nil }
func (d *discard) WriteHeader(s int)           { d.status = s }

// benchCreate serves b.N creates whose bodies body(i) makes, through the
// whole handler, building each request as net/http would.
func benchCreate(b *testing.B, want int, body func(i int) []byte) {
	s, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	u, _ := url.Parse("http://127.0.0.1/plants")
	w := &discard{h: http.Header{}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := body(i)
		r := &http.Request{Method: "POST", URL: u, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: http.Header{"Authorization": {"Bearer abc"}, "Content-Type": {"application/json"}},
			Body:   io.NopCloser(bytes.NewReader(p)), ContentLength: int64(len(p)), Host: "127.0.0.1", RequestURI: "/plants"}
		clear(w.h)
		s.ServeHTTP(w, r)
		if w.status != want {
			b.Fatalf("status %d, want %d", w.status, want)
		}
	}
}

// BenchmarkCreateValid is a valid create of a new plant.
func BenchmarkCreateValid(b *testing.B) {
	var buf []byte
	benchCreate(b, 200, func(i int) []byte {
		buf = append(buf[:0], `{"id":`...)
		buf = strconv.AppendInt(buf, int64(i), 10)
		return append(buf, `,"name":"Monstera","tag":"aroid"}`...)
	})
}

// BenchmarkCreateInvalid is a create whose id has the wrong type.
func BenchmarkCreateInvalid(b *testing.B) {
	body := []byte(`{"id":"7","name":"Monstera","tag":"aroid"}`)
	benchCreate(b, 400, func(int) []byte { return body })
}

// BenchmarkCreateMalformed is a create whose body is not JSON.
func BenchmarkCreateMalformed(b *testing.B) {
	body := []byte(`{"id":7,"name":`)
	benchCreate(b, 400, func(int) []byte { return body })
}
