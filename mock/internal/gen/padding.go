package gen

import (
	"encoding/base64"
	"strings"
)

// padding is how a string of a format is lengthened to a minLength, and
// cut to a maxLength, so that it keeps its format where it can: a
// date-time gets fractional seconds, an email letters before its @, a
// number leading zeros.
type padding uint8

const (
	padLetters   padding = iota // letters at the end
	padFraction                 // fractional seconds, else letters at the end
	padLocal                    // lower-case letters before the @ (email)
	padPath                     // lower-case letters at the end of the path (uri)
	padZeros                    // zeros in front (a number in a string)
	padBase64                   // more bytes, encoded again (byte)
	padBase64URL                // more bytes, encoded again (base64url)
	padQuoted                   // letters before the closing quote (sf-string)
)

// pad returns v lengthened by len(letters) characters or more, where
// letters are ASCII letters drawn for it.
func (p padding) pad(v, letters string) string {
	switch p {
	case padFraction:
		// Fractional seconds: Telstra's createTimestamp is a date-time
		// of exactly 24 characters (…T15:04:05.000Z).
		if k := len(letters); k >= 2 && k <= 10 {
			zeros := "." + strings.Repeat("0", k-1)
			if strings.HasSuffix(v, "Z") {
				return v[:len(v)-1] + zeros + "Z"
			}
			return v + zeros
		}
	case padLocal:
		if at := strings.IndexByte(v, '@'); at > 0 {
			return v[:at] + strings.ToLower(letters) + v[at:]
		}
	case padPath:
		if !strings.ContainsAny(v, "?#") {
			return v + strings.ToLower(letters)
		}
	case padZeros:
		return strings.Repeat("0", len(letters)) + v
	case padBase64:
		return reencode(base64.StdEncoding, v, letters)
	case padBase64URL:
		return reencode(base64.URLEncoding, v, letters)
	case padQuoted:
		if strings.HasSuffix(v, `"`) {
			return v[:len(v)-1] + letters + `"`
		}
	}
	return v + letters
}

// cut returns v cut to max runes; a number loses a trailing point.
func (p padding) cut(v string, max int64) string {
	v = string([]rune(v)[:max])
	if p == padZeros {
		v = strings.TrimSuffix(v, ".")
	}
	return v
}

// reencode returns v, written in enc, with the bytes of more added and
// encoded again: a multiple of three bytes, so that a decoder that
// wants no padding takes it too. A v not in enc gets more at its end.
func reencode(enc *base64.Encoding, v, more string) string {
	b, err := enc.DecodeString(v)
	if err != nil {
		return v + more
	}
	b = append(b, more...)
	for len(b)%3 != 0 {
		b = append(b, 'a')
	}
	return enc.EncodeToString(b)
}
