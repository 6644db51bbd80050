package wire

// IsTchar reports whether c may be in a token: a letter, a digit or one
// of !#$%&'*+-.^_`|~ (RFC 9110, section 5.6.2).
func IsTchar(c byte) bool {
	return c < 128 && tchars[c>>6]&(1<<(c&63)) != 0
}

// tchars is the set of token characters, a bit per ASCII code.
var tchars = [2]uint64{0x03ff6cfa00000000, 0x57ffffffc7fffffe}

// IsToken reports whether s is a token (RFC 9110, section 5.6.2), as a
// method is: one or more token characters.
func IsToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if !IsTchar(s[i]) {
			return false
		}
	}
	return s != ""
}
