package gen

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/regex"
)

// seeds is how many seeds each schema is generated with.
const seeds = 25

// components loads a document of the given OpenAPI version whose
// components/schemas are schemas (YAML, indented by four spaces).
func components(tb testing.TB, version, schemas string) *openapi.Document {
	tb.Helper()
	doc, err := openapi.Load([]byte("openapi: " + version + "\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n" + schemas))
	if err != nil {
		tb.Fatal(err)
	}
	return doc
}

// TestKeywords generates values of schemas that use each keyword the
// validator enforces, with several seeds, and checks that each value is
// valid and has what the keyword asks.
func TestKeywords(t *testing.T) {
	tests := []struct {
		name    string
		version string // 3.1.0 when empty
		schemas string // S is the one generated
		check   func(t *testing.T, v any, doc *openapi.Document)
	}{
		// Arrays.
		{name: "contains", schemas: `
    S: {type: array, items: {type: integer}, contains: {minimum: 500, maximum: 510}}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if countNumbers(v, 500, 510) < 1 {
					t.Errorf("no item in 500..510: %v", v)
				}
			}},
		{name: "minContains and maxContains", schemas: `
    S: {type: array, items: {type: integer, minimum: 0, maximum: 20}, minItems: 6, contains: {minimum: 10, maximum: 12}, minContains: 2, maxContains: 3}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if n := countNumbers(v, 10, 12); n < 2 || n > 3 {
					t.Errorf("%d items in 10..12, want 2 or 3: %v", n, v)
				}
			}},
		{name: "contains in an untyped schema", schemas: `
    S: {contains: {type: string, minLength: 3}, minContains: 2}`},
		{name: "minItems", schemas: `
    S: {type: array, items: {type: string}, minItems: 7}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if n := len(v.([]any)); n < 7 {
					t.Errorf("%d items, want at least 7", n)
				}
			}},
		{name: "maxItems under the usual count", schemas: `
    S: {type: array, items: {type: boolean}, minItems: 1, maxItems: 1}`},
		{name: "uniqueItems of a narrow range", schemas: `
    S: {type: array, items: {type: integer, minimum: 1, maximum: 5}, minItems: 4, uniqueItems: true}`,
			check: checkUnique},
		{name: "uniqueItems of an enum", schemas: `
    S: {type: array, items: {enum: [red, green, blue]}, minItems: 3, uniqueItems: true}`,
			check: checkUnique},
		{name: "uniqueItems of objects", schemas: `
    S: {type: array, items: {type: object, required: [on], properties: {on: {type: boolean}}, additionalProperties: false}, minItems: 2, uniqueItems: true}`,
			check: checkUnique},
		{name: "prefixItems", schemas: `
    S: {type: array, prefixItems: [{type: string, format: date}, {type: integer, minimum: 3}], items: false}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if n := len(v.([]any)); n > 2 {
					t.Errorf("%d items, want at most 2", n)
				}
			}},
		{name: "prefixItems and minItems", schemas: `
    S: {type: array, prefixItems: [{const: first}], items: {type: integer}, minItems: 4}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if a := v.([]any); len(a) < 4 || a[0] != "first" {
					t.Errorf("got %v, want 4 items from first", a)
				}
			}},
		{name: "tuple items in 3.0", version: "3.0.3", schemas: `
    S: {type: array, items: [{type: string, format: uuid}, {type: integer, minimum: 1}], minItems: 2}`},

		// Alternatives.
		{name: "oneOf of overlapping numbers", schemas: `
    S: {type: integer, minimum: 1, maximum: 100, oneOf: [{multipleOf: 3}, {multipleOf: 5}]}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if n := number(t, v); int(n)%15 == 0 {
					t.Errorf("%v is a multiple of both", v)
				}
			}},
		{name: "oneOf of objects one of which holds the other", schemas: `
    Cat: {type: object, required: [name], properties: {name: {type: string}, lives: {type: integer}}}
    Dog: {type: object, required: [name, bark], properties: {name: {type: string}, bark: {type: string}}}
    S: {oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]}`},
		{name: "oneOf with a discriminator and mapping", schemas: discriminated("oneOf", true),
			check: checkDiscriminated("petType", map[string]string{"cat": "Cat", "dog": "Dog"})},
		{name: "oneOf with a discriminator, names", schemas: discriminated("oneOf", false),
			check: checkDiscriminated("petType", map[string]string{"Cat": "Cat", "Dog": "Dog"})},
		{name: "anyOf with a discriminator", schemas: discriminated("anyOf", true),
			check: checkDiscriminated("petType", map[string]string{"cat": "Cat", "dog": "Dog"})},
		{name: "oneOf with a discriminator in 3.0", version: "3.0.3", schemas: discriminated("oneOf", true),
			check: checkDiscriminated("petType", map[string]string{"cat": "Cat", "dog": "Dog"})},
		{name: "oneOf told apart by the discriminator's enums", schemas: `
    Cat: {type: object, required: [petType], properties: {petType: {type: string, enum: [cat]}, name: {type: string}}}
    Dog: {type: object, required: [petType], properties: {petType: {type: string, enum: [dog]}, name: {type: string}}}
    S: {oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}], discriminator: {propertyName: petType, mapping: {cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog'}}}`,
			check: checkDiscriminated("petType", map[string]string{"cat": "Cat", "dog": "Dog"})},
		{name: "a named alternative of an allOf discriminator", schemas: `
    Pet: {type: object, required: [petType], properties: {petType: {type: string}}, discriminator: {propertyName: petType}}
    S: {allOf: [{$ref: '#/components/schemas/Pet'}, {properties: {lives: {type: integer}}}]}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if pt := v.(map[string]any)["petType"]; pt != "S" {
					t.Errorf("petType %v, want S", pt)
				}
			}},
		{name: "oneOf told apart by a const tag", schemas: `
    A: {type: object, required: [_type, v], properties: {_type: {const: a}, v: {type: string}}}
    B: {type: object, required: [_type, v], properties: {_type: {const: b}, v: {type: string}}}
    S: {oneOf: [{$ref: '#/components/schemas/A'}, {$ref: '#/components/schemas/B'}]}`,
			check: checkDiscriminated("_type", map[string]string{"a": "A", "b": "B"})},
		{name: "oneOf told apart by enum tags, a discriminator without mapping", version: "3.0.3", schemas: `
    A: {type: object, required: [_type], properties: {_type: {type: string, enum: [a]}, v: {type: string}}}
    B: {type: object, required: [_type], properties: {_type: {type: string, enum: [b]}, v: {type: string}}}
    S: {oneOf: [{$ref: '#/components/schemas/A'}, {$ref: '#/components/schemas/B'}], discriminator: {propertyName: _type}}`,
			check: checkDiscriminated("_type", map[string]string{"a": "A", "b": "B"})},
		{name: "a named alternative whose own member fixes the tag", schemas: `
    Base: {type: object, required: [_type], properties: {_type: {type: string}}, discriminator: {propertyName: _type}}
    S: {allOf: [{type: object, properties: {_type: {type: string, enum: [a]}}}, {$ref: '#/components/schemas/Base'}]}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if tag := v.(map[string]any)["_type"]; tag != "a" {
					t.Errorf("_type %v, want a (the member's enum)", tag)
				}
			}},
		{name: "a named alternative two levels down", schemas: `
    Base: {type: object, required: [_type], properties: {_type: {type: string}}, discriminator: {propertyName: _type}}
    Mid: {allOf: [{$ref: '#/components/schemas/Base'}, {properties: {m: {type: string}}}]}
    S: {allOf: [{$ref: '#/components/schemas/Mid'}, {properties: {_type: {const: a}}}]}`},
		{name: "discriminated items of items", version: "3.0.3", schemas: actions(12),
			check: func(t *testing.T, v any, doc *openapi.Document) {
				names := map[string]string{}
				for i := range 12 {
					names[fmt.Sprint("t", i)] = fmt.Sprint("A", i)
				}
				for _, tag := range v.(map[string]any)["tags"].([]any) {
					for _, a := range tag.(map[string]any)["actions"].([]any) {
						checkDiscriminated("_type", names)(t, a, doc)
					}
				}
			}},
		{name: "oneOf of objects without required properties", version: "3.0.3", schemas: `
    S: {oneOf: [{type: object, properties: {a: {type: string}, b: {type: string}}}, {type: object, properties: {c: {type: string}, d: {type: string}}}]}`},
		{name: "oneOf of objects told apart by an optional property", version: "3.0.3", schemas: `
    One: {type: object, required: [kind], properties: {kind: {type: string}, one: {type: number}}}
    Two: {type: object, required: [kind], properties: {kind: {type: string}, two: {type: string}}}
    S: {oneOf: [{$ref: '#/components/schemas/One'}, {$ref: '#/components/schemas/Two'}], discriminator: {propertyName: kind}}`,
			check: checkDiscriminated("kind", map[string]string{"One": "One", "Two": "Two"})},
		{name: "oneOf of objects told apart by a nested object", version: "3.0.3", schemas: `
    A: {type: object, required: [id, body], properties: {id: {type: integer}, registration: {type: object, required: [permit], properties: {permit: {type: string}}}}}
    B: {type: object, required: [id, body], properties: {id: {type: integer}, registration: {type: object, required: [expires], properties: {expires: {type: string}}}}}
    S: {type: object, oneOf: [{$ref: '#/components/schemas/A'}, {$ref: '#/components/schemas/B'}]}`},
		{name: "oneOf where one alternative takes every object", schemas: `
    Create: {type: object, required: [ref, ref_type], properties: {ref: {type: string}, ref_type: {type: string}}}
    Delete: {type: object, required: [ref], properties: {ref: {type: string}}}
    Watch: {type: object, required: [action], properties: {action: {type: string}}}
    Fork: {type: object, required: [action, forkee], properties: {action: {type: string}, forkee: {type: object}}}
    Public: {type: object}
    Payload: {oneOf: [{$ref: '#/components/schemas/Create'}, {$ref: '#/components/schemas/Delete'}, {$ref: '#/components/schemas/Watch'}, {$ref: '#/components/schemas/Fork'}, {$ref: '#/components/schemas/Public'}]}
    S: {type: array, minItems: 8, items: {type: object, required: [payload], properties: {payload: {$ref: '#/components/schemas/Payload'}}}}`},
		{name: "oneOf of alternatives with examples", schemas: `
    Cat: {type: object, required: [lives], properties: {lives: {type: integer}}, example: {lives: 9}}
    Dog: {type: object, required: [bark], properties: {bark: {type: string}}, example: {bark: woof}}
    S: {oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				cat, dog := map[string]any{"lives": json.Number("9")}, map[string]any{"bark": "woof"}
				if !reflect.DeepEqual(v, cat) && !reflect.DeepEqual(v, dog) {
					t.Errorf("got %v, want Cat's example or Dog's", v)
				}
			}},
		{name: "anyOf", schemas: `
    S: {anyOf: [{type: string, maxLength: 3, minLength: 3}, {type: integer, minimum: 7, maximum: 7}]}`},
		{name: "anyOf and oneOf together", schemas: `
    S: {type: integer, minimum: 1, maximum: 60, anyOf: [{multipleOf: 2}, {multipleOf: 3}], oneOf: [{multipleOf: 5}, {multipleOf: 7}]}`},
		{name: "oneOf narrowing an object", version: "3.0.3", schemas: `
    S:
      type: object
      additionalProperties: false
      properties: {id: {type: integer}, owner: {type: string}, repo: {type: string}}
      oneOf: [{required: [id]}, {required: [owner, repo]}]`},
		{name: "allOf of bounds", schemas: `
    S: {allOf: [{type: integer, minimum: 10}, {maximum: 14}, {multipleOf: 3}]}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if n := number(t, v); n != 12 {
					t.Errorf("got %v, want 12", v)
				}
			}},
		{name: "allOf of one property twice", schemas: `
    S: {allOf: [{properties: {code: {type: string, minLength: 4}}}, {properties: {code: {maxLength: 5, pattern: '^[a-z]+$'}}, required: [code]}]}`},
		{name: "allOf of alternatives", schemas: `
    Base: {type: object, required: [kind], properties: {kind: {type: string}}}
    S: {allOf: [{$ref: '#/components/schemas/Base'}, {oneOf: [{properties: {kind: {const: a}}}, {properties: {kind: {const: b}}}]}, {not: {properties: {kind: {const: a}}}}]}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if k := v.(map[string]any)["kind"]; k != "b" {
					t.Errorf("kind %v, want b", k)
				}
			}},
		{name: "allOf in 3.0", version: "3.0.3", schemas: `
    S: {allOf: [{type: object, properties: {n: {type: integer, minimum: 5}}, required: [n]}, {properties: {n: {maximum: 6}}}]}`},

		// Strings.
		{name: "pattern", schemas: `
    S: {type: string, pattern: '^[A-Z]{3}-\d{4}$'}`,
			check: matches(`^[A-Z]{3}-\d{4}$`)},
		{name: "pattern with word boundaries", schemas: `
    S: {type: string, pattern: '\bplant\b'}`},
		{name: "pattern and lengths", schemas: `
    S: {type: string, pattern: '^(ab|cde)+$', minLength: 7, maxLength: 9}`},
		{name: "pattern unanchored, long", schemas: `
    S: {type: string, pattern: 'fern', minLength: 20}`},
		{name: "pattern of a class", schemas: `
    S: {type: string, pattern: '^[^a-z0-9]{2,4}$'}`},
		{name: "pattern and format", version: "3.0.3", schemas: `
    S: {type: string, format: date, pattern: '(\d{4})-(\d{2})-(\d{2})'}`},
		{name: "two patterns", schemas: `
    S: {allOf: [{type: string, pattern: '^[a-z]+$'}, {pattern: 'q'}]}`},
		// ECMA-262 patterns of public API descriptions.
		{name: "pattern with a negative lookahead", schemas: `
    S: {type: string, pattern: '^(?!aws:)[a-zA-Z+-=._:/]+$'}`,
			check: matches(`^(?!aws:)[a-zA-Z+-=._:/]+$`)},
		{name: "pattern with a negative lookbehind", schemas: `
    S: {type: string, pattern: '^[0-9A-Za-z\.\-_]*(?<!\.)$'}`,
			check: matches(`^[0-9A-Za-z\.\-_]*(?<!\.)$`)},
		{name: "pattern of lookaheads around a hostname", schemas: `
    S: {type: string, pattern: '(?=^.{3,63}$)(?!^(\d+\.)+\d+$)(^(([a-z0-9]|[a-z0-9][a-z0-9\-]*[a-z0-9])\.)*([a-z0-9]|[a-z0-9][a-z0-9\-]*[a-z0-9])$)'}`,
			check: matches(`(?=^.{3,63}$)(?!^(\d+\.)+\d+$)(^(([a-z0-9]|[a-z0-9][a-z0-9\-]*[a-z0-9])\.)*([a-z0-9]|[a-z0-9][a-z0-9\-]*[a-z0-9])$)`)},
		{name: "pattern with a backreference", schemas: `
    S: {type: string, pattern: '^(?!.*?(.)\1{3})[-_!@#$a-zA-Z0-9]*$', minLength: 8}`,
			check: matches(`^(?!.*?(.)\1{3})[-_!@#$a-zA-Z0-9]*$`)},
		{name: "pattern of a password's lookaheads", schemas: `
    S: {type: string, pattern: '^(?=.*\d)(?=.*[A-Z])(?=.*?[a-z]).{8,}$'}`,
			check: matches(`^(?=.*\d)(?=.*[A-Z])(?=.*?[a-z]).{8,}$`)},
		{name: "pattern of \\u escapes", schemas: `
    S: {type: string, pattern: '^[\u0009\u000A\u000D\u0020-\u00FF]*$', minLength: 1}`,
			check: matches(`^[\u0009\u000A\u000D\u0020-\u00FF]*$`)},
		{name: "pattern of \\u escapes in groups", schemas: `
    S: {type: string, pattern: '^arn:aws:iam::\d{12}:user(?:(\u002F)|(\u002F[\u0021-\u007E]+\u002F))[\w+=,.@-]+$'}`,
			check: matches(`^arn:aws:iam::\d{12}:user(?:(\u002F)|(\u002F[\u0021-\u007E]+\u002F))[\w+=,.@-]+$`)},
		{name: "pattern of a long count", schemas: `
    S: {type: string, pattern: '^.{0,262144}$'}`,
			check: shorterThan(4096)},
		{name: "pattern of a long count of a class", schemas: `
    S: {type: string, pattern: '^[a-zA-Z0-9]{0,4096}$', minLength: 1}`,
			check: shorterThan(4097)},
		{name: "pattern of a long count unanchored", schemas: `
    S: {type: string, pattern: '\S{1,8192}'}`,
			check: shorterThan(8193)},
		{name: "pattern of another dialect, ignored", schemas: `
    S: {type: string, pattern: '\p{Print}+'}`},
		{name: "patternProperties with a lookahead", schemas: `
    S: {type: object, patternProperties: {'^(?!x-)[a-z]+$': {type: integer}}, additionalProperties: false, minProperties: 2}`},
		{name: "lengths in runes", schemas: `
    S: {type: string, pattern: '^é+$', minLength: 2, maxLength: 3}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if n := utf8.RuneCountInString(v.(string)); n < 2 || n > 3 {
					t.Errorf("%q has %d runes", v, n)
				}
			}},
		{name: "minLength and maxLength", schemas: `
    S: {type: object, required: [description], properties: {description: {type: string, minLength: 3, maxLength: 3}}}`},
		{name: "formats", schemas: `
    S:
      type: object
      required: [a, b, c, d, e, f, g, h, i, j]
      properties:
        a: {type: string, format: uuid}
        b: {type: string, format: date}
        c: {type: string, format: date-time}
        d: {type: string, format: email, minLength: 40}
        e: {type: string, format: ipv4}
        f: {type: string, format: ipv6}
        g: {type: string, format: uri, minLength: 50}
        h: {type: integer, format: int32, minimum: 2147483000}
        i: {type: integer, format: int64, minimum: -5, maximum: 5}
        j: {type: string, format: email, maxLength: 64}`},

		// Numbers.
		{name: "multipleOf a fraction", schemas: `
    S: {type: number, multipleOf: 0.01, minimum: 0.5, maximum: 3}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if s := string(v.(json.Number)); strings.Contains(s, ".") && len(s[strings.IndexByte(s, '.')+1:]) > 2 {
					t.Errorf("%s has more than two decimals", s)
				}
			}},
		{name: "a number with an integer format", schemas: `
    S:
      type: object
      required: [a, b, c]
      properties:
        a: {type: number, format: int32}
        b: {type: number, format: int64, minimum: 0.5, maximum: 3}
        c: {allOf: [{type: number}, {format: int32}]}`},
		{name: "multipleOf an integer", schemas: `
    S: {type: integer, multipleOf: 7, minimum: 20, maximum: 30}`},
		{name: "multipleOf twice", schemas: `
    S: {allOf: [{type: number, multipleOf: 0.3}, {multipleOf: 0.5}], minimum: 1}`},
		{name: "exclusive bounds, narrow", schemas: `
    S: {type: number, exclusiveMinimum: 0, exclusiveMaximum: 0.01}`},
		{name: "exclusive integer bounds", schemas: `
    S: {type: integer, exclusiveMinimum: 5, exclusiveMaximum: 7}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if number(t, v) != 6 {
					t.Errorf("got %v, want 6", v)
				}
			}},
		{name: "exclusive bounds in 3.0", version: "3.0.3", schemas: `
    S: {type: number, minimum: 1, exclusiveMinimum: true, maximum: 1.5, exclusiveMaximum: true}`},
		{name: "maximum alone", schemas: `
    S: {type: integer, maximum: -50}`},
		{name: "a number that is not an integer", schemas: `
    S: {type: number, minimum: 2, maximum: 4, not: {type: integer}}`},
		{name: "const", schemas: `
    S: {const: {a: [1, 2]}}`},
		{name: "enum filtered by type", schemas: `
    S: {type: string, enum: [1, null, only]}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if v != "only" {
					t.Errorf("got %v, want only", v)
				}
			}},
		{name: "enum in 3.0 with nullable", version: "3.0.3", schemas: `
    S: {type: string, nullable: true, enum: [a, b, null]}`},

		// Objects.
		{name: "minProperties of an open object", schemas: `
    S: {type: object, minProperties: 3}`},
		{name: "maxProperties", schemas: `
    S: {type: object, required: [a], properties: {a: {type: string}, b: {type: string}, c: {type: string}, d: {type: string}}, maxProperties: 2}`},
		{name: "required, undeclared", schemas: `
    S: {type: object, required: [x, y]}`},
		{name: "required and additionalProperties false", version: "3.0.3", schemas: `
    S: {type: object, required: [a], properties: {a: {type: integer}}, additionalProperties: false}`},
		{name: "additionalProperties schema", schemas: `
    S: {type: object, additionalProperties: {type: integer, minimum: 3}, minProperties: 2}`},
		{name: "patternProperties", schemas: `
    S: {type: object, patternProperties: {'^x-[a-z]+$': {type: integer}}, additionalProperties: false, minProperties: 2}`},
		{name: "a class holding \\S", schemas: `
    S: {type: string, pattern: '^arn:aws:kms:[\S]+:[\d]{12}:key\/[a-z]+$'}`},
		{name: "additionalProperties without a type beside a member's integer", version: "3.0.3", schemas: `
    S:
      allOf:
        - {properties: {name: {type: string}}, additionalProperties: {properties: {branch: {type: string}}}}
        - {type: object, required: [id], properties: {id: {type: integer}}}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if _, ok := v.(map[string]any)["id"].(json.Number); !ok {
					t.Errorf("got %v, want an integer id: properties alone constrain only objects", v)
				}
			}},
		{name: "a uri containing what a pattern asks", version: "3.0.3", schemas: `
    S: {type: string, format: uri, pattern: '/magnet:\?xt=urn:[a-z0-9]+:[a-z0-9]{32}'}`},
		{name: "minProperties deep down, beside additionalProperties false", schemas: `
    S: {type: object, additionalProperties: false, minProperties: 1, properties: {name: {type: string}, child: {$ref: '#/components/schemas/S'}}}`},
		{name: "a date-time of a fixed length", version: "3.0.3", schemas: `
    S: {type: string, format: date-time, minLength: 24, maxLength: 24}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if s, _ := v.(string); len(s) != 24 || !strings.HasSuffix(s, ".000Z") {
					t.Errorf("got %v, want a date-time of 24 characters with fractional seconds", v)
				}
			}},
		{name: "an optional property whose enums disagree", version: "3.0.3", schemas: `
    Custom: {type: object, additionalProperties: {type: object, properties: {origin: {type: string, enum: [custom]}}}}
    S:
      type: object
      allOf:
        - {properties: {CreatedById: {type: object, properties: {origin: {type: string, enum: [system]}}}}}
        - $ref: '#/components/schemas/Custom'`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				c, _ := v.(map[string]any)["CreatedById"].(map[string]any)
				if _, has := c["origin"]; has {
					t.Errorf("got %v, want a CreatedById without an origin, which no value fits", v)
				}
			}},
		{name: "a nullable enum without null deep down", version: "3.0.3", schemas: `
    S: {type: object, properties: {source: {type: string, nullable: true, enum: [linked, field]}, child: {$ref: '#/components/schemas/S'}}}`},
		{name: "enum beside maxLength", version: "3.0.3", schemas: `
    S: {type: string, enum: [Chargeback, Payment, TransferOut], maxLength: 8}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if v != "Payment" {
					t.Errorf("got %v, want Payment, the one value within maxLength", v)
				}
			}},
		{name: "items that require what they refuse, the keyword left out at load", version: "3.0.3", schemas: `
    Stream: {type: object, required: [name, json_schema], properties: {name: {type: string}, jsonSchema: {type: object}}, additionalProperties: false}
    S: {type: object, required: [streams], properties: {streams: {type: array, items: {$ref: '#/components/schemas/Stream'}}}}`,
			check: func(t *testing.T, v any, doc *openapi.Document) {
				streams := v.(map[string]any)["streams"].([]any)
				if len(streams) == 0 || streams[0].(map[string]any)["json_schema"] == nil {
					t.Errorf("got %v, want streams with a json_schema", v)
				}
				if len(doc.Mistakes) != 1 {
					t.Errorf("Mistakes = %q, want the additionalProperties left out", doc.Mistakes)
				}
			}},
		{name: "items whose required property no value satisfies", version: "3.0.3", schemas: `
    Props: {type: object, required: [code], properties: {code: {type: string, pattern: '^(?=x)y$'}}}
    Def: {type: object, required: [properties], properties: {properties: {$ref: '#/components/schemas/Props'}}}
    S: {type: object, required: [value], properties: {value: {type: array, items: {$ref: '#/components/schemas/Def'}}}}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if value := v.(map[string]any)["value"].([]any); len(value) != 0 {
					t.Errorf("got %v, want no items: none is valid", v)
				}
			}},
		{name: "additionalProperties false beside allOf", version: "3.0.3", schemas: `
    Resource: {type: object, properties: {id: {type: string, readOnly: true}, name: {type: string}}}
    S: {type: object, allOf: [$ref: '#/components/schemas/Resource'], required: [properties], properties: {properties: {type: object}}, additionalProperties: false}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if m := v.(map[string]any); len(m) != 1 {
					t.Errorf("got %v, want properties alone: the member's id and name are not S's own", v)
				}
			}},
		{name: "additionalProperties schema beside allOf", version: "3.0.3", schemas: `
    Resource: {type: object, properties: {eTag: {type: string}, tags: {type: object}}}
    S: {type: object, allOf: [$ref: '#/components/schemas/Resource'], properties: {identity: {type: string}}, additionalProperties: {type: object}}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if _, ok := v.(map[string]any)["eTag"]; ok {
					t.Errorf("got %v, want no eTag: a string the additionalProperties object refuses", v)
				}
			}},
		{name: "patternProperties over a property", schemas: `
    S: {type: object, required: [x-count], properties: {x-count: {type: number}}, patternProperties: {'^x-': {type: integer, minimum: 100}}}`},
		{name: "propertyNames", schemas: `
    S: {type: object, properties: {long_name: {type: string}, ab: {type: string}}, propertyNames: {maxLength: 3}, minProperties: 2}`},
		{name: "dependentRequired", schemas: `
    S: {type: object, properties: {a: {type: string}, b: {type: string}}, dependentRequired: {a: [c, d]}}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				m := v.(map[string]any)
				if _, a := m["a"]; a && (m["c"] == nil || m["d"] == nil) {
					t.Errorf("a without c and d: %v", m)
				}
			}},
		{name: "dependentSchemas", schemas: `
    S: {type: object, properties: {a: {type: integer}}, required: [a], dependentSchemas: {a: {required: [b], properties: {b: {type: string, minLength: 5}}}}}`},
		{name: "dependentSchemas that refuse the property", schemas: `
    S: {properties: {foo: {}, bar: {}}, dependentSchemas: {foo: {properties: {bar: {}}, additionalProperties: false}}}`},
		{name: "dependencies of draft 4", schemas: `
    S: {type: object, properties: {a: {type: string}, c: {type: string}}, dependencies: {a: [b], c: {required: [d], properties: {d: {type: boolean}}}}}`},
		{name: "if then else", schemas: `
    S:
      type: object
      required: [kind, n]
      properties: {kind: {enum: [big, small]}, n: {type: integer}}
      if: {properties: {kind: {const: big}}}
      then: {properties: {n: {minimum: 100}}}
      else: {properties: {n: {maximum: -100}}}`},
		{name: "if without else", schemas: `
    S: {type: integer, if: {minimum: 10}, then: {multipleOf: 7}}`},
		{name: "not of a type", schemas: `
    S: {not: {type: [string, object]}}`},
		{name: "not of required properties", schemas: `
    S: {type: object, properties: {a: {type: string}, b: {type: string}}, not: {required: [a, b]}}`},
		{name: "not of an enum", schemas: `
    S: {type: string, enum: [a, b, c], not: {enum: [a, b]}}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if v != "c" {
					t.Errorf("got %v, want c", v)
				}
			}},
		{name: "nullable in 3.0", version: "3.0.3", schemas: `
    S: {type: object, required: [a], properties: {a: {type: string, nullable: true}}}`},
		{name: "type arrays", schemas: `
    S: {type: object, required: [a, b], properties: {a: {type: [string, 'null']}, b: {type: [integer, boolean]}}}`},
		{name: "boolean schemas", schemas: `
    S: {type: object, required: [a], properties: {a: true, b: false}, additionalProperties: false}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if _, ok := v.(map[string]any)["b"]; ok {
					t.Errorf("b (false) is there: %v", v)
				}
			}},
		{name: "writeOnly", schemas: `
    S: {type: object, properties: {password: {type: string, writeOnly: true}, name: {type: string}}}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if _, ok := v.(map[string]any)["password"]; ok {
					t.Errorf("writeOnly password generated: %v", v)
				}
			}},
		{name: "a recursive tree", schemas: `
    S: {type: object, required: [name, children], properties: {name: {type: string}, children: {type: array, items: {$ref: '#/components/schemas/S'}}}}`,
			check: func(t *testing.T, v any, _ *openapi.Document) {
				if d := nesting(v); d > 2*maxDepth+2 {
					t.Errorf("nested %d deep, want at most %d", d, 2*maxDepth+2)
				}
			}},
		{name: "a recursive list that ends by an alternative", schemas: `
    S: {oneOf: [{type: string}, {type: object, required: [next], properties: {next: {$ref: '#/components/schemas/S'}}, additionalProperties: false}]}`},
		{name: "oneOf of lengths", version: "3.0.3", schemas: `
    S: {type: string, oneOf: [{minLength: 2}, {maxLength: 4}]}`},
		{name: "unevaluatedProperties beside an alternative", schemas: `
    S: {allOf: [{properties: {foo: {type: string}}, unevaluatedProperties: false}], anyOf: [{properties: {bar: {type: string}}}]}`},
		{name: "unevaluatedItems beside alternatives", schemas: `
    S: {prefixItems: [{const: foo}], oneOf: [{prefixItems: [true, {const: bar}]}, {prefixItems: [true, {const: baz}]}], unevaluatedItems: false}`},
		{name: "a reference only the validator follows", schemas: `
    S: {$id: 'https://plantmock.test/s', $ref: '#count', $defs: {c: {$anchor: count, type: integer, minimum: 3}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			version := tt.version
			if version == "" {
				version = "3.1.0"
			}
			doc := components(t, version, tt.schemas)
			s := doc.Schemas["S"]
			for seed := uint64(1); seed <= seeds; seed++ {
				v := Value(s, Faker(seed, 0))
				if vs := s.Validate(v); len(vs) > 0 {
					t.Fatalf("seed %d: %s breaks the schema: %v", seed, jsonx.Marshal(v), vs)
				}
				if tt.check != nil {
					tt.check(t, v, doc)
				}
				if again := Value(s, Faker(seed, 0)); !reflect.DeepEqual(again, v) {
					t.Fatalf("seed %d gave %s, then %s", seed, jsonx.Marshal(v), jsonx.Marshal(again))
				}
			}
		})
	}
}

// discriminated returns Pet, an anyOf or oneOf of Cat and Dog with a
// discriminator (with a mapping or without), and S, a Pet.
func discriminated(kw string, mapping bool) string {
	m := ""
	if mapping {
		m = ", mapping: {cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog'}"
	}
	return `
    Cat: {type: object, required: [petType, name, lives], properties: {petType: {type: string}, name: {type: string}, lives: {type: integer}}}
    Dog: {type: object, required: [petType, name, bark], properties: {petType: {type: string}, name: {type: string}, bark: {type: string}}}
    Pet: {` + kw + `: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}], discriminator: {propertyName: petType` + m + `}}
    S: {$ref: '#/components/schemas/Pet'}`
}

// actions returns S, an object whose tags each hold actions, each one
// of n alternatives (allOf a common Base) told apart by an enum tag, with
// a discriminator mapping each tag to its alternative.
func actions(n int) string {
	var b strings.Builder
	b.WriteString("\n    Base: {type: object, required: [_type, name], properties: {_type: {type: string}, name: {type: string}}}")
	var alts, mapping []string
	for i := range n {
		fmt.Fprintf(&b, "\n    A%d: {allOf: [{$ref: '#/components/schemas/Base'}, {type: object, required: [f%d], properties: {_type: {type: string, enum: [t%d]}, f%d: {type: integer}}}]}", i, i, i, i)
		alts = append(alts, fmt.Sprintf("{$ref: '#/components/schemas/A%d'}", i))
		mapping = append(mapping, fmt.Sprintf("t%d: '#/components/schemas/A%d'", i, i))
	}
	fmt.Fprintf(&b, "\n    Action: {oneOf: [%s], discriminator: {propertyName: _type, mapping: {%s}}}", strings.Join(alts, ", "), strings.Join(mapping, ", "))
	b.WriteString("\n    Tag: {type: object, required: [actions], properties: {actions: {type: array, minItems: 3, items: {$ref: '#/components/schemas/Action'}}}}")
	b.WriteString("\n    S: {type: object, required: [tags], properties: {tags: {type: array, minItems: 2, items: {$ref: '#/components/schemas/Tag'}}}}")
	return b.String()
}

// checkDiscriminated checks that property prop names a schema (by names,
// its value to the schema's name) that the value is valid against.
func checkDiscriminated(prop string, names map[string]string) func(t *testing.T, v any, doc *openapi.Document) {
	return func(t *testing.T, v any, doc *openapi.Document) {
		pt, _ := v.(map[string]any)[prop].(string)
		name, ok := names[pt]
		if !ok {
			t.Fatalf("%s %q names no alternative: %v", prop, pt, v)
		}
		if vs := doc.Schemas[name].Validate(v); len(vs) > 0 {
			t.Errorf("%s %q but the value is no %s: %v", prop, pt, name, vs)
		}
	}
}

// checkUnique checks that the items of an array are all different.
func checkUnique(t *testing.T, v any, _ *openapi.Document) {
	seen := map[string]bool{}
	for _, e := range v.([]any) {
		k := string(jsonx.Marshal(e))
		if seen[k] {
			t.Errorf("%s repeats in %s", k, jsonx.Marshal(v))
		}
		seen[k] = true
	}
}

// matches checks that a string matches pattern, as ECMA-262 reads it.
func matches(pattern string) func(t *testing.T, v any, _ *openapi.Document) {
	re, err := regex.Compile(pattern)
	return func(t *testing.T, v any, _ *openapi.Document) {
		if err != nil {
			t.Fatal(err)
		}
		if !re.MatchString(v.(string)) {
			t.Errorf("%q does not match %s", v, pattern)
		}
	}
}

// shorterThan checks that a string has fewer than n runes.
func shorterThan(n int) func(t *testing.T, v any, _ *openapi.Document) {
	return func(t *testing.T, v any, _ *openapi.Document) {
		if got := utf8.RuneCountInString(v.(string)); got >= n {
			t.Errorf("%d runes, want fewer than %d", got, n)
		}
	}
}

// number returns a JSON number as a float64.
func number(t *testing.T, v any) float64 {
	t.Helper()
	n, ok := v.(json.Number)
	if !ok {
		t.Fatalf("%v is not a number", v)
	}
	f, err := n.Float64()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// countNumbers counts the items of an array within lo..hi.
func countNumbers(v any, lo, hi float64) int {
	n := 0
	for _, e := range v.([]any) {
		if x, ok := e.(json.Number); ok {
			if f, err := x.Float64(); err == nil && f >= lo && f <= hi {
				n++
			}
		}
	}
	return n
}

// nesting returns how deeply objects and arrays nest in v.
func nesting(v any) int {
	d := 0
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			d = max(d, nesting(e))
		}
		return d + 1
	case []any:
		for _, e := range x {
			d = max(d, nesting(e))
		}
		return d + 1
	}
	return 0
}
