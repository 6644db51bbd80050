package openapi

import (
	"encoding/json"
	"slices"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/plantmock/plantmock/internal/jsonx"
)

// The reading half of the fast path (fastpath.go): JSON read as
// jsonx.Decode reads it with encoding/json (UTF-8 throughout, nothing but
// whitespace after the value, the last of duplicate keys kept, numbers as
// written, lone surrogates in escapes made U+FFFD), each value checked
// against its node as soon as it is read. A value that fails a check, or
// that the node does not compare exactly, marks the body as not known to
// be valid, and the rest is read without checks, for fastexplain.go to
// say what is wrong. Anything that is not JSON, or any doubt about the
// reading, ends the read: the caller then reads the body the usual way,
// which says what is wrong.

// maxFastDepth bounds how deeply the fast path reads nested values,
// below encoding/json's 10,000 levels; deeper bodies take the usual path.
// A value nested deeper than maxValueDepth is read (without checks) and
// refused as the usual path refuses it.
const maxFastDepth = 9000

// fastReader reads one body.
type fastReader struct {
	data []byte
	pos  int
	buf  []byte    // unescaped strings
	any  *fastNode // the node that checks nothing, for the rest of a bad body
	bad  bool      // a value failed a check, or was not compared exactly
	// capped is true when the body has a number beyond jsonx's caps or
	// nests deeper than maxValueDepth: it is refused as tame refuses it.
	capped bool
}

// decodeFast reads data as one JSON value, checking it against root;
// anything is the node that checks nothing. ok is false when data is not
// JSON that the fast path reads as jsonx.Decode does; otherwise v is the
// value jsonx.Decode returns, valid whether it certainly satisfies root,
// and capped whether it is beyond what tame lets be validated.
func decodeFast(data []byte, root, anything *fastNode) (v any, valid, capped, ok bool) {
	if !utf8.Valid(data) {
		return nil, false, false, false
	}
	r := fastReader{data: data, any: anything}
	r.space()
	v, ok = r.value(root, 0)
	if !ok {
		return nil, false, false, false
	}
	r.space()
	if r.pos != len(r.data) {
		return nil, false, false, false
	}
	return v, !r.bad, r.capped, true
}

// cap records that the body is beyond what may be validated.
func (r *fastReader) cap() {
	r.bad, r.capped = true, true
}

// holds records the result of a check: a body with a value that fails
// one is bad, and read on without checks.
func (r *fastReader) holds(ok bool) {
	if !ok {
		r.bad = true
	}
}

func (r *fastReader) space() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// value reads the value at r.pos, which n checks.
func (r *fastReader) value(n *fastNode, depth int) (any, bool) {
	if r.pos >= len(r.data) || depth > maxFastDepth {
		return nil, false
	}
	if depth > maxValueDepth {
		r.cap()
	}
	if r.bad {
		n = r.any
	}
	var v any
	var ok bool
	switch c := r.data[r.pos]; {
	case c == '{':
		r.kind(&n, kindObject)
		v, ok = r.object(n, depth+1)
	case c == '[':
		r.kind(&n, kindArray)
		v, ok = r.array(n, depth+1)
	case c == '"':
		r.kind(&n, kindString)
		var s string
		if s, ok = r.string(n); ok {
			v = s
		}
	case c == 't':
		v, ok = true, r.literal("true")
		r.holds(n.kinds&kindBool != 0 && n.enumsHold(func(e *fastEnum) bool { return e.hasTrue }))
	case c == 'f':
		v, ok = false, r.literal("false")
		r.holds(n.kinds&kindBool != 0 && n.enumsHold(func(e *fastEnum) bool { return e.hasFalse }))
	case c == 'n':
		v, ok = nil, r.literal("null")
		r.holds(n.kinds&kindNull != 0 && n.enumsHold(func(e *fastEnum) bool { return e.hasNull }))
	case c == '-' || c >= '0' && c <= '9':
		v, ok = r.number(n)
	}
	if !ok {
		return nil, false
	}
	if !r.bad {
		for _, f := range n.formats {
			if f.Validate(v) != nil {
				r.bad = true
				break
			}
		}
	}
	return v, true
}

// kind checks that n accepts values of kind k; when it does not, the body
// is bad, and the value is read with the node that checks nothing.
func (r *fastReader) kind(n **fastNode, k uint8) {
	if (*n).kinds&k == 0 {
		r.bad = true
		*n = r.any
	}
}

// enumsHold reports whether every enum of n has what has looks for.
func (n *fastNode) enumsHold(has func(*fastEnum) bool) bool {
	for _, e := range n.enums {
		if !has(e) {
			return false
		}
	}
	return true
}

func (r *fastReader) literal(word string) bool {
	if len(r.data)-r.pos < len(word) || string(r.data[r.pos:r.pos+len(word)]) != word {
		return false
	}
	r.pos += len(word)
	return true
}

// object reads an object whose '{' is at r.pos.
func (r *fastReader) object(n *fastNode, depth int) (any, bool) {
	r.pos++
	var m map[string]any // made for the first value read, so that an invalid one costs nothing
	var seen uint64
	r.space()
	if r.pos < len(r.data) && r.data[r.pos] == '}' {
		r.pos++
		m = map[string]any{}
		r.holds(r.bad || n.objectHolds(m, seen))
		return m, true
	}
	for {
		if r.pos >= len(r.data) || r.data[r.pos] != '"' {
			return nil, false
		}
		raw, escaped, ok := r.stringBytes()
		if !ok {
			return nil, false
		}
		if escaped {
			r.buf = unescape(r.buf[:0], raw)
			raw = r.buf
		}
		child := n.extra
		var key string
		if i := n.prop(raw); i >= 0 {
			p := &n.props[i]
			key, child = p.name, p.node
			seen |= p.bit
		} else {
			key = string(raw)
		}
		r.space()
		if r.pos >= len(r.data) || r.data[r.pos] != ':' {
			return nil, false
		}
		r.pos++
		r.space()
		v, ok := r.value(child, depth)
		if !ok {
			return nil, false
		}
		if m == nil {
			m = make(map[string]any, len(n.props))
		}
		m[key] = v
		r.space()
		if r.pos >= len(r.data) {
			return nil, false
		}
		switch r.data[r.pos] {
		case ',':
			r.pos++
			r.space()
		case '}':
			r.pos++
			r.holds(r.bad || n.objectHolds(m, seen))
			return m, true
		default:
			return nil, false
		}
	}
}

// objectHolds reports whether an object read whole satisfies n's object
// keywords: its required properties and how many it has (duplicate keys
// count once, as the map holds them).
func (n *fastNode) objectHolds(m map[string]any, seen uint64) bool {
	return seen&n.required == n.required &&
		(n.minProps < 0 || len(m) >= n.minProps) && (n.maxProps < 0 || len(m) <= n.maxProps)
}

// array reads an array whose '[' is at r.pos.
func (r *fastReader) array(n *fastNode, depth int) (any, bool) {
	r.pos++
	a := make([]any, 0)
	r.space()
	if r.pos < len(r.data) && r.data[r.pos] == ']' {
		r.pos++
		r.holds(n.minItems <= 0)
		return a, true
	}
	for {
		v, ok := r.value(n.items, depth)
		if !ok {
			return nil, false
		}
		a = append(a, v)
		r.holds(n.maxItems < 0 || len(a) <= n.maxItems)
		r.space()
		if r.pos >= len(r.data) {
			return nil, false
		}
		switch r.data[r.pos] {
		case ',':
			r.pos++
			r.space()
		case ']':
			r.pos++
			r.holds(len(a) >= n.minItems)
			return a, true
		default:
			return nil, false
		}
	}
}

// string reads a string value at r.pos and checks it against n.
func (r *fastReader) string(n *fastNode) (string, bool) {
	raw, escaped, ok := r.stringBytes()
	if !ok {
		return "", false
	}
	var s string
	if escaped {
		r.buf = unescape(r.buf[:0], raw)
		s = string(r.buf)
	} else {
		s = string(raw)
	}
	if r.bad {
		return s, true
	}
	if n.minLen >= 0 || n.maxLen >= 0 {
		l := utf8.RuneCountInString(s)
		r.holds(!(n.minLen >= 0 && l < n.minLen || n.maxLen >= 0 && l > n.maxLen))
	}
	for _, p := range n.patterns {
		r.holds(r.bad || p.MatchString(s))
	}
	for _, e := range n.enums {
		r.holds(r.bad || slices.Contains(e.strs, s))
	}
	return s, true
}

// stringBytes reads a string whose '"' is at r.pos: what is between the
// quotes, and whether it has escapes (all valid). Control characters are
// refused, as JSON wants.
func (r *fastReader) stringBytes() (raw []byte, escaped, ok bool) {
	start := r.pos + 1
	for i := start; i < len(r.data); i++ {
		switch c := r.data[i]; {
		case c == '"':
			r.pos = i + 1
			return r.data[start:i], escaped, true
		case c == '\\':
			escaped = true
			if i+1 >= len(r.data) {
				return nil, false, false
			}
			switch r.data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+6 > len(r.data) || hex4(r.data[i+2:i+6]) < 0 {
					return nil, false, false
				}
				i += 5
			default:
				return nil, false, false
			}
		case c < 0x20:
			return nil, false, false
		}
	}
	return nil, false, false
}

// hex4 returns the value of four hexadecimal digits, or -1.
func hex4(b []byte) rune {
	var v rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		v = v<<4 | rune(c)
	}
	return v
}

// unescape appends the string whose escapes stringBytes checked, as
// encoding/json decodes it: a surrogate not in a valid pair becomes
// U+FFFD, and the escape after it is read on its own.
func unescape(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			dst = append(dst, c)
			i++
			continue
		}
		switch s[i+1] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			u := hex4(s[i+2:])
			i += 6
			if utf16.IsSurrogate(u) {
				if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
					if pair := utf16.DecodeRune(u, hex4(s[i+2:])); pair != unicode.ReplacementChar {
						dst = utf8.AppendRune(dst, pair)
						i += 6
						continue
					}
				}
				u = unicode.ReplacementChar
			}
			dst = utf8.AppendRune(dst, u)
			continue
		default: // '"', '\\', '/'
			dst = append(dst, s[i+1])
		}
		i += 2
	}
	return dst
}

// number reads a number at r.pos and checks it against n.
func (r *fastReader) number(n *fastNode) (any, bool) {
	start := r.pos
	i := start
	if r.data[i] == '-' {
		i++
	}
	digits := i
	switch {
	case i < len(r.data) && r.data[i] == '0':
		i++
	case i < len(r.data) && r.data[i] >= '1' && r.data[i] <= '9':
		i = r.digits(i)
	default:
		return nil, false
	}
	whole := true
	end := i
	mantissa := end - digits
	if i < len(r.data) && r.data[i] == '.' {
		j := r.digits(i + 1)
		if j == i+1 {
			return nil, false
		}
		mantissa += j - i - 1
		i, whole = j, false
	}
	if i < len(r.data) && (r.data[i] == 'e' || r.data[i] == 'E') {
		i++
		if i < len(r.data) && (r.data[i] == '+' || r.data[i] == '-') {
			i++
		}
		for i < len(r.data)-1 && r.data[i] == '0' && r.data[i+1] >= '0' && r.data[i+1] <= '9' {
			i++ // leading zeros of the exponent
		}
		j := r.digits(i)
		if j == i {
			return nil, false
		}
		if j-i > jsonx.MaxExponentDigits {
			r.cap()
		}
		i, whole = j, false
	}
	if mantissa > jsonx.MaxNumberDigits {
		r.cap()
	}
	r.pos = i
	lit := r.data[start:i]
	switch {
	case r.bad:
	case !whole:
		r.holds(n.kinds&kindOther != 0)
	case n.kinds&kindWhole == 0:
		r.bad = true
	case n.exact:
		r.holds(n.wholeHolds(lit, end-digits))
	}
	return json.Number(lit), true
}

func (r *fastReader) digits(i int) int {
	for i < len(r.data) && r.data[i] >= '0' && r.data[i] <= '9' {
		i++
	}
	return i
}

// wholeHolds reports whether lit, a number written without fraction or
// exponent with ndigits digits, is within int64 and n's bounds,
// multiples and enums.
func (n *fastNode) wholeHolds(lit []byte, ndigits int) bool {
	var x int64
	if ndigits <= 18 {
		neg := lit[0] == '-'
		for _, c := range lit[len(lit)-ndigits:] {
			x = x*10 + int64(c-'0')
		}
		if neg {
			x = -x
		}
	} else {
		var err error
		if x, err = strconv.ParseInt(string(lit), 10, 64); err != nil {
			return false
		}
	}
	if x < n.lo || x > n.hi {
		return false
	}
	for _, m := range n.multiples {
		if x%m != 0 {
			return false
		}
	}
	for _, e := range n.enums {
		if !slices.Contains(e.ints, x) {
			return false
		}
	}
	return true
}
