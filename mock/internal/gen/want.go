package gen

import (
	"unicode/utf8"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// want is what a value must satisfy: the schema asked for, the further
// schemas more (alternatives chosen, conditions taken), none of the
// schemas of none, and in an object the properties of fixed with exactly
// their values. The allOf members of each schema (AllOf) count as parts
// of it. Most values want one schema, without more, none or fixed: that
// case allocates nothing.
type want struct {
	s     *openapi.Schema
	more  []*openapi.Schema
	none  []*openapi.Schema
	fixed []fixed
	done  []choice // the alternatives and conditions already settled
}

// fixed is a property an object has with exactly the value v (a
// discriminator's).
type fixed struct {
	name string
	v    any
}

// choice is a schema's anyOf, oneOf, or if/then/else, settled by adding
// what was chosen to a want.
type choice struct {
	s  *openapi.Schema
	kw keyword
}

type keyword uint8

const (
	kwAnyOf keyword = iota
	kwOneOf
	kwIf
)

// one returns the want of schema s alone.
func one(s *openapi.Schema) want { return want{s: s} }

// parts calls yield with every schema the value must satisfy: s, then
// more, each followed by its allOf members (depth first). A schema may
// come twice (two members with a common member); nil schemas (any value)
// do not come.
func (w *want) parts(yield func(*openapi.Schema) bool) {
	if w.alone() {
		if w.s != nil {
			yield(w.s) // the usual case, without a walk
		}
		return
	}
	if !walk(w.s, yield) {
		return
	}
	for _, m := range w.more {
		if !walk(m, yield) {
			return
		}
	}
}

// walk yields s and its allOf members, recursively. The loader refuses
// schemas whose allOf members contain themselves, so it ends.
func walk(s *openapi.Schema, yield func(*openapi.Schema) bool) bool {
	if s == nil {
		return true
	}
	if !yield(s) {
		return false
	}
	for _, m := range s.AllOf {
		if !walk(m, yield) {
			return false
		}
	}
	return true
}

// plus returns w with s added to more (w's lists are copied, so that w
// is not changed).
func (w want) plus(s *openapi.Schema) want {
	if w.s == nil {
		w.s = s
		return w
	}
	w.more = append(w.more[:len(w.more):len(w.more)], s)
	return w
}

// minus returns w with s added to none.
func (w want) minus(s *openapi.Schema) want {
	w.none = append(w.none[:len(w.none):len(w.none)], s)
	return w
}

// settled returns w with choice c settled.
func (w want) settled(c choice) want {
	w.done = append(w.done[:len(w.done):len(w.done)], c)
	return w
}

// isDone reports whether c is settled.
func (w *want) isDone(c choice) bool {
	for _, d := range w.done {
		if d == c {
			return true
		}
	}
	return false
}

// nots calls yield with every schema the value must not match: none,
// and the not of every part.
func (w *want) nots(yield func(*openapi.Schema) bool) {
	for _, n := range w.none {
		if n != nil && !yield(n) {
			return
		}
	}
	for p := range w.parts {
		if p.Not != nil && !yield(p.Not) {
			return
		}
	}
}

// Types, as bits.
type types uint8

const (
	tNull types = 1 << iota
	tBoolean
	tObject
	tArray
	tString
	tInteger
	tFraction // numbers that are not integers
	tAny      = tNull | tBoolean | tObject | tArray | tString | tInteger | tFraction
)

func typeBits(t string) types {
	switch t {
	case "null":
		return tNull
	case "boolean":
		return tBoolean
	case "object":
		return tObject
	case "array":
		return tArray
	case "string":
		return tString
	case "integer":
		return tInteger
	case "number":
		return tInteger | tFraction
	}
	return 0
}

// typesOf returns the types schema s allows by its type keyword.
func typesOf(s *openapi.Schema) types {
	if !s.TypeWritten() {
		return tAny // an inferred object type constrains only objects
	}
	var t types
	for _, x := range s.Types {
		t |= typeBits(x)
	}
	return t
}

// typeOnly reports whether s constrains nothing but the type (so that
// not s excludes its types and nothing else).
func typeOnly(s *openapi.Schema) bool {
	return s != nil && len(s.Types) > 0 && bare(s)
}

// anything reports whether s accepts every value (so that not s accepts
// none).
func anything(s *openapi.Schema) bool {
	return s != nil && len(s.Types) == 0 && bare(s)
}

// impossible reports whether no value satisfies s, as far as its own
// keywords tell: false, or not of anything.
func impossible(s *openapi.Schema) bool {
	return s != nil && (s.Never || s.Not != nil && anything(s.Not))
}

// bare reports whether s constrains nothing beyond its type keyword.
func bare(s *openapi.Schema) bool {
	return !s.Never && s.Structural && !s.Opaque && s.Format == "" && len(s.Properties) == 0 && len(s.Required) == 0 &&
		s.Items == nil && len(s.AllOf) == 0 && !s.NoAdditionalProperties
}

// facts are what a want's parts say, folded in one pass: the types every
// part allows, the tightest bounds, the first const and enum, the first
// choice not settled, and whether a value made for the want is worth
// checking.
type facts struct {
	never       bool
	types       types
	prefer      types // the type the parts' keywords speak of (0: none)
	pending     bool  // choice is one not settled
	risky       bool  // a value made by construction may fail: check it
	opaque      bool  // a part the model cannot see into
	multipart   bool  // more than one part
	plainObject bool  // no part has object keywords beyond properties and required (see plainObject)
	multipleOf  bool  // some part has multipleOf
	pattern     bool  // some part has a pattern
	// refuses is true when a part with additionalProperties false refuses
	// a property the want requires: no object satisfies it, and one
	// made for it is the closest there is, not a valid one.
	refuses bool

	constant *openapi.Schema // the first part with const
	enum     *openapi.Schema // the first part with enum
	choice   choice          // the first choice not settled, when pending
	nots     int             // schemas the value must not match
	format   string          // the first part's format
	lengths  span            // of strings
	interval interval        // of numbers
}

// fold gathers the facts of w's parts into f (filled in place: facts are
// large to copy).
func (w *want) fold(f *facts) {
	*f = facts{types: tAny, nots: len(w.none), risky: len(w.none) > 0 || len(w.fixed) > 0, lengths: span{0, -1}, plainObject: true}
	f.multipart = !w.alone()
	f.addAll(w, w.s)
	for _, m := range w.more {
		f.addAll(w, m)
	}
	if f.nots > 0 {
		for n := range w.nots {
			if typeOnly(n) {
				f.types &^= typesOf(n)
			}
			if anything(n) {
				f.never = true // not {}: no value
			}
		}
	}
	if f.types == 0 {
		f.never = true
	}
}

// refusesRequired reports whether a schema p with additionalProperties
// false refuses a property of required (its own, or the whole want's),
// one that its own properties and patternProperties do not name:
// Airbyte's AirbyteStream requires json_schema and declares jsonSchema;
// Azure Logic's AssemblyProperties requires assemblyName, which its
// closed allOf member refuses. No object satisfies it.
func refusesRequired(p *openapi.Schema, required []string) bool {
	_, refused := refusedRequired(p, required)
	return refused
}

// refusedRequired returns the first property of required that p refuses
// (see refusesRequired).
func refusedRequired(p *openapi.Schema, required []string) (string, bool) {
	for _, r := range required {
		if p.DeclaresOwn(r) {
			continue
		}
		matched := false
		for _, pp := range p.PatternProperties {
			matched = matched || match(pp.Name, r)
		}
		if !matched {
			return r, true
		}
	}
	return "", false
}

// impossible reports whether no value satisfies w, as far as its parts'
// own keywords tell.
func (w *want) impossible() bool {
	var f facts
	w.fold(&f)
	return f.never
}

// addAll folds s and its allOf members into f, as parts would yield
// them, without an iterator.
func (f *facts) addAll(w *want, s *openapi.Schema) {
	if s == nil {
		return
	}
	f.add(w, s)
	for _, m := range s.AllOf {
		f.addAll(w, m)
	}
}

// add folds part p of w into f.
func (f *facts) add(w *want, p *openapi.Schema) {
	f.never = f.never || p.Never
	if len(p.Types) > 0 {
		f.types &= typesOf(p)
	}
	if p.ClosedOwn() && (refusesRequired(p, p.Required) || w.s != nil && w.s != p && refusesRequired(p, w.s.Required)) {
		f.refuses = true // no object has what it requires and refuses
	}
	if p.Format == "int32" || p.Format == "int64" {
		// The validator holds a number of these formats to whole values,
		// whatever its type says (type: number, format: int32 is common).
		f.types &^= tFraction
	}
	if f.prefer == 0 {
		f.prefer = spoken(p)
	}
	if f.format == "" {
		f.format = p.Format
	}
	if p.Structural && !p.Opaque {
		// Type, properties, required, additionalProperties false and the
		// int32 and int64 formats, here and within: nothing else to fold.
		if p != w.s && (p.Discriminator != nil || p.NoAdditionalProperties) {
			f.plainObject = false
		}
		return
	}
	if p.HasConst && f.constant == nil {
		f.constant = p
	}
	if len(p.Enum) > 0 && f.enum == nil {
		f.enum = p
	}
	if !f.pending {
		switch {
		case len(p.AnyOf) > len(p.OneOf) && !w.isDone(choice{p, kwAnyOf}):
			f.choice, f.pending = choice{p, kwAnyOf}, true
		case len(p.OneOf) > 0 && !w.isDone(choice{p, kwOneOf}):
			f.choice, f.pending = choice{p, kwOneOf}, true
		case p.If != nil && !w.isDone(choice{p, kwIf}):
			f.choice, f.pending = choice{p, kwIf}, true
		}
	}
	if p.Not != nil {
		f.nots++
		f.risky = true
	}
	if f.plainObject && (p.Not != nil || len(p.PatternProperties) > 0 || p.AdditionalProperties != nil || p.PropertyNames != nil ||
		len(p.DependentRequired) > 0 || len(p.DependentSchemas) > 0 || p.MinProperties != nil || p.MaxProperties != nil ||
		p != w.s && (p.Discriminator != nil || p.NoAdditionalProperties)) {
		f.plainObject = false
	}
	if p.Opaque {
		f.opaque, f.risky = true, true
	}
	if len(p.DependentSchemas) > 0 || p.Contains != nil {
		f.risky = true
	}
	if p.MinLength != nil || p.MaxLength != nil {
		f.lengths.tighten(p.MinLength, p.MaxLength)
	}
	f.pattern = f.pattern || p.Pattern != ""
	f.multipleOf = f.multipleOf || p.MultipleOf != nil
	if p.Minimum != nil {
		f.interval.bound(*p.Minimum, p.ExclusiveMinimum, true)
	}
	if p.Maximum != nil {
		f.interval.bound(*p.Maximum, p.ExclusiveMaximum, false)
	}
}

// alone reports whether w is at most one schema without allOf members,
// besides none and fixed.
func (w *want) alone() bool {
	return len(w.more) == 0 && (w.s == nil || len(w.s.AllOf) == 0)
}

// span is a range of counts (lengths, items, properties); max -1: none.
type span struct{ min, max int64 }

// holds reports whether v, where it is a string, has a length in code
// points within sp; a value of another type is not measured.
func (sp span) holds(v any) bool {
	str, ok := v.(string)
	if !ok {
		return true
	}
	n := int64(utf8.RuneCountInString(str))
	return n >= sp.min && (sp.max < 0 || n <= sp.max)
}

// tighten narrows sp to lo and hi, where they are given.
func (sp *span) tighten(lo, hi *int64) {
	if lo != nil {
		sp.min = max(sp.min, *lo)
	}
	if hi != nil && (sp.max < 0 || *hi < sp.max) {
		sp.max = *hi
	}
}

// itemCounts returns the range of array lengths of w's parts.
func (w *want) itemCounts() span {
	sp := span{0, -1}
	for p := range w.parts {
		sp.tighten(p.MinItems, p.MaxItems)
	}
	return sp
}

// propertyCounts returns the range of object sizes of w's parts.
func (w *want) propertyCounts() span {
	sp := span{0, -1}
	for p := range w.parts {
		sp.tighten(p.MinProperties, p.MaxProperties)
	}
	return sp
}

// interval is the range of numbers w's parts allow.
type interval struct {
	lo, hi         float64
	hasLo, hasHi   bool
	exclLo, exclHi bool
}

// bound tightens the lower (lower true) or upper bound to x.
func (in *interval) bound(x float64, excl, lower bool) {
	if lower {
		switch {
		case !in.hasLo || x > in.lo:
			in.lo, in.exclLo, in.hasLo = x, excl, true
		case x == in.lo:
			in.exclLo = in.exclLo || excl
		}
		return
	}
	switch {
	case !in.hasHi || x < in.hi:
		in.hi, in.exclHi, in.hasHi = x, excl, true
	case x == in.hi:
		in.exclHi = in.exclHi || excl
	}
}

// spoken returns the type schema s's keywords speak of, when its type
// keyword says nothing: an object for properties, an array for items, and
// so on; 0 when none.
func spoken(s *openapi.Schema) types {
	for _, t := range s.Types {
		if t != "null" {
			return typeBits(t)
		}
	}
	switch {
	case len(s.Properties) > 0 || len(s.Required) > 0 || len(s.PatternProperties) > 0 || s.AdditionalProperties != nil ||
		s.MinProperties != nil || s.MaxProperties != nil || s.PropertyNames != nil || len(s.DependentRequired) > 0 ||
		len(s.DependentSchemas) > 0 || s.NoAdditionalProperties:
		return tObject
	case s.Items != nil || len(s.PrefixItems) > 0 || s.Contains != nil || s.MinItems != nil || s.MaxItems != nil || s.UniqueItems:
		return tArray
	case s.Format == "int32" || s.Format == "int64":
		return tInteger
	case s.Minimum != nil || s.Maximum != nil || s.MultipleOf != nil:
		return tInteger | tFraction
	case s.MinLength != nil || s.MaxLength != nil || s.Pattern != "" || s.Format != "":
		return tString
	}
	return 0
}
