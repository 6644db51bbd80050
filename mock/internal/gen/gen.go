// Package gen generates JSON values that satisfy a schema, with gofakeit.
// The same seed and sequence number always give the same value.
package gen

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Faker returns a faker for the n-th value generated under seed. Fakers are
// cheap; use one per request so that output does not depend on scheduling.
func Faker(seed, n uint64) *gofakeit.Faker {
	return gofakeit.NewCustom(&splitmix{state: seed ^ (n+1)*0x9e3779b97f4a7c15})
}

// splitmix is a small, fast math/rand Source64.
type splitmix struct{ state uint64 }

func (s *splitmix) Uint64() uint64 {
	s.state += 0x9e3779b97f4a7c15
	z := s.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
func (s *splitmix) Int63() int64    { return int64(s.Uint64() >> 1) }
func (s *splitmix) Seed(seed int64) { s.state = uint64(seed) }

// maxDepth bounds nesting; deeper optional parts are left out, and where
// a value may be null or an empty array it is. hardDepth is where
// generation stops whatever the schema requires: a recursive schema that
// requires itself at every level has no finite value, and the value made
// there (null) is refused by the schema when it is checked.
const (
	maxDepth  = 8
	hardDepth = 32
)

// Value returns a value for schema s. Examples, consts and enums are used
// where the schema has them; otherwise the value is made up from the type,
// format, bounds and the property name.
func Value(s *openapi.Schema, f *gofakeit.Faker) any {
	return value(s, f, "", 0)
}

func value(s *openapi.Schema, f *gofakeit.Faker, name string, depth int) any {
	if s == nil {
		return f.Word()
	}
	if depth >= hardDepth || (depth >= maxDepth && s.Is("null")) {
		return nil
	}
	switch {
	case s.HasConst:
		return s.Const
	case len(s.Enum) > 0:
		return s.Enum[f.Number(0, len(s.Enum)-1)]
	}
	if ex, ok := s.GoodExample(); ok {
		return ex
	}
	if len(s.AnyOf) > 0 && depth < maxDepth {
		// The first alternative whose value satisfies the whole schema.
		for _, a := range s.AnyOf {
			if a.Never {
				continue
			}
			v := value(a, f, name, depth+1)
			if len(s.Validate(v)) == 0 {
				return v
			}
			if len(s.Properties) > 0 {
				// An alternative that narrows the object around it (one
				// set of required properties or another): the object with
				// only what either requires.
				if v := narrowed(s, a, f, depth); len(s.Validate(v)) == 0 {
					return v
				}
			}
		}
	}
	if len(s.AnyOf) > 0 && len(s.Types) == 0 && len(s.Properties) == 0 {
		alt := s.AnyOf[0]
		if depth >= maxDepth {
			// Deep down, the alternative that ends soonest.
			for _, a := range s.AnyOf {
				if !a.Recursive && a.Items == nil && len(a.Properties) == 0 && !a.Never {
					alt = a
					break
				}
			}
		}
		return value(alt, f, name, depth+1)
	}
	switch typeOf(s) {
	case "object":
		out := map[string]any{}
		for _, p := range s.Properties {
			if p.Schema != nil && (p.Schema.WriteOnly || p.Schema.Never) {
				continue
			}
			if depth >= maxDepth && !s.Requires(p.Name) {
				continue
			}
			out[p.Name] = value(p.Schema, f, p.Name, depth+1)
		}
		return out
	case "array":
		lo, hi := 1, 3
		if s.Items != nil && s.Items.Never {
			lo, hi = 0, 0
		}
		if s.MinItems != nil {
			lo = int(*s.MinItems)
			hi = max(hi, lo)
		}
		if s.MaxItems != nil && int(*s.MaxItems) < hi {
			hi = int(*s.MaxItems)
		}
		if depth >= maxDepth {
			hi = lo
		}
		n := f.Number(min(lo, hi), hi)
		out := make([]any, 0, n)
		for i := 0; i < n; i++ {
			out = append(out, value(s.Items, f, singular(name), depth+1))
		}
		return out
	case "integer":
		return json.Number(strconv.FormatInt(integer(s, f), 10))
	case "number":
		lo, hi := bounds(s, 0, 1000)
		v := math.Round(f.Float64Range(lo, hi)*100) / 100
		if v < lo || v > hi {
			v = lo
		}
		return json.Number(strconv.FormatFloat(v, 'f', -1, 64))
	case "boolean":
		return f.Bool()
	case "null":
		return nil
	}
	return str(s, f, name)
}

// narrowed makes the object s describes with only the properties s or
// its alternative alt requires, each from alt's schema where it has one.
func narrowed(s, alt *openapi.Schema, f *gofakeit.Faker, depth int) map[string]any {
	out := map[string]any{}
	for _, p := range s.Properties {
		if s.Requires(p.Name) || alt.Requires(p.Name) {
			ps := p.Schema
			if as := alt.Property(p.Name); as != nil {
				ps = as
			}
			out[p.Name] = value(ps, f, p.Name, depth+1)
		}
	}
	for _, p := range alt.Properties {
		if _, done := out[p.Name]; !done && alt.Requires(p.Name) {
			out[p.Name] = value(p.Schema, f, p.Name, depth+1)
		}
	}
	return out
}

func typeOf(s *openapi.Schema) string {
	for _, t := range s.Types {
		if t != "null" {
			return t
		}
	}
	if len(s.Types) > 0 {
		return "null"
	}
	if len(s.Properties) > 0 {
		return "object"
	}
	if s.Items != nil {
		return "array"
	}
	return "string"
}

func bounds(s *openapi.Schema, lo, hi float64) (float64, float64) {
	if s.Minimum != nil {
		lo = *s.Minimum
		if s.Maximum == nil {
			hi = lo + 1000
		}
	}
	if s.Maximum != nil {
		hi = *s.Maximum
		if s.Minimum == nil && hi < lo {
			lo = hi - 1000
		}
	}
	return lo, hi
}

func integer(s *openapi.Schema, f *gofakeit.Faker) int64 {
	lo, hi := bounds(s, 1, 10000)
	l, h := int64(math.Ceil(lo)), int64(math.Floor(hi))
	if s.ExclusiveMinimum && float64(l) == lo {
		l++
	}
	if s.ExclusiveMaximum && float64(h) == hi {
		h--
	}
	if s.Format == "int32" {
		l, h = max(l, math.MinInt32), min(h, math.MaxInt32)
	}
	if h < l {
		h = l
	}
	v := l + int64(f.Uint64()%uint64(h-l+1))
	if s.MultipleOf != nil && *s.MultipleOf >= 1 && *s.MultipleOf == math.Trunc(*s.MultipleOf) {
		m := int64(*s.MultipleOf)
		v = v / m * m
		if v < l {
			v += m
		}
	}
	return v
}

func str(s *openapi.Schema, f *gofakeit.Faker, name string) string {
	var v string
	switch {
	case s.Pattern != "":
		v = f.Regex(s.Pattern)
		return v
	case s.Format != "":
		v = byFormat(s.Format, f)
	}
	if v == "" {
		v = byName(name, f)
	}
	if s.MinLength != nil && int64(len([]rune(v))) < *s.MinLength {
		v += f.LetterN(uint(*s.MinLength - int64(len([]rune(v)))))
	}
	if s.MaxLength != nil && int64(len([]rune(v))) > *s.MaxLength {
		v = string([]rune(v)[:*s.MaxLength])
	}
	return v
}

func byFormat(format string, f *gofakeit.Faker) string {
	switch format {
	case "date-time":
		return f.Date().UTC().Truncate(time.Second).Format(time.RFC3339)
	case "date":
		return f.Date().Format("2006-01-02")
	case "time":
		return f.Date().Format("15:04:05Z")
	case "email", "idn-email":
		return f.Email()
	case "uuid":
		return f.UUID()
	case "uri", "url", "iri", "uri-reference", "iri-reference":
		return f.URL()
	case "hostname", "idn-hostname":
		return f.DomainName()
	case "ipv4":
		return f.IPv4Address()
	case "ipv6":
		return f.IPv6Address()
	case "byte":
		return base64.StdEncoding.EncodeToString([]byte(f.Word()))
	case "password":
		return f.Password(true, true, true, false, false, 12)
	}
	return ""
}

func byName(name string, f *gofakeit.Faker) string {
	n := strings.ToLower(name)
	switch {
	case n == "email" || strings.HasSuffix(n, "email"):
		return f.Email()
	case n == "username" || n == "login":
		return f.Username()
	case n == "firstname" || n == "first_name":
		return f.FirstName()
	case n == "lastname" || n == "last_name":
		return f.LastName()
	case n == "name" || n == "title":
		return f.AdjectiveDescriptive() + " " + f.Noun()
	case n == "id" || strings.HasSuffix(n, "id") && len(n) > 2:
		return f.UUID()
	case strings.Contains(n, "url") || strings.Contains(n, "href") || strings.Contains(n, "link"):
		return f.URL()
	case strings.Contains(n, "phone"):
		return f.Phone()
	case n == "city":
		return f.City()
	case n == "country":
		return f.Country()
	case strings.Contains(n, "color") || strings.Contains(n, "colour"):
		return f.Color()
	case n == "message" || n == "description" || n == "detail" || n == "summary" || n == "comment":
		return f.Sentence(6)
	}
	return f.Word()
}

func singular(name string) string {
	if strings.HasSuffix(name, "s") && len(name) > 1 {
		return name[:len(name)-1]
	}
	return name
}
