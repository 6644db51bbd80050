package gen

import (
	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// maxUniqueTries bounds how often an item of a uniqueItems array is made
// again when it repeats one before it.
const maxUniqueTries = 32

// array makes an array: between minItems and maxItems items (1 to 3
// where they say nothing, only minItems deep down), each satisfying the
// prefixItems or items of every part at its place; enough items of each
// contains schema, and no more than maxContains; all different for
// uniqueItems.
func (g *gen) array(w want, name string, depth int) []any {
	a := arrayPlanOf(&w)
	a.lengths(depth)
	n := int(a.lo)
	if a.hi > a.lo {
		n = g.f.Number(int(a.lo), int(a.hi))
	}
	if g.m.Need(w.s, int64(n)) != nil {
		return nil // more items than the budget has values: dropped
	}
	return g.arrayItems(&w, &a, name, n, depth)
}

// arrayPlan is what the parts of an array's want say about its items,
// and the lengths the array may have.
type arrayPlan struct {
	prefix   int    // the longest prefixItems
	closed   int64  // the most items items allow; -1: no bound
	contains []need // the contains schemas of every part
	unique   bool   // some part asks for uniqueItems
	counts   span   // the parts' minItems and maxItems
	lo, hi   int64  // the fewest and most items to make (see lengths)
}

// arrayPlanOf reads the parts of w: their prefixItems, where an item no
// value satisfies closes the array, their contains schemas, uniqueItems
// and item counts.
func arrayPlanOf(w *want) arrayPlan {
	a := arrayPlan{closed: -1, counts: w.itemCounts()}
	for p := range w.parts {
		a.prefix = max(a.prefix, len(p.PrefixItems))
		end := -1 // where the array must end at the latest: an item no value satisfies
		for i, x := range p.PrefixItems {
			if impossible(x) {
				end = i
				break
			}
		}
		if end < 0 && impossible(p.Items) {
			end = len(p.PrefixItems)
		}
		if c := int64(end); end >= 0 && (a.closed < 0 || c < a.closed) {
			a.closed = c
		}
		if p.Contains != nil {
			n := need{s: p.Contains, min: 1, max: -1}
			if p.MinContains != nil {
				n.min = *p.MinContains
			}
			if p.MaxContains != nil {
				n.max = *p.MaxContains
			}
			a.contains = append(a.contains, n)
		}
		a.unique = a.unique || p.UniqueItems
	}
	return a
}

// lengths sets a.lo and a.hi, the fewest and most items to make: 1 to 3
// where the parts say nothing, at least the prefix and what the contains
// schemas want, within minItems and maxItems and before an item no value
// satisfies; only as few as the schema allows deep down.
func (a *arrayPlan) lengths(depth int) {
	lo, hi := int64(1), int64(3)
	if a.prefix > 0 {
		hi = max(hi, int64(a.prefix))
	}
	var wanted int64 // items that contains schemas want
	for _, c := range a.contains {
		wanted = addSat(wanted, c.min)
	}
	lo = max(a.counts.min, wanted)
	if a.counts.min == 0 && wanted == 0 && a.prefix == 0 {
		lo = min(1, hi)
	}
	if a.prefix > 0 && a.counts.min == 0 {
		lo = max(lo, int64(a.prefix))
	}
	hi = max(hi, lo)
	if a.counts.max >= 0 {
		hi = min(hi, a.counts.max)
	}
	if a.closed >= 0 {
		hi = min(hi, a.closed)
	}
	if depth >= maxDepth {
		// Deep down, as few items as the schema allows.
		lo = max(a.counts.min, wanted)
		hi = min(hi, lo)
	}
	a.lo, a.hi = min(lo, hi), hi
}

// arrayItems makes the n items of an array of w planned as a: each
// satisfying its place's schemas and the contains schema it serves, all
// different for uniqueItems. The array ends early, at a length the
// schema allows, when no valid or no new item can be made.
func (g *gen) arrayItems(w *want, a *arrayPlan, name string, n, depth int) []any {
	serves := places(a.contains, a.prefix, n)
	out := make([]any, 0, n)
	var seen map[string]bool
	spent := false
	if a.unique {
		seen = make(map[string]bool, n)
	}
	item := singular(name)
	for i := 0; i < n; i++ {
		iw := a.itemWant(w, i, serves)
		before := g.unsure
		v, ok := g.value(iw, item, depth+1)
		if (!ok || g.unsure > before) && serves == nil && i >= a.prefix && int64(len(out)) >= a.counts.min {
			// No valid item could be made (a closed object that
			// requires what it refuses, in it or deeper down): the
			// array ends here, as short as it may be, rather than
			// hold an invalid one. The first item made after the
			// checks ran out is validated whole instead: a big item
			// (Stripe's charge, a thousand checks deep) is most often
			// valid, and a list answered empty shows a client
			// nothing.
			g.unsure = before
			if len(out) > 0 || g.checks > 0 || !sure(&iw, v) {
				break
			}
		}
		if seen != nil {
			key := string(jsonx.Marshal(v))
			for t := 0; seen[key] && t < maxUniqueTries && !spent; t++ {
				v, _ = g.value(iw, item, depth+1)
				key = string(jsonx.Marshal(v))
			}
			if seen[key] {
				if int64(len(out)) >= a.lo {
					break // no other value: the array ends here
				}
				spent = true // and the items to come repeat too: no more tries
			}
			seen[key] = true
		}
		out = append(out, v)
	}
	return out
}

// itemWant returns what item i of an array of w planned as a satisfies:
// the schemas at its place, the contains schema it serves (serves, from
// places), and not the contains schemas with a maxContains it does not
// serve.
func (a *arrayPlan) itemWant(w *want, i int, serves []int) want {
	iw := itemWant(w, i)
	for ci, c := range a.contains {
		switch {
		case serves != nil && serves[i] == ci:
			iw = iw.plus(c.s)
		case c.max >= 0:
			iw = iw.minus(c.s) // the item does not count towards maxContains
		}
	}
	return iw
}

// sure reports whether v satisfies w, validated whole without spending
// a check.
func sure(w *want, v any) bool {
	ok, _ := satisfies(w, v)
	return ok
}

// places returns which contains schema, if any (-1), each of n places
// serves: the places after the prefix first, then the prefix's from its
// end. It returns nil when there are no contains schemas.
func places(contains []need, prefix, n int) []int {
	if len(contains) == 0 {
		return nil
	}
	serves := make([]int, n)
	for i := range serves {
		serves[i] = -1
	}
	next := func() int {
		for i := prefix; i < n; i++ {
			if serves[i] < 0 {
				return i
			}
		}
		for i := min(prefix, n) - 1; i >= 0; i-- {
			if serves[i] < 0 {
				return i
			}
		}
		return -1
	}
	for ci, c := range contains {
		for k := int64(0); k < c.min; k++ {
			if i := next(); i >= 0 {
				serves[i] = ci
			}
		}
	}
	return serves
}

// need is a contains schema and how many items match it.
type need struct {
	s        *openapi.Schema
	min, max int64 // max -1: no bound
}

// itemWant returns what item i of an array of w satisfies: the schema at
// its place of every part (its prefixItems' or its items').
func itemWant(w *want, i int) want {
	var iw want
	for p := range w.parts {
		var s *openapi.Schema
		switch {
		case i < len(p.PrefixItems):
			s = p.PrefixItems[i]
		case p.Items != nil:
			s = p.Items
		default:
			continue
		}
		if iw.s == nil {
			iw.s = s
		} else if s != iw.s {
			iw = iw.plus(s)
		}
	}
	return iw
}
