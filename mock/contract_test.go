package mock

import (
	"testing"
	"unsafe"
)

// TestCountLine: a count's counter has a cache line to itself, so that
// adding to it leaves the fields around it (a plan's) alone.
func TestCountLine(t *testing.T) {
	var c count
	at, size := unsafe.Offsetof(c.Int64), unsafe.Sizeof(c)
	if at < cacheLine || size-at < cacheLine {
		t.Errorf("counter at byte %d of %d: want a cache line (%d bytes) before it and the rest of its own after", at, size, cacheLine)
	}
}
