package admin

import "net/http"

// metricsRoutes adds GET /__admin/metrics: the mock's metrics in
// Prometheus's exposition format, as the handler of Options.Metrics
// writes them (mock/internal/metrics). Like every admin call it is behind
// the guard and the admin token; it takes no document parameter, its
// series naming their document themselves.
func (a *api) metricsRoutes(mux *http.ServeMux) {
	if a.metrics != nil {
		mux.Handle("GET /__admin/metrics", a.metrics)
	}
}
