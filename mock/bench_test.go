package mock

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/plantmock/plantmock/internal/redistest"
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

// benchCreate serves b.N creates whose bodies body(i) makes through the
// whole handler: route, security, validation, store, answer, journal. The
// requests are built beforehand, as net/http would build them, so that
// only the handler is measured.
func benchCreate(b *testing.B, want int, body func(i int) []byte) {
	benchCreateAs(b, Options{}, want, "Bearer abc", body)
}

// benchCreateAs is benchCreate of a mock made with opts, with the
// Authorization header auth; none when auth is empty.
func benchCreateAs(b *testing.B, opts Options, want int, auth string, body func(i int) []byte) {
	s, reqs := benchRequests(b, opts, auth, body)
	w := &discard{h: http.Header{}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		clear(w.h)
		s.ServeHTTP(w, reqs[i])
		if w.status != want {
			b.Fatalf("status %d, want %d", w.status, want)
		}
	}
}

// benchRequests makes a mock with opts, closed when b ends, and b.N
// create requests whose bodies body(i) makes, with the Authorization
// header auth (none when empty).
func benchRequests(b *testing.B, opts Options, auth string, body func(i int) []byte) (*Server, []*http.Request) {
	s, err := New(opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	u, _ := url.Parse("http://127.0.0.1/plants")
	reqs := make([]*http.Request, b.N)
	for i := range reqs {
		p := body(i)
		reqs[i] = &http.Request{Method: "POST", URL: u, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: http.Header{"Content-Type": {"application/json"}},
			Body:   io.NopCloser(bytes.NewReader(p)), ContentLength: int64(len(p)), Host: "127.0.0.1", RequestURI: "/plants"}
		if auth != "" {
			reqs[i].Header.Set("Authorization", auth)
		}
	}
	return s, reqs
}

// BenchmarkCreateValid is a valid create of a new plant.
func BenchmarkCreateValid(b *testing.B) {
	benchCreate(b, 200, newPlant)
}

// BenchmarkCreateValidParallel is BenchmarkCreateValid from as many
// goroutines at once as -cpu says: creates into one collection, which
// wait for each other on its lock.
func BenchmarkCreateValidParallel(b *testing.B) {
	benchParallel(b, Options{})
}

// benchParallel serves b.N creates of new plants from as many goroutines
// at once as -cpu says, on a mock made with opts.
func benchParallel(b *testing.B, opts Options) {
	s, reqs := benchRequests(b, opts, "Bearer abc", newPlant)
	var next atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		w := &discard{h: http.Header{}}
		for pb.Next() {
			clear(w.h)
			s.ServeHTTP(w, reqs[next.Add(1)-1])
			if w.status != 200 {
				b.Errorf("status %d, want 200", w.status)
				return
			}
		}
	})
}

// BenchmarkCreateValidRedis is BenchmarkCreateValid with the store in
// Redis (a redis-server the benchmark starts): one create at a time, so
// its time is mostly the round trip; its allocations are what a create
// on Redis costs the mock.
func BenchmarkCreateValidRedis(b *testing.B) {
	benchCreateAs(b, Options{Store: StoreOptions{URL: redistest.NewServer(b).URL(0)}}, 200, "Bearer abc", newPlant)
}

// BenchmarkCreateValidRedisParallel is BenchmarkCreateValidRedis from 16
// goroutines a processor at once: the calls of concurrent creates go to
// Redis together, as under load.
func BenchmarkCreateValidRedisParallel(b *testing.B) {
	b.SetParallelism(16)
	benchParallel(b, Options{Store: StoreOptions{URL: redistest.NewServer(b).URL(0)}})
}

// newPlant is the body of the create of plant i.
func newPlant(i int) []byte {
	buf := append([]byte(`{"id":`), strconv.Itoa(i)...)
	return append(buf, `,"name":"Monstera","tag":"aroid"}`...)
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

// BenchmarkCreateNoToken is a valid create without a bearer token.
func BenchmarkCreateNoToken(b *testing.B) {
	body := []byte(`{"id":7,"name":"Monstera","tag":"aroid"}`)
	benchCreateAs(b, Options{}, 401, "", func(int) []byte { return body })
}

// BenchmarkNew is making a mock of the Plant Store with the shipped
// scenarios: most of the binary's start-up after its packages initialize.
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s, err := New(Options{})
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}
