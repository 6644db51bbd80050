package gen

import (
	"encoding/json"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

const spec = `openapi: 3.1.0
info: {title: g, version: '1'}
paths:
  /x:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Everything'}
components:
  schemas:
    Everything:
      type: object
      required: [id, when, email, count, ratio, tags, nested, pick, code]
      properties:
        id: {type: string, format: uuid}
        when: {type: string, format: date-time}
        day: {type: string, format: date}
        email: {type: string, format: email}
        site: {type: string, format: uri}
        ip: {type: string, format: ipv4}
        ip6: {type: string, format: ipv6}
        host: {type: string, format: hostname}
        code: {type: string, pattern: '^[A-Z]{3}-[0-9]{4}$'}
        short: {type: string, minLength: 5, maxLength: 8}
        count: {type: integer, format: int32, minimum: 10, maximum: 20}
        even: {type: integer, multipleOf: 2, minimum: 1, maximum: 9}
        big: {type: integer, format: int64, exclusiveMinimum: 0}
        ratio: {type: number, minimum: 0.5, maximum: 0.75}
        flag: {type: boolean}
        nothing: {type: 'null'}
        maybe: {type: [string, 'null']}
        tags: {type: array, minItems: 2, maxItems: 4, items: {type: string, enum: [a, b, c]}}
        pick: {const: 42}
        nested:
          type: object
          required: [name]
          properties:
            name: {type: string}
            deeper: {type: array, items: {type: object, properties: {n: {type: integer, maximum: -5}}}}
        choice:
          oneOf:
            - {type: integer}
            - {type: string}
        example: {type: string, example: fixed}
`

func load(t *testing.T) *openapi.Schema {
	t.Helper()
	doc, err := openapi.Load([]byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	_, r := doc.Operations[0].Success()
	return r.JSON().Schema
}

// TestValuesConform generates many values and validates each against the
// schema they were made for.
func TestValuesConform(t *testing.T) {
	s := load(t)
	for n := uint64(0); n < 300; n++ {
		v := Value(s, Faker(99, n))
		if vs := s.Validate(v); len(vs) > 0 {
			t.Fatalf("value %d breaks its schema: %v\n%v", n, vs, v)
		}
		m := v.(map[string]any)
		if m["example"] != "fixed" {
			t.Errorf("example not used: %v", m["example"])
		}
		if n == 0 { // the check itself must be able to fail
			m["count"] = json.Number("9")
			if vs := s.Validate(m); len(vs) != 1 || vs[0].Path != "count" {
				t.Fatalf("an out-of-range count was not caught: %v", vs)
			}
		}
	}
}

// TestDeterministic checks that a seed and sequence number fix the value.
func TestDeterministic(t *testing.T) {
	s := load(t)
	a, b, c := Value(s, Faker(1, 5)), Value(s, Faker(1, 5)), Value(s, Faker(1, 6))
	if !reflect.DeepEqual(a, b) {
		t.Error("same seed and number gave different values")
	}
	if reflect.DeepEqual(a, c) {
		t.Error("different numbers gave the same value")
	}
}

// TestOneOfNarrowingAnObject checks values for an object whose oneOf
// alternatives only choose which properties are required: each value has
// what one alternative requires and not what the other does, and
// satisfies the whole schema (with every optional property it would
// match both); both alternatives are taken.
func TestOneOfNarrowingAnObject(t *testing.T) {
	doc, err := openapi.Load([]byte(`openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /items:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              additionalProperties: false
              required: [type]
              properties:
                type: {type: string, enum: [Issue]}
                id: {type: integer}
                owner: {type: string}
                number: {type: integer}
              oneOf:
                - required: [id]
                - required: [owner, number]
      responses: {'200': {description: ok}}
`))
	if err != nil {
		t.Fatal(err)
	}
	s := doc.Operations[0].Body.JSON().Schema
	seen := map[string]int{}
	for n := uint64(0); n < 20; n++ {
		v := Value(s, Faker(7, n))
		if vs := s.Validate(v); len(vs) > 0 {
			t.Fatalf("value %v breaks the schema: %v", v, vs)
		}
		m := v.(map[string]any)
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		got := strings.Join(keys, ",")
		if got != "id,type" && got != "number,owner,type" {
			t.Errorf("keys %s, want id,type or number,owner,type (one alternative's, no more)", got)
		}
		seen[got]++
	}
	if len(seen) != 2 {
		t.Errorf("keys of 20 values %v, want both alternatives'", seen)
	}
}

// TestChecksUsedUp: in a value big enough to use up its checks (an
// object of many strings whose pattern making cannot be sure of, as
// FSx's backups have), a string made once none is left is not taken as
// sure: an optional property is left out rather than answered broken,
// and a required one is kept. Before, the later ones went unchecked and
// most broke their pattern.
func TestChecksUsedUp(t *testing.T) {
	var b strings.Builder
	b.WriteString("    S:\n      type: object\n      required: [p299]\n      properties:\n")
	for i := range 300 {
		b.WriteString("        p" + strconv.Itoa(i) + ": {type: string, pattern: '^(?=[a-m])[a-z]{3}$'}\n")
	}
	doc := components(t, "3.1.0", b.String())
	s := doc.Schemas["S"]
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run("seed "+strconv.FormatUint(seed, 10), func(t *testing.T) {
			obj, ok := Value(s, Faker(seed, 0)).(map[string]any)
			if !ok {
				t.Fatalf("Value = %T, want an object", obj)
			}
			if _, has := obj["p299"]; !has {
				t.Errorf("the required p299 is left out")
			}
			delete(obj, "p299") // required: kept whether it matches or not
			if vs := s.Validate(obj); len(vs) > 1 || len(vs) == 1 && vs[0].Path != "p299" {
				t.Errorf("%d properties, %d violations, the first %v; want only p299's, if any", len(obj), len(vs), vs[0])
			}
			if len(obj) < 80 {
				t.Errorf("%d optional properties made, want those checked (over 80)", len(obj))
			}
		})
	}
}

// TestArrayItemAfterChecksRunOut: an array whose first item uses up the
// checks (an object of 300 properties with alternatives, as Stripe's
// charge, whose required ones are then made unchecked) still holds that
// item when the item, validated whole, is valid; it used to end empty,
// and a list answered empty shows a client nothing.
func TestArrayItemAfterChecksRunOut(t *testing.T) {
	var b strings.Builder
	b.WriteString("    O:\n      type: object\n      properties:\n        a: {type: string}\n")
	b.WriteString("    L:\n      type: object\n      properties:\n        data: {type: array, items: {$ref: '#/components/schemas/I'}}\n")
	b.WriteString("    I:\n      type: object\n      required: [p0, p150, p299]\n      properties:\n")
	for i := range 300 {
		b.WriteString("        p" + strconv.Itoa(i) + ": {anyOf: [{type: string, maxLength: 5}, {$ref: '#/components/schemas/O'}]}\n")
	}
	doc := components(t, "3.1.0", b.String())
	s := doc.Schemas["L"]
	for seed := uint64(1); seed <= 3; seed++ {
		v := Value(s, Faker(seed, 1))
		items, _ := v.(map[string]any)["data"].([]any)
		if len(items) == 0 {
			t.Errorf("seed %d: data = %v, want an item", seed, v.(map[string]any)["data"])
		}
		if vs := s.Validate(v); len(vs) > 0 {
			t.Errorf("seed %d: %v", seed, vs)
		}
	}
}
