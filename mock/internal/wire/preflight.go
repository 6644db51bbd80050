package wire

import "net/http"

// AnswerPreflight answers a CORS preflight request of an allowed origin
// (whose Access-Control-Allow-Origin is set): it allows methods and the
// headers asked for, for ten minutes. The admin API's CORS and the
// mock's own answer preflights with it.
func AnswerPreflight(w http.ResponseWriter, r *http.Request, methods string) {
	h := w.Header()
	h.Set("Access-Control-Allow-Methods", methods)
	if hs := r.Header.Get("Access-Control-Request-Headers"); hs != "" {
		h.Set("Access-Control-Allow-Headers", hs)
	}
	h.Set("Access-Control-Max-Age", "600")
	h.Add("Vary", "Access-Control-Request-Method, Access-Control-Request-Headers")
	w.WriteHeader(http.StatusNoContent)
}
