package openapi

import (
	"reflect"
	"strings"
	"testing"

	"github.com/plantmock/plantmock"
	"github.com/plantmock/plantmock/mock/internal/jsonx"
)

// checkFast decodes body with s's fast path and the usual way, and
// fails when the fast path accepts what the usual way refuses or builds
// another value. It returns what each said.
func checkFast(tb testing.TB, s *Schema, body []byte) (fast, full bool) {
	tb.Helper()
	got, fast := s.DecodeRequest(body)
	want, err := jsonx.Decode(body)
	var vs []Violation
	if err == nil {
		vs = s.ValidateRequest(want)
	}
	full = err == nil && len(vs) == 0
	switch {
	case fast && !full:
		tb.Errorf("%q: the fast path accepts what the usual path refuses: %v %v", body, err, vs)
	case fast && !reflect.DeepEqual(got, want):
		tb.Errorf("%q: the fast path builds %#v, jsonx.Decode %#v", body, got, want)
	}
	return fast, full
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
		strings.Repeat("[", 1000) + strings.Repeat("]", 1000),
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
		// Deeper than the fast path reads, yet JSON: the usual path's.
		deep := strings.Repeat("[", 2000) + strings.Repeat("]", 2000)
		if fast, full := checkFast(t, s, []byte(deep)); fast || !full {
			t.Errorf("%s: 2,000 levels: fast %v, usual %v, want false, true", version, fast, full)
		}
	}
}

// TestDecodeRequestKeywords checks each keyword the fast path checks,
// in both dialects: whether it decides (fast), and what the usual path
// says (valid). Where it does not decide a valid body, it declines a
// number it does not compare exactly or a value it does not compare.
func TestDecodeRequestKeywords(t *testing.T) {
	tests := []struct {
		name, version, schema string
		body                  string
		fast, valid           bool
	}{
		{"string", "3.1.0", `{type: string}`, `"a"`, true, true},
		{"string, a number", "3.1.0", `{type: string}`, `1`, false, false},
		{"type array, null", "3.1.0", `{type: [string, "null"]}`, `null`, true, true},
		{"type array, a number", "3.1.0", `{type: [string, "null"]}`, `1`, false, false},
		{"integer", "3.1.0", `{type: integer}`, `7`, true, true},
		{"integer with a zero fraction, 3.1", "3.1.0", `{type: integer}`, `7.0`, false, true},
		{"integer with an exponent, 3.1", "3.1.0", `{type: integer}`, `1e3`, false, true},
		{"integer, a fraction", "3.1.0", `{type: integer}`, `7.5`, false, false},
		{"integer beyond int64", "3.1.0", `{type: integer}`, `12345678901234567890123`, true, true},
		{"number", "3.1.0", `{type: number}`, `7.5`, true, true},
		{"number, huge", "3.1.0", `{type: number}`, `1e400`, true, true},
		{"integer with a zero fraction, 3.0", "3.0.3", `{type: integer}`, `7.0`, false, false},
		{"integer, 3.0", "3.0.3", `{type: integer}`, `-7`, true, true},
		{"nullable", "3.0.3", `{type: string, nullable: true}`, `null`, true, true},
		{"not nullable", "3.0.3", `{type: string}`, `null`, false, false},
		{"nullable with an enum without null", "3.0.3", `{type: string, nullable: true, enum: [a]}`, `null`, false, false},
		{"nullable in 3.1 is ignored", "3.1.0", `{type: string, nullable: true}`, `null`, false, false},
		{"const in 3.0 is ignored", "3.0.3", `{type: string, const: a}`, `"b"`, true, true},
		{"const", "3.1.0", `{const: a}`, `"a"`, true, true},
		{"const, another", "3.1.0", `{const: a}`, `"b"`, false, false},
		{"const object", "3.1.0", `{const: {a: 1}}`, `{"a":1}`, false, true},
		{"enum string", "3.1.0", `{enum: [a, 1, null, true]}`, `"a"`, true, true},
		{"enum number", "3.1.0", `{enum: [a, 1, null, true]}`, `1`, true, true},
		{"enum number with a zero fraction", "3.1.0", `{enum: [a, 1, null, true]}`, `1.0`, false, true},
		{"enum null", "3.1.0", `{enum: [a, 1, null, true]}`, `null`, true, true},
		{"enum true", "3.1.0", `{enum: [a, 1, null, true]}`, `true`, true, true},
		{"enum false", "3.1.0", `{enum: [a, 1, null, true]}`, `false`, false, false},
		{"enum, another string", "3.1.0", `{enum: [a, 1, null, true]}`, `"b"`, false, false},
		{"enum, an array", "3.1.0", `{enum: [a, 1, null, true]}`, `[1]`, false, false},
		{"enum of two", "3.1.0", `{allOf: [{enum: [a, b]}, {enum: [b, c]}]}`, `"b"`, true, true},
		{"enum of two, in one only", "3.1.0", `{allOf: [{enum: [a, b]}, {enum: [b, c]}]}`, `"a"`, false, false},
		{"enum, 3.0", "3.0.3", `{type: integer, enum: [1, 2]}`, `2`, true, true},
		{"enum beyond int64", "3.1.0", `{enum: [12345678901234567890]}`, `12345678901234567890`, false, true},
		{"minLength in code points", "3.1.0", `{type: string, minLength: 2, maxLength: 2}`, `"é🌵"`, true, true},
		{"maxLength in code points", "3.1.0", `{type: string, minLength: 2, maxLength: 2}`, `"é🌵x"`, false, false},
		{"minLength, escaped", "3.1.0", `{type: string, minLength: 2, maxLength: 2}`, `"\u00e9"`, false, false},
		{"maxLength 2.0", "3.1.0", `{type: string, maxLength: 2.0}`, `"ab"`, true, true},
		{"pattern", "3.1.0", `{type: string, pattern: '^a+$'}`, `"aa"`, true, true},
		{"pattern, no match", "3.1.0", `{type: string, pattern: '^a+$'}`, `"ab"`, false, false},
		{"minimum", "3.1.0", `{type: integer, minimum: 1, maximum: 10}`, `1`, true, true},
		{"under the minimum", "3.1.0", `{type: integer, minimum: 1, maximum: 10}`, `0`, false, false},
		{"maximum", "3.1.0", `{type: integer, minimum: 1, maximum: 10}`, `10`, true, true},
		{"over the maximum", "3.1.0", `{type: integer, minimum: 1, maximum: 10}`, `11`, false, false},
		{"minimum, -0", "3.1.0", `{type: integer, minimum: 0}`, `-0`, true, true},
		{"fractional minimum", "3.1.0", `{type: integer, minimum: 1.5}`, `2`, true, true},
		{"under a fractional minimum", "3.1.0", `{type: integer, minimum: 1.5}`, `1`, false, false},
		{"fractional maximum", "3.1.0", `{maximum: -1.5}`, `-2`, true, true},
		{"over a fractional maximum", "3.1.0", `{maximum: -1.5}`, `-1`, false, false},
		{"a bound and a fraction", "3.1.0", `{minimum: 0}`, `0.5`, false, true},
		{"a bound and a huge whole number", "3.1.0", `{minimum: 0}`, `12345678901234567890`, false, true},
		{"exclusiveMinimum", "3.1.0", `{exclusiveMinimum: 0}`, `0`, false, false},
		{"over exclusiveMinimum", "3.1.0", `{exclusiveMinimum: 0}`, `1`, true, true},
		{"exclusiveMaximum", "3.1.0", `{exclusiveMaximum: 10}`, `10`, false, false},
		{"under exclusiveMaximum", "3.1.0", `{exclusiveMaximum: 10}`, `9`, true, true},
		{"a minimum beyond int64", "3.1.0", `{minimum: 1e30}`, `9223372036854775807`, false, false},
		{"a maximum beyond int64", "3.1.0", `{maximum: 1e30}`, `9223372036854775807`, true, true},
		{"boolean exclusiveMinimum, 3.0", "3.0.3", `{type: integer, minimum: 1, exclusiveMinimum: true}`, `1`, false, false},
		{"over boolean exclusiveMinimum, 3.0", "3.0.3", `{type: integer, minimum: 1, exclusiveMinimum: true}`, `2`, true, true},
		{"boolean exclusiveMaximum in 3.1 is ignored", "3.1.0", `{maximum: 1, exclusiveMaximum: true}`, `1`, true, true},
		{"multipleOf", "3.1.0", `{multipleOf: 3}`, `-9`, true, true},
		{"not a multiple", "3.1.0", `{multipleOf: 3}`, `10`, false, false},
		{"int32", "3.1.0", `{type: integer, format: int32}`, `2147483647`, true, true},
		{"int32, the least", "3.1.0", `{type: integer, format: int32}`, `-2147483648`, true, true},
		{"over int32", "3.1.0", `{type: integer, format: int32}`, `2147483648`, false, false},
		{"int64 on a fraction", "3.0.3", `{type: number, format: int64}`, `1.5`, false, false},
		{"uuid", "3.1.0", `{type: string, format: uuid}`, `"0b7a3e3c-6f1a-4d3c-9d8b-2a1f0e4c5b6a"`, true, true},
		{"not a uuid", "3.1.0", `{type: string, format: uuid}`, `"0b7a3e3c"`, false, false},
		{"date", "3.0.3", `{type: string, format: date}`, `"2024-02-29"`, true, true},
		{"not a date", "3.0.3", `{type: string, format: date}`, `"2023-02-29"`, false, false},
		{"an annotation format", "3.1.0", `{type: string, format: hostname}`, `"-"`, true, true},
		{"additionalProperties false", "3.1.0", `{properties: {a: {}}, additionalProperties: false}`, `{"a":1}`, true, true},
		{"additionalProperties false, another", "3.1.0", `{properties: {a: {}}, additionalProperties: false}`, `{"b":1}`, false, false},
		{"additionalProperties schema", "3.1.0", `{properties: {a: {}}, additionalProperties: {type: integer}}`, `{"a":"x","b":2}`, true, true},
		{"additionalProperties schema, broken", "3.1.0", `{properties: {a: {}}, additionalProperties: {type: integer}}`, `{"b":"x"}`, false, false},
		{"additionalProperties false in a member", "3.1.0", `{allOf: [{properties: {a: {}}, additionalProperties: false}, {properties: {b: {}}}]}`, `{"b":1}`, false, false},
		{"additionalProperties false, escaped name", "3.1.0", `{properties: {a: {}}, additionalProperties: false}`, `{"\u0061":1}`, true, true},
		{"false property", "3.1.0", `{properties: {a: false}}`, `{"a":1}`, false, false},
		{"false property, absent", "3.1.0", `{properties: {a: false}}`, `{}`, true, true},
		{"properties of a non-object", "3.1.0", `{properties: {a: {type: string}}}`, `"x"`, true, true},
		{"minProperties with a duplicate", "3.1.0", `{minProperties: 2}`, `{"a":1,"a":2}`, false, false},
		{"maxProperties with a duplicate", "3.1.0", `{maxProperties: 1}`, `{"a":1,"a":2}`, true, true},
		{"duplicate, the last wins", "3.1.0", `{properties: {a: {type: integer}}}`, `{"a":"x","a":1}`, false, true},
		{"items", "3.1.0", `{type: array, items: {type: string, minLength: 2}, minItems: 1, maxItems: 2}`, `["ab"]`, true, true},
		{"items, too few", "3.1.0", `{type: array, items: {type: string, minLength: 2}, minItems: 1, maxItems: 2}`, `[]`, false, false},
		{"items, too many", "3.1.0", `{type: array, items: {type: string, minLength: 2}, minItems: 1, maxItems: 2}`, `["ab","cd","ef"]`, false, false},
		{"items, one too short", "3.1.0", `{type: array, items: {type: string, minLength: 2}, minItems: 1, maxItems: 2}`, `["a"]`, false, false},
		{"items, 3.0", "3.0.3", `{type: array, items: {type: integer, format: int32}}`, `[1, -2, 3]`, true, true},
		{"$ref with siblings, 3.1", "3.1.0", `{$ref: '#/components/schemas/Str', maxLength: 3}`, `"abc"`, true, true},
		{"$ref with siblings, 3.1, too long", "3.1.0", `{$ref: '#/components/schemas/Str', maxLength: 3}`, `"abcd"`, false, false},
		{"$ref siblings are ignored, 3.0", "3.0.3", `{properties: {a: {$ref: '#/components/schemas/Str', maxLength: 1}}}`, `{"a":"abc"}`, true, true},
		{"$ref siblings are ignored, 3.0, the target", "3.0.3", `{properties: {a: {$ref: '#/components/schemas/Str', maxLength: 1}}}`, `{"a":1}`, false, false},
		{"recursive", "3.1.0", `{$ref: '#/components/schemas/Node'}`, `{"name":"a","children":[{"name":"b","children":[]}]}`, true, true},
		{"recursive, broken deep", "3.1.0", `{$ref: '#/components/schemas/Node'}`, `{"name":"a","children":[{"children":[{"name":1}]}]}`, false, false},
		{"recursive, 3.0", "3.0.3", `{$ref: '#/components/schemas/Node'}`, `{"name":"a","children":[{"children":[]}]}`, true, true},
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
			fast, valid := checkFast(t, s, []byte(tt.body))
			if fast != tt.fast || valid != tt.valid {
				t.Errorf("%s with %s: fast %v, valid %v; want %v, %v", tt.schema, tt.body, fast, valid, tt.fast, tt.valid)
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
		body        string
		fast, valid bool
	}{
		{`{"name":"Rex","pin":"1"}`, true, true},
		{`{"id":3,"name":"Rex","pin":"1"}`, true, true},
		{`{"id":"3","name":"Rex","pin":"1"}`, false, false},
		{`{"name":"Rex"}`, false, false},
		{`{"id":3,"pin":"1"}`, false, false},
	}
	for _, tt := range tests {
		if fast, valid := checkFast(t, s, []byte(tt.body)); fast != tt.fast || valid != tt.valid {
			t.Errorf("%s: fast %v, valid %v; want %v, %v", tt.body, fast, valid, tt.fast, tt.valid)
		}
	}
}

// TestDecodeRequestPlantStore checks the Plant Store's NewPlant (allOf a
// $ref to Plant and the id), the body the load benchmark sends.
func TestDecodeRequestPlantStore(t *testing.T) {
	s := plantStoreBody(t)
	tests := []struct {
		body        string
		fast, valid bool
	}{
		{`{"id":7,"name":"Monstera","tag":"aroid"}`, true, true},
		{` { "tag" : "aroid" , "name" : "Mon\u0073tera", "id" : -9223372036854775808 } `, true, true},
		{`{"id":7,"name":"Monstera","extra":[1,{"a":null}]}`, true, true},
		{`{"id":"7","name":"Monstera"}`, false, false},
		{`{"id":7}`, false, false},
		{`{"name":"Monstera"}`, false, false},
		{`{"id":9223372036854775808,"name":"Monstera"}`, false, false},
		{`{"id":7.0,"name":"Monstera"}`, false, true},
		{`{"id":7,"name":"Monstera","tag":null}`, false, false},
		{`{"id":7,"name":"Monstera"}x`, false, false},
		{`[]`, false, false},
	}
	for _, tt := range tests {
		if fast, valid := checkFast(t, s, []byte(tt.body)); fast != tt.fast || valid != tt.valid {
			t.Errorf("%s: fast %v, valid %v; want %v, %v", tt.body, fast, valid, tt.fast, tt.valid)
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
	if _, ok := none.DecodeRequest([]byte(`{}`)); ok {
		t.Error("a nil schema decides")
	}
}

// FuzzFastPath reads random bodies with the fast path and the usual way
// against a few schemas: what the fast path accepts, the usual path must
// accept as the same value; and with a schema that accepts every value,
// the fast path must read what jsonx.Decode reads.
func FuzzFastPath(f *testing.F) {
	for _, seed := range []string{
		`{"id":7,"name":"Monstera","tag":"aroid"}`, `{"id":-0,"name":"\u00e9\ud83c\udf35","name":"x"}`,
		`{"id":1e3,"name":""}`, `[1,2.5,"x",null,true,{"a":[]}]`, `{"kind":"fern","size":3,"pots":[{"id":"0b7a3e3c-6f1a-4d3c-9d8b-2a1f0e4c5b6a"}]}`,
		`{"next":{"next":{"value":"a"}},"value":"b"}`, `"\ud800\u0041"`, "\"\x01\"", `{"a":1}{}`, `9223372036854775808`,
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
`)
	schemas := []*Schema{store, doc30.Schemas["Pot"], doc31.Schemas["List"]}
	anything := []*Schema{doc30.Schemas["Any"], doc31.Schemas["Any"]}
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
		if _, ok := s.DecodeRequest(body); !ok {
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
