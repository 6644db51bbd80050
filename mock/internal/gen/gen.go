// Package gen generates JSON values that satisfy a schema, with gofakeit.
// The same seed and sequence number always give the same value.
//
// Values are made by construction from the schema model: each keyword the
// validator enforces has a generator that satisfies it (bounds, lengths,
// patterns, formats, items, properties, and the rest). Where construction
// cannot be sure (an alternative of anyOf or oneOf, a condition, a schema
// the value must not match, keywords the model does not hold), the value
// is checked with the schema's Validate and made again, a bounded number
// of times; the usual object of scalars is never checked.
package gen

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Faker returns a faker for the n-th value generated under seed. Fakers are
// cheap; use one per request so that output does not depend on scheduling.
func Faker(seed, n uint64) *gofakeit.Faker {
	return gofakeit.NewCustom(&splitmix{state: seed ^ (n+1)*0x9e3779b97f4a7c15})
}

// splitmix is a small, fast math/rand Source64.
type splitmix struct{ state uint64 }

func (s *splitmix) Uint64() uint64 {
	s.state += 0x9e3779b97f4a7c15
	z := s.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
func (s *splitmix) Int63() int64    { return int64(s.Uint64() >> 1) }
func (s *splitmix) Seed(seed int64) { s.state = uint64(seed) }

// maxDepth bounds nesting; deeper optional parts are left out, and where
// a value may be null or an empty array it is. hardDepth is where
// generation stops whatever the schema requires: a recursive schema that
// requires itself at every level has no finite value, and the value made
// there (null) is refused by the schema when it is checked.
const (
	maxDepth  = 8
	hardDepth = 32
)

// maxChecks bounds how many candidates one Value checks against their
// schemas, so that a schema no value can satisfy costs little.
const maxChecks = 256

// Value returns a value for schema s. Examples, consts and enums are used
// where the schema has them; otherwise the value is made up from the type,
// format, bounds and the property name. It is made within the default
// Budget: where that runs out, Value returns nil.
func Value(s *openapi.Schema, f *gofakeit.Faker) any {
	g := gen{f: f, checks: maxChecks}
	g.m.init(context.Background(), Budget{})
	v, _ := g.run(s)
	return v
}

// Within returns a value for schema s, like Value, spending from m. It
// returns m's error (an *ExceededError) when m ran out or its context
// was done before the value was made: nothing more is made then, and
// the value is to be dropped.
func Within(m *Meter, s *openapi.Schema, f *gofakeit.Faker) (any, error) {
	if m.err != nil {
		return nil, m.err
	}
	g := gen{f: f, checks: maxChecks, m: *m}
	v, err := g.run(s)
	*m = g.m
	return v, err
}

// run makes the value of s.
func (g *gen) run(s *openapi.Schema) (any, error) {
	g.m.root = s
	if k, ok := g.m.over[s]; ok {
		g.m.exceed(s, k) // its smallest value is over the budget: nothing to try
		return nil, g.m.err
	}
	v, _ := g.value(one(s), "", 0)
	if g.m.err != nil {
		return nil, g.m.err
	}
	return v, nil
}

// gen is one generation: its faker, the checks it has left, and the
// budget it spends (a copy of the Meter, held here so that it stays on
// the stack: through a pointer it cost Value an allocation of 112
// bytes).
type gen struct {
	f      *gofakeit.Faker
	checks int
	m      Meter
	// unsure counts the required properties given a value not sure to
	// satisfy their schema (value's false): an array whose item made
	// one ends before it where it may (see array).
	unsure int
	// unmatched is set by patterned when the string it made is not
	// known to match (its tries failed, or no checks were left to try
	// it with), and by enum when no value of the enum fits the other
	// parts. value reports such a value as not sure, so that an
	// optional property is left out rather than answered broken.
	unmatched bool
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// value returns a value for w, and whether it is sure to satisfy w (false
// when its checks and repairs failed); name is the property it is for,
// if any.
//
// value, object and array, which call one another, take wants by value:
// the address of a local passed down a recursion would move it to the
// heap.
func (g *gen) value(w want, name string, depth int) (any, bool) {
	if !g.m.node(w.s) || depth >= hardDepth {
		return nil, false
	}
	if w.s == nil && len(w.more) == 0 && len(w.none) == 0 {
		return g.f.Word(), true
	}
	var fa facts
	w.fold(&fa)
	if fa.never {
		return nil, false // no value: nothing to try
	}
	if fa.pending {
		return g.choose(&w, fa.choice, name, depth)
	}
	if fa.refuses {
		// No object fits: a value of another type the want allows, else
		// the closest object, which is not a valid one.
		if fa.types == tObject {
			return g.make(&w, &fa, name, depth, 0), false
		}
		if fa.types &^= tObject; fa.prefer == tObject {
			fa.prefer = 0
		}
	}
	if !fa.risky {
		g.unmatched = false
		v := g.make(&w, &fa, name, depth, 0)
		return v, !((fa.pattern || fa.enum != nil) && g.unmatched)
	}
	tries := 3
	if fa.opaque {
		tries = len(typeOrder) // a try for each type
	}
	var first any
	for try := 0; try < tries; try++ {
		v, ok := g.accept(&w, g.make(&w, &fa, name, depth, try))
		if ok {
			return v, true
		}
		if try == 0 {
			first = v
		}
		if g.checks <= 0 {
			break // nothing left to tell a better try by
		}
	}
	if fa.opaque {
		// The least values of each type: an empty object or array is
		// often all a schema the model cannot see into accepts.
		for _, v := range []any{map[string]any{}, []any{}, json.Number("0"), "", false, nil} {
			if g.fits(&w, v) {
				return v, true
			}
		}
	}
	return first, false
}

// fits reports whether v satisfies w, by the validator; false once the
// checks are used up.
func (g *gen) fits(w *want, v any) bool {
	ok, _ := g.check(w, v)
	return ok
}

// check reports whether v satisfies w, by the validator, with what is
// wrong when it does not: the violations of the first schema of w it
// breaks (none for a schema it matches and must not). Once the checks
// are used up it reports false: a value not checked is not sure, and
// value leaves it out where it may (an optional property, an item past
// minItems) rather than answer it broken. A big answer of a schema with
// many alternatives or patterns (FSx's backups, Jira's workflows) uses
// them up, and its later values had been taken as sure unchecked.
func (g *gen) check(w *want, v any) (bool, []openapi.Violation) {
	if g.m.err != nil {
		return true, nil // the value is dropped
	}
	if g.checks <= 0 {
		return false, nil // nothing left to check with
	}
	g.checks--
	return satisfies(w, v)
}

// satisfies reports whether v satisfies w, by the validator, with what is
// wrong when it does not, as check does, without spending a check.
func satisfies(w *want, v any) (bool, []openapi.Violation) {
	if w.s != nil {
		if vs := w.s.Validate(v); len(vs) > 0 {
			return false, vs
		}
	}
	for _, m := range w.more {
		if vs := m.Validate(v); m != nil && len(vs) > 0 {
			return false, vs
		}
	}
	for _, n := range w.none {
		if n != nil && len(n.Validate(v)) == 0 {
			return false, nil
		}
	}
	if obj, ok := v.(map[string]any); ok {
		for _, fx := range w.fixed {
			if obj[fx.name] != fx.v {
				return false, nil
			}
		}
	}
	return true, nil
}

// accept checks v against w and, where it fails, tries to repair it; it
// returns the value to use and whether it satisfies w.
func (g *gen) accept(w *want, v any) (any, bool) {
	ok, vs := g.check(w, v)
	if ok {
		return v, true
	}
	return g.repair(w, v, vs)
}

// choose settles choice c of w: it adds an alternative (for oneOf, with
// the others as schemas not to match, and the discriminator's property
// set to the alternative's name), or a branch of if/then/else, and makes
// the value of that; the first that satisfies w is returned. The
// alternatives are tried from one drawn from g's faker, so that values
// of one schema reach each of its alternatives (every event kind of a
// stream whose item schema is a oneOf, not its first alone), the same
// seed the same ones. Deep down, alternatives that end soonest come
// first.
func (g *gen) choose(w *want, c choice, name string, depth int) (any, bool) {
	base := w.settled(c)
	var first any
	have, good := false, false
	try := func(b want) bool {
		v, ok := g.value(b, name, depth)
		if !ok && v == nil && b.impossible() {
			return false // an alternative no value satisfies
		}
		if !ok || len(b.none) == 0 && len(b.fixed) == 0 {
			// Not checked against b, which holds all of w, or refused
			// by it: check against w.
			v, ok = g.accept(w, v)
		}
		if ok || !have {
			first, have, good = v, true, ok
		}
		return ok || g.checks <= 0 // without checks, no other try is better
	}
	if c.kw == kwIf {
		then := base.plus(c.s.If)
		if c.s.Then != nil {
			then = then.plus(c.s.Then)
		}
		els := base.minus(c.s.If)
		if c.s.Else != nil {
			els = els.plus(c.s.Else)
		}
		branches := [2]want{then, els}
		if c.s.If.Never || g.f.Bool() && !anything(c.s.If) {
			branches[0], branches[1] = els, then
		}
		for _, b := range branches {
			if try(b) {
				break
			}
		}
		return first, good
	}
	alts := c.alternatives()
	start := 0
	if len(alts) > 1 {
		// Only where there is a choice: a draw shifts every value made
		// after it, of this schema and of the answer's others.
		start = g.f.Number(0, len(alts)-1)
	}
	for _, i := range order(alts, depth, start) {
		b, named, isNamed := base.alternative(c, alts, i)
		if isNamed && try(named) {
			break
		}
		if try(b) {
			break
		}
	}
	return first, good
}

// alternatives returns the alternatives of an anyOf or oneOf choice.
func (c choice) alternatives() []*openapi.Schema {
	if c.kw == kwAnyOf {
		return c.s.AnyOf[:len(c.s.AnyOf)-len(c.s.OneOf)]
	}
	return c.s.OneOf
}

// alternative returns base with alternative i of choice c (whose
// alternatives are alts) added: for oneOf, with the others that may
// take a value of the same type as schemas not to match. Where c's
// schema has a discriminator that names the alternative, named is that
// want with the discriminator's property fixed to the name, and
// isNamed is true.
func (base want) alternative(c choice, alts []*openapi.Schema, i int) (b, named want, isNamed bool) {
	a := alts[i]
	b = base.plus(a)
	if c.kw == kwOneOf {
		t := typesOf(c.s) & typesOf(a)
		for j, o := range alts {
			if j != i && o != nil && !o.Never && typesOf(o)&t != 0 {
				b = b.minus(o)
			}
		}
	}
	if d := c.s.Discriminator; d != nil && d.PropertyName != "" {
		if name := d.Value(a); name != "" {
			named = b
			named.fixed = append(named.fixed[:len(named.fixed):len(named.fixed)], fixed{d.PropertyName, name})
			return b, named, true
		}
	}
	return b, want{}, false
}

// order returns the indexes of the alternatives worth trying, in the
// order to try them: the document's from alternative start on, wrapping
// round, and deep down those that end soonest (not recursive, no items
// or properties) before the others, so that recursion still ends.
func order(alts []*openapi.Schema, depth, start int) []int {
	out := make([]int, 0, len(alts))
	if depth >= maxDepth {
		for k := range alts {
			i := (start + k) % len(alts)
			if a := alts[i]; a != nil && !a.Never && !a.Recursive && a.Items == nil && len(a.Properties) == 0 {
				out = append(out, i)
			}
		}
	}
	for k := range alts {
		i := (start + k) % len(alts)
		a := alts[i]
		if a != nil && a.Never {
			continue
		}
		if depth < maxDepth || a == nil || a.Recursive || a.Items != nil || len(a.Properties) > 0 {
			out = append(out, i)
		}
	}
	return out
}

// make makes a value for w by construction, w's choices settled; try
// counts the attempts for the same want, so that later ones try other
// types.
func (g *gen) make(w *want, fa *facts, name string, depth, try int) any {
	if fa.never || depth >= maxDepth && fa.types&tNull != 0 && takesNull(fa) {
		return nil
	}
	if fa.constant != nil {
		return fa.constant.Const
	}
	if fa.enum != nil {
		return g.enum(w, fa)
	}
	if try == 0 {
		if ex, ok := g.example(w); ok {
			return ex
		}
	}
	switch pick(fa, try) {
	case tNull:
		return nil
	case tBoolean:
		return g.f.Bool()
	case tObject:
		return g.object(*w, fa.plainObject, depth)
	case tArray:
		return g.array(*w, name, depth)
	case tInteger:
		return g.integer(w, fa)
	case tFraction:
		return g.number(w, fa)
	}
	if !g.m.afford(w.s, fa.lengths.min) {
		return "" // too long to make: dropped
	}
	v := g.str(w, fa, name, try)
	g.m.spend(w.s, int64(len(v)))
	return v
}

// takesNull reports whether the const and enum of fa, if any, take
// null: deep down a nullable value is null, but not where its enum
// leaves null out (UniCourt's nullable sourceDetails.source, an enum of
// two strings).
func takesNull(fa *facts) bool {
	if fa.constant != nil {
		return fa.constant.Const == nil
	}
	return fa.enum == nil || slices.Contains(fa.enum.Enum, nil)
}

// example returns the example of w's schema when it has one that
// satisfies it; for a want of several schemas (an alternative chosen, say),
// the first example of its parts that satisfies them all.
func (g *gen) example(w *want) (any, bool) {
	if len(w.more) == 0 && len(w.none) == 0 && len(w.fixed) == 0 {
		return w.s.GoodExample()
	}
	for p := range w.parts {
		if p.HasExample {
			if ex, ok := p.GoodExample(); ok && g.fits(w, ex) {
				return ex, true
			}
		}
	}
	return nil, false
}

// enum picks a value of the first enum of w's parts, from a random
// place, that the other parts allow too.
func (g *gen) enum(w *want, fa *facts) any {
	list := fa.enum.Enum
	start := g.f.Number(0, len(list)-1)
	check := fa.multipart || fa.nots > 0
	var held any // the first of the type and lengths, where no check tells
	has := false
	for i := range list {
		v := list[(start+i)%len(list)]
		if typeOfValue(v)&fa.types == 0 || !fa.lengths.holds(v) {
			continue // Codat's enum of transaction types beside maxLength 8
		}
		if !check || g.fits(w, v) {
			return v
		}
		if !has {
			held, has = v, true
		}
	}
	// None is known to fit: Zuora's CreatedById field definition has an
	// origin of enum [system] beside an allOf member's
	// additionalProperties whose origin is enum [custom]; or the checks
	// are used up.
	g.unmatched = true
	if has {
		return held
	}
	return list[start]
}

// typeOfValue returns the type of a JSON value.
func typeOfValue(v any) types {
	switch x := v.(type) {
	case nil:
		return tNull
	case bool:
		return tBoolean
	case string:
		return tString
	case map[string]any:
		return tObject
	case []any:
		return tArray
	case json.Number:
		if isInteger(string(x)) {
			return tInteger
		}
		return tFraction
	}
	return tAny
}

// order of the types tried after the one the keywords speak of.
var typeOrder = [...]types{tString, tInteger, tObject, tArray, tBoolean, tNull, tFraction}

// pick returns the type to make: the one the parts' keywords speak of
// when they allow it, else the first allowed in typeOrder; later tries
// take the next allowed types in turn.
func pick(fa *facts, try int) types {
	if t := fa.types &^ tNull; t != 0 && t&(t-1) == 0 && (try == 0 || fa.types&tNull == 0) {
		return t // one type (or it and null): the usual case
	}
	var cands [len(typeOrder) + 1]types
	n := 0
	if p := fa.prefer & fa.types; p != 0 {
		switch {
		case p&tFraction != 0:
			cands[n] = tFraction
		case p&tInteger != 0:
			cands[n] = tInteger
		default:
			cands[n] = p
		}
		n++
	}
	for _, t := range typeOrder {
		if fa.types&t != 0 && (n == 0 || cands[0] != t) {
			cands[n] = t
			n++
		}
	}
	if n == 0 {
		return tNull
	}
	return cands[try%n]
}

func singular(name string) string {
	if strings.HasSuffix(name, "s") && len(name) > 1 {
		return name[:len(name)-1]
	}
	return name
}
