package media

import (
	"strings"

	"github.com/plantmock/plantmock/mock/internal/wire"
)

// mediaRange is a media type or media range, read in place: its strings
// are slices of the text it was read from, so reading one allocates
// nothing.
type mediaRange struct {
	typ, sub string // as written; "*" for a wildcard, sub may be "*+json"
	full     string // the range without its weight: "text/html;level=1"
	nparams  int    // parameters before the weight
	q        int    // weight in thousandths, 0 to 1000; 1000 when absent
}

// essence returns type/subtype as written, without parameters.
func (r *mediaRange) essence() string { return r.full[:len(r.typ)+1+len(r.sub)] }

// concrete reports whether r names one media type rather than a range.
func (r *mediaRange) concrete() bool { return r.typ != "*" && r.sub[0] != '*' }

// spec orders ranges from the least specific (*/*) to the most specific
// (a type with parameters), as RFC 9110 section 12.5.1 ranks them.
func (r *mediaRange) spec() int {
	switch {
	case r.typ == "*":
		return 0
	case r.sub == "*":
		return 1
	case r.sub[0] == '*':
		return 2
	}
	return 3 + r.nparams
}

// parseRange reads one media range with its parameters and weight, as the
// elements of an Accept header are written:
//
//	type "/" subtype *( OWS ";" OWS name "=" ( token / quoted-string ) )
//
// The weight is the parameter q (0 to 1 with up to three decimals);
// parameters after it are extensions and are ignored. Spaces around '='
// and empty parameters (";;", a trailing ';') are tolerated. A wildcard
// type needs a wildcard subtype; a subtype may be "*" or "*+suffix". It
// reports false for anything else.
// Bare reports whether a declared media type is one token without a
// subtype: App Store Connect's finance reports declare gzip. It is no
// media type, but it is what the document declares and what a client
// that checks the answer against it expects: ContentType sends it as it
// is, and Sample reads it as application/TOKEN (a gzip archive for gzip).
func Bare(s string) bool { return s != "" && tokenEnd(s, 0) == len(s) }

func parseRange(s string) (mediaRange, bool) {
	r, end, ok := parseElement(s, 0)
	return r, ok && end == len(s)
}

// parseElement reads the media range that starts at s[i:], an element of
// a list, as parseRange does. end is the index of the comma that ends the
// element, or len(s); when ok is false, it is where reading stopped.
func parseElement(s string, i int) (r mediaRange, end int, ok bool) {
	i = skipOWS(s, i)
	t := tokenEnd(s, i)
	if t == i || t == len(s) || s[t] != '/' {
		return r, t, false
	}
	j := tokenEnd(s, t+1)
	if j == t+1 {
		return r, j, false
	}
	r.typ, r.sub, r.full, r.q = s[i:t], s[t+1:j], s[i:j], 1000
	if strings.IndexByte(r.full, '*') >= 0 && !wildcardOK(r.typ, r.sub) {
		return r, j, false
	}
	for k := j; ; {
		name, val, next, ok := nextParam(s, k)
		switch {
		case !ok:
			return r, next, false
		case name == "" && (next == len(s) || s[next] == ','):
			return r, next, true
		case name == "":
			k = next
			continue
		case len(name) == 1 && (name[0] == 'q' || name[0] == 'Q'):
			r.q, ok = parseWeight(val)
			return r, elementEnd(s, next), ok // extensions follow the weight
		}
		r.nparams++
		r.full = s[i:next]
		k = next
	}
}

// wildcardOK reports whether '*' appears only where a range may have it.
func wildcardOK(typ, sub string) bool {
	if typ == "*" {
		return sub == "*"
	}
	if strings.IndexByte(typ, '*') >= 0 {
		return false
	}
	if sub[0] == '*' {
		return sub == "*" || len(sub) > 2 && sub[1] == '+' && strings.IndexByte(sub[2:], '*') < 0
	}
	return strings.IndexByte(sub, '*') < 0
}

// nextParam reads the parameter that starts at s[k:] with its ';'. At
// the end of the element (the end of s or a comma), it returns next at
// that end and no name; for an empty parameter, no name and next after
// it. ok is false, next where reading stopped, when the text is not a
// parameter.
func nextParam(s string, k int) (name, val string, next int, ok bool) {
	k = skipOWS(s, k)
	if k == len(s) || s[k] == ',' {
		return "", "", k, true
	}
	if s[k] != ';' {
		return "", "", k, false
	}
	k = skipOWS(s, k+1)
	if k == len(s) || s[k] == ';' || s[k] == ',' {
		return "", "", k, true
	}
	n := tokenEnd(s, k)
	if n == k {
		return "", "", k, false
	}
	name = s[k:n]
	k = skipOWS(s, n)
	if k == len(s) || s[k] != '=' {
		return "", "", k, false
	}
	k = skipOWS(s, k+1)
	e := k
	if k < len(s) && s[k] == '"' {
		e = quotedEnd(s, k)
	} else {
		e = tokenEnd(s, k)
	}
	if e <= k {
		return "", "", k, false
	}
	return name, s[k:e], e, true
}

// parseWeight reads a qvalue, "0" to "1" with up to three decimals, in
// thousandths; quotes around it are tolerated.
func parseWeight(v string) (int, bool) {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		v = v[1 : len(v)-1]
	}
	if v == "" || len(v) > 5 || v[0] != '0' && v[0] != '1' {
		return 0, false
	}
	q := int(v[0]-'0') * 1000
	if len(v) > 1 {
		if v[1] != '.' {
			return 0, false
		}
		scale := 100
		for _, c := range []byte(v[2:]) {
			if c < '0' || c > '9' {
				return 0, false
			}
			q += int(c-'0') * scale
			scale /= 10
		}
	}
	return q, q <= 1000
}

// paramsIn reports whether every parameter of a is in c with the same
// value; names and values are compared case-insensitively, quotes around
// values ignored.
func paramsIn(a, c *mediaRange) bool {
	if a.nparams == 0 {
		return true
	}
	if c.nparams < a.nparams {
		return false
	}
	for k := len(a.essence()); k < len(a.full); {
		name, val, next, _ := nextParam(a.full, k)
		if name != "" && !hasParam(c, name, val) {
			return false
		}
		k = next
	}
	return true
}

func hasParam(c *mediaRange, name, val string) bool {
	for k := len(c.essence()); k < len(c.full); {
		n, v, next, _ := nextParam(c.full, k)
		if strings.EqualFold(n, name) && strings.EqualFold(unquote(v), unquote(val)) {
			return true
		}
		k = next
	}
	return false
}

func unquote(v string) string {
	if len(v) >= 2 && v[0] == '"' {
		return v[1 : len(v)-1]
	}
	return v
}

// covers reports whether range x includes every type y includes,
// parameters aside.
func covers(x, y *mediaRange) bool {
	if x.typ == "*" {
		return true
	}
	if !strings.EqualFold(x.typ, y.typ) {
		return false
	}
	if x.sub == "*" || strings.EqualFold(x.sub, y.sub) {
		return true
	}
	return x.sub[0] == '*' && hasSuffixFold(y.sub, x.sub[1:]) // x.sub is "*+json"
}

// tokenEnd returns the index after the RFC 9110 token that starts at i.
func tokenEnd(s string, i int) int {
	for i < len(s) && wire.IsTchar(s[i]) {
		i++
	}
	return i
}

// elementEnd returns the index of the comma that ends the list element
// s[i:] is in, or len(s); commas in quoted strings do not end it.
func elementEnd(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case ',':
			return i
		case '"':
			if i = quotedEnd(s, i); i < 0 {
				return len(s)
			}
		default:
			i++
		}
	}
	return len(s)
}

// quotedEnd returns the index after the quoted-string that starts at
// s[i] == '"', or -1 if it is not closed.
func quotedEnd(s string, i int) int {
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

func skipOWS(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

func trimOWS(s string) string {
	i, j := 0, len(s)
	for i < j && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	for j > i && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	return s[i:j]
}
