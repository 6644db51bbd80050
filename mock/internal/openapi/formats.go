package openapi

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/message"
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
	c.RegisterFormat(&jsonschema.Format{Name: "int32", Validate: intRange("int32", 32)})
	c.RegisterFormat(&jsonschema.Format{Name: "int64", Validate: intRange("int64", 64)})
}

var (
	bounds = map[int][2]*big.Int{
		32: {big.NewInt(-1 << 31), big.NewInt(1<<31 - 1)},
		64: {big.NewInt(-1 << 63), big.NewInt(1<<63 - 1)},
	}
)

// intRange checks that a number is whole and within a signed integer
// range of the given bits. Values that are not numbers are not its
// business.
func intRange(name string, bits int) func(any) error {
	lo, hi := bounds[bits][0], bounds[bits][1]
	return func(v any) error {
		n, ok := v.(json.Number)
		if !ok {
			return nil
		}
		if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
			// The usual case, without big numbers.
			switch {
			case i > hi.Int64():
				return fmt.Errorf("%s is over the %s maximum %s", n, name, hi)
			case i < lo.Int64():
				return fmt.Errorf("%s is under the %s minimum %s", n, name, lo)
			}
			return nil
		}
		r, ok := new(big.Rat).SetString(string(n))
		if !ok {
			return nil
		}
		if !r.IsInt() {
			return fmt.Errorf("%s is not a whole number, as %s requires", clip(string(n)), name)
		}
		switch i := r.Num(); {
		case i.Cmp(hi) > 0:
			return fmt.Errorf("%s is over the %s maximum %s", clip(string(n)), name, hi)
		case i.Cmp(lo) < 0:
			return fmt.Errorf("%s is under the %s minimum %s", clip(string(n)), name, lo)
		}
		return nil
	}
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
	return fmt.Sprintf("expected integer, got %s (in OpenAPI 3.0 an integer is written without a fraction or exponent)", clip(k.got))
}
