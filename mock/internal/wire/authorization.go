package wire

import "strings"

// Authorization splits an Authorization header value into its scheme and
// its credentials (RFC 9110 11.4).
func Authorization(h string) (scheme, param string) {
	scheme, param, _ = strings.Cut(h, " ")
	return scheme, strings.TrimLeft(param, " ")
}

// IsToken68 reports whether t matches RFC 7235 token68:
// 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=".
func IsToken68(t string) bool {
	i := 0
	for i < len(t) {
		c := t[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/' {
			i++
			continue
		}
		break
	}
	if i == 0 {
		return false
	}
	for ; i < len(t); i++ {
		if t[i] != '=' {
			return false
		}
	}
	return true
}
