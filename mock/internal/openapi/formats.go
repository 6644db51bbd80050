package openapi

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/message"

	"github.com/plantmock/plantmock/internal/jsonx"
)

// Formats asserted, in both dialects: int32 and int64 (whole numbers in
// range), and uuid, date, date-time, email, ipv4, ipv6 and uri, whose
// wrong values are nearly always client bugs worth a 4xx. JSON Schema makes
// format an annotation by default; a mock that let a malformed uuid through
// would hide the bug until the real server refuses it. Every other format
// is an annotation, as JSON Schema says: hostname, uri-reference, regex and
// the rest are too loosely used in real documents to refuse requests over.
var assertedFormats = []string{"int32", "int64", "uuid", "date", "date-time", "email", "ipv4", "ipv6", "uri"}

var asserted = words(strings.Join(assertedFormats, " "))

// annotationFormats are the library's formats that are not asserted.
var annotationFormats = []string{
	"json-pointer", "relative-json-pointer", "duration", "period", "hostname", "time", "iri",
	"uri-reference", "iri-reference", "uri-template", "semver", "regex", "idn-email", "idn-hostname",
}

func registerFormats(c *jsonschema.Compiler) {
	c.AssertFormat()
	for _, f := range annotationFormats {
		c.RegisterFormat(&jsonschema.Format{Name: f, Validate: func(any) error { return nil }})
	}
	c.RegisterFormat(&jsonschema.Format{Name: "int32", Validate: func(v any) error { return intRange("int32", v) }})
	c.RegisterFormat(&jsonschema.Format{Name: "int64", Validate: func(v any) error { return intRange("int64", v) }})
}

// intBounds are the least and greatest values of int32 and int64, by
// format name.
var intBounds = map[string][2]jsonx.Number{
	"int32": {{Neg: true, Digits: "2147483648"}, {Digits: "2147483647"}},
	"int64": {{Neg: true, Digits: "9223372036854775808"}, {Digits: "9223372036854775807"}},
}

// intRange checks that a number is whole and within the range of format
// name (int32 or int64), from its digits and exponent: 1e100000 is over
// the int64 maximum without being expanded. Values that are not numbers,
// and numbers beyond jsonx's caps (refused before formats are checked),
// are not its business.
func intRange(name string, v any) error {
	n, ok := v.(json.Number)
	if !ok {
		return nil
	}
	x, err := jsonx.ReadNumber(string(n))
	lo, hi := intBounds[name][0], intBounds[name][1]
	switch {
	case err != nil:
		return nil
	case !x.IsInt():
		return fmt.Errorf("%s is not a whole number, as %s requires", clipped(string(n)), name)
	case jsonx.Cmp(x, hi) > 0:
		return fmt.Errorf("%s is over the %s maximum %s", clipped(string(n)), name, hi.Digits)
	case jsonx.Cmp(x, lo) < 0:
		return fmt.Errorf("%s is under the %s minimum -%s", clipped(string(n)), name, lo.Digits)
	}
	return nil
}

// integerLiterals is the one rule of the OAS 3.0 Schema Object that JSON
// Schema draft 4 as the library reads it lacks: an integer is written
// without a fraction or an exponent (7.0 and 7e0 are numbers, not
// integers). In 3.1 documents any number with a zero fraction is an
// integer, as JSON Schema 2020-12 says.
var integerLiterals = &jsonschema.Vocabulary{
	URL: "urn:plantmock:oas30-integers",
	Compile: func(_ *jsonschema.CompilerContext, obj map[string]any) (jsonschema.SchemaExt, error) {
		switch t := obj["type"].(type) {
		case string:
			if t == "integer" {
				return integerOnly{}, nil
			}
		case []any:
			hasInt, hasNum := false, false
			for _, x := range t {
				hasInt = hasInt || x == "integer"
				hasNum = hasNum || x == "number"
			}
			if hasInt && !hasNum {
				return integerOnly{}, nil
			}
		}
		return nil, nil
	},
}

type integerOnly struct{}

func (integerOnly) Validate(ctx *jsonschema.ValidatorContext, v any) {
	if n, ok := v.(json.Number); ok && strings.ContainsAny(string(n), ".eE") {
		ctx.AddError(&notIntegerLiteral{got: string(n)})
	}
}

// notIntegerLiteral is the error of integerOnly.
type notIntegerLiteral struct{ got string }

func (*notIntegerLiteral) KeywordPath() []string { return []string{"type"} }

func (k *notIntegerLiteral) LocalizedString(*message.Printer) string {
	return fmt.Sprintf("expected integer, got %s (in OpenAPI 3.0 an integer is written without a fraction or exponent)", clipped(k.got))
}
