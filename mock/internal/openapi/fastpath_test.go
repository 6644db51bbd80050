package openapi

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/plantmock/plantmock"
	"github.com/plantmock/plantmock/internal/clip"
	"github.com/plantmock/plantmock/internal/jsonx"
)

// checkFast decodes body with s's fast path and the usual way (what
// checkBody does when the fast path does not decide: jsonx.Decode, then
// ValidateRequest), and fails when the fast path decides otherwise than
// the usual path: another verdict, another value, other violations. It
// returns whether the fast path decided and whether the usual path finds
// body valid.
func checkFast(tb testing.TB, s *Schema, body []byte) (decided, full bool) {
	tb.Helper()
	d, decided := s.DecodeRequest(context.Background(), body)
	got, gotVs := d.Value, d.Violations
	want, err := jsonx.Decode(body)
	var vs []Violation
	if err == nil {
		vs = s.ValidateRequest(want)
	}
	full = err == nil && len(vs) == 0
	switch {
	case !decided:
	case err != nil:
		tb.Errorf("%q: the fast path decides what the usual path cannot read: %v", body, err)
	case !reflect.DeepEqual(got, want):
		tb.Errorf("%q: the fast path builds %#v, jsonx.Decode %#v", body, got, want)
	case len(gotVs) == 0 && !full:
		tb.Errorf("%q: the fast path accepts what the usual path refuses: %v", body, vs)
	case !reflect.DeepEqual(gotVs, vs):
		tb.Errorf("%q: the fast path finds %#v, the usual path %#v", body, gotVs, vs)
	}
	return decided, full
}

// TestDecodeRequestJSON checks the fast path's reading of JSON against
// jsonx.Decode, with a schema that accepts every value: the same values
// for what jsonx.Decode reads, false for what it refuses.
func TestDecodeRequestJSON(t *testing.T) {
	valid := []string{
		`0`, `-0`, `7`, `-12`, `1.5`, `-1.5E-3`, `1e400`, `1E+5`, `0.0`,
		`9223372036854775807`, `123456789012345678901234567890`,
		`""`, `"plant"`, `true`, `false`, `null`, `{}`, `[]`, `[[]]`, `{"a":{}}`,
		" {\"a\" : [ 1 , 2.50 ,\t{ } ] }\r\n", "\t\n[ ]\n", `[{"a":[null,true,false,"x"]},-0.0]`,
		`{"a":1,"a":2}`, `{"a":{"b":1},"b":0,"a":[]}`,
		`"\"\\\/\b\f\n\r\t"`, `"\u00e9\u00E9 é 🌵 \u2028"`, `"\u0000"`, "\"\x7f\"",
		`"\ud83c\udf35"`, `"\uD83C\uDF35"`, `"\ud800"`, `"\udc00"`, `"\ud800\ud800"`, `"\udc00\ud83c\udf35"`,
		`"\ud800\n"`, `"\ud800x"`, `"\ud800\u0041"`, `"\ud83c"`,
		`{"\u0061":1,"a\"b":2,"\ud83c\udf35":3,"":4}`,
		strings.Repeat("[", maxValueDepth+1) + strings.Repeat("]", maxValueDepth+1),
	}
	invalid := []string{
		``, ` `, `{`, `}`, `]`, `[1,]`, `[,1]`, `{"a":1,}`, `{,}`, `{"a" 1}`, `{"a":}`, `{a:1}`, `{'a':1}`, `{"a":1 "b":2}`,
		`[1 2]`, `01`, `-01`, `-`, `--1`, `1.`, `.5`, `+1`, `1e`, `1e+`, `1.e5`, `0x1`, `1_000`, `NaN`, `Infinity`, `-Infinity`,
		`tru`, `nul`, `truex`, `nulll`, `True`, `"abc`, `"\x"`, `"\u12"`, `"\u12G4"`, `"\`, `"\u"`, "\"a\x01\"", "\"\t\"",
		"\"\xff\"", "\"\xc3\x28\"", "\xff", `{"a":1}{}`, `1 2`, `[] x`, "\xef\xbb\xbf{}", "{}\x00", `'a'`,
		strings.Repeat("[", 20000),
	}
	for _, version := range []string{"3.0.3", "3.1.0"} {
		s := loadComponents(t, version, "    Any: {}\n").Schemas["Any"]
		if !s.HasFastPath() {
			t.Fatalf("%s: {} has no fast path", version)
		}
		for _, in := range valid {
			if fast, full := checkFast(t, s, []byte(in)); !fast || !full {
				t.Errorf("%s: %.40q: fast %v, usual %v, want both true", version, in, fast, full)
			}
		}
		for _, in := range invalid {
			if fast, full := checkFast(t, s, []byte(in)); fast || full {
				t.Errorf("%s: %.40q: fast %v, usual %v, want both false", version, in, fast, full)
			}
		}
		// Deeper than a value may nest to be validated: refused by both
		// paths, which say where; deeper than the fast path reads, by
		// the usual path.
		deep := strings.Repeat("[", maxValueDepth+2) + strings.Repeat("]", maxValueDepth+2)
		if fast, full := checkFast(t, s, []byte(deep)); !fast || full {
			t.Errorf("%s: %d levels: fast %v, usual %v, want true, false", version, maxValueDepth+2, fast, full)
		}
		deeper := strings.Repeat("[", maxFastDepth+2) + strings.Repeat("]", maxFastDepth+2)
		if fast, full := checkFast(t, s, []byte(deeper)); fast || full {
			t.Errorf("%s: %d levels: fast %v, usual %v, want false, false", version, maxFastDepth+2, fast, full)
		}
		vs := s.ValidateRequest(jsonxValue([]byte(deep)))
		if want := clip.To(strings.Repeat("[0]", maxValueDepth), clip.Path) + ": nested deeper than 128 levels"; len(vs) != 1 || vs[0].String() != want {
			t.Errorf("%s: %d levels: %v", version, maxValueDepth+2, vs)
		}
	}
}

// TestDecodeRequestKeywords checks each keyword the fast path checks,
// in both dialects: it decides, as the usual path does (valid), with the
// same violations; numbers it does not compare exactly as it reads them
// (1.0 as an integer, 2.6 against a bound, 1.0 in an enum) and objects
// and arrays in an enum or const included.
func TestDecodeRequestKeywords(t *testing.T) {
	tests := []struct {
		name, version, schema string
		body                  string
		valid                 bool
	}{
		{"string", "3.1.0", `{type: string}`, `"a"`, true},
		{"string, a number", "3.1.0", `{type: string}`, `1`, false},
		{"type array, null", "3.1.0", `{type: [string, "null"]}`, `null`, true},
		{"type array, a number", "3.1.0", `{type: [string, "null"]}`, `1`, false},
		{"integer", "3.1.0", `{type: integer}`, `7`, true},
		{"integer with a zero fraction, 3.1", "3.1.0", `{type: integer}`, `7.0`, true},
		{"integer with an exponent, 3.1", "3.1.0", `{type: integer}`, `1e3`, true},
		{"integer, a fraction", "3.1.0", `{type: integer}`, `7.5`, false},
		{"integer beyond int64", "3.1.0", `{type: integer}`, `12345678901234567890123`, true},
		{"number", "3.1.0", `{type: number}`, `7.5`, true},
		{"number, huge", "3.1.0", `{type: number}`, `1e400`, true},
		{"integer with a zero fraction, 3.0", "3.0.3", `{type: integer}`, `7.0`, false},
		{"integer, 3.0", "3.0.3", `{type: integer}`, `-7`, true},
		{"nullable", "3.0.3", `{type: string, nullable: true}`, `null`, true},
		{"not nullable", "3.0.3", `{type: string}`, `null`, false},
		{"nullable with an enum without null", "3.0.3", `{type: string, nullable: true, enum: [a]}`, `null`, false},
		{"nullable in 3.1 is ignored", "3.1.0", `{type: string, nullable: true}`, `null`, false},
		{"const in 3.0 is ignored", "3.0.3", `{type: string, const: a}`, `"b"`, true},
		{"const", "3.1.0", `{const: a}`, `"a"`, true},
		{"const, another", "3.1.0", `{const: a}`, `"b"`, false},
		{"const object", "3.1.0", `{const: {a: 1}}`, `{"a":1}`, true},
		{"enum string", "3.1.0", `{enum: [a, 1, null, true]}`, `"a"`, true},
		{"enum number", "3.1.0", `{enum: [a, 1, null, true]}`, `1`, true},
		{"enum number with a zero fraction", "3.1.0", `{enum: [a, 1, null, true]}`, `1.0`, true},
		{"enum null", "3.1.0", `{enum: [a, 1, null, true]}`, `null`, true},
		{"enum true", "3.1.0", `{enum: [a, 1, null, true]}`, `true`, true},
		{"enum false", "3.1.0", `{enum: [a, 1, null, true]}`, `false`, false},
		{"enum, another string", "3.1.0", `{enum: [a, 1, null, true]}`, `"b"`, false},
		{"enum, an array", "3.1.0", `{enum: [a, 1, null, true]}`, `[1]`, false},
		{"enum of two", "3.1.0", `{allOf: [{enum: [a, b]}, {enum: [b, c]}]}`, `"b"`, true},
		{"enum of two, in one only", "3.1.0", `{allOf: [{enum: [a, b]}, {enum: [b, c]}]}`, `"a"`, false},
		{"enum, 3.0", "3.0.3", `{type: integer, enum: [1, 2]}`, `2`, true},
		{"enum beyond int64", "3.1.0", `{enum: [12345678901234567890]}`, `12345678901234567890`, true},
		{"minLength in code points", "3.1.0", `{type: string, minLength: 2, maxLength: 2}`, `"é🌵"`, true},
		{"maxLength in code points", "3.1.0", `{type: string, minLength: 2, maxLength: 2}`, `"é🌵x"`, false},
		{"minLength, escaped", "3.1.0", `{type: string, minLength: 2, maxLength: 2}`, `"\u00e9"`, false},
		{"maxLength 2.0", "3.1.0", `{type: string, maxLength: 2.0}`, `"ab"`, true},
		{"pattern", "3.1.0", `{type: string, pattern: '^a+$'}`, `"aa"`, true},
		{"pattern, no match", "3.1.0", `{type: string, pattern: '^a+$'}`, `"ab"`, false},
		{"minimum", "3.1.0", `{type: integer, minimum: 1, maximum: 10}`, `1`, true},
		{"under the minimum", "3.1.0", `{type: integer, minimum: 1, maximum: 10}`, `0`, false},
		{"maximum", "3.1.0", `{type: integer, minimum: 1, maximum: 10}`, `10`, true},
		{"over the maximum", "3.1.0", `{type: integer, minimum: 1, maximum: 10}`, `11`, false},
		{"minimum, -0", "3.1.0", `{type: integer, minimum: 0}`, `-0`, true},
		{"fractional minimum", "3.1.0", `{type: integer, minimum: 1.5}`, `2`, true},
		{"under a fractional minimum", "3.1.0", `{type: integer, minimum: 1.5}`, `1`, false},
		{"fractional maximum", "3.1.0", `{maximum: -1.5}`, `-2`, true},
		{"over a fractional maximum", "3.1.0", `{maximum: -1.5}`, `-1`, false},
		{"a bound and a fraction", "3.1.0", `{minimum: 0}`, `0.5`, true},
		{"a bound and a huge whole number", "3.1.0", `{minimum: 0}`, `12345678901234567890`, true},
		{"exclusiveMinimum", "3.1.0", `{exclusiveMinimum: 0}`, `0`, false},
		{"over exclusiveMinimum", "3.1.0", `{exclusiveMinimum: 0}`, `1`, true},
		{"exclusiveMaximum", "3.1.0", `{exclusiveMaximum: 10}`, `10`, false},
		{"under exclusiveMaximum", "3.1.0", `{exclusiveMaximum: 10}`, `9`, true},
		{"a minimum beyond int64", "3.1.0", `{minimum: 1e30}`, `9223372036854775807`, false},
		{"a maximum beyond int64", "3.1.0", `{maximum: 1e30}`, `9223372036854775807`, true},
		{"boolean exclusiveMinimum, 3.0", "3.0.3", `{type: integer, minimum: 1, exclusiveMinimum: true}`, `1`, false},
		{"over boolean exclusiveMinimum, 3.0", "3.0.3", `{type: integer, minimum: 1, exclusiveMinimum: true}`, `2`, true},
		{"boolean exclusiveMaximum in 3.1 is ignored", "3.1.0", `{maximum: 1, exclusiveMaximum: true}`, `1`, true},
		{"multipleOf", "3.1.0", `{multipleOf: 3}`, `-9`, true},
		{"not a multiple", "3.1.0", `{multipleOf: 3}`, `10`, false},
		{"int32", "3.1.0", `{type: integer, format: int32}`, `2147483647`, true},
		{"int32, the least", "3.1.0", `{type: integer, format: int32}`, `-2147483648`, true},
		{"over int32", "3.1.0", `{type: integer, format: int32}`, `2147483648`, false},
		{"int64 on a fraction", "3.0.3", `{type: number, format: int64}`, `1.5`, false},
		{"uuid", "3.1.0", `{type: string, format: uuid}`, `"0b7a3e3c-6f1a-4d3c-9d8b-2a1f0e4c5b6a"`, true},
		{"not a uuid", "3.1.0", `{type: string, format: uuid}`, `"0b7a3e3c"`, false},
		{"date", "3.0.3", `{type: string, format: date}`, `"2024-02-29"`, true},
		{"not a date", "3.0.3", `{type: string, format: date}`, `"2023-02-29"`, false},
		{"an annotation format", "3.1.0", `{type: string, format: hostname}`, `"-"`, true},
		{"additionalProperties false", "3.1.0", `{properties: {a: {}}, additionalProperties: false}`, `{"a":1}`, true},
		{"additionalProperties false, another", "3.1.0", `{properties: {a: {}}, additionalProperties: false}`, `{"b":1}`, false},
		{"additionalProperties schema", "3.1.0", `{properties: {a: {}}, additionalProperties: {type: integer}}`, `{"a":"x","b":2}`, true},
		{"additionalProperties schema, broken", "3.1.0", `{properties: {a: {}}, additionalProperties: {type: integer}}`, `{"b":"x"}`, false},
		{"additionalProperties false in a member", "3.1.0", `{allOf: [{properties: {a: {}}, additionalProperties: false}, {properties: {b: {}}}]}`, `{"b":1}`, false},
		{"additionalProperties false, escaped name", "3.1.0", `{properties: {a: {}}, additionalProperties: false}`, `{"\u0061":1}`, true},
		{"false property", "3.1.0", `{properties: {a: false}}`, `{"a":1}`, false},
		{"false property, absent", "3.1.0", `{properties: {a: false}}`, `{}`, true},
		{"properties of a non-object", "3.1.0", `{properties: {a: {type: string}}}`, `"x"`, true},
		{"minProperties with a duplicate", "3.1.0", `{minProperties: 2}`, `{"a":1,"a":2}`, false},
		{"maxProperties with a duplicate", "3.1.0", `{maxProperties: 1}`, `{"a":1,"a":2}`, true},
		{"duplicate, the last wins", "3.1.0", `{properties: {a: {type: integer}}}`, `{"a":"x","a":1}`, true},
		{"items", "3.1.0", `{type: array, items: {type: string, minLength: 2}, minItems: 1, maxItems: 2}`, `["ab"]`, true},
		{"items, too few", "3.1.0", `{type: array, items: {type: string, minLength: 2}, minItems: 1, maxItems: 2}`, `[]`, false},
		{"items, too many", "3.1.0", `{type: array, items: {type: string, minLength: 2}, minItems: 1, maxItems: 2}`, `["ab","cd","ef"]`, false},
		{"items, one too short", "3.1.0", `{type: array, items: {type: string, minLength: 2}, minItems: 1, maxItems: 2}`, `["a"]`, false},
		{"items, 3.0", "3.0.3", `{type: array, items: {type: integer, format: int32}}`, `[1, -2, 3]`, true},
		{"$ref with siblings, 3.1", "3.1.0", `{$ref: '#/components/schemas/Str', maxLength: 3}`, `"abc"`, true},
		{"$ref with siblings, 3.1, too long", "3.1.0", `{$ref: '#/components/schemas/Str', maxLength: 3}`, `"abcd"`, false},
		{"$ref siblings are ignored, 3.0", "3.0.3", `{properties: {a: {$ref: '#/components/schemas/Str', maxLength: 1}}}`, `{"a":"abc"}`, true},
		{"$ref siblings are ignored, 3.0, the target", "3.0.3", `{properties: {a: {$ref: '#/components/schemas/Str', maxLength: 1}}}`, `{"a":1}`, false},
		{"recursive", "3.1.0", `{$ref: '#/components/schemas/Node'}`, `{"name":"a","children":[{"name":"b","children":[]}]}`, true},
		{"recursive, broken deep", "3.1.0", `{$ref: '#/components/schemas/Node'}`, `{"name":"a","children":[{"children":[{"name":1}]}]}`, false},
		{"recursive, 3.0", "3.0.3", `{$ref: '#/components/schemas/Node'}`, `{"name":"a","children":[{"children":[]}]}`, true},
	}
	const others = `    Str: {type: string}
    Node:
      type: object
      properties:
        name: {type: string}
        children: {type: array, items: {$ref: '#/components/schemas/Node'}}
`
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := loadComponents(t, tt.version, "    S: "+tt.schema+"\n"+others).Schemas["S"]
			if !s.HasFastPath() {
				t.Fatalf("%s has no fast path", tt.schema)
			}
			decided, valid := checkFast(t, s, []byte(tt.body))
			if !decided || valid != tt.valid {
				t.Errorf("%s with %s: decided %v, valid %v; want true, %v", tt.schema, tt.body, decided, valid, tt.valid)
			}
		})
	}
}

// TestDecodeRequestReadOnly checks that a required readOnly property
// need not be in a request, as ValidateRequest says, and that a required
// writeOnly one must.
func TestDecodeRequestReadOnly(t *testing.T) {
	doc := loadComponents(t, "3.1.0", `    Pet:
      type: object
      required: [id, name, pin]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
        pin: {type: string, writeOnly: true}
`)
	s := doc.Schemas["Pet"]
	tests := []struct {
		body  string
		valid bool
	}{
		{`{"name":"Rex","pin":"1"}`, true},
		{`{"id":3,"name":"Rex","pin":"1"}`, true},
		{`{"id":"3","name":"Rex","pin":"1"}`, false},
		{`{"name":"Rex"}`, false},
		{`{"id":3,"pin":"1"}`, false},
	}
	for _, tt := range tests {
		if decided, valid := checkFast(t, s, []byte(tt.body)); !decided || valid != tt.valid {
			t.Errorf("%s: decided %v, valid %v; want true, %v", tt.body, decided, valid, tt.valid)
		}
	}
}

// TestDecodeRequestPlantStore checks the Plant Store's NewPlant (allOf a
// $ref to Plant and the id), the body the load benchmark sends: what the
// fast path finds wrong, exactly.
func TestDecodeRequestPlantStore(t *testing.T) {
	const (
		idType   = "#/components/schemas/NewPlant/allOf/1/properties/id/type"
		idFormat = "#/components/schemas/NewPlant/allOf/1/properties/id/format"
		nameType = "#/components/schemas/Plant/properties/name/type"
	)
	s := plantStoreBody(t)
	tests := []struct {
		body string
		want []Violation // nil: valid
	}{
		{`{"id":7,"name":"Monstera","tag":"aroid"}`, nil},
		{` { "tag" : "aroid" , "name" : "Mon\u0073tera", "id" : -9223372036854775808 } `, nil},
		{`{"id":7,"name":"Monstera","extra":[1,{"a":null}]}`, nil},
		{`{"id":7.0,"name":"Monstera"}`, nil},
		{`{"id":"x1","name":7}`, []Violation{
			{Path: "id", Reason: "expected integer, got string", Schema: idType},
			{Path: "name", Reason: "expected string, got number", Schema: nameType},
		}},
		{`{"id":"7","name":"Monstera"}`, []Violation{{Path: "id", Reason: "expected integer, got string", Schema: idType}}},
		{`{"id":7}`, []Violation{{Path: "name", Reason: "required property is missing", Schema: "#/components/schemas/Plant/required"}}},
		{`{"name":"Monstera"}`, []Violation{{Path: "id", Reason: "required property is missing", Schema: "#/components/schemas/NewPlant/allOf/1/required"}}},
		{`{}`, []Violation{
			{Path: "id", Reason: "required property is missing", Schema: "#/components/schemas/NewPlant/allOf/1/required"},
			{Path: "name", Reason: "required property is missing", Schema: "#/components/schemas/Plant/required"},
		}},
		{`{"id":9223372036854775808,"name":"Monstera"}`, []Violation{{Path: "id", Reason: "9223372036854775808 is over the int64 maximum 9223372036854775807", Schema: idFormat}}},
		{`{"id":7,"name":"Monstera","tag":null}`, []Violation{{Path: "tag", Reason: "expected string, got null", Schema: "#/components/schemas/Plant/properties/tag/type"}}},
		// Both members of allOf refuse it: the first (Plant) is kept.
		{`[]`, []Violation{{Path: "", Reason: "expected object, got array", Schema: "#/components/schemas/Plant/type"}}},
	}
	for _, tt := range tests {
		d, ok := s.DecodeRequest(context.Background(), []byte(tt.body))
		v, vs := d.Value, d.Violations
		if !ok || !reflect.DeepEqual(vs, tt.want) {
			t.Errorf("%s: decided %v, %#v; want %#v", tt.body, ok, vs, tt.want)
		}
		if want := jsonxValue([]byte(tt.body)); !reflect.DeepEqual(v, want) {
			t.Errorf("%s: the value %#v, want %#v", tt.body, v, want)
		}
		checkFast(t, s, []byte(tt.body))
	}
	for _, body := range []string{`{"id":7,"name":"Monstera"}x`, `{"id":"7","name":`, `{"id":"7"} {}`} {
		if _, ok := s.DecodeRequest(context.Background(), []byte(body)); ok {
			t.Errorf("%s: decided what is not JSON", body)
		}
	}
}

// TestDecodeRequestViolations checks the violations the fast path finds
// in small documents of both dialects: wrong types, missing and
// undeclared properties, each keyword's own reason and location, the
// first of several for one place, and what it leaves to the usual path.
func TestDecodeRequestViolations(t *testing.T) {
	const schemas = `    Pot:
      type: object
      required: [kind, size]
      additionalProperties: false
      properties:
        kind: {type: string, enum: [fern, cactus]}
        size: {type: integer, format: int32, minimum: 1, maximum: 100, multipleOf: 2}
        label: {type: string, minLength: 2, maxLength: 4, pattern: '^[a-z]+$'}
        id: {type: string, format: uuid}
        tags: {type: array, minItems: 1, maxItems: 2, items: {type: string}}
        meta: {type: object, minProperties: 1, maxProperties: 1}
        ref: {$ref: '#/components/schemas/Kind'}
    Kind: {type: string, enum: [fern, cactus]}
`
	const pot = "#/components/schemas/Pot"
	type want = []Violation
	tests := []struct {
		name, body string
		want       want // nil: valid; ok false: undecided
		undecided  bool
	}{
		{"valid", `{"kind":"fern","size":2,"label":"ab","tags":["a"],"meta":{"a":1}}`, nil, false},
		{"types", `{"kind":1,"size":"2"}`, want{
			{Path: "kind", Reason: "expected string, got number", Schema: pot + "/properties/kind/type"},
			{Path: "size", Reason: "expected integer, got string", Schema: pot + "/properties/size/type"},
		}, false},
		{"missing and undeclared", `{"kind":"fern","colour":"red"}`, want{
			{Path: "colour", Reason: "property is not declared by the schema", Schema: pot + "/additionalProperties"},
			{Path: "size", Reason: "required property is missing", Schema: pot + "/required"},
		}, false},
		{"enum", `{"kind":"rose","size":2}`, want{{Path: "kind", Reason: "value is not one of the allowed values", Schema: pot + "/properties/kind/enum"}}, false},
		{"enum through $ref", `{"kind":"fern","size":2,"ref":"rose"}`, want{{Path: "ref", Reason: "value is not one of the allowed values", Schema: "#/components/schemas/Kind/enum"}}, false},
		{"minimum", `{"kind":"fern","size":0}`, want{{Path: "size", Reason: "0 is under the minimum 1", Schema: pot + "/properties/size/minimum"}}, false},
		{"maximum and multipleOf: the first", `{"kind":"fern","size":101}`, want{{Path: "size", Reason: "101 is over the maximum 100", Schema: pot + "/properties/size/maximum"}}, false},
		{"multipleOf", `{"kind":"fern","size":3}`, want{{Path: "size", Reason: "3 is not a multiple of 2", Schema: pot + "/properties/size/multipleOf"}}, false},
		{"int32 before the bounds", `{"kind":"fern","size":4294967296}`, want{{Path: "size", Reason: "4294967296 is over the int32 maximum 2147483647", Schema: pot + "/properties/size/format"}}, false},
		{"minLength", `{"kind":"fern","size":2,"label":"a"}`, want{{Path: "label", Reason: "shorter than the minimum length 2", Schema: pot + "/properties/label/minLength"}}, false},
		{"maxLength and pattern: the first", `{"kind":"fern","size":2,"label":"ABCDE"}`, want{{Path: "label", Reason: "longer than the maximum length 4", Schema: pot + "/properties/label/maxLength"}}, false},
		{"pattern", `{"kind":"fern","size":2,"label":"AB"}`, want{{Path: "label", Reason: `"AB" does not match the pattern ^[a-z]+$`, Schema: pot + "/properties/label/pattern"}}, false},
		{"format", `{"kind":"fern","size":2,"id":"x"}`, want{{Path: "id", Reason: "not a valid uuid", Schema: pot + "/properties/id/format"}}, false},
		{"minItems", `{"kind":"fern","size":2,"tags":[]}`, want{{Path: "tags", Reason: "has 0 items, fewer than the minimum 1", Schema: pot + "/properties/tags/minItems"}}, false},
		{"maxItems and an item", `{"kind":"fern","size":2,"tags":["a","b",3]}`, want{
			{Path: "tags", Reason: "has 3 items, more than the maximum 2", Schema: pot + "/properties/tags/maxItems"},
			{Path: "tags[2]", Reason: "expected string, got number", Schema: pot + "/properties/tags/items/type"},
		}, false},
		{"minProperties", `{"kind":"fern","size":2,"meta":{}}`, want{{Path: "meta", Reason: "has 0 properties, fewer than the minimum 1", Schema: pot + "/properties/meta/minProperties"}}, false},
		{"maxProperties", `{"kind":"fern","size":2,"meta":{"a":1,"b":2}}`, want{{Path: "meta", Reason: "has 2 properties, more than the maximum 1", Schema: pot + "/properties/meta/maxProperties"}}, false},
		{"the body's type", `"pot"`, want{{Path: "", Reason: "expected object, got string", Schema: pot + "/type"}}, false},
		// joinPath renders a property "a.b" and b of a property a alike:
		// which comes first is the map's order, so the usual path's.
		{"a confusable name", `{"kind":"fern","size":2,"a.b":1}`, nil, true},
		{"not JSON", `{"kind":"fern",`, nil, true},
	}
	for _, version := range []string{"3.0.3", "3.1.0"} {
		s := loadComponents(t, version, schemas).Schemas["Pot"]
		for _, tt := range tests {
			t.Run(version+" "+tt.name, func(t *testing.T) {
				d, ok := s.DecodeRequest(context.Background(), []byte(tt.body))
				vs := d.Violations
				if ok == tt.undecided || !reflect.DeepEqual(vs, tt.want) {
					t.Errorf("%s: decided %v, %#v; want %v, %#v", tt.body, ok, vs, !tt.undecided, tt.want)
				}
				checkFast(t, s, []byte(tt.body))
			})
		}
	}
}

// plantStoreBody returns the schema of the Plant Store's create body.
func plantStoreBody(tb testing.TB) *Schema {
	tb.Helper()
	doc, err := Load([]byte(plantmock.OpenAPI))
	if err != nil {
		tb.Fatal(err)
	}
	return doc.Operations[0].Body.JSON().Schema
}

// TestHasFastPath checks which schemas get a fast path: none that
// reaches, anywhere, a keyword the fast path does not check.
func TestHasFastPath(t *testing.T) {
	tests := []struct {
		name, version, schema string
		want                  bool
	}{
		{"everything checked", "3.1.0", `{type: object, required: [a], properties: {a: {type: array, items: {type: string, format: uuid, pattern: x, minLength: 1}, maxItems: 3}, b: {enum: [1, x], minimum: 0, multipleOf: 2}}, additionalProperties: {type: [integer, "null"]}, minProperties: 1, title: t, description: d, example: {a: []}, deprecated: false, uniqueItems: false}`, true},
		{"annotations of 3.1", "3.1.0", `{$comment: c, examples: [1], default: 1, readOnly: true, writeOnly: false, xml: {name: x}, externalDocs: {url: 'https://example.com'}, discriminator: {propertyName: k}, $anchor: a}`, true},
		{"keywords foreign to 3.0", "3.0.3", `{type: object, patternProperties: {x: {type: integer}}, propertyNames: {maxLength: 1}, const: 1, if: {}, then: {}}`, true},
		{"anyOf", "3.1.0", `{anyOf: [{type: string}, {type: integer}]}`, false},
		{"oneOf, deep", "3.1.0", `{properties: {a: {items: {oneOf: [{type: string}]}}}}`, false},
		{"not", "3.0.3", `{not: {type: string}}`, false},
		{"uniqueItems", "3.1.0", `{type: array, uniqueItems: true}`, false},
		{"tuple, 3.0", "3.0.3", `{type: array, items: [{type: string}]}`, false},
		{"prefixItems", "3.1.0", `{prefixItems: [{type: string}]}`, false},
		{"contains", "3.1.0", `{contains: {type: string}}`, false},
		{"patternProperties", "3.1.0", `{patternProperties: {x: {type: integer}}}`, false},
		{"propertyNames", "3.1.0", `{propertyNames: {maxLength: 3}}`, false},
		{"dependentRequired", "3.1.0", `{dependentRequired: {a: [b]}}`, false},
		{"if", "3.1.0", `{if: {type: string}, then: {minLength: 1}}`, false},
		{"unevaluatedProperties", "3.1.0", `{unevaluatedProperties: false}`, false},
		{"a fractional multipleOf", "3.1.0", `{multipleOf: 0.5}`, false},
		{"in a member of allOf", "3.1.0", `{allOf: [{type: object}, {minContains: 1, contains: {}}]}`, false},
		{"in additionalProperties", "3.0.3", `{additionalProperties: {anyOf: [{}]}}`, false},
		{"the schema false", "3.1.0", `false`, false},
		{"a false property", "3.1.0", `{properties: {a: false}}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := loadComponents(t, tt.version, "    S: "+tt.schema+"\n").Schemas["S"]
			if got := s.HasFastPath(); got != tt.want {
				t.Errorf("%s: HasFastPath() = %v, want %v", tt.schema, got, tt.want)
			}
		})
	}
	if !plantStoreBody(t).HasFastPath() {
		t.Error("the Plant Store's NewPlant has no fast path")
	}
	var none *Schema
	if _, ok := none.DecodeRequest(context.Background(), []byte(`{}`)); ok {
		t.Error("a nil schema decides")
	}
}

// FuzzFastPath reads random bodies with the fast path and the usual way
// against a few schemas: what the fast path decides, the usual path must
// decide alike, with the same value and the same violations; and with a
// schema that accepts every value, the fast path must read what
// jsonx.Decode reads.
func FuzzFastPath(f *testing.F) {
	for _, seed := range []string{
		`{"id":7,"name":"Monstera","tag":"aroid"}`, `{"id":-0,"name":"\u00e9\ud83c\udf35","name":"x"}`,
		`{"id":1e3,"name":""}`, `[1,2.5,"x",null,true,{"a":[]}]`, `{"kind":"fern","size":3,"pots":[{"id":"0b7a3e3c-6f1a-4d3c-9d8b-2a1f0e4c5b6a"}]}`,
		`{"next":{"next":{"value":"a"}},"value":"b"}`, `{"kind":{"a":[1.0]},"size":2,"value":"x","a.b":3}`, `"\ud800\u0041"`, "\"\x01\"", `{"a":1}{}`, `9223372036854775808`,
		`{"id":1e100000,"name":"a"}`, `{"kind":"fern","size":1e10000000}`, `{"value":"a","x":3e70,"y":-2e-10000000}`,
		`{"id":1e1000000000,"name":"a"}`, `{"kind":1.5e999999999,"size":-1e-999999999}`, `[` + strings.Repeat("9", 1001) + `]`,
	} {
		f.Add([]byte(seed))
	}
	store := plantStoreBody(f)
	doc30 := loadComponents(f, "3.0.3", `    Any: {}
    Pot:
      type: object
      required: [kind]
      properties:
        kind: {type: string, enum: [fern, cactus], nullable: true}
        size: {type: integer, format: int32, minimum: 1, exclusiveMaximum: true, maximum: 100}
        pots: {type: array, maxItems: 3, items: {type: object, properties: {id: {type: string, format: uuid}}, additionalProperties: false}}
`)
	doc31 := loadComponents(f, "3.1.0", `    Any: true
    List:
      type: object
      required: [value]
      properties:
        value: {type: [string, "null"], minLength: 1, maxLength: 3, pattern: '^[a-z]'}
        next: {$ref: '#/components/schemas/List'}
      additionalProperties: {type: number, multipleOf: 2}
    Strict:
      allOf:
        - $ref: '#/components/schemas/List'
        - type: object
          required: [kind]
          minProperties: 2
          maxProperties: 4
          properties:
            kind: {enum: [fern, 1, {a: [1]}, null]}
            size: {const: 2.0, minimum: 0, exclusiveMaximum: 3}
            id: {type: integer, format: int64}
            value: {type: string}
            next: {}
          additionalProperties: false
`)
	schemas := []*Schema{store, doc30.Schemas["Pot"], doc31.Schemas["List"], doc31.Schemas["Strict"]}
	anything := []*Schema{doc30.Schemas["Any"], doc31.Schemas["Any"]}
	for _, s := range append(schemas, anything...) {
		if !s.HasFastPath() {
			f.Fatalf("%s has no fast path", s.Where())
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, s := range schemas {
			checkFast(t, s, body)
		}
		for _, s := range anything {
			fast, full := checkFast(t, s, body)
			if full && !fast && depth(jsonxValue(body)) <= maxFastDepth {
				t.Errorf("%q: jsonx.Decode reads it, the fast path does not", body)
			}
		}
	})
}

func jsonxValue(body []byte) any {
	v, _ := jsonx.Decode(body)
	return v
}

// depth returns how deeply v nests: 0 for a scalar.
func depth(v any) int {
	d := 0
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			d = max(d, depth(e))
		}
		return d + 1
	case map[string]any:
		for _, e := range x {
			d = max(d, depth(e))
		}
		return d + 1
	}
	return 0
}

// BenchmarkDecodeRequest reads the Plant Store's create body with the
// fast path; BenchmarkDecodeValidateRequest the usual way.
func BenchmarkDecodeRequest(b *testing.B) {
	s, body := plantStoreBody(b), []byte(`{"id":7,"name":"Monstera","tag":"aroid"}`)
	b.ReportAllocs()
	for b.Loop() {
		if d, ok := s.DecodeRequest(context.Background(), body); !ok || len(d.Violations) > 0 {
			b.Fatal("declined")
		}
	}
}

func BenchmarkDecodeValidateRequest(b *testing.B) {
	s, body := plantStoreBody(b), []byte(`{"id":7,"name":"Monstera","tag":"aroid"}`)
	b.ReportAllocs()
	for b.Loop() {
		v, err := jsonx.Decode(body)
		if err != nil {
			b.Fatal(err)
		}
		if vs := s.ValidateRequest(v); len(vs) > 0 {
			b.Fatal(vs)
		}
	}
}

// TestDecodeRequestStopsWhenDone: explaining a bad body stops, undecided,
// once the request's context is done; the same body is explained in
// full while it is not.
func TestDecodeRequestStopsWhenDone(t *testing.T) {
	s := loadComponents(t, "3.1.0", "    S: {type: array, items: {type: string}}\n").Schemas["S"]
	body := []byte("[" + strings.TrimSuffix(strings.Repeat("1,", 1000), ",") + "]")
	if d, ok := s.DecodeRequest(context.Background(), body); !ok || len(d.Violations) != 1000 || d.More {
		t.Fatalf("explained with a live context: decided %v, %d violations, more %v; want true, 1000, false", ok, len(d.Violations), d.More)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if d, ok := s.DecodeRequest(ctx, body); ok || d.Value != nil || d.Violations != nil {
		t.Errorf("explained with a done context: decided %v, %d violations; want undecided", ok, len(d.Violations))
	}
	// A valid body needs no explanation: it is decided whatever the context.
	if d, ok := s.DecodeRequest(ctx, []byte(`["a"]`)); !ok || d.Violations != nil {
		t.Errorf("a valid body with a done context: decided %v, %v; want true, none", ok, d.Violations)
	}
}

// TestDecodeRequestLooksForMaxViolations: the fast path lists at most
// MaxViolations violations, says when there are more, and lists the same
// ones however the map of an object's properties is ordered.
func TestDecodeRequestLooksForMaxViolations(t *testing.T) {
	s := loadComponents(t, "3.1.0", "    S: {type: object, additionalProperties: false}\n").Schemas["S"]
	keys := func(n int) []byte {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, `,"k%04d":1`, n-1-i) // written last first
		}
		return []byte("{" + b.String()[1:] + "}")
	}
	for _, tt := range []struct {
		n    int
		more bool
	}{{MaxViolations, false}, {MaxViolations + 1, true}, {3 * MaxViolations, true}} {
		for range 5 {
			d, ok := s.DecodeRequest(context.Background(), keys(tt.n))
			if !ok || len(d.Violations) != MaxViolations || d.More != tt.more {
				t.Fatalf("%d undeclared properties: decided %v, %d violations, more %v; want true, %d, %v",
					tt.n, ok, len(d.Violations), d.More, MaxViolations, tt.more)
			}
			if first, last := d.Violations[0].Path, d.Violations[MaxViolations-1].Path; first != "k0000" || last != "k0999" {
				t.Fatalf("%d undeclared properties: from %s to %s; want k0000 to k0999", tt.n, first, last)
			}
		}
	}
}
