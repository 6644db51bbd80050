package gen

import (
	"context"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Alternatives returns the anyOf or oneOf alternatives a value of s
// chooses between first, as Value settles them: those of s, or of its
// first allOf member that has some (anyOf before oneOf). It returns nil
// when s chooses none.
func Alternatives(s *openapi.Schema) []*openapi.Schema {
	c, ok := firstChoice(s)
	if !ok {
		return nil
	}
	return c.alternatives()
}

// firstChoice returns the anyOf or oneOf choice a value of s settles
// first, if any.
func firstChoice(s *openapi.Schema) (choice, bool) {
	if s == nil {
		return choice{}, false
	}
	w := one(s)
	var fa facts
	w.fold(&fa)
	if !fa.pending || fa.choice.kw == kwIf {
		return choice{}, false
	}
	return fa.choice, true
}

// Alternative returns a value for s that takes its i-th alternative (of
// those Alternatives returns), within the default Budget, and whether
// it does: false when no value satisfying both s and that alternative
// was made. A caller that sends one value per alternative uses it so
// that each is seen once; Value starts from one its faker draws.
func Alternative(s *openapi.Schema, i int, f *gofakeit.Faker) (any, bool) {
	c, ok := firstChoice(s)
	if !ok {
		return nil, false
	}
	alts := c.alternatives()
	if i < 0 || i >= len(alts) || alts[i] == nil || alts[i].Never {
		return nil, false
	}
	g := gen{f: f, checks: maxChecks}
	g.m.init(context.Background(), Budget{})
	g.m.root = s
	w := one(s)
	b, named, isNamed := w.settled(c).alternative(c, alts, i)
	tries := []want{b}
	if isNamed {
		tries = []want{named, b}
	}
	for _, t := range tries {
		v, ok := g.value(t, "", 0)
		if !ok {
			v, _ = g.accept(&w, v) // repaired, maybe into another alternative: checked below
		}
		if g.m.err != nil {
			return nil, false
		}
		if len(s.Validate(v)) == 0 && len(alts[i].Validate(v)) == 0 {
			return v, true
		}
	}
	return nil, false
}
