package store

import (
	"fmt"
	"runtime"
	"strconv"
	"testing"
)

// plantDoc is a typical stored plant, as a create stores it.
func plantDoc(i int) []byte {
	return []byte(`{"id":` + strconv.Itoa(i) + `,"name":"Monstera","tag":"aroid"}`)
}

// BenchmarkScale creates plants in a store that already holds 0, 100,000
// or 1,000,000, and reports the heap bytes each stored plant costs.
func BenchmarkScale(b *testing.B) {
	for _, held := range []int{0, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("held=%d", held), func(b *testing.B) {
			var s Store
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for i := 0; i < held; i++ {
				s.Create("/plants", strconv.Itoa(i), plantDoc(i))
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			docs := make([][]byte, b.N)
			keys := make([]string, b.N)
			for i := range docs {
				keys[i], docs[i] = strconv.Itoa(held+i), plantDoc(held+i)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.Create("/plants", keys[i], docs[i])
			}
			b.StopTimer()
			if held > 0 {
				b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(held), "heap-B/plant")
			}
			runtime.KeepAlive(&s)
		})
	}
}
