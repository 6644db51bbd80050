package mock

import (
	"net/http"
)

// allowOrigin adds CORS headers for a request from a browser, and answers
// a preflight request itself; it reports whether it did.
func (s *Server) allowOrigin(w http.ResponseWriter, r *http.Request) bool {
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
	if route, _, _ := s.served().find(r.URL.EscapedPath(), want); route != nil {
		methods = route.Allow
	}
	answerPreflight(w, r, methods)
	return true
}

// answerPreflight answers a CORS preflight request of an allowed origin
// (whose Access-Control-Allow-Origin is set): it allows methods and the
// headers asked for, for ten minutes.
func answerPreflight(w http.ResponseWriter, r *http.Request, methods string) {
	h := w.Header()
	h.Set("Access-Control-Allow-Methods", methods)
	if hs := r.Header.Get("Access-Control-Request-Headers"); hs != "" {
		h.Set("Access-Control-Allow-Headers", hs)
	}
	h.Set("Access-Control-Max-Age", "600")
	h.Add("Vary", "Access-Control-Request-Method, Access-Control-Request-Headers")
	w.WriteHeader(http.StatusNoContent)
}
