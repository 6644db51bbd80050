package pipeline

import (
	"net/http"

	"github.com/plantmock/plantmock/mock/internal/wire"
)

// allowOrigin adds CORS headers for a request from a browser, and answers
// a preflight request itself; it reports whether it did.
func (s *Engine) allowOrigin(w http.ResponseWriter, r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return false
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Allow-Credentials", "true")
	h.Add("Vary", "Origin")
	want := r.Header.Get("Access-Control-Request-Method")
	if r.Method != http.MethodOptions || want == "" {
		h.Set("Access-Control-Expose-Headers", "*")
		return false
	}
	methods := want
	if sv, rest := s.Mounted().Find(r.URL.EscapedPath()); sv != nil {
		if route, _, _ := sv.Find(rest, want); route != nil {
			methods = route.Allow
		}
	}
	wire.AnswerPreflight(w, r, methods)
	return true
}
