package wire

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// pair is one name=value of a query string, a form body or a Cookie
// header. The name is decoded; the value is kept as written until a
// field reads it, so that its errors name that field.
type pair struct {
	name  string
	value string
	// bad says why the name could not be decoded ("" when it could); such
	// a name is kept as written.
	bad string
}

// appendQuery appends the pairs of a query string or form body: pairs
// separated by '&', name and value by the first '=', '+' a space. Empty
// pairs ("a=1&&b=2") are skipped; a pair without '=' has an empty value.
func appendQuery(dst []pair, s string) []pair {
	for len(s) > 0 {
		eq, end := -1, len(s)
		for i := 0; i < len(s); i++ {
			if c := s[i]; c == '&' {
				end = i
				break
			} else if c == '=' && eq < 0 {
				eq = i
			}
		}
		seg := s[:end]
		s = s[min(end+1, len(s)):]
		if seg == "" {
			continue
		}
		name, p := seg, pair{}
		if eq >= 0 {
			name, p.value = seg[:eq], seg[eq+1:]
		}
		var bad string
		switch p.name, bad = unescape(name, true); {
		case bad != "":
			p.name, p.bad = name, "malformed percent-escape "+strconv.Quote(bad)
		case !utf8.ValidString(p.name):
			p.bad = "invalid UTF-8"
		}
		dst = append(dst, p)
	}
	return dst
}

// appendCookies appends the cookies of Cookie header lines: pairs
// separated by ';', surrounding spaces dropped, a value in double quotes
// unquoted. Pairs without '=' are skipped, as net/http skips them.
func appendCookies(dst []pair, lines []string) []pair {
	for _, line := range lines {
		for line != "" {
			var seg string
			seg, line, _ = strings.Cut(line, ";")
			name, value, ok := strings.Cut(strings.Trim(seg, " \t"), "=")
			if !ok || name == "" {
				continue
			}
			name = strings.TrimRight(name, " \t")
			value = strings.TrimLeft(value, " \t")
			if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
				value = value[1 : len(value)-1]
			}
			p := pair{name: name, value: value}
			if !utf8.ValidString(name) {
				p.bad = "invalid UTF-8"
			}
			dst = append(dst, p)
		}
	}
	return dst
}

// claims are the names the fields of one location read: their own names,
// the declared properties of exploded objects and the name[...] of deep
// objects. A free-form exploded object takes every name not claimed.
type claims struct {
	names    map[string]bool
	prefixes []string
}

func (c *claims) add(f *field) {
	if c.names == nil {
		c.names = map[string]bool{}
	}
	c.names[f.name] = true
	switch {
	case f.styled && f.style == styleDeep:
		c.prefixes = append(c.prefixes, f.name+"[")
	case f.styled && f.explode && f.kind == kindObject:
		for _, p := range f.props {
			c.names[p] = true
		}
	}
}

func (c *claims) has(name string) bool {
	if c.names[name] {
		return true
	}
	for _, p := range c.prefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// source is the pairs of one location of a request, ready for its fields
// to read.
type source struct {
	list []pair
	plus bool // '+' in values is a space (query strings and form bodies)
	// first makes the first of repeated values count for a name that takes
	// one (cookies: browsers send the cookie of the most specific path
	// first); otherwise repeating such a name is an error.
	first  bool
	claims *claims
}

// values appends the raw values given for name, in order.
func (src *source) values(dst []string, name string) []string {
	for i := range src.list {
		if src.list[i].name == name {
			dst = append(dst, src.list[i].value)
		}
	}
	return dst
}

// one returns the first raw value given for name and how many there are.
func (src *source) one(name string) (string, int) {
	var first string
	n := 0
	for i := range src.list {
		if src.list[i].name == name {
			if n == 0 {
				first = src.list[i].value
			}
			n++
		}
	}
	return first, n
}

// read decodes the values given for one name: prop is "" for a
// parameter or form field itself, the name for a property of an object.
// It reports whether the name was given at all.
func (src *source) read(path, prop, name string, s *Shape, m mode) (any, bool, *Error) {
	var buf [4]string
	raws := src.values(buf[:0], name)
	if len(raws) == 0 {
		return nil, false, nil
	}
	if src.first && len(raws) > 1 && kindOf(s) != kindArray {
		raws = raws[:1]
	}
	v, err := readValues(path, prop, raws, src.plus, s, m)
	return v, true, err
}

// unclaimed calls fn once for every name no field claims, in order of
// first appearance, with its values read in mode m by the shape s gives
// the property. Errors are at path, or at the name itself when path is "".
func (src *source) unclaimed(path string, s *Shape, m mode, fn func(name string, v any)) *Error {
	var seen map[string]bool
	for i := range src.list {
		p := &src.list[i]
		if src.claims.has(p.name) || seen[p.name] {
			continue
		}
		if p.bad != "" {
			return &Error{Path: path, Reason: p.bad + " in the name " + strconv.Quote(p.name)}
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		seen[p.name] = true
		at, prop := path, p.name
		if path == "" {
			at, prop = p.name, ""
		}
		v, _, err := src.read(at, prop, p.name, s.property(p.name), m)
		if err != nil {
			return err
		}
		fn(p.name, v)
	}
	return nil
}

// readValues decodes the raw values of one name. Each value is an item
// when the shape is an array (one empty value being the empty array), or
// when it allows anything and the name repeats; otherwise the name must
// be given once.
func readValues(path, prop string, raws []string, plus bool, s *Shape, m mode) (any, *Error) {
	k := kindOf(s)
	if k == kindArray || k == kindAny && len(raws) > 1 {
		if k == kindArray && len(raws) == 1 && raws[0] == "" {
			return []any{}, nil
		}
		item := s.items()
		out := make([]any, len(raws))
		for i, raw := range raws {
			text, err := decodeText(path, raw, plus)
			if err != nil {
				return nil, err
			}
			if out[i], err = interpret(path, text, item, m); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	if len(raws) > 1 {
		return nil, timesError(path, prop, len(raws))
	}
	text, err := decodeText(path, raws[0], plus)
	if err != nil {
		return nil, err
	}
	return interpret(path, text, s, m)
}
