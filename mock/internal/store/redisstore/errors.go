package redisstore

import (
	"fmt"

	"github.com/plantmock/plantmock/mock/internal/store"
)

// ErrUnavailable is wrapped by the errors of calls that Redis did not
// answer: unreachable, too slow for the deadline, or failing. It is
// store.ErrUnavailable.
var ErrUnavailable = store.ErrUnavailable

// unavailable wraps a Redis failure with ErrUnavailable.
func unavailable(op string, err error) error {
	return fmt.Errorf("%w: %s: %w", ErrUnavailable, op, err)
}

// Unavailable wraps a failure of Redis in the operation op with
// ErrUnavailable, as the store's own errors are.
func Unavailable(op string, err error) error { return unavailable(op, err) }
