package verify

import (
	"encoding/json"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// A value class is a kind of invalid value: one that breaks one of the
// schema keywords it names, made from a valid value by a maker.
type valueClass struct {
	what     string // "out of range", as a check names it
	keywords []string
	make     func(s *openapi.Schema, v any) []any
}

// valueClasses are the invalid values made from valid ones: a number
// beyond its bounds, a string or array beyond its lengths, a string
// that breaks its pattern, and one that breaks its asserted format.
func valueClasses() []valueClass {
	ranges := []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
		"minLength", "maxLength", "minItems", "maxItems"}
	return []valueClass{
		{"out of range", ranges, outOfRange},
		{"breaking its pattern", []string{"pattern"}, brokenPattern},
		{"breaking its format", []string{"format"}, brokenFormat},
	}
}

// longest bounds the strings and arrays made longer than their
// maxLength or maxItems: a longer bound is left unchecked rather than
// sending a body of that size.
const longest = 4096

// valueMistakes are the invalid requests made from c by changing one
// value of its body, for each value class: the first top-level body
// property of c that a value of the class can be made for, kept only
// where the engine's validator finds the changed value wrong by the
// class's keywords alone. Parameters are styleMistakes'.
func valueMistakes(c *exercise.Call) []invalid {
	var out []invalid
	classes := valueClasses()
	for i := range classes {
		if in, ok := bodyValueMistake(c, &classes[i]); ok {
			out = append(out, in)
		}
	}
	return out
}

// bodyValueMistake is c's JSON body with the first of its top-level
// properties that vc can make wrong made so.
func bodyValueMistake(c *exercise.Call, vc *valueClass) (invalid, bool) {
	obj, _ := c.Body.(map[string]any)
	if c.Media == nil || !openapi.IsJSON(c.Media.Type) || c.Media.Schema == nil || obj == nil {
		return invalid{}, false
	}
	s := c.Media.Schema
	for _, p := range s.Properties {
		v, has := obj[p.Name]
		if !has || p.Schema == nil || p.Schema.ReadOnly {
			continue
		}
		for _, bad := range vc.make(p.Schema, v) {
			cp := maps.Clone(obj)
			cp[p.Name] = bad
			if why, ok := brokenBy(s.ValidateRequest(cp), p.Name, vc.keywords); ok {
				return replaceBody("property "+p.Name+" "+vc.what, cp, why), true
			}
		}
	}
	return invalid{}, false
}

// unchanged sends the request as its call writes it.
func unchanged(_ *http.Request, body []byte) ([]byte, bool) { return body, true }

// brokenBy returns the first of vs when vs is not empty and each of them
// is at path and breaks one of keywords (the last segment of its
// Schema): the value is wrong for that reason alone.
func brokenBy(vs []openapi.Violation, path string, keywords []string) (openapi.Violation, bool) {
	if len(vs) == 0 {
		return openapi.Violation{}, false
	}
	for _, v := range vs {
		kw := v.Schema[strings.LastIndexByte(v.Schema, '/')+1:]
		if v.Path != path || !slices.Contains(keywords, kw) {
			return openapi.Violation{}, false
		}
	}
	return vs[0], true
}

// outOfRange returns values beyond s's bounds made from v: a number
// below its minimum or above its maximum (exclusive or not), a string
// shorter than minLength or longer than maxLength, an array with fewer
// items than minItems or more than maxItems.
func outOfRange(s *openapi.Schema, v any) []any {
	var out []any
	if s.Is("integer") || s.Is("number") {
		beyond := func(b *float64, f func(float64) float64, step float64) {
			if b != nil && !math.IsInf(*b, 0) && math.Abs(*b) < 1<<53 {
				out = append(out, json.Number(strconv.FormatFloat(f(*b)+step, 'f', -1, 64)))
			}
		}
		beyond(s.Minimum, math.Floor, -1)
		beyond(s.Maximum, math.Ceil, 1)
	}
	switch v := v.(type) {
	case string:
		rs := []rune(v)
		if n := s.MinLength; n != nil && *n > 0 && *n <= longest {
			if int64(len(rs)) >= *n {
				out = append(out, string(rs[:*n-1]))
			}
			out = append(out, strings.Repeat("a", int(*n-1)))
		}
		if n := s.MaxLength; n != nil && *n < longest {
			if len(rs) > 0 && int64(len(rs)) <= *n {
				out = append(out, v+strings.Repeat(string(rs[len(rs)-1]), int(*n+1)-len(rs)))
			}
			out = append(out, strings.Repeat("a", int(*n+1)))
		}
	case []any:
		if n := s.MinItems; n != nil && *n > 0 && int64(len(v)) >= *n {
			out = append(out, slices.Clone(v[:*n-1]))
		}
		if n := s.MaxItems; n != nil && *n < longest && len(v) > 0 {
			more := slices.Clone(v)
			for int64(len(more)) <= *n {
				more = append(more, v[len(more)%len(v)])
			}
			out = append(out, more)
		}
	}
	return out
}

// brokenPattern returns strings made from v, which matches s's pattern,
// that may not: v with one of its characters (up to the 32nd) changed,
// then with one added before or after it. The caller keeps one the
// validator refuses by the pattern alone.
func brokenPattern(s *openapi.Schema, v any) []any {
	str, ok := v.(string)
	if s.Pattern == "" || !ok {
		return nil
	}
	breaks := []string{"!", "Z", "0", "a", "-", "_", ".", " "}
	var out []any
	add := func(s string) {
		// Left out: a path segment a client or server may resolve away,
		// and a space at either end, which a header's reader trims.
		if s != "." && s != ".." && strings.TrimSpace(s) == s {
			out = append(out, s)
		}
	}
	rs := []rune(str)
	for i := 0; i < len(rs) && i < 32; i++ {
		for _, c := range breaks {
			add(string(rs[:i]) + c + string(rs[i+1:]))
		}
	}
	for _, c := range breaks {
		add(c + str)
		add(str + c)
	}
	return out
}

// brokenFormat returns values that break s's asserted format (see
// docs/answers.md), the near misses first; none for other formats.
func brokenFormat(s *openapi.Schema, _ any) []any {
	switch s.Format {
	case "date":
		return []any{"2021-02-30", "not-a-date"}
	case "date-time":
		return []any{"2021-02-30T10:00:00Z", "not-a-date-time"}
	case "uuid":
		return []any{"123e4567-e89b-12d3-a456-42661417400g", "not-a-uuid"}
	case "email":
		return []any{"not-an-email", "a@"}
	case "ipv4":
		return []any{"256.0.0.1", "not-an-ipv4"}
	case "ipv6":
		return []any{"1::2::3", "not-an-ipv6"}
	case "uri":
		return []any{"not a uri", "no-scheme"}
	case "int32":
		return []any{json.Number("2147483648"), json.Number("-2147483649")}
	case "int64":
		return []any{json.Number("9223372036854775808"), json.Number("-9223372036854775809")}
	}
	return nil
}
