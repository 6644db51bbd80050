package verify

import (
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// curl writes a command line that sends req with body, the values the
// headers of secret hold shown as ***.
func curl(req *http.Request, body []byte, secret http.Header) string {
	var hide []placed
	for k, vs := range secret {
		for _, v := range vs {
			hide = append(hide, placed{"header", k, v})
		}
	}
	return curlHiding(req, body, hide)
}

// curlHiding writes a command line that sends req with body. The
// values of hide (real credentials) are written as *** where the
// request carries them: a header's whole value, a query parameter's or
// a cookie's value; a value that is not one of them (made up, or
// broken by a check) is shown. A body that is not printable text is
// left out, and the line says so.
func curlHiding(req *http.Request, body []byte, hide []placed) string {
	hidden := func(in, name, value string) bool {
		return slices.ContainsFunc(hide, func(p placed) bool {
			return p.in == in && p.value == value && (p.name == name || in == "header" && strings.EqualFold(p.name, name))
		})
	}
	var b strings.Builder
	b.WriteString("curl -sS -i")
	if req.Method != http.MethodGet || len(body) > 0 {
		b.WriteString(" -X " + req.Method)
	}
	u := *req.URL
	u.RawQuery = hidePairs(u.RawQuery, "&", func(name, value string) bool {
		n, err1 := url.QueryUnescape(name)
		v, err2 := url.QueryUnescape(value)
		return err1 == nil && err2 == nil && hidden("query", n, v)
	})
	b.WriteString(" " + quote(u.String()))
	names := make([]string, 0, len(req.Header))
	for k := range req.Header {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		for _, v := range req.Header[k] {
			switch {
			case hidden("header", k, v):
				v = "***"
			case http.CanonicalHeaderKey(k) == "Cookie":
				v = hidePairs(v, "; ", func(name, value string) bool { return hidden("cookie", name, value) })
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

// hidePairs writes the values of a list of name=value pairs separated
// by sep (a query, a Cookie header) as *** where hide says, the rest as
// written.
func hidePairs(list, sep string, hide func(name, value string) bool) string {
	if list == "" {
		return list
	}
	pairs := strings.Split(list, strings.TrimSpace(sep))
	for i, pair := range pairs {
		name, value, ok := strings.Cut(strings.TrimSpace(pair), "=")
		if ok && hide(name, value) {
			pairs[i] = strings.TrimSuffix(pair, value) + "***"
		}
	}
	return strings.Join(pairs, strings.TrimSpace(sep))
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
