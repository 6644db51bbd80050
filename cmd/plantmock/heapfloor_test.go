package main

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

// TestHeapFloor: the floor raises the heap goal by at least its size, so
// the collector runs less often, and is not kept when the user tunes the
// collector.
func TestHeapFloor(t *testing.T) {
	t.Cleanup(func() { ballast = nil })
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		getenv := func(k string) string {
			if k == env {
				return "100"
			}
			return ""
		}
		if keepHeapFloor(getenv) || ballast != nil {
			t.Fatalf("with %s set: the floor was kept", env)
		}
	}
	before := heapGoal()
	if !keepHeapFloor(func(string) string { return "" }) {
		t.Fatal("without GOGC and GOMEMLIMIT: no floor")
	}
	if len(ballast) != heapFloor {
		t.Fatalf("the floor holds %d bytes, want %d", len(ballast), heapFloor)
	}
	after := heapGoal()
	if after < before+heapFloor {
		t.Errorf("heap goal %d bytes before the floor, %d after: want at least %d more", before, after, heapFloor)
	}
	t.Logf("heap goal %d MiB before the floor, %d MiB after", before>>20, after>>20)
}
