package pipeline

import (
	"bufio"
	"net"
	"net/http"

	"github.com/plantmock/plantmock/mock/internal/journal"
)

// recorder is the ResponseWriter of one exchange. It passes everything on
// and notes the answer for the journal: its status and body, and whether a
// fault took the connection over. It notes nothing about the request.
type recorder struct {
	http.ResponseWriter
	status   int
	body     []byte // the first maxJournalBody bytes, at least
	written  int    // the bytes of the body, all of them
	hijacked bool
	copies   bool // the body is written from a buffer the writer reuses (the reverse proxy's, a stream's): body copies it
	owned    bool // body is the recorder's own copy, which appends may grow in place
}

// WriteHeader notes the first final status (an interim 1xx is noted
// until one comes).
func (w *recorder) WriteHeader(status int) {
	if w.status == 0 || w.status < 200 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

// Write notes the body.
func (w *recorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.written += len(b)
	switch {
	case w.body == nil && !w.copies:
		w.body = b // the mock never reuses a buffer it has written
	case len(w.body) >= journal.MaxJournalBody:
	case w.owned:
		// Grown in place: a stream's thousand writes copy the body
		// once each, not the whole body each (BenchmarkStream: 36 KB an
		// item of a 1,000-item stream before, as few as of 10 items now).
		w.body = append(w.body, b[:min(len(b), journal.MaxJournalBody-len(w.body))]...)
	default:
		w.body = append(w.body[:len(w.body):len(w.body)], b...)
		w.owned = true
	}
	return w.ResponseWriter.Write(b)
}

// Hijack lets faults take the connection over.
func (w *recorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	hj, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, http.ErrNotSupported
	}
	w.hijacked = true
	return hj.Hijack()
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *recorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }
