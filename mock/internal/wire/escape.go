package wire

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// unescape percent-decodes s, turning '+' into a space when plus is set.
// When s holds a malformed escape, it returns that escape as second
// result. Text without escapes is returned as is, without copying.
func unescape(s string, plus bool) (string, string) {
	escapes, spaces := 0, false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return "", s[i:min(i+3, len(s))]
			}
			escapes++
			i += 2
		case '+':
			spaces = spaces || plus
		}
	}
	if escapes == 0 && !spaces {
		return s, ""
	}
	var b strings.Builder
	b.Grow(len(s) - 2*escapes)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%':
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
		case c == '+' && plus:
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}

// decodeText percent-decodes raw for the value at path and checks that the
// result is UTF-8 text.
func decodeText(path, raw string, plus bool) (string, *Error) {
	s, bad := unescape(raw, plus)
	if bad != "" {
		return "", &Error{Path: path, Reason: "malformed percent-escape " + strconv.Quote(bad)}
	}
	if !utf8.ValidString(s) {
		return "", &Error{Path: path, Reason: "value is not valid UTF-8"}
	}
	return s, nil
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
