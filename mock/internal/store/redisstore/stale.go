package redisstore

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"
	"time"

	"github.com/redis/rueidis"
)

// dialError is an error of the redialer's: a dial that failed, or one
// it refused while dials fail. A call that got one did not reach Redis,
// and is not sent again (see stale).
type dialError struct{ err error }

func (e *dialError) Error() string { return e.err.Error() }
func (e *dialError) Unwrap() error { return e.err }

// stale reports whether err is a network error of a connection that was
// up (Redis restarted, a proxy closed it): the connection rueidis had is
// gone, and a call sent again goes out on a fresh one. A dial's error,
// a deadline, a cancellation and Redis's own errors are not.
func stale(err error) bool {
	var de *dialError
	if err == nil || errors.As(err, &de) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	if _, redis := rueidis.IsRedisErr(err); redis {
		return false
	}
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, net.ErrClosed)
}

// fresh lets the next dial through whatever the dials before it did: a
// read that failed on a stale connection is sent again once, on a new
// one, and must not get the error of a dial made while Redis was down.
func (r *redialer) fresh() {
	r.mu.Lock()
	r.until = time.Time{}
	r.mu.Unlock()
}

// staleTries is how many times a read that stale connections fail is
// sent again: rueidis pipelines over 4 connections (PipelineMultiplex
// 2), each of which may have gone stale with the restart, and each
// failure retires the one it went out on, so the last try is on a fresh
// one. TestReadAfterRestart failed 1 run in 6 with one try (the
// second stale connection), and none of 50 with four.
const staleTries = 4

// readOnly are the batch script's operations that only read, and the
// store's scripts that do: sent again on a fresh connection after a
// stale one failed them (see stale). Options.ReadOnly adds Ops's.
var readOnly = map[string]bool{"get": true, "list": true, "dump": true}
