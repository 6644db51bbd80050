package gen

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// budgetSpec has a schema that fans out (Tree: the smallest value has
// 2^21-1 values) and a small one.
const budgetSpec = `openapi: 3.1.0
info: {title: b, version: '1'}
paths:
  /x:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/T0'}
components:
  schemas:
    Small: {type: object, required: [id], properties: {id: {type: string, maxLength: 4}}}
    T0: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/T1'}, b: {$ref: '#/components/schemas/T1'}}}
    T1: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/T2'}, b: {$ref: '#/components/schemas/T2'}}}
    T2: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/T3'}, b: {$ref: '#/components/schemas/T3'}}}
    T3: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/T4'}, b: {$ref: '#/components/schemas/T4'}}}
    T4: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/T5'}, b: {$ref: '#/components/schemas/T5'}}}
    T5: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/T6'}, b: {$ref: '#/components/schemas/T6'}}}
    T6: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/T7'}, b: {$ref: '#/components/schemas/T7'}}}
    T7: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/T8'}, b: {$ref: '#/components/schemas/T8'}}}
    T8: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/T9'}, b: {$ref: '#/components/schemas/T9'}}}
    T9: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/T10'}, b: {$ref: '#/components/schemas/T10'}}}
    T10: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/T11'}, b: {$ref: '#/components/schemas/T11'}}}
    T11: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/T12'}, b: {$ref: '#/components/schemas/T12'}}}
    T12: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/T13'}, b: {$ref: '#/components/schemas/T13'}}}
    T13: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/T14'}, b: {$ref: '#/components/schemas/T14'}}}
    T14: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/T15'}, b: {$ref: '#/components/schemas/T15'}}}
    T15: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/T16'}, b: {$ref: '#/components/schemas/T16'}}}
    T16: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/T17'}, b: {$ref: '#/components/schemas/T17'}}}
    T17: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/T18'}, b: {$ref: '#/components/schemas/T18'}}}
    T18: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/T19'}, b: {$ref: '#/components/schemas/T19'}}}
    T19: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/T20'}, b: {$ref: '#/components/schemas/T20'}}}
    T20: {type: string}
`

func budgetSchemas(t testing.TB) *openapi.Document {
	t.Helper()
	doc, err := openapi.Load([]byte(budgetSpec))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// spent returns how many values m has spent.
func spent(m *Meter) int { return m.budget.Nodes - m.nodes }

func TestBudgetEndsGeneration(t *testing.T) {
	doc := budgetSchemas(t)
	tree, small := doc.Schemas["T0"], doc.Schemas["Small"]
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name   string
		ctx    context.Context
		budget Budget
		want   string
		most   int // values spent at most
	}{
		{"values", context.Background(), Budget{Nodes: 1000},
			"the value of #/components/schemas/T0 takes more than 1000 values, over the budget of an answer (it ended at #/components/schemas/T19)", 1000},
		{"bytes", context.Background(), Budget{Nodes: 1 << 30, Bytes: 100},
			"the value of #/components/schemas/T0 takes more than 100 bytes of strings, over the budget of an answer (it ended at #/components/schemas/T20)", 1000},
		{"time", context.Background(), Budget{Nodes: 1 << 30, Time: time.Nanosecond},
			"the value of #/components/schemas/T0 takes more than 1ns, over the budget of an answer (it ended at #/components/schemas/T17)", tickMask + 1},
		{"client gone", cancelled, Budget{Nodes: 1 << 30},
			"the value of #/components/schemas/T0 was left unmade (it ended at #/components/schemas/T17): context canceled", tickMask + 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			meter := NewMeter(c.ctx, c.budget)
			m := &meter
			v, err := Within(m, tree, Faker(1, 0))
			if v != nil || err == nil || err.Error() != c.want {
				t.Fatalf("Within = %v, %v\nwant nil, %s", v, err, c.want)
			}
			if n := spent(m); n > c.most {
				t.Errorf("spent %d values, want at most %d", n, c.most)
			}
			if c.ctx == cancelled && !errors.Is(err, context.Canceled) {
				t.Errorf("%v is not context.Canceled", err)
			}
			// Spent: nothing more is made with it.
			before := spent(m)
			if v, err2 := Within(m, small, Faker(1, 0)); v != nil || err2 != err || spent(m) != before {
				t.Errorf("after the budget ran out: %v, %v, %d values more", v, err2, spent(m)-before)
			}
		})
	}
}

func TestBudgetShared(t *testing.T) {
	// One meter spans the values of an answer: the third Small of a
	// budget of five values does not fit (two values each).
	small := budgetSchemas(t).Schemas["Small"]
	m := NewMeter(context.Background(), Budget{Nodes: 5})
	for i, want := range []bool{true, true, false} {
		v, err := Within(&m, small, Faker(1, uint64(i)))
		if (err == nil) != want || (v != nil) != want {
			t.Errorf("value %d: %v, %v; want made: %v", i, v, err, want)
		}
	}
	five := NewMeter(context.Background(), Budget{Nodes: 5})
	if err := five.Need(small, 5); err != nil {
		t.Errorf("Need 5 of 5: %v", err)
	}
	five = NewMeter(context.Background(), Budget{Nodes: 5})
	if err := five.Need(small, 6); err == nil || err.Error() !=
		"the value of #/components/schemas/Small takes more than 5 values, over the budget of an answer" {
		t.Errorf("Need 6 of 5: %v", err)
	}
}

func TestValueWithinDefaultBudget(t *testing.T) {
	// Value has the default budget: the tree (2^21-1 values) is not made.
	doc := budgetSchemas(t)
	if v := Value(doc.Schemas["T0"], Faker(1, 0)); v != nil {
		t.Errorf("Value = %.80v, want nil", v)
	}
	if v := Value(doc.Schemas["T10"], Faker(1, 0)); v == nil {
		t.Errorf("Value of T10 (2^11-1 values) = nil, want one")
	}
}
