package redisstore

import (
	"errors"
	"fmt"
)

// ErrUnavailable is wrapped by the errors of calls that Redis did not
// answer: unreachable, too slow for the deadline, or failing.
var ErrUnavailable = errors.New("redisstore: redis is unavailable")

// unavailable wraps a Redis failure with ErrUnavailable.
func unavailable(op string, err error) error {
	return fmt.Errorf("%w: %s: %w", ErrUnavailable, op, err)
}
