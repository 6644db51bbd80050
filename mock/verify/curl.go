package verify

import (
	"net/http"
	"sort"
	"strings"
	"unicode/utf8"
)

// curl writes a command line that sends req with body. The values of
// the headers the options give (real credentials) are written as ***;
// a body that is not printable text is left out, and the line says so.
func curl(req *http.Request, body []byte, secret http.Header) string {
	var b strings.Builder
	b.WriteString("curl -sS -i")
	if req.Method != http.MethodGet || len(body) > 0 {
		b.WriteString(" -X " + req.Method)
	}
	b.WriteString(" " + quote(req.URL.String()))
	names := make([]string, 0, len(req.Header))
	for k := range req.Header {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		for _, v := range req.Header[k] {
			if _, hide := secret[http.CanonicalHeaderKey(k)]; hide {
				v = "***"
			}
			b.WriteString(" -H " + quote(k+": "+v))
		}
	}
	switch {
	case len(body) == 0:
	case printable(body):
		b.WriteString(" --data-binary " + quote(string(body)))
	default:
		b.WriteString(" --data-binary @body # a body of bytes that are not text, not shown")
	}
	return b.String()
}

// printable reports whether b is UTF-8 text without control characters
// but line breaks and tabs.
func printable(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for _, r := range string(b) {
		if r < 0x20 && r != '\n' && r != '\r' && r != '\t' || r == 0x7f {
			return false
		}
	}
	return true
}

// quote quotes s for a POSIX shell.
func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
