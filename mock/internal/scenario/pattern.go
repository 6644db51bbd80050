package scenario

import (
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/plantmock/plantmock/internal/jsonx"
)

// matcher is an exact string or a regular expression written /between
// slashes/: what scenarios match headers and tokens with.
type matcher struct {
	exact string
	re    *regexp.Regexp
}

func (m *matcher) match(s string) bool {
	if m.re != nil {
		return m.re.MatchString(s)
	}
	return m.exact == s
}

// newMatcher compiles "/regex/" or keeps an exact string.
func newMatcher(s string) (matcher, error) {
	if re, ok, err := slashRegex(s); ok {
		return matcher{re: re}, err
	}
	return matcher{exact: s}, nil
}

// slashRegex compiles s when it is written /like this/; ok says whether it is.
func slashRegex(s string) (re *regexp.Regexp, ok bool, err error) {
	if len(s) < 2 || s[0] != '/' || s[len(s)-1] != '/' {
		return nil, false, nil
	}
	re, err = regexp.Compile(s[1 : len(s)-1])
	if err != nil {
		return nil, true, fmt.Errorf("bad regular expression %s: %v", s, err)
	}
	return re, true, nil
}

// compilePattern turns a JSON subset into a body pattern: /regex/ strings
// become compiled expressions. Scenarios' when.body and Match.Body are
// body patterns.
func compilePattern(v any, at string) (any, error) {
	switch x := v.(type) {
	case string:
		if re, ok, err := slashRegex(x); ok {
			if err != nil {
				return nil, fmt.Errorf("%s: %v", at, err)
			}
			return re, nil
		}
		return x, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			c, err := compilePattern(e, at+"."+k)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			c, err := compilePattern(e, fmt.Sprintf("%s[%d]", at, i))
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	return v, nil
}

// MatchPattern reports whether the decoded JSON value v contains the
// pattern: objects when every key of the pattern matches, arrays element
// by element with the same length, regular expressions against strings
// and the text of numbers and booleans, numbers by value, the rest by
// equality.
func MatchPattern(pat, v any) bool {
	switch p := pat.(type) {
	case *regexp.Regexp:
		switch x := v.(type) {
		case string:
			return p.MatchString(x)
		case json.Number:
			return p.MatchString(string(x))
		case bool:
			return p.MatchString(fmt.Sprint(x))
		}
		return false
	case map[string]any:
		obj, ok := v.(map[string]any)
		if !ok {
			return false
		}
		for k, pe := range p {
			e, ok := obj[k]
			if !ok || !MatchPattern(pe, e) {
				return false
			}
		}
		return true
	case []any:
		arr, ok := v.([]any)
		if !ok || len(arr) != len(p) {
			return false
		}
		for i := range p {
			if !MatchPattern(p[i], arr[i]) {
				return false
			}
		}
		return true
	case json.Number:
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		// By value (1.0 is 1), from digits and exponents: 1e100000 is
		// compared without being expanded. Numbers beyond jsonx's caps
		// are compared as written.
		a, errA := jsonx.ReadNumber(string(p))
		b, errB := jsonx.ReadNumber(string(n))
		if errA != nil || errB != nil {
			return p == n
		}
		return jsonx.Cmp(a, b) == 0
	}
	return pat == v
}
