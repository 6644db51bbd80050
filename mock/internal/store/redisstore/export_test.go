package redisstore

import (
	"context"
	"testing"

	"github.com/plantmock/plantmock/internal/redistest"
)

// NewTestStore returns a Store on srv whose keys start with prefix and
// whose resources are bounded by max, for the tests in and out of the
// package; the test's cleanup closes it.
func NewTestStore(tb testing.TB, srv *redistest.Server, prefix string, max int) *Store {
	tb.Helper()
	s, err := New(context.Background(), Options{URL: srv.URL(0), Prefix: prefix, Max: max})
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}
