package gen

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

func TestOversized(t *testing.T) {
	var deep strings.Builder // 50 levels of three: (3^51-1)/2 values, saturated
	for i := range 50 {
		fmt.Fprintf(&deep, "    D%d: {type: object, required: [a, b, c], properties: {a: {$ref: '#/components/schemas/D%[2]d'}, b: {$ref: '#/components/schemas/D%[2]d'}, c: {$ref: '#/components/schemas/D%[2]d'}}}\n", i, i+1)
	}
	deep.WriteString("    D50: {type: integer}\n")
	cases := []struct {
		name, schemas string
		want          []string
	}{
		{"within", "    A: {type: object, required: [s, l], properties: {s: {type: string, minLength: 8388608}, l: {type: array, minItems: 99997}}}\n", nil},
		{"bytes add up", "    A: {type: object, required: [s, t], properties: {s: {type: string, minLength: 8388608}, t: {type: string, minLength: 1}}}\n",
			[]string{"#/components/schemas/A: its required properties and items make its smallest value 8388609 bytes of strings, over the 8388608 an answer may have: answers that need it are refused"}},
		{"items multiply", "    A: {type: array, minItems: 50000, items: {type: array, minItems: 1}}\n",
			[]string{"#/components/schemas/A: its required properties and items make its smallest value 100001 values, over the 100000 an answer may have: answers that need it are refused"}},
		{"items multiply past 2^63", "    A: {type: array, minItems: 1000000000000000000, items: {type: array, minItems: 10}}\n",
			[]string{"#/components/schemas/A: minItems 1000000000000000000 is over the 100000 values an answer may have: answers that need it are refused"}},
		{"prefixItems", "    A: {type: array, minItems: 2, prefixItems: [{type: string}, {type: string, minLength: 10000000}]}\n",
			[]string{"#/components/schemas/A/prefixItems/1: minLength 10000000 is over the 8388608 bytes of strings an answer may have: answers that need it are refused"}},
		{"minProperties beyond required", "    A: {type: object, required: [a], minProperties: 100000}\n",
			[]string{"#/components/schemas/A: its required properties and items make its smallest value 100001 values, over the 100000 an answer may have: answers that need it are refused"}},
		{"optional is left out", "    A: {type: object, properties: {s: {type: string, minLength: 10000000}}}\n",
			[]string{"#/components/schemas/A/properties/s: minLength 10000000 is over the 8388608 bytes of strings an answer may have: answers that need it are refused"}},
		{"the least alternative", "    A: {anyOf: [{type: string, minLength: 10000000}, {type: string}]}\n",
			[]string{"#/components/schemas/A/anyOf/0: minLength 10000000 is over the 8388608 bytes of strings an answer may have: answers that need it are refused"}},
		{"the least type", "    A: {type: [string, 'null'], minLength: 10000000}\n", nil},
		{"allOf member", "    A: {allOf: [{$ref: '#/components/schemas/B'}], required: [x], properties: {x: {type: string}}}\n    B: {type: string, minLength: 10000000}\n",
			[]string{"#/components/schemas/B: minLength 10000000 is over the 8388608 bytes of strings an answer may have: answers that need it are refused"}},
		{"recursion with a way out", "    A: {anyOf: [{$ref: '#/components/schemas/B'}, {type: string}]}\n    B: {type: object, required: [a], properties: {a: {$ref: '#/components/schemas/A'}}}\n", nil},
		{"recursion with a way out, over", "    A: {anyOf: [{$ref: '#/components/schemas/B'}, {type: string}]}\n    B: {type: array, minItems: 100000, items: {$ref: '#/components/schemas/A'}}\n",
			[]string{"#/components/schemas/B: its required properties and items make its smallest value 100001 values, over the 100000 an answer may have: answers that need it are refused"}},
		{"recursion without one", "    A: {type: object, required: [a], properties: {a: {$ref: '#/components/schemas/A'}}}\n", nil},
		{"saturated", deep.String(),
			[]string{"#/components/schemas/D39: its required properties and items make its smallest value 265720 values, over the 100000 an answer may have: answers that need it are refused"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, err := openapi.Load([]byte("openapi: 3.1.0\ninfo: {title: o, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n" + c.schemas))
			if err != nil {
				t.Fatal(err)
			}
			var roots []*openapi.Schema
			for _, name := range slices.Sorted(func(yield func(string) bool) {
				for k := range doc.Schemas {
					if !yield(k) {
						return
					}
				}
			}) {
				roots = append(roots, doc.Schemas[name])
			}
			if got, _ := Oversized(roots, Budget{}); !slices.Equal(got, c.want) {
				t.Errorf("Oversized:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

func TestSaturating(t *testing.T) {
	const top = math.MaxInt64
	for _, c := range []struct{ a, b, sum, product int64 }{
		{0, 5, 5, 0},
		{3, 4, 7, 12},
		{top, 1, top, top},
		{top / 2, top/2 + 2, top, top},
		{1 << 32, 1 << 31, 1<<32 + 1<<31, top},
		{1e18, 11, 1e18 + 11, top},
	} {
		if got := addSat(c.a, c.b); got != c.sum {
			t.Errorf("addSat(%d, %d) = %d, want %d", c.a, c.b, got, c.sum)
		}
		if got := mulSat(c.a, c.b); got != c.product {
			t.Errorf("mulSat(%d, %d) = %d, want %d", c.a, c.b, got, c.product)
		}
	}
}
