package pipeline

import "net/http"

// headerValue is h.Get(key) for a key already in canonical form (the
// mock's own constants), without canonicalizing it again on every request.
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}
