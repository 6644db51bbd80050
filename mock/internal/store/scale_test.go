package store

import (
	"context"
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
// or 1,000,000, and reports the heap bytes each of the plants held costs:
// in all (heap-B/plant) and beyond its JSON document's bytes
// (heap-B/plant-beyond-json).
func BenchmarkScale(b *testing.B) {
	for _, held := range []int{0, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("held=%d", held), func(b *testing.B) {
			s := NewMemory(held + b.N + 1)
			ctx := context.Background()
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			jsonBytes := 0
			for i := 0; i < held; i++ {
				doc := plantDoc(i)
				jsonBytes += len(doc)
				s.Create(ctx, "", "/plants", strconv.Itoa(i), func(string) ([]byte, error) { return doc, nil })
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
				doc := docs[i]
				s.Create(ctx, "", "/plants", keys[i], func(string) ([]byte, error) { return doc, nil })
			}
			b.StopTimer()
			if held > 0 {
				heap := float64(after.HeapAlloc - before.HeapAlloc)
				b.ReportMetric(heap/float64(held), "heap-B/plant")
				b.ReportMetric((heap-float64(jsonBytes))/float64(held), "heap-B/plant-beyond-json")
			}
			runtime.KeepAlive(s)
		})
	}
}
