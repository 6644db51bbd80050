package gen

import (
	"encoding/base64"
	"html"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/brianvoe/gofakeit/v6"
)

// format is how a string of one format is written: make draws a value
// of the format, and pad says how fit lengthens or cuts one to the
// schema's lengths without leaving the format where it can.
type format struct {
	make func(f *gofakeit.Faker) string
	pad  padding
}

// stringFormats are the string formats gen writes as they say, by name:
// those of JSON Schema 2020-12 validation §7.3 and of the OpenAPI Format
// Registry (spec.openapis.org/registry/format), the numeric ones written
// as decimal digits that their parsers take (an SDK decoding a
// `format: decimal` string with Go's `,string` or a BigDecimal fails on
// a word). A format not here gets a string made from the property name.
// The table is read only.
var stringFormats = map[string]format{
	// JSON Schema 2020-12 validation §7.3.
	"date-time":             {dateTime, padFraction},
	"date":                  {func(f *gofakeit.Faker) string { return f.Date().Format(time.DateOnly) }, padLetters},
	"time":                  {func(f *gofakeit.Faker) string { return f.Date().Format("15:04:05Z") }, padLetters},
	"duration":              {duration, padLetters},
	"email":                 {(*gofakeit.Faker).Email, padLocal},
	"idn-email":             {(*gofakeit.Faker).Email, padLocal},
	"hostname":              {(*gofakeit.Faker).DomainName, padLetters},
	"idn-hostname":          {(*gofakeit.Faker).DomainName, padLetters},
	"ipv4":                  {(*gofakeit.Faker).IPv4Address, padLetters},
	"ipv6":                  {(*gofakeit.Faker).IPv6Address, padLetters},
	"uri":                   {(*gofakeit.Faker).URL, padPath},
	"uri-reference":         {(*gofakeit.Faker).URL, padPath},
	"iri":                   {(*gofakeit.Faker).URL, padPath},
	"iri-reference":         {(*gofakeit.Faker).URL, padPath},
	"uri-template":          {func(f *gofakeit.Faker) string { return f.URL() + "/{id}" }, padLetters},
	"uuid":                  {(*gofakeit.Faker).UUID, padLetters},
	"json-pointer":          {jsonPointer, padLetters},
	"relative-json-pointer": {func(f *gofakeit.Faker) string { return strconv.Itoa(f.Number(0, 3)) + jsonPointer(f) }, padLetters},
	"regex":                 {func(f *gofakeit.Faker) string { return "^" + regexp.QuoteMeta(f.Word()) + "[0-9]*$" }, padLetters},
	"url":                   {(*gofakeit.Faker).URL, padPath}, // not registered, but common

	// The OpenAPI Format Registry's strings.
	"date-time-local": {func(f *gofakeit.Faker) string { return f.Date().Format("2006-01-02T15:04:05") }, padFraction},
	"http-date":       {func(f *gofakeit.Faker) string { return f.Date().UTC().Format(httpDate) }, padLetters},
	"byte":            {func(f *gofakeit.Faker) string { return base64.StdEncoding.EncodeToString([]byte(f.Word())) }, padBase64},
	"base64url":       {base64URL, padBase64URL},
	"binary":          {func(f *gofakeit.Faker) string { return f.LetterN(16) }, padLetters},
	"password":        {func(f *gofakeit.Faker) string { return f.Password(true, true, true, false, false, 12) }, padLetters},
	"char":            {(*gofakeit.Faker).Letter, padLetters},
	"commonmark":      {func(f *gofakeit.Faker) string { return "**" + f.Word() + "** " + f.Sentence(5) }, padLetters},
	"html":            {func(f *gofakeit.Faker) string { return "<p>" + html.EscapeString(f.Sentence(5)) + "</p>" }, padLetters},
	"media-range":     {func(f *gofakeit.Faker) string { return f.RandomString(mediaRanges) }, padLetters},
	"sf-boolean":      {func(f *gofakeit.Faker) string { return "?" + strconv.Itoa(f.Number(0, 1)) }, padLetters},
	"sf-integer":      {digits(0, 999_999), padZeros},
	"sf-decimal":      {fraction(0, 999_999), padZeros},
	"sf-string":       {func(f *gofakeit.Faker) string { return `"` + f.Sentence(3) + `"` }, padQuoted},
	"sf-token":        {func(f *gofakeit.Faker) string { return strings.ToLower(f.Word()) }, padLetters},
	"sf-binary":       {func(f *gofakeit.Faker) string { return ":" + base64.StdEncoding.EncodeToString([]byte(f.Word())) + ":" }, padLetters},

	// The Registry's numbers, written in a string.
	"int8":       {digits(0, 127), padZeros},
	"int16":      {digits(0, 32_767), padZeros},
	"int32":      {digits(0, 1_000_000), padZeros},
	"int64":      {digits(0, 1_000_000_000), padZeros},
	"uint8":      {digits(0, 255), padZeros},
	"uint16":     {digits(0, 65_535), padZeros},
	"uint32":     {digits(0, 1_000_000), padZeros},
	"uint64":     {digits(0, 1_000_000_000), padZeros},
	"double-int": {digits(0, 1_000_000_000), padZeros},
	"unixtime":   {digits(946_684_800, 1_893_456_000), padZeros}, // 2000 to 2030
	"float":      {fraction(0, 99_999), padZeros},
	"double":     {fraction(0, 99_999), padZeros},
	"decimal":    {fraction(0, 99_999), padZeros},
	"decimal128": {fraction(0, 99_999), padZeros},
}

// httpDate is the IMF-fixdate of RFC 9110 §5.6.7 (net/http's
// TimeFormat, which gen does not import net/http for).
const httpDate = "Mon, 02 Jan 2006 15:04:05 GMT"

// mediaRanges are what media-range values are drawn from: RFC 9110
// §12.5.1's media-range, with and without wildcards and parameters.
var mediaRanges = []string{"application/json", "text/html", "text/plain;charset=utf-8", "image/*", "*/*", "application/xml;q=0.9"}

// byFormat returns a value of the string format named, or "" for a
// format gen does not know.
func byFormat(name string, f *gofakeit.Faker) string {
	if e, ok := stringFormats[name]; ok {
		return e.make(f)
	}
	return ""
}

// paddingOf returns how a value of the format named is lengthened.
func paddingOf(name string) padding {
	return stringFormats[name].pad // padLetters for an unknown format
}

func dateTime(f *gofakeit.Faker) string {
	return f.Date().UTC().Truncate(time.Second).Format(time.RFC3339)
}

// duration writes an ISO 8601 duration (RFC 3339 appendix A): days,
// hours and minutes.
func duration(f *gofakeit.Faker) string {
	return "P" + strconv.Itoa(f.Number(0, 30)) + "DT" + strconv.Itoa(f.Number(0, 23)) + "H" + strconv.Itoa(f.Number(0, 59)) + "M"
}

// jsonPointer writes an RFC 6901 pointer of two tokens: /word/n.
func jsonPointer(f *gofakeit.Faker) string {
	return "/" + strings.ToLower(f.Word()) + "/" + strconv.Itoa(f.Number(0, 9))
}

// base64URL writes nine random bytes in RFC 4648 §5's alphabet: a
// multiple of three, so that it needs no padding and decodes with or
// without it.
func base64URL(f *gofakeit.Faker) string {
	var b [9]byte
	for i := range b {
		b[i] = f.Uint8()
	}
	return base64.URLEncoding.EncodeToString(b[:])
}

// digits returns a maker of whole numbers in [lo, hi], in decimal.
func digits(lo, hi int) func(f *gofakeit.Faker) string {
	return func(f *gofakeit.Faker) string { return strconv.Itoa(f.Number(lo, hi)) }
}

// fraction returns a maker of numbers in [lo, hi] with two decimals,
// written in decimal as money is: 1234.50.
func fraction(lo, hi int) func(f *gofakeit.Faker) string {
	return func(f *gofakeit.Faker) string {
		return strconv.Itoa(f.Number(lo, hi)) + "." + strconv.Itoa(f.Number(10, 99))
	}
}
