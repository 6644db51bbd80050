package gen

import (
	"encoding/base64"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/mail"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// formatSeeds is how many seeds each format is generated with.
const formatSeeds = 50

// formatCases are the string formats gen writes, each with where it is
// defined and a parser from the standard library that takes exactly
// the values of the format (or as near as the library has).
var formatCases = []struct {
	format string
	source string
	parse  func(string) error
}{
	// JSON Schema 2020-12 validation §7.3.
	{"date-time", "JSON Schema 2020-12 validation §7.3.1 (RFC 3339 date-time)", layout(time.RFC3339)},
	{"date", "JSON Schema 2020-12 validation §7.3.1 (RFC 3339 full-date)", layout(time.DateOnly)},
	{"time", "JSON Schema 2020-12 validation §7.3.1 (RFC 3339 full-time)", layout("15:04:05Z07:00")},
	{"duration", "JSON Schema 2020-12 validation §7.3.1 (RFC 3339 appendix A)", isDuration},
	{"email", "JSON Schema 2020-12 validation §7.3.2 (RFC 5321 mailbox)", isAddress},
	{"idn-email", "JSON Schema 2020-12 validation §7.3.2 (RFC 6531 mailbox)", isAddress},
	{"hostname", "JSON Schema 2020-12 validation §7.3.3 (RFC 1123)", isHostname},
	{"idn-hostname", "JSON Schema 2020-12 validation §7.3.3 (RFC 5890)", isHostname},
	{"ipv4", "JSON Schema 2020-12 validation §7.3.4 (RFC 2673)", isAddr(netip.Addr.Is4)},
	{"ipv6", "JSON Schema 2020-12 validation §7.3.4 (RFC 4291)", isAddr(netip.Addr.Is6)},
	{"uri", "JSON Schema 2020-12 validation §7.3.5 (RFC 3986 URI)", isURL(true)},
	{"uri-reference", "JSON Schema 2020-12 validation §7.3.5 (RFC 3986 URI-reference)", isURL(false)},
	{"iri", "JSON Schema 2020-12 validation §7.3.5 (RFC 3987 IRI)", isURL(true)},
	{"iri-reference", "JSON Schema 2020-12 validation §7.3.5 (RFC 3987 IRI-reference)", isURL(false)},
	{"uuid", "JSON Schema 2020-12 validation §7.3.5 (RFC 4122)", matching(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)},
	{"uri-template", "JSON Schema 2020-12 validation §7.3.6 (RFC 6570)", isTemplate},
	{"json-pointer", "JSON Schema 2020-12 validation §7.3.7 (RFC 6901)", isPointer},
	{"relative-json-pointer", "JSON Schema 2020-12 validation §7.3.7 (draft-handrews-relative-json-pointer)", isRelativePointer},
	{"regex", "JSON Schema 2020-12 validation §7.3.8 (ECMA-262)", func(v string) error { _, err := regexp.Compile(v); return err }},
	{"url", "none: common in documents, read as uri", isURL(true)},

	// The OpenAPI Format Registry (spec.openapis.org/registry/format/NAME).
	{"date-time-local", "registry date-time-local (RFC 3339 without the offset)", layout("2006-01-02T15:04:05")},
	{"http-date", "registry http-date (RFC 9110 §5.6.7 IMF-fixdate)", func(v string) error { _, err := http.ParseTime(v); return err }},
	{"byte", "registry byte (RFC 4648 §4 base64)", decodes(base64.StdEncoding)},
	{"base64url", "registry base64url (RFC 4648 §5)", func(v string) error {
		return errors.Join(decodes(base64.URLEncoding)(v), decodes(base64.RawURLEncoding)(v))
	}},
	{"binary", "registry binary (any sequence of octets)", nonEmpty},
	{"password", "registry password (a hint: any string)", nonEmpty},
	{"char", "registry char (a single character)", func(v string) error { return holds(utf8.RuneCountInString(v) == 1) }},
	{"commonmark", "registry commonmark (any text is CommonMark)", nonEmpty},
	{"html", "registry html", isMarkup},
	{"media-range", "registry media-range (RFC 9110 §12.5.1)", func(v string) error { _, _, err := mime.ParseMediaType(v); return err }},
	{"sf-boolean", "registry sf-boolean (RFC 8941 §3.3.6)", matching(`^\?[01]$`)},
	{"sf-integer", "registry sf-integer (RFC 8941 §3.3.1)", matching(`^-?[0-9]{1,15}$`)},
	{"sf-decimal", "registry sf-decimal (RFC 8941 §3.3.2)", matching(`^-?[0-9]{1,12}\.[0-9]{1,3}$`)},
	{"sf-string", "registry sf-string (RFC 8941 §3.3.3)", matching(`^"([\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*"$`)},
	{"sf-token", "registry sf-token (RFC 8941 §3.3.4)", matching(`^[A-Za-z*][!#$%&'*+\-.^_` + "`" + `|~0-9A-Za-z:/]*$`)},
	{"sf-binary", "registry sf-binary (RFC 8941 §3.3.5)", func(v string) error {
		if len(v) < 2 || v[0] != ':' || v[len(v)-1] != ':' {
			return errors.New("not within colons")
		}
		return decodes(base64.StdEncoding)(v[1 : len(v)-1])
	}},

	// The Registry's numbers, in a string.
	{"int8", "registry int8", ints(8)},
	{"int16", "registry int16", ints(16)},
	{"int32", "registry int32", ints(32)},
	{"int64", "registry int64", ints(64)},
	{"uint8", "registry uint8", uints(8)},
	{"uint16", "registry uint16", uints(16)},
	{"uint32", "registry uint32", uints(32)},
	{"uint64", "registry uint64", uints(64)},
	{"double-int", "registry double-int (a whole number a double holds exactly)", ints(53)},
	{"unixtime", "registry unixtime (seconds since 1970)", ints(64)},
	{"float", "registry float", floats(32)},
	{"double", "registry double", floats(64)},
	{"decimal", "registry decimal (fixed point)", isDecimal},
	{"decimal128", "registry decimal128", isDecimal},
}

// TestFormats generates strings of every format gen knows, with many
// seeds, and checks that each parses as its format, that the schema
// takes it, and that a seed gives the same value each time.
func TestFormats(t *testing.T) {
	for _, tc := range formatCases {
		t.Run(tc.format, func(t *testing.T) {
			doc := components(t, "3.1.0", "    S: {type: string, format: "+tc.format+"}")
			s := doc.Schemas["S"]
			for seed := uint64(1); seed <= formatSeeds; seed++ {
				v, ok := Value(s, Faker(seed, 0)).(string)
				if !ok {
					t.Fatalf("seed %d: not a string", seed)
				}
				if err := tc.parse(v); err != nil {
					t.Errorf("seed %d: %q is not a %s (%s): %v", seed, v, tc.format, tc.source, err)
				}
				if vs := s.Validate(v); len(vs) > 0 {
					t.Errorf("seed %d: %q: %v", seed, v, vs)
				}
				if again := Value(s, Faker(seed, 0)); again != v {
					t.Errorf("seed %d: %q, then %q", seed, v, again)
				}
			}
		})
	}
}

// TestFormatsListed checks that every format gen writes has a case in
// formatCases, so that none goes untested.
func TestFormatsListed(t *testing.T) {
	listed := map[string]bool{}
	for _, tc := range formatCases {
		listed[tc.format] = true
	}
	for name := range stringFormats {
		if !listed[name] {
			t.Errorf("format %s is written but not tested", name)
		}
	}
	if len(listed) != len(stringFormats) {
		t.Errorf("%d formats tested, %d written", len(listed), len(stringFormats))
	}
}

// TestFormatsWithOtherKeywords: the lengths, a pattern and an enum
// still hold beside a format, and a number in a string padded or cut to
// its lengths still parses.
func TestFormatsWithOtherKeywords(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		parse  func(string) error
	}{
		{"decimal, minLength", "{type: string, format: decimal, minLength: 12}", isDecimal},
		{"decimal, maxLength", "{type: string, format: decimal, maxLength: 3}", isDecimal},
		{"int64, minLength and maxLength", "{type: string, format: int64, minLength: 15, maxLength: 15}", ints(64)},
		{"double, maxLength", "{type: string, format: double, maxLength: 5}", floats(64)},
		{"byte, minLength", "{type: string, format: byte, minLength: 30}", decodes(base64.StdEncoding)},
		{"base64url, minLength", "{type: string, format: base64url, minLength: 30}", decodes(base64.RawURLEncoding)},
		{"sf-string, minLength", "{type: string, format: sf-string, minLength: 60}", matching(`^"[^"\\]*"$`)},
		{"date-time-local, minLength", "{type: string, format: date-time-local, minLength: 23}", layout("2006-01-02T15:04:05.000")},
		{"pattern beats format", "{type: string, format: decimal, pattern: '^[a-z]{3}$'}", matching(`^[a-z]{3}$`)},
		{"pattern and format agree", "{type: string, format: int32, pattern: '^[0-9]+$'}", ints(32)},
		{"enum beats format", "{type: string, format: int32, enum: [abc]}", matching(`^abc$`)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := components(t, "3.1.0", "    S: "+tc.schema).Schemas["S"]
			for seed := uint64(1); seed <= formatSeeds; seed++ {
				v, _ := Value(s, Faker(seed, 0)).(string)
				if err := tc.parse(v); err != nil {
					t.Errorf("seed %d: %q: %v", seed, v, err)
				}
				if vs := s.Validate(v); len(vs) > 0 {
					t.Errorf("seed %d: %q: %v", seed, v, vs)
				}
			}
		})
	}
}

// holds returns an error when ok is false.
func holds(ok bool) error {
	if !ok {
		return errors.New("not of the format")
	}
	return nil
}

func nonEmpty(v string) error { return holds(v != "" && utf8.ValidString(v)) }

func layout(l string) func(string) error {
	return func(v string) error { _, err := time.Parse(l, v); return err }
}

func matching(pattern string) func(string) error {
	re := regexp.MustCompile(pattern)
	return func(v string) error { return holds(re.MatchString(v)) }
}

func decodes(enc *base64.Encoding) func(string) error {
	return func(v string) error { _, err := enc.DecodeString(v); return err }
}

func ints(bits int) func(string) error {
	return func(v string) error { _, err := strconv.ParseInt(v, 10, bits); return err }
}

func uints(bits int) func(string) error {
	return func(v string) error { _, err := strconv.ParseUint(v, 10, bits); return err }
}

func floats(bits int) func(string) error {
	return func(v string) error { _, err := strconv.ParseFloat(v, bits); return err }
}

// isDecimal takes a fixed-point number: digits, and a fraction after a
// point, as a decimal type's parser reads them.
func isDecimal(v string) error {
	if err := matching(`^-?[0-9]+(\.[0-9]+)?$`)(v); err != nil {
		return err
	}
	_, err := strconv.ParseFloat(v, 64)
	return err
}

// isDuration takes RFC 3339 appendix A's duration, with at least one
// element.
func isDuration(v string) error {
	const dur = `^P(?:[0-9]+W|(?:[0-9]+Y)?(?:[0-9]+M)?(?:[0-9]+D)?(?:T(?:[0-9]+H)?(?:[0-9]+M)?(?:[0-9]+S)?)?)$`
	return holds(regexp.MustCompile(dur).MatchString(v) && v != "P" && !strings.HasSuffix(v, "T"))
}

func isAddress(v string) error {
	a, err := mail.ParseAddress(v)
	if err != nil {
		return err
	}
	return holds(a.Address == v)
}

// isHostname takes RFC 1123 host names: dot-separated labels of letters,
// digits and hyphens, neither starting nor ending with a hyphen.
func isHostname(v string) error {
	label := regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$`)
	for _, l := range strings.Split(v, ".") {
		if !label.MatchString(l) {
			return fmt.Errorf("label %q", l)
		}
	}
	return holds(len(v) <= 253)
}

func isAddr(is func(netip.Addr) bool) func(string) error {
	return func(v string) error {
		a, err := netip.ParseAddr(v)
		if err != nil {
			return err
		}
		return holds(is(a) && a.Zone() == "")
	}
}

func isURL(absolute bool) func(string) error {
	return func(v string) error {
		u, err := url.Parse(v)
		if err != nil {
			return err
		}
		return holds(!absolute || u.IsAbs() && u.Host != "")
	}
}

// isTemplate takes a URI whose {expressions}, expanded, leave a URI.
func isTemplate(v string) error {
	expanded := regexp.MustCompile(`\{[A-Za-z0-9_.,*:]+\}`).ReplaceAllString(v, "x")
	if strings.ContainsAny(expanded, "{}") {
		return errors.New("unbalanced braces")
	}
	return isURL(false)(expanded)
}

func isPointer(v string) error {
	if v != "" && v[0] != '/' {
		return errors.New("not starting with /")
	}
	for i := strings.IndexByte(v, '~'); i >= 0; i = strings.IndexByte(v, '~') {
		if i+1 >= len(v) || v[i+1] != '0' && v[i+1] != '1' {
			return errors.New("~ not escaping")
		}
		v = v[i+2:]
	}
	return nil
}

func isRelativePointer(v string) error {
	m := regexp.MustCompile(`^(0|[1-9][0-9]*)(#|(/.*))?$`).FindStringSubmatch(v)
	if m == nil {
		return errors.New("no leading number")
	}
	return isPointer(m[3])
}

// isMarkup takes well-formed markup, read by encoding/xml.
func isMarkup(v string) error {
	d := xml.NewDecoder(strings.NewReader(v))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return holds(strings.HasPrefix(v, "<"))
		}
		if err != nil {
			return err
		}
	}
}
