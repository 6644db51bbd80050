package heapfloor

import (
	"runtime"
	"runtime/metrics"
	"testing"
)

// heapGoal returns the collector's heap goal after a collection.
func heapGoal() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestFloor: the floor raises the heap goal by at least its size, so the
// collector runs less often, and is not kept when the user tunes the
// collector. (The test binary laid a floor of its own when it started,
// unless GOGC or GOMEMLIMIT is set; the test drops it first.)
func TestFloor(t *testing.T) {
	t.Cleanup(func() { ballast = nil })
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		ballast = nil
		getenv := func(k string) (string, bool) {
			if k == env {
				return "100", true
			}
			return "", false
		}
		if lay(getenv) || ballast != nil {
			t.Fatalf("with %s set: the floor was kept", env)
		}
	}
	before := heapGoal()
	if !lay(func(string) (string, bool) { return "", false }) {
		t.Fatal("without GOGC and GOMEMLIMIT: no floor")
	}
	if len(ballast) != Size {
		t.Fatalf("the floor holds %d bytes, want %d", len(ballast), Size)
	}
	after := heapGoal()
	if after < before+Size {
		t.Errorf("heap goal %d bytes before the floor, %d after: want at least %d more", before, after, Size)
	}
	t.Logf("heap goal %d MiB before the floor, %d MiB after", before>>20, after>>20)
}
