package wire

import "net/http"

// headerLines returns the lines of header field key (canonical) that r
// carries, read where Go's server keeps them: it takes Host out of
// r.Header into r.Host, and Transfer-Encoding into r.TransferEncoding
// (Content-Length, when sent, stays in r.Header). A line in r.Header
// comes first, for requests built in the process (a HAR file's, a
// test's).
func headerLines(r *http.Request, key string) []string {
	if lines := r.Header[key]; len(lines) > 0 {
		return lines
	}
	switch key {
	case "Host":
		if r.Host != "" {
			return []string{r.Host}
		}
	case "Transfer-Encoding":
		return r.TransferEncoding
	}
	return nil
}
