package admin

import (
	"testing"

	"github.com/plantmock/plantmock/mock/internal/journal"
)

// TestEventsLost: a reader too slow for the stream's buffer is told how
// many entries it missed.
func TestEventsLost(t *testing.T) {
	var ev Events
	sub := ev.subscribe()
	for i := range eventBuffer + 5 {
		ev.Publish(journal.Entry{Seq: uint64(i + 1)})
	}
	if len(sub.ch) != eventBuffer || sub.lost.Load() != 5 {
		t.Errorf("buffered %d, lost %d", len(sub.ch), sub.lost.Load())
	}
	ev.unsubscribe(sub)
	ev.Publish(journal.Entry{})
	if ev.n.Load() != 0 || len(sub.ch) != eventBuffer {
		t.Errorf("after unsubscribe: %d streams, %d buffered", ev.n.Load(), len(sub.ch))
	}
}
