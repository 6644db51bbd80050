package gen

import (
	"reflect"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

const altSpec = `openapi: 3.0.3
info: {title: alternatives, version: '1'}
paths: {}
components:
  schemas:
    Pet:
      oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]
      discriminator: {propertyName: kind}
    Cat:
      type: object
      required: [kind, lives]
      properties: {kind: {type: string}, lives: {type: integer, minimum: 1, maximum: 9}}
    Dog:
      type: object
      required: [kind, bark]
      properties: {kind: {type: string}, bark: {type: string, enum: [woof, yap]}}
    Id:
      anyOf: [{type: integer, minimum: 1}, {type: string, minLength: 3}]
    Mixed:
      allOf:
        - {type: object, properties: {name: {type: string}}}
        - anyOf: [{required: [a]}, {required: [b]}]
    Plain: {type: string}
`

// TestAlternative: Alternative makes a value of each alternative in
// turn, the discriminator's value with it, and refuses an index out of
// range and a schema without alternatives.
func TestAlternative(t *testing.T) {
	doc, err := openapi.Load([]byte(altSpec))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		schema string
		i      int
		ok     bool
		check  func(v any) bool
	}{
		{"Pet", 0, true, func(v any) bool { m, _ := v.(map[string]any); return m["kind"] == "Cat" && m["lives"] != nil }},
		{"Pet", 1, true, func(v any) bool { m, _ := v.(map[string]any); return m["kind"] == "Dog" && m["bark"] != nil }},
		{"Pet", 2, false, nil},
		{"Id", 0, true, func(v any) bool { _, isString := v.(string); return !isString }},
		{"Id", 1, true, func(v any) bool { s, isString := v.(string); return isString && len(s) >= 3 }},
		{"Mixed", 0, true, func(v any) bool { m, _ := v.(map[string]any); _, has := m["a"]; return has }},
		{"Mixed", 1, true, func(v any) bool { m, _ := v.(map[string]any); _, has := m["b"]; return has }},
		{"Plain", 0, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.schema+"/"+string(rune('0'+tt.i)), func(t *testing.T) {
			s := doc.Schemas[tt.schema]
			v, ok := Alternative(s, tt.i, Faker(5, uint64(tt.i)))
			if ok != tt.ok {
				t.Fatalf("Alternative made %v, ok %v; want ok %v", v, ok, tt.ok)
			}
			if !ok {
				return
			}
			if vs := s.Validate(v); len(vs) > 0 {
				t.Errorf("%v breaks %s: %v", v, tt.schema, vs)
			}
			if !tt.check(v) {
				t.Errorf("%v is not alternative %d of %s", v, tt.i, tt.schema)
			}
		})
	}
	for name, want := range map[string]int{"Pet": 2, "Id": 2, "Mixed": 2, "Plain": 0} {
		if got := len(Alternatives(doc.Schemas[name])); got != want {
			t.Errorf("%s has %d alternatives, want %d", name, got, want)
		}
	}
}

const branchSpec = `openapi: 3.1.0
info: {title: branches, version: '1'}
paths: {}
components:
  schemas:
    Scalar:
      oneOf: [{type: integer}, {type: string}, {type: boolean}]
    Event:
      oneOf:
        - {$ref: '#/components/schemas/Start'}
        - {$ref: '#/components/schemas/Delta'}
        - {$ref: '#/components/schemas/Stop'}
    Start:
      type: object
      required: [type, message]
      properties: {type: {const: message_start}, message: {type: object, required: [id], properties: {id: {type: string}}}}
    Delta:
      type: object
      required: [type, index, delta]
      properties: {type: {const: content_block_delta}, index: {type: integer, minimum: 0}, delta: {type: string}}
    Stop:
      type: object
      required: [type]
      properties: {type: {const: message_stop}}
    Pet:
      oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}, {$ref: '#/components/schemas/Bird'}]
      discriminator:
        propertyName: kind
        mapping: {cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog', bird: '#/components/schemas/Bird'}
    Cat:
      type: object
      required: [kind, lives]
      properties: {kind: {type: string}, lives: {type: integer, minimum: 1, maximum: 9}}
    Dog:
      type: object
      required: [kind, bark]
      properties: {kind: {type: string}, bark: {type: string, enum: [woof, yap]}}
    Bird:
      type: object
      required: [kind, wings]
      properties: {kind: {type: string}, wings: {type: integer, const: 2}}
    Id:
      anyOf: [{type: integer, minimum: 1}, {type: string, minLength: 3}, {type: array, items: {type: integer}}]
    One:
      oneOf: [{type: string, minLength: 2}]
`

// TestBranchesVary: 60 values of a three-branch oneOf or anyOf take
// every branch, whether each has a faker of its own (answers) or they
// share one (the items of a stream); each is valid, a discriminated
// oneOf names the branch taken, and the same seed gives the same
// values. Before, the first branch that fitted was always taken: 200 of
// 200 items of OpenAI's oneOf event schema were message_start.
func TestBranchesVary(t *testing.T) {
	doc, err := openapi.Load([]byte(branchSpec))
	if err != nil {
		t.Fatal(err)
	}
	const n = 60
	// values returns n values of s under seed: each from a faker of its
	// own when own, else all from one.
	values := func(s *openapi.Schema, seed uint64, own bool) []any {
		out := make([]any, n)
		f := Faker(seed, 0)
		for i := range out {
			if own {
				f = Faker(seed, uint64(i))
			}
			out[i] = Value(s, f)
		}
		return out
	}
	tests := []struct {
		schema string
		names  []string // the discriminator's value of each branch, if any
	}{
		{schema: "Scalar"},
		{schema: "Event"},
		{schema: "Pet", names: []string{"cat", "dog", "bird"}},
		{schema: "Id"},
	}
	for _, tt := range tests {
		for _, own := range []bool{true, false} {
			name := tt.schema + "/one faker"
			if own {
				name = tt.schema + "/a faker each"
			}
			t.Run(name, func(t *testing.T) {
				s := doc.Schemas[tt.schema]
				alts := Alternatives(s)
				if len(alts) != 3 {
					t.Fatalf("%d alternatives, want 3", len(alts))
				}
				vs := values(s, 1, own)
				var taken [3]int
				var branches []int
				for i, v := range vs {
					if errs := s.Validate(v); len(errs) > 0 {
						t.Fatalf("value %d %v breaks %s: %v", i, v, tt.schema, errs)
					}
					b := -1
					for j, a := range alts {
						if len(a.Validate(v)) == 0 {
							if b >= 0 {
								t.Fatalf("value %d %v fits branches %d and %d", i, v, b, j)
							}
							b = j
						}
					}
					if b < 0 {
						t.Fatalf("value %d %v fits no branch", i, v)
					}
					if tt.names != nil {
						if kind := v.(map[string]any)["kind"]; kind != tt.names[b] {
							t.Errorf("value %d %v of branch %d has kind %v, want %s", i, v, b, kind, tt.names[b])
						}
					}
					taken[b]++
					branches = append(branches, b)
				}
				for b, k := range taken {
					if k == 0 {
						t.Errorf("branch %d taken by none of %d values (%v)", b, n, taken)
					}
				}
				if again := values(s, 1, own); !reflect.DeepEqual(vs, again) {
					t.Errorf("seed 1 gave other values the second time")
				}
				other := values(s, 2, own)
				var otherBranches []int
				for _, v := range other {
					for j, a := range alts {
						if len(a.Validate(v)) == 0 {
							otherBranches = append(otherBranches, j)
						}
					}
				}
				if reflect.DeepEqual(branches, otherBranches) {
					t.Errorf("seeds 1 and 2 took the same branches in turn: %v", branches)
				}
			})
		}
	}
}

// TestOneBranchDrawsNothing: a oneOf of one alternative draws nothing
// from the faker, so that it shifts none of the values made after it.
func TestOneBranchDrawsNothing(t *testing.T) {
	doc, err := openapi.Load([]byte(branchSpec))
	if err != nil {
		t.Fatal(err)
	}
	one, plain := doc.Schemas["One"], doc.Schemas["One"].OneOf[0]
	for i := range uint64(20) {
		a, b := Faker(3, i), Faker(3, i)
		if va, vb := Value(one, a), Value(plain, b); va != vb {
			t.Fatalf("value %d: the oneOf of one made %v, its alternative alone %v", i, va, vb)
		}
		if x, y := a.Int64(), b.Int64(); x != y {
			t.Fatalf("value %d: the oneOf of one drew more from its faker than its alternative alone", i)
		}
	}
}
