package mock

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock/internal/pipeline"
)

// BenchmarkRecordP99 times 32 clients at once reading plants: straight
// from the real service, through the proxy, and through the proxy while
// it records. It reports each exchange's 99th percentile in µs
// (p99-µs), over a real service that answers at once, one that takes
// 2 ms and one that takes 20 ms, as a real one does; compare the figures
// of one run (benchstat).
func BenchmarkRecordP99(b *testing.B) {
	const clients = 32
	for _, service := range []time.Duration{0, 2 * time.Millisecond, 20 * time.Millisecond} {
		up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if service > 0 {
				time.Sleep(service)
			}
			id := r.URL.Path[len("/plants/"):]
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id":`+id+`,"name":"plant `+id+`"}`)
		}))
		b.Cleanup(up.Close)
		for _, mode := range []string{"direct", "proxied", "recording"} {
			b.Run(fmt.Sprintf("service=%s/%s", service, mode), func(b *testing.B) {
				base := up.URL
				if mode != "direct" {
					opts := Options{Spec: []byte(replicaSpec), Proxy: pipeline.ProxyOptions{URL: up.URL}}
					if mode == "recording" {
						opts.Proxy.Record = b.TempDir()
					}
					_, ts := newTestServer(b, opts)
					base = ts.URL
				}
				client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
				defer client.CloseIdleConnections()
				var next atomic.Int64
				took := make([][]time.Duration, clients)
				var failed atomic.Int64
				var wg sync.WaitGroup
				b.ResetTimer()
				for c := range clients {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for {
							i := next.Add(1)
							if i > int64(b.N) {
								return
							}
							start := time.Now()
							resp, err := client.Get(base + "/plants/" + strconv.FormatInt(i%1000, 10))
							if err != nil {
								failed.Add(1)
								continue
							}
							io.Copy(io.Discard, resp.Body)
							resp.Body.Close()
							took[c] = append(took[c], time.Since(start))
							if resp.StatusCode != 200 {
								failed.Add(1)
							}
						}
					}()
				}
				wg.Wait()
				b.StopTimer()
				if n := failed.Load(); n > 0 {
					b.Fatalf("%d of %d requests failed", n, b.N)
				}
				all := slices.Concat(took...)
				slices.Sort(all)
				b.ReportMetric(float64(all[len(all)*99/100].Microseconds()), "p99-µs")
			})
		}
	}
}
