package media

import (
	"unicode"
	"unicode/utf8"
)

// appendName appends name made a valid XML name without a colon (an
// NCName): each character that cannot be in a name becomes '_', and '_'
// goes before a first character that can only follow another ("1st"
// becomes "_1st"). The empty name becomes "_".
func appendName(dst []byte, name string) []byte {
	if name == "" {
		return append(dst, '_')
	}
	for i := 0; i < len(name); {
		r, n := rune(name[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(name[i:])
			if r == utf8.RuneError && n == 1 {
				r = '_' // not UTF-8
			}
		}
		switch {
		case isNameStart(r):
		case isNameChar(r):
			if i == 0 {
				dst = append(dst, '_')
			}
		default:
			r = '_'
		}
		dst = utf8.AppendRune(dst, r)
		i += n
	}
	return dst
}

// isNCName reports whether s is a name without a colon.
func isNCName(s string) bool {
	for i, r := range s {
		if !isNameStart(r) && (i == 0 || !isNameChar(r)) {
			return false
		}
	}
	return s != ""
}

// isNameStart reports whether r may start an XML name; ':' may not, as
// the prefix separator.
func isNameStart(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r == '_'
	}
	return unicode.Is(nameFirst, r)
}

// isNameChar reports whether r may be in an XML name after its first
// character; ':' may not.
func isNameChar(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '-' || r == '.'
	}
	return unicode.Is(nameFirst, r) || unicode.Is(nameRest, r)
}
