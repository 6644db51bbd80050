package wire

import "strings"

// Authorization splits an Authorization header value into its scheme and
// its credentials (RFC 9110 11.4).
func Authorization(h string) (scheme, param string) {
	scheme, param, _ = strings.Cut(h, " ")
	return scheme, strings.TrimLeft(param, " ")
}
