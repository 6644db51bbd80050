// Package clip shortens text built from request data, so that what the
// mock writes about a request (violation messages, error bodies, log
// lines) is bounded whatever the request holds.
package clip

import (
	"strconv"
	"unicode/utf8"
)

// How much of a request's text a message quotes, in bytes.
const (
	// Value is for a value: a number, a string, a property name.
	Value = 32
	// Path is for where a value is in a body: "owner.tags[2]".
	Path = 128
)

// To returns s when it is at most n bytes long; otherwise its first n
// bytes (cut back to a whole character), an ellipsis, and its length in
// bytes: "1000000000...(100001 bytes)". It is the one way the mock
// shortens what it quotes.
func To(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut--
	}
	b := make([]byte, 0, cut+len("...( bytes)")+20)
	b = append(b, s[:cut]...)
	b = append(b, "...("...)
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, " bytes)"...)
	return string(b)
}
