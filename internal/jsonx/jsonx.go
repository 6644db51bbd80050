// Package jsonx decodes JSON into plain Go values with exact numbers and
// writes such values back as compact JSON.
//
// Decoded values are map[string]any, []any, string, json.Number, bool and
// nil. Numbers stay as written, so 9223372036854775807 survives a round
// trip and 1.0 can be told apart from 1.
package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// smallObject is the most members of an object Append sorts on the
// stack rather than in a slice it allocates.
const smallObject = 8

// member is an object's key and value, as Append sorts them.
type member struct {
	k string
	v any
}

// Decode parses one JSON value; anything but whitespace after it is an
// error. Duplicate object keys keep the last value.
func Decode(data []byte) (any, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("body is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, describe(err, data)
	}
	end := int(dec.InputOffset())
	if _, err := dec.Token(); err != io.EOF {
		for end < len(data) && isSpace(data[end]) {
			end++
		}
		return nil, fmt.Errorf("invalid JSON: unexpected data after the value at offset %d", end)
	}
	return v, nil
}

func describe(err error, data []byte) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se) && strings.HasSuffix(se.Error(), "exceeded max depth"):
		return errors.New("invalid JSON: nested deeper than 10000 levels")
	case errors.As(err, &se):
		return fmt.Errorf("invalid JSON at offset %d: %s", se.Offset-1, se.Error())
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		if len(bytes.TrimSpace(data)) == 0 {
			return errors.New("body is empty")
		}
		return errors.New("invalid JSON: unexpected end of input")
	}
	return fmt.Errorf("invalid JSON: %s", err.Error())
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Append appends v as compact JSON, object keys sorted.
func Append(buf []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(buf, "null"...)
	case bool:
		return strconv.AppendBool(buf, x)
	case string:
		return AppendString(buf, x)
	case json.Number:
		return append(buf, x...)
	case int:
		return strconv.AppendInt(buf, int64(x), 10)
	case int64:
		return strconv.AppendInt(buf, x, 10)
	case float64:
		return strconv.AppendFloat(buf, x, 'g', -1, 64)
	case []any:
		buf = append(buf, '[')
		for i, e := range x {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = Append(buf, e)
		}
		return append(buf, ']')
	case map[string]any:
		var room [smallObject]member
		ms := room[:0]
		if len(x) > smallObject {
			ms = make([]member, 0, len(x))
		}
		for k, v := range x {
			ms = append(ms, member{k, v})
		}
		slices.SortFunc(ms, func(a, b member) int { return strings.Compare(a.k, b.k) })
		buf = append(buf, '{')
		for i, m := range ms {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = AppendString(buf, m.k)
			buf = append(buf, ':')
			buf = Append(buf, m.v)
		}
		return append(buf, '}')
	}
	b, err := json.Marshal(v)
	if err != nil {
		return append(buf, "null"...)
	}
	return append(buf, b...)
}

// Marshal returns v as compact JSON, object keys sorted.
func Marshal(v any) []byte { return Append(nil, v) }

const hex = "0123456789abcdef"

// AppendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD.
func AppendString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			buf = append(buf, s[start:i]...)
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			default:
				buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			buf = append(buf, s[start:i]...)
			buf = append(buf, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// Normalize turns a value decoded by another decoder (YAML's ints, floats
// and maps with any keys) or built in Go into the values Decode returns.
// Infinities, NaN and values encoding/json cannot encode are errors.
func Normalize(v any) (any, error) {
	switch x := v.(type) {
	case nil, string, bool, json.Number:
		return x, nil
	case int:
		return json.Number(strconv.Itoa(x)), nil
	case int64:
		return json.Number(strconv.FormatInt(x, 10)), nil
	case uint64:
		return json.Number(strconv.FormatUint(x, 10)), nil
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, fmt.Errorf("%v is not a JSON number", x)
		}
		return json.Number(strconv.FormatFloat(x, 'g', -1, 64)), nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			var err error
			if out[i], err = Normalize(e); err != nil {
				return nil, err
			}
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			var err error
			if out[k], err = Normalize(e); err != nil {
				return nil, err
			}
		}
		return out, nil
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			var err error
			if out[fmt.Sprint(k)], err = Normalize(e); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	// Other Go values (int32, structs, ...) go through encoding/json.
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return Decode(b)
}

// IsNumber reports whether s is a JSON number literal:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func IsNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = digits(s, i)
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		j := digits(s, i+1)
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}

func digits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
