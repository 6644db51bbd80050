package openapi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestLibraryPanicsOnHugeExponent pins the JSON Schema library's
// behaviour that numbers.go guards against: big.Rat cannot read an
// exponent over a million, and numValidate then compares a nil *big.Rat.
// When this test fails, the library has changed: the guard may be
// revisited (it stays for the cost of big exponents).
func TestLibraryPanicsOnHugeExponent(t *testing.T) {
	for _, schema := range []string{`{"maximum": 10}`, `{"multipleOf": 7}`} {
		t.Run(schema, func(t *testing.T) {
			var doc any
			if err := json.Unmarshal([]byte(schema), &doc); err != nil {
				t.Fatal(err)
			}
			c := jsonschema.NewCompiler()
			if err := c.AddResource("urn:pin", doc); err != nil {
				t.Fatal(err)
			}
			cs, err := c.Compile("urn:pin")
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if recover() == nil {
					t.Error("the library validated 1e10000000 without panicking")
				}
			}()
			_ = cs.Validate(json.Number("1e10000000"))
		})
	}
}

// TestBigNumbers checks the verdicts and messages on numbers beyond the
// caps and far beyond the document's numbers, by both paths (checkFast
// compares them).
func TestBigNumbers(t *testing.T) {
	doc := loadComponents(t, "3.1.0", `    N:
      type: object
      properties:
        max: {type: number, maximum: 10}
        min: {type: number, minimum: 0.5}
        emax: {type: number, exclusiveMaximum: 10}
        emin: {type: number, exclusiveMinimum: -10}
        mult: {type: number, multipleOf: 7}
        half: {type: number, multipleOf: 0.5}
        int: {type: integer}
        i32: {type: integer, format: int32}
        i64: {type: integer, format: int64}
        enum: {enum: [1, 2]}
        any: {}
`)
	s := doc.Schemas["N"]
	digits1001 := strings.Repeat("1", 1001)
	tests := []struct {
		body string
		want string // the violations, joined by "; "
	}{
		{`{"max":1e100000}`, "max: 1e100000 is over the maximum 10"},
		{`{"max":1e10000000}`, "max: 1e10000000 is over the maximum 10"},
		{`{"max":-1e10000000}`, ""},
		{`{"max":1e-10000000}`, ""},
		{`{"min":1e-10000000}`, "min: 1e-10000000 is under the minimum 0.5"},
		{`{"min":-1e999999999}`, "min: -1e999999999 is under the minimum 0.5"},
		{`{"emax":1E+100000}`, "emax: 1E+100000 is not under the exclusive maximum 10"},
		{`{"emin":-1e100000}`, "emin: -1e100000 is not over the exclusive minimum -10"},
		{`{"mult":1e10000000}`, "mult: 1e10000000 is not a multiple of 7"},
		{`{"mult":7e10000000}`, ""},
		{`{"mult":49e100000}`, ""},
		{`{"mult":1e-10000000}`, "mult: 1e-10000000 is not a multiple of 7"},
		{`{"half":3e10000000}`, ""},
		{`{"half":5e-10000000}`, "half: 5e-10000000 is not a multiple of 0.5"},
		// An integer verdict does not depend on the size of the exponent.
		{`{"int":1e100000}`, ""},
		{`{"int":1e10000000}`, ""},
		{`{"int":1.5e999999999}`, ""},
		{`{"int":1e-10000000}`, "int: expected integer, got number"},
		{`{"int":12345e-100000}`, "int: expected integer, got number"},
		{`{"i32":1e100000}`, "i32: 1e100000 is over the int32 maximum 2147483647"},
		{`{"i64":-1e10000000}`, "i64: -1e10000000 is under the int64 minimum -9223372036854775808"},
		{`{"i64":` + strings.Repeat("9", 1000) + `}`, "i64: 99999999999999999999999999999999...(1000 bytes) is over the int64 maximum 9223372036854775807"},
		{`{"i32":1.5e10}`, "i32: 1.5e10 is over the int32 maximum 2147483647"},
		{`{"i32":2.5}`, "i32: expected integer, got number"},
		{`{"enum":1e100000}`, "enum: value is not one of the allowed values"},
		{`{"any":1e100000}`, ""},
		// Beyond the caps: refused, whatever the schema, before the rest.
		{`{"any":` + digits1001 + `,"max":11}`, "any: 11111111111111111111111111111111...(1001 bytes) has more than 1000 digits"},
		{`{"any":1e1000000000}`, "any: 1e1000000000 has an exponent of more than 9 digits"},
		{`{"any":[1,0.` + strings.Repeat("0", 1000) + `]}`, "any[1]: 0.000000000000000000000000000000...(1002 bytes) has more than 1000 digits"},
		{`{"max":2e0000000000000000000001}`, "max: 2e0000000000000000000001 is over the maximum 10"},
	}
	for _, tt := range tests {
		name := tt.body
		if len(name) > 60 {
			name = name[:60]
		}
		t.Run(name, func(t *testing.T) {
			checkFast(t, s, []byte(tt.body))
			var got []string
			for _, v := range s.ValidateRequest(decode(t, tt.body)) {
				got = append(got, v.String())
			}
			if strings.Join(got, "; ") != tt.want {
				t.Errorf("violations %q, want %q", got, tt.want)
			}
		})
	}
}

// TestBigNumbersInResponses checks that Validate, which judges answers
// and stored values, is guarded as ValidateRequest is.
func TestBigNumbersInResponses(t *testing.T) {
	doc := loadComponents(t, "3.1.0", "    N: {type: number, maximum: 10, multipleOf: 2}\n")
	got := doc.Schemas["N"].Validate(json.Number("1e10000000"))
	if len(got) != 1 || got[0].String() != "body: 1e10000000 is over the maximum 10" {
		t.Errorf("violations %v", got)
	}
}
