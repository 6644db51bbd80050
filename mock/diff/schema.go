package diff

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// direction is how a schema change moves the set of values the schema
// accepts.
type direction uint8

const (
	narrower direction = iota // NEW accepts fewer values
	wider                     // NEW accepts more values
	unsure                    // NEW accepts other values: maybe fewer, maybe more
	neutral                   // the set of values does not tell (a property added to an open object)
)

// levelOf is the level of a schema change in direction dir on side: a
// request schema that accepts fewer values, or a response schema that
// allows more, breaks clients; the reverse breaks providers; a change
// that may go either way breaks clients, a hook's too (hook: the
// operation is a hook's, whose levels opDiff.add swaps, so the level is
// given swapped).
func levelOf(side Side, dir direction, hook bool) Level {
	switch {
	case dir == neutral:
		return Compatible
	case dir == unsure && hook:
		return BreaksProviders
	case dir == unsure:
		return BreaksClients
	case (side == Request) == (dir == narrower):
		return BreaksClients
	}
	return BreaksProviders
}

// consequence says what a schema change at level on side does.
func consequence(side Side, level Level) string {
	switch {
	case level == Compatible:
		return "a client of OLD does not send or read it"
	case side == Request && level == BreaksClients:
		return "a request OLD accepted may be refused"
	case side == Request:
		return "a provider of OLD refuses values NEW allows"
	case level == BreaksClients:
		return "a client of OLD may receive values OLD did not allow"
	}
	return "a provider of OLD may send values NEW forbids"
}

// pair is two schemas compared, and whether only their own keywords
// were (an allOf member's, whose properties its parent compares).
type pair struct {
	old, new *openapi.Schema
	own      bool
}

// walk compares the schemas of one side of one operation; each pair of
// schemas is compared once, so recursive schemas end.
type walk struct {
	op   *opDiff
	side Side
	seen map[pair]bool
	// nullElsewhere holds, for a pair of alternatives, how null fares
	// in their anyOf or oneOf (see alternatives).
	nullElsewhere map[pair]nullElsewhere
}

// nullElsewhere says of a pair of alternatives how many others take
// null in OLD and NEW both, and whether they are oneOf's.
type nullElsewhere struct {
	others int
	oneOf  bool
}

// at is one pair of schemas in the walk: the root it is under, what the
// reasons call that root and the prefix of the root's rules, and the
// dotted path of properties to it.
type at struct {
	w          *walk
	root       string // "request body (application/json)"
	rootPrefix string // "request-body"
	path       string // "owner.name", "tags[]"; "" for the root
	old, new   *openapi.Schema
}

// subject is what the reasons call the schema: the root, or a property
// of it.
func (a *at) subject() string {
	if a.path == "" {
		return a.root
	}
	return a.root + " property " + a.path
}

// prefix is how the schema's rules start: the root's prefix, or
// "request-property" and "response-property" below it.
func (a *at) prefix() string {
	if a.path == "" {
		return a.rootPrefix
	}
	return string(a.w.side) + "-property"
}

// report adds a change of rule in direction dir.
func (a *at) report(rule string, dir direction, old, new *Location, what string) {
	a.reportAlso(rule, dir, old, new, what, "")
}

// reportAlso is report for a change whose violations may be found at
// also too (see found).
func (a *at) reportAlso(rule string, dir direction, old, new *Location, what, also string) {
	level := levelOf(a.w.side, dir, a.w.op.hook != "")
	f := found{also: also, body: strings.HasSuffix(a.rootPrefix, "-body"), path: a.path}
	a.w.op.addFound(rule, level, a.w.side, old, new, a.subject()+": "+what+"; "+consequence(a.w.side, level), f)
}

// change reports a change of keyword kw (the first of kws the schemas
// have names where it is in each) in direction dir.
func (a *at) change(suffix string, dir direction, what string, kws ...string) {
	a.report(a.prefix()+"-"+suffix, dir, place(a.old, kws...), place(a.new, kws...), what)
}

// propertyPlace is where property p is declared in s, under its
// properties, rather than where a $ref in it leads: an annotation at a
// component's line would not show what was added or removed. A property
// an allOf member declares is placed at its schema.
func propertyPlace(s *openapi.Schema, p *openapi.Property) *Location {
	if ptr, line := s.PropertyPlace(p.Name); ptr != "" {
		return loc(ptr, line)
	}
	return place(p.Schema)
}

// place is where keyword kw of s is, the first of kws it has, else s.
func place(s *openapi.Schema, kws ...string) *Location {
	for _, kw := range kws {
		if ptr, line := s.Place(kw); strings.HasSuffix(ptr, "/"+openapi.PointerToken(kw)) {
			return loc(ptr, line)
		}
	}
	return loc(s.Place(""))
}

// schema compares schema o of OLD with n of NEW, at path under root,
// whose rules start with rootPrefix. With own, only the keywords an
// allOf member keeps to itself are compared: its parent compares the
// rest.
func (w *walk) schema(root, rootPrefix, path string, o, n *openapi.Schema, own bool) {
	// An absent subschema accepts any value, as the schema true does.
	switch {
	case o == nil && n != nil && n.Never:
		o = &openapi.Schema{}
	case n == nil && o != nil && o.Never:
		n = &openapi.Schema{}
	}
	if o == nil || n == nil || w.seen[pair{o, n, own}] {
		return
	}
	w.seen[pair{o, n, own}] = true
	a := &at{w: w, root: root, rootPrefix: rootPrefix, path: path, old: o, new: n}
	switch {
	case !o.Never && n.Never:
		a.change("schema-became-false", narrower, "the schema became false, which no value matches")
		return
	case o.Never && !n.Never:
		a.change("schema-no-longer-false", wider, "the schema is no longer false, which no value matched")
		return
	}
	if wrapped(o, n) {
		a.alternatives()
		return
	}
	if !own {
		a.types()
		a.format()
		a.properties()
		w.schema(root, rootPrefix, join(path, "[]"), o.Items, n.Items, false)
		w.schema(root, rootPrefix, join(path, "*"), o.AdditionalProperties, n.AdditionalProperties, false)
	}
	a.values()
	a.bounds()
	a.pattern()
	a.alternatives()
	a.discriminator()
	w.op.examples(w.side, a.prefix(), a.subject(), o.ExampleList(), n.ExampleList())
	a.applicators()
	a.members()
}

// members compares allOf members' own keywords (their parent compares
// what is merged), matched by component name, else by place. A member
// added is compared with a schema that accepts any value, so that its
// keywords count as added; one removed alike.
func (a *at) members() {
	o, n := a.old.AllOf, a.new.AllOf
	matched, used := match(o, n, false)
	for i, s := range n {
		if j := matched[i]; j >= 0 {
			a.w.schema(a.root, a.rootPrefix, a.path, o[j], s, true)
		} else {
			a.w.schema(a.root, a.rootPrefix, a.path, &openapi.Schema{}, s, true)
		}
	}
	for j, s := range o {
		if !used[j] {
			a.w.schema(a.root, a.rootPrefix, a.path, s, &openapi.Schema{}, true)
		}
	}
}

// match pairs schemas of n with those of o: by component name, then by
// place where either has none; with byType, by place only where their
// types may meet, then with the first left whose types may. It returns
// the index in o of each of n (-1 for none), and which of o are used.
func match(o, n []*openapi.Schema, byType bool) (matched []int, used []bool) {
	used = make([]bool, len(o))
	matched = make([]int, len(n))
	for i, s := range n {
		matched[i] = -1
		for j, x := range o {
			if s.Name != "" && !used[j] && x.Name == s.Name {
				matched[i], used[j] = j, true
				break
			}
		}
	}
	meets := func(x, s *openapi.Schema) bool { return (x.Name == "" || s.Name == "") && (!byType || meet(x, s)) }
	for i, s := range n {
		if matched[i] < 0 && i < len(o) && !used[i] && meets(o[i], s) {
			matched[i], used[i] = i, true
		}
	}
	if !byType {
		return matched, used
	}
	for i, s := range n {
		for j, x := range o {
			if matched[i] < 0 && !used[j] && meets(x, s) {
				matched[i], used[j] = j, true
			}
		}
	}
	return matched, used
}

// join adds a step to a dotted path: name, or [] for items.
func join(path, step string) string {
	if path == "" || step == "[]" {
		return path + step
	}
	return path + "." + step
}

// typeSet is the types a schema accepts besides null, and whether it
// accepts null; nil types for any type.
func typeSet(s *openapi.Schema) (types []string, null bool) {
	if !s.TypeWritten() {
		return nil, true
	}
	for _, t := range s.Types {
		if t == "null" {
			null = true
		} else {
			types = append(types, t)
		}
	}
	if len(types) == 0 && null {
		return []string{}, true // null only
	}
	return types, null
}

// within reports whether every type of a is accepted by b (an integer
// is a number).
func within(a, b []string) bool {
	for _, t := range a {
		if !slices.Contains(b, t) && (t != "integer" || !slices.Contains(b, "number")) {
			return false
		}
	}
	return true
}

// types compares type, and nullability: 3.0's nullable and 3.1's null
// type alike.
func (a *at) types() {
	ot, on := typeSet(a.old)
	nt, nn := typeSet(a.new)
	if ot != nil && nt != nil && on != nn {
		a.nullable(on)
	}
	was, is := strings.Join(ot, ", "), strings.Join(nt, ", ")
	switch {
	case ot == nil && nt == nil:
	case ot == nil:
		a.change("type-narrowed", narrower, "the type became "+is+", from any", "type")
	case nt == nil:
		a.change("type-widened", wider, "the type became any, from "+was, "type")
	case within(nt, ot) && within(ot, nt):
	case within(nt, ot):
		a.change("type-narrowed", narrower, "the type became "+is+", from "+was, "type")
	case within(ot, nt):
		a.change("type-widened", wider, "the type became "+is+", from "+was, "type")
	default:
		a.change("type-changed", unsure, "the type became "+is+", from "+was, "type")
	}
}

// nullable reports null allowed or no longer (was says whether OLD
// allowed it). As an alternative of anyOf or oneOf, null is judged by
// the whole: where another alternative takes null in both documents,
// anyOf takes it either way, and oneOf refuses a value that matches two:
// with one other, null removed here is accepted now, added here refused;
// with more, it is refused either way.
func (a *at) nullable(was bool) {
	e := a.w.nullElsewhere[pair{a.old, a.new, false}]
	switch {
	case e.others == 0 && was:
		a.change("nullable-removed", narrower, "null is no longer allowed", "nullable", "type")
	case e.others == 0:
		a.change("nullable-added", wider, "null is allowed", "nullable", "type")
	case !e.oneOf || e.others > 1:
	case was:
		a.change("nullable-removed-in-one-of", wider,
			"null is no longer allowed here, so it matches one alternative of oneOf, no longer two, and passes", "nullable", "type")
	default:
		a.change("nullable-added-in-one-of", narrower,
			"null is allowed here too, so it matches two alternatives of oneOf, which refuses it", "nullable", "type")
	}
}

// format compares format: one added may refuse values, one removed
// accepts more.
func (a *at) format() {
	was, is := a.old.Format, a.new.Format
	switch {
	case was == is:
	case was == "":
		a.change("format-added", narrower, "format "+is+" was added", "format")
	case is == "":
		a.change("format-removed", wider, "format "+was+" was removed", "format")
	default:
		a.change("format-changed", unsure, "the format became "+is+", from "+was, "format")
	}
}

// properties compares properties, required and additionalProperties
// false, as merged from allOf members.
func (a *at) properties() {
	o, n := a.old, a.new
	switch {
	case !o.NoAdditionalProperties && n.NoAdditionalProperties:
		a.change("additional-properties-forbidden", narrower, "additionalProperties became false", "additionalProperties")
	case o.NoAdditionalProperties && !n.NoAdditionalProperties:
		a.change("additional-properties-allowed", wider, "additionalProperties is no longer false", "additionalProperties")
	}
	// A required property that is readOnly need not be sent, one that is
	// writeOnly is not returned.
	needed := func(s, p *openapi.Schema, name string) bool {
		if !requires(s, name) || p == nil {
			return requires(s, name)
		}
		return a.w.side == Request && !p.ReadOnly || a.w.side == Response && !p.WriteOnly
	}
	side := string(a.w.side)
	for _, np := range n.Properties {
		name := np.Name
		op := o.Property(name)
		if op == nil {
			switch {
			case needed(n, np.Schema, name):
				required, _ := n.Place("required") // where a value without it is refused
				a.reportAlso(side+"-required-property-added", narrower, nil, propertyPlace(n, &np), "required property "+name+" was added", required)
			case o.NoAdditionalProperties:
				a.report(side+"-property-added", wider, nil, propertyPlace(n, &np), "property "+name+" was added to an object that allowed no others")
			default:
				a.report(side+"-property-added", neutral, nil, propertyPlace(n, &np), "optional property "+name+" was added")
			}
			continue
		}
		sub := &at{w: a.w, root: a.root, rootPrefix: a.rootPrefix, path: join(a.path, name), old: op, new: np.Schema}
		was, is := needed(o, op, name), needed(n, np.Schema, name)
		switch {
		case !was && is:
			sub.report(sub.prefix()+"-became-required", narrower, place(o, "required"), place(n, "required"), "it became required")
		case was && !is:
			sub.report(sub.prefix()+"-became-optional", wider, place(o, "required"), place(n, "required"), "it is no longer required")
		}
		if a.w.side == Request && !op.ReadOnly && np.Schema.ReadOnly {
			a.w.op.add(sub.prefix()+"-became-read-only", BreaksClients, Request, place(op, "readOnly"), place(np.Schema, "readOnly"),
				sub.subject()+": it became readOnly; a provider ignores what a client of OLD sends in it")
		}
		if a.w.side == Response && !op.WriteOnly && np.Schema.WriteOnly {
			a.w.op.add(sub.prefix()+"-became-write-only", BreaksClients, Response, place(op, "writeOnly"), place(np.Schema, "writeOnly"),
				sub.subject()+": it became writeOnly; it is no longer returned to a client of OLD that reads it")
		}
		a.w.schema(a.root, a.rootPrefix, sub.path, op, np.Schema, false)
	}
	a.requiredOnly()
	for _, p := range o.Properties {
		if n.Property(p.Name) != nil {
			continue
		}
		if n.NoAdditionalProperties {
			a.report(side+"-property-removed", narrower, propertyPlace(o, &p), nil, "property "+p.Name+" was removed from an object that allows no others")
		} else {
			a.report(side+"-property-removed", wider, propertyPlace(o, &p), nil, "property "+p.Name+" was removed, and its values are no longer constrained")
		}
	}
}

// requires reports whether every value s accepts has property name: s
// requires it, or each alternative of its anyOf, or of its oneOf, does.
func requires(s *openapi.Schema, name string) bool {
	each := func(alts []*openapi.Schema) bool {
		return len(alts) > 0 && !slices.ContainsFunc(alts, func(x *openapi.Schema) bool { return !x.Requires(name) })
	}
	return s.Requires(name) || each(anyOfAlone(s)) || each(s.OneOf)
}

// anyOfAlone is s's anyOf alternatives, without its oneOf ones.
func anyOfAlone(s *openapi.Schema) []*openapi.Schema { return s.AnyOf[:len(s.AnyOf)-len(s.OneOf)] }

// requiredOnly compares the required names that the properties compared
// above do not: those NEW declares no property for (and, of those OLD
// required, those neither declares). One more refuses objects without
// it.
func (a *at) requiredOnly() {
	var more, fewer []string
	declared := func(name string) bool { return a.old.Property(name) != nil || a.new.Property(name) != nil }
	for _, r := range a.new.Required {
		// A name only OLD declares: the property was removed, which
		// the properties compared above do not say is now required.
		if a.new.Property(r) == nil && !slices.Contains(a.old.Required, r) {
			more = append(more, r)
		}
	}
	for _, r := range a.old.Required {
		if !declared(r) && !slices.Contains(a.new.Required, r) {
			fewer = append(fewer, r)
		}
	}
	if len(more) > 0 {
		a.change("required-added", narrower, "required lists "+strings.Join(more, ", ")+", which no property declares", "required")
	}
	if len(fewer) > 0 {
		a.change("required-removed", wider, "required no longer lists "+strings.Join(fewer, ", ")+", which no property declares", "required")
	}
}

// values compares enum and const.
func (a *at) values() {
	o, n := a.old, a.new
	switch {
	case o.Enum == nil && n.Enum == nil:
	case o.Enum == nil:
		a.change("enum-added", narrower, "enum "+list(n.Enum)+" was added", "enum")
	case n.Enum == nil:
		a.change("enum-removed", wider, "enum "+list(o.Enum)+" was removed", "enum")
	default:
		if gone := without(o.Enum, n.Enum); len(gone) > 0 {
			a.change("enum-value-removed", narrower, "enum value "+list(gone)+" was removed", "enum")
		}
		if more := without(n.Enum, o.Enum); len(more) > 0 {
			a.change("enum-value-added", wider, "enum value "+list(more)+" was added", "enum")
		}
	}
	switch {
	case !o.HasConst && !n.HasConst:
	case !o.HasConst:
		a.change("const-added", narrower, "const "+string(jsonx.Marshal(n.Const))+" was added", "const")
	case !n.HasConst:
		a.change("const-removed", wider, "const "+string(jsonx.Marshal(o.Const))+" was removed", "const")
	case string(jsonx.Marshal(o.Const)) != string(jsonx.Marshal(n.Const)):
		a.change("const-changed", unsure, "const became "+string(jsonx.Marshal(n.Const))+", from "+string(jsonx.Marshal(o.Const)), "const")
	}
}

// without returns the values of a that b lacks, compared as JSON.
func without(a, b []any) []any {
	have := map[string]bool{}
	for _, v := range b {
		have[string(jsonx.Marshal(v))] = true
	}
	var out []any
	for _, v := range a {
		if !have[string(jsonx.Marshal(v))] {
			out = append(out, v)
		}
	}
	return out
}

// list writes values as JSON, separated by commas.
func list(vs []any) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(jsonx.Marshal(v))
	}
	return strings.Join(out, ", ")
}

// constrains reports whether keywords about values of type t (string
// for maxLength) can refuse a value of either schema: a keyword applies
// only to the values of its type (JSON Schema 2020-12 Validation,
// section 6), so a maxLength beside type object refuses nothing.
func (a *at) constrains(t string) bool {
	for _, s := range []*openapi.Schema{a.old, a.new} {
		types, _ := typeSet(s)
		if types == nil || slices.Contains(types, t) || t == "number" && slices.Contains(types, "integer") {
			return true
		}
	}
	return false
}

// bounds compares the numeric bounds and the counts of characters,
// items and properties, of the types either schema accepts.
func (a *at) bounds() {
	o, n := a.old, a.new
	if a.constrains("number") {
		a.bound("minimum", true, o.Minimum, n.Minimum, o.ExclusiveMinimum, n.ExclusiveMinimum, "minimum", "exclusiveMinimum")
		a.bound("maximum", false, o.Maximum, n.Maximum, o.ExclusiveMaximum, n.ExclusiveMaximum, "maximum", "exclusiveMaximum")
	}
	for _, c := range []struct {
		kw, rule, t string
		lower       bool
		o, n        *int64
	}{
		{"minLength", "min-length", "string", true, o.MinLength, n.MinLength},
		{"maxLength", "max-length", "string", false, o.MaxLength, n.MaxLength},
		{"minItems", "min-items", "array", true, o.MinItems, n.MinItems},
		{"maxItems", "max-items", "array", false, o.MaxItems, n.MaxItems},
		{"minProperties", "min-properties", "object", true, o.MinProperties, n.MinProperties},
		{"maxProperties", "max-properties", "object", false, o.MaxProperties, n.MaxProperties},
	} {
		if !a.constrains(c.t) {
			continue
		}
		var of, nf *float64
		if c.o != nil {
			v := float64(*c.o)
			of = &v
		}
		if c.n != nil {
			v := float64(*c.n)
			nf = &v
		}
		a.bound(c.rule, c.lower, of, nf, false, false, c.kw)
	}
	switch m, nm := o.MultipleOf, n.MultipleOf; {
	case m == nil && nm == nil || !a.constrains("number"):
	case m == nil:
		a.change("multiple-of-added", narrower, fmt.Sprintf("multipleOf %s was added", num(*nm)), "multipleOf")
	case nm == nil:
		a.change("multiple-of-removed", wider, fmt.Sprintf("multipleOf %s was removed", num(*m)), "multipleOf")
	case *m == *nm:
	default:
		dir := unsure
		if whole(*nm / *m) {
			dir = narrower
		} else if whole(*m / *nm) {
			dir = wider
		}
		a.change("multiple-of-changed", dir, fmt.Sprintf("multipleOf became %s, from %s", num(*nm), num(*m)), "multipleOf")
	}
	switch {
	case !a.constrains("array"):
	case !o.UniqueItems && n.UniqueItems:
		a.change("unique-items-added", narrower, "uniqueItems was added", "uniqueItems")
	case o.UniqueItems && !n.UniqueItems:
		a.change("unique-items-removed", wider, "uniqueItems was removed", "uniqueItems")
	}
}

// whole reports whether f is a whole number.
func whole(f float64) bool { return f == math.Trunc(f) && !math.IsInf(f, 0) }

// num writes a bound as the document would.
func num(f float64) string { return fmt.Sprint(f) }

// bound compares one bound, a lower one or an upper one, exclusive or
// not: a bound added or moved inwards accepts fewer values. Its rules
// are rule-added, -removed, -increased and -decreased; its keywords kws,
// the first the schema has naming where it is.
func (a *at) bound(rule string, lower bool, o, n *float64, oex, nex bool, kws ...string) {
	name := kws[0]
	text := func(v float64, ex bool) string {
		if ex {
			return num(v) + " (exclusive)"
		}
		return num(v)
	}
	report := func(suffix string, dir direction, what string) {
		a.change(rule+"-"+suffix, dir, what, kws...)
	}
	switch {
	case o == nil && n == nil:
		return
	case o == nil:
		report("added", narrower, fmt.Sprintf("%s %s was added", name, text(*n, nex)))
		return
	case n == nil:
		report("removed", wider, fmt.Sprintf("%s %s was removed", name, text(*o, oex)))
		return
	case *o == *n && oex == nex:
		return
	case *o == *n && len(kws) > 1:
		// Only exclusiveness changed: the keyword changed is the
		// exclusive one (3.0's flag), where a document has it.
		kws = []string{kws[1], kws[0]}
	}
	// Tighter: a lower bound up, an upper bound down, or the same bound
	// made exclusive.
	tighter := *n > *o || *n == *o && nex
	if !lower {
		tighter = *n < *o || *n == *o && nex
	}
	suffix := "decreased"
	if *n > *o || *n == *o && (nex == lower) {
		suffix = "increased"
	}
	dir := wider
	if tighter {
		dir = narrower
	}
	report(suffix, dir, fmt.Sprintf("%s went from %s to %s", name, text(*o, oex), text(*n, nex)))
}

// pattern compares pattern: one added accepts fewer strings, one
// removed more, and a changed one is taken to accept fewer, as it may.
func (a *at) pattern() {
	was, is := a.old.Pattern, a.new.Pattern
	switch {
	case was == is || !a.constrains("string"):
	case was == "":
		a.change("pattern-added", narrower, fmt.Sprintf("pattern %q was added", is), "pattern")
	case is == "":
		a.change("pattern-removed", wider, fmt.Sprintf("pattern %q was removed", was), "pattern")
	default:
		a.change("pattern-changed", unsure, fmt.Sprintf("the pattern became %q, from %q, which may accept fewer strings", is, was), "pattern")
	}
}

// bare reports whether s says nothing but its anyOf or oneOf
// alternatives: a schema wrapped in them, or to be unwrapped.
func bare(s *openapi.Schema) bool {
	return len(s.AnyOf) > 0 && !s.TypeWritten() && len(s.Properties) == 0 && len(s.Required) == 0 && s.Enum == nil &&
		!s.HasConst && len(s.AllOf) == 0 && s.Items == nil && s.Format == "" && s.Pattern == "" && s.Not == nil &&
		s.Minimum == nil && s.Maximum == nil && s.MinLength == nil && s.MaxLength == nil && !s.NoAdditionalProperties
}

// wrapped reports whether one of o and n is bare alternatives and the
// other has none: the other is then compared as one alternative (a
// schema wrapped in oneOf with null beside it is still that schema).
func wrapped(o, n *openapi.Schema) bool {
	return len(o.AnyOf) == 0 && bare(n) || len(n.AnyOf) == 0 && bare(o)
}

// alternatives compares anyOf and oneOf alternatives, matched by their
// component name, else by their place. An alternative added to oneOf
// accepts more values only when no value matches it and another (their
// types differ): else a value OLD accepted may now match two, which
// oneOf refuses.
//
// A schema without alternatives against bare ones is one alternative
// (see wrapped): of the others, one added accepts more values only where
// the lone schema of OLD refused some of its values, and one removed
// fewer only where NEW's lone schema refuses some. Else, anyOf or oneOf
// added where there was none is one more condition a value must meet,
// and accepts fewer values; removed whole, more (see composition).
func (a *at) alternatives() {
	o, n := a.old.AnyOf, a.new.AnyOf
	var lone *openapi.Schema // the schema without alternatives, when wrapped
	switch {
	case len(o) == 0 && bare(a.new):
		o, lone = []*openapi.Schema{a.old}, a.old
	case len(n) == 0 && bare(a.old):
		n, lone = []*openapi.Schema{a.new}, a.new
	default:
		o, n = a.composition()
	}
	matched, used := match(o, n, true)
	takesNull := func(s *openapi.Schema) bool { _, null := typeSet(s); return null }
	for i, s := range n {
		j := matched[i]
		if j >= 0 {
			e := nullElsewhere{oneOf: slices.Contains(a.new.OneOf, s)}
			for k, x := range n {
				if k != i && matched[k] >= 0 && takesNull(x) && takesNull(o[matched[k]]) {
					e.others++
				}
			}
			if a.w.nullElsewhere == nil {
				a.w.nullElsewhere = map[pair]nullElsewhere{}
			}
			a.w.nullElsewhere[pair{o[j], s, false}] = e
			a.w.schema(a.root, a.rootPrefix, a.path, o[j], s, false)
			continue
		}
		if slices.Contains(a.new.OneOf, s) && overlaps(s, n) {
			a.reportAlso(a.prefix()+"-alternative-added", unsure, nil, place(s),
				"an alternative was added to oneOf whose values another alternative may match too, and oneOf refuses a value that matches two", a.composed(s))
			continue
		}
		if lone != nil && a.w.accepts(lone, s) {
			continue // OLD accepted its values already
		}
		a.report(a.prefix()+"-alternative-added", wider, nil, place(s), "an alternative was added to anyOf or oneOf")
	}
	for j, s := range o {
		if !used[j] && (lone == nil || !a.w.accepts(lone, s)) {
			a.reportAlso(a.prefix()+"-alternative-removed", narrower, place(s), nil, "an alternative was removed from anyOf or oneOf", a.composed(s))
		}
	}
}

// composed is where NEW's anyOf or oneOf keyword is, of the kind an
// alternative of either document is: a value that matches none of its
// alternatives, or two of oneOf's, breaks it there.
func (a *at) composed(s *openapi.Schema) string {
	kw := "anyOf"
	if slices.Contains(a.old.OneOf, s) || slices.Contains(a.new.OneOf, s) {
		kw = "oneOf"
	}
	ptr, _ := a.new.Place(kw)
	return ptr
}

// composition reports anyOf or oneOf added where the schema had none
// (NEW accepts fewer values: each must match one of them too), or
// removed whole (more), and returns the alternatives left to match:
// those of a keyword both schemas have. One added is not reported where
// an alternative accepts every value OLD did (the only one, for oneOf,
// which refuses a value two match): it refuses none of them. One removed
// alike, where an alternative accepted every value NEW does.
func (a *at) composition() (o, n []*openapi.Schema) {
	if o, n, ok := a.switched(); ok {
		return o, n
	}
	for _, kw := range []struct {
		name, rule string
		alts       func(*openapi.Schema) []*openapi.Schema
	}{
		{"anyOf", "any-of", anyOfAlone},
		{"oneOf", "one-of", func(s *openapi.Schema) []*openapi.Schema { return s.OneOf }},
	} {
		was, is := kw.alts(a.old), kw.alts(a.new)
		holds := func(alts []*openapi.Schema, s *openapi.Schema) bool {
			return (kw.name == "anyOf" || len(alts) == 1) && slices.ContainsFunc(alts, func(x *openapi.Schema) bool { return a.w.accepts(x, s) })
		}
		switch {
		case len(was) == 0 && len(is) > 0:
			if !holds(is, a.old) {
				a.change(kw.rule+"-added", narrower, kw.name+" was added: a value must match "+alternativesOf(kw.name, len(is))+" as well", kw.name)
			}
		case len(was) > 0 && len(is) == 0:
			if !holds(was, a.new) {
				a.change(kw.rule+"-removed", wider, kw.name+" was removed: a value no longer has to match "+alternativesOf(kw.name, len(was)), kw.name)
			}
		default:
			o, n = append(o, was...), append(n, is...)
		}
	}
	return o, n
}

// switched reports anyOf that became oneOf, or the reverse, with no
// other alternatives beside, and returns the alternatives to match, the
// same as before but for the keyword. oneOf refuses a value that matches
// two alternatives, which anyOf takes: the change accepts fewer values,
// or more, only where two alternatives may overlap.
func (a *at) switched() (o, n []*openapi.Schema, ok bool) {
	wasAny, isAny := anyOfAlone(a.old), anyOfAlone(a.new)
	wasOne, isOne := a.old.OneOf, a.new.OneOf
	overlap := func(alts []*openapi.Schema) bool {
		return slices.ContainsFunc(alts, func(s *openapi.Schema) bool { return overlaps(s, alts) })
	}
	switch {
	case len(wasAny) > 0 && len(wasOne) == 0 && len(isAny) == 0 && len(isOne) > 0:
		if overlap(isOne) {
			a.report(a.prefix()+"-any-of-became-one-of", narrower, place(a.old, "anyOf"), place(a.new, "oneOf"),
				"anyOf became oneOf, which refuses a value that matches two of its alternatives")
		}
		return wasAny, isOne, true
	case len(wasOne) > 0 && len(wasAny) == 0 && len(isOne) == 0 && len(isAny) > 0:
		if overlap(wasOne) {
			a.report(a.prefix()+"-one-of-became-any-of", wider, place(a.old, "oneOf"), place(a.new, "anyOf"),
				"oneOf became anyOf, which takes a value that matches two of its alternatives")
		}
		return wasOne, isAny, true
	}
	return nil, nil, false
}

// alternativesOf says which of k alternatives of keyword kw a value
// must match.
func alternativesOf(kw string, k int) string {
	switch {
	case k == 1:
		return "its alternative"
	case kw == "oneOf":
		return fmt.Sprintf("exactly one of its %d alternatives", k)
	}
	return fmt.Sprintf("one of its %d alternatives", k)
}

// accepts reports whether x accepts every value s accepts, as far as
// the walk tells: comparing s, as OLD, with x, as NEW, in a request
// finds nothing that would refuse a value.
func (w *walk) accepts(x, s *openapi.Schema) bool {
	return !slices.ContainsFunc(w.probed(Request, s, x), func(c Change) bool { return c.Level == BreaksClients })
}

// overlaps reports whether a value may match both s and another of
// alts.
func overlaps(s *openapi.Schema, alts []*openapi.Schema) bool {
	for _, x := range alts {
		if x != s && meet(s, x) {
			return true
		}
	}
	return false
}

// meet reports whether a value may match both a and b: unless their
// types, written, have none in common.
func meet(a, b *openapi.Schema) bool {
	at, an := typeSet(a)
	bt, bn := typeSet(b)
	if at == nil || bt == nil || an && bn {
		return true
	}
	for _, t := range at {
		if within([]string{t}, bt) {
			return true
		}
	}
	for _, t := range bt {
		if within([]string{t}, at) { // an integer is a number
			return true
		}
	}
	return false
}

// discriminator compares the discriminator's property and mapping.
func (a *at) discriminator() {
	o, n := a.old.Discriminator, a.new.Discriminator
	if o == nil || n == nil {
		return
	}
	if o.PropertyName != n.PropertyName {
		a.change("discriminator-property-changed", unsure, fmt.Sprintf("the discriminator's property became %s, from %s", n.PropertyName, o.PropertyName), "discriminator")
	}
	var gone, more, moved []string
	for k, v := range o.Mapping {
		switch nv, ok := n.Mapping[k]; {
		case !ok:
			gone = append(gone, k)
		case nv != v:
			moved = append(moved, k)
		}
	}
	for k := range n.Mapping {
		if _, ok := o.Mapping[k]; !ok {
			more = append(more, k)
		}
	}
	slices.Sort(gone)
	slices.Sort(more)
	slices.Sort(moved)
	if len(gone) > 0 {
		a.change("discriminator-mapping-removed", narrower, "the discriminator no longer maps "+strings.Join(gone, ", "), "discriminator")
	}
	if len(more) > 0 {
		a.change("discriminator-mapping-added", wider, "the discriminator maps "+strings.Join(more, ", "), "discriminator")
	}
	if len(moved) > 0 {
		a.change("discriminator-mapping-changed", unsure, "the discriminator maps "+strings.Join(moved, ", ")+" to other schemas", "discriminator")
	}
}
