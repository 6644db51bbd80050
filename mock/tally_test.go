package mock

import (
	"sync"
	"testing"
)

// TestTally: adds from many goroutines at once all count, and set
// replaces the count.
func TestTally(t *testing.T) {
	var tl tally
	const goroutines, each = 8, 10000
	var wg sync.WaitGroup
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				tl.add()
			}
		}()
	}
	wg.Wait()
	if got := tl.load(); got != goroutines*each {
		t.Errorf("load = %d after %d adds", got, goroutines*each)
	}
	used := 0
	for i := range tl.cells {
		if tl.cells[i].n.Load() > 0 {
			used++
		}
	}
	if used < 2 {
		t.Errorf("the adds went to %d of %d cells", used, tallyCells)
	}
	tl.set(5)
	tl.add()
	if got := tl.load(); got != 6 {
		t.Errorf("load = %d after set(5) and an add, want 6", got)
	}
}
