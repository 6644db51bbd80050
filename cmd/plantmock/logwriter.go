package main

import (
	"io"
	"sync"
	"time"
)

// maxPending bounds the log bytes a logWriter holds before writers wait
// for them to be written.
const maxPending = 1 << 20

// gather is how long a logWriter lets lines gather before it writes them.
const gather = time.Millisecond

// logWriter passes what the mock writes to stderr on from one goroutine,
// many lines per write, so that a request does not wait for the terminal
// or pipe its log line goes to: the goroutine wakes for the first line
// after a quiet spell and writes, a millisecond later, every line that
// came meanwhile. Lines keep their order; a line is never
// dropped: past maxPending bytes not yet written, Write waits. Close
// writes what is left.
type logWriter struct {
	out  io.Writer
	wake chan struct{} // a Write added bytes
	quit chan struct{} // closed by Close
	done chan struct{} // the writing goroutine has ended

	mu      sync.Mutex
	drained sync.Cond // the goroutine took buf, or ended
	buf     []byte    // bytes not yet handed to out
	closed  bool      // Close was called: Write writes to out itself
	onWait  func()    // called, with mu held, when a Write waits; for tests
}

func newLogWriter(out io.Writer) *logWriter {
	w := &logWriter{out: out, wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	w.drained.L = &w.mu
	go w.run()
	return w
}

// Write implements io.Writer. Its error is never that of out: out's
// errors are not the writer's to report, as with an unbuffered stderr
// whose write fails.
func (w *logWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	for len(w.buf) >= maxPending && !w.closed {
		if w.onWait != nil {
			w.onWait()
		}
		w.drained.Wait()
	}
	if w.closed {
		w.mu.Unlock()
		<-w.done // in order: what Write gathered has been written
		return w.out.Write(p)
	}
	first := len(w.buf) == 0
	w.buf = append(w.buf, p...)
	w.mu.Unlock()
	if first { // the writing goroutine may be idle: wake it
		select {
		case w.wake <- struct{}{}:
		default: // a wake-up is pending already
		}
	}
	return len(p), nil
}

// run writes what Write gathered until Close.
func (w *logWriter) run() {
	defer close(w.done)
	var spare []byte
	gathering := time.NewTimer(gather)
	for {
		select {
		case <-w.wake:
		case <-w.quit:
		}
		// A moment's lines go in one write: under load, hundreds.
		gathering.Reset(gather)
		select {
		case <-gathering.C:
		case <-w.quit:
		}
		w.mu.Lock()
		out := w.buf
		w.buf = spare[:0]
		closed := w.closed
		w.drained.Broadcast()
		w.mu.Unlock()
		if len(out) > 0 {
			w.out.Write(out)
		}
		spare = out
		if closed {
			return
		}
	}
}

// Close writes what is left and makes later writes go straight to out.
func (w *logWriter) Close() {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	w.closed = true
	w.drained.Broadcast()
	w.mu.Unlock()
	close(w.quit)
	<-w.done
}
