package gen

import (
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/regex"
)

// maxDependencyRounds bounds how often an object is planned again with
// the dependentSchemas of the properties it has.
const maxDependencyRounds = 3

// object makes an object: every property the parts declare (writeOnly
// ones left out; deep down, only the required ones) and every required
// one, each satisfying the schemas every part gives it (properties,
// patternProperties, additionalProperties), within minProperties and
// maxProperties, with what dependentRequired and dependentSchemas ask,
// the discriminator's value where one is fixed, and not what a schema
// it must not match requires.
func (g *gen) object(w want, plain bool, depth int) map[string]any {
	if plainObject(&w, plain) {
		s := w.s
		out := make(map[string]any, len(s.Properties))
		for _, p := range s.Properties {
			if p.Schema != nil && (p.Schema.WriteOnly || impossible(p.Schema)) {
				continue
			}
			if (depth >= maxDepth || g.m.lean()) && !s.Requires(p.Name) {
				continue
			}
			v, ok := g.value(one(p.Schema), p.Name, depth+1)
			if ok || s.Requires(p.Name) {
				out[p.Name] = v
				g.unsure += b2i(!ok)
			}
		}
		return out
	}
	es := g.planDependent(w, depth)
	out := make(map[string]any, len(es))
	for i := range es {
		e := &es[i]
		if e.isFixed {
			out[e.name] = e.v
			continue
		}
		if !e.required && g.m.lean() {
			continue // past a share of the budget, only what is required
		}
		if v, ok := g.value(e.w, e.name, depth+1); ok || e.required {
			out[e.name] = v // an optional property without a good value is left out
			g.unsure += b2i(!ok)
		}
	}
	return out
}

// planDependent plans an object of w, and again with the dependentSchemas
// of the properties planned added to w, until they add nothing (a few
// rounds at most).
func (g *gen) planDependent(w want, depth int) []entry {
	for round := 0; ; round++ {
		es := g.plan(&w, depth)
		if round == maxDependencyRounds {
			return es
		}
		var deps []*openapi.Schema
		for p := range w.parts {
			for _, d := range p.DependentSchemas {
				if find(es, d.Name) >= 0 && d.Schema != w.s && !has(w.more, d.Schema) && !has(deps, d.Schema) {
					deps = append(deps, d.Schema)
				}
			}
		}
		if len(deps) == 0 {
			return es
		}
		for _, d := range deps {
			w = w.plus(d)
		}
	}
}

// plainObject reports whether w is the usual object, made from the
// properties of its schema without planning: one schema (with allOf
// members, as NewPlant, allOf Plant and an object with id) whose parts'
// object keywords are properties, required (of declared properties) and,
// for a schema without members, additionalProperties false (plain, as
// fold found), with no property declared by two parts with different
// schemas and no discriminator in a member.
func plainObject(w *want, plain bool) bool {
	if !plain || len(w.more) > 0 || len(w.none) > 0 || len(w.fixed) > 0 || w.s == nil {
		return false
	}
	s := w.s
	if len(s.AllOf) > 0 && (s.NoAdditionalProperties || clash(s, s.AllOf)) {
		return false // additionalProperties false: whose properties does it mean? plan asks each part
	}
	for _, r := range s.Required {
		if p := s.Property(r); p == nil || p.WriteOnly || impossible(p) {
			return false
		}
	}
	return true
}

// clash reports whether a member of s (or of its members) declares a
// property with another schema than s's merged one: both apply.
func clash(s *openapi.Schema, members []*openapi.Schema) bool {
	for _, m := range members {
		for _, pr := range m.Properties {
			if s.Property(pr.Name) != pr.Schema {
				return true
			}
		}
		if clash(s, m.AllOf) {
			return true
		}
	}
	return false
}

// entry is a property an object is planned to have.
type entry struct {
	name     string
	w        want
	required bool
	isFixed  bool // its value is v
	v        any
	drop     bool
	// deep is true when the property is dropped only for being optional
	// deep down: it comes back where minProperties needs it.
	deep bool
}

// find returns the index of the entry named name, or -1.
func find(es []entry, name string) int {
	for i := range es {
		if es[i].name == name {
			return i
		}
	}
	return -1
}

// has reports whether list holds s.
func has(list []*openapi.Schema, s *openapi.Schema) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// plan decides the properties of an object of w and what each must
// satisfy.
func (g *gen) plan(w *want, depth int) []entry {
	var es []entry
	add := func(name string, s *openapi.Schema) *entry {
		i := find(es, name)
		if i < 0 {
			es = append(es, entry{name: name, w: want{s: s}})
			return &es[len(es)-1]
		}
		e := &es[i]
		if s != nil && s != e.w.s && !has(e.w.more, s) {
			e.w = e.w.plus(s)
		}
		return e
	}
	for p := range w.parts {
		for _, pr := range p.Properties {
			add(pr.Name, pr.Schema)
		}
	}
	for p := range w.parts {
		for _, r := range p.Required {
			add(r, nil).required = true
		}
	}
	for _, fx := range w.fixed {
		e := add(fx.name, nil)
		e.isFixed, e.v, e.required = true, fx.v, true
	}
	if len(w.fixed) == 0 {
		g.inherited(w, es)
	}
	for i := range es {
		g.constrain(w, &es[i])
		e := &es[i]
		if !e.required && depth >= maxDepth && !e.drop {
			e.drop, e.deep = true, true
		}
	}
	// Dependencies: a property that is there brings those it requires.
	for changed, rounds := true, 0; changed && rounds < 8; rounds++ {
		changed = false
		for p := range w.parts {
			for _, d := range p.DependentRequired {
				if i := find(es, d.Name); i < 0 || es[i].drop {
					continue
				}
				for _, r := range d.Required {
					if i := find(es, r); i >= 0 {
						if es[i].drop || !es[i].required {
							es[i].drop, es[i].required, changed = false, true, true
						}
						continue
					}
					add(r, nil).required = true
					g.constrain(w, &es[len(es)-1])
					changed = true
				}
			}
		}
	}
	counts := w.propertyCounts()
	es = kept(revive(g.avoid(w, es), counts.min))
	if counts.max >= 0 {
		for i := len(es) - 1; i >= 0 && int64(len(es)) > counts.max; i-- {
			if !es[i].required {
				es = append(es[:i], es[i+1:]...)
			}
		}
	}
	if int64(len(es)) < counts.min && g.m.Need(w.s, counts.min-int64(len(es))) != nil {
		return es // more properties than the budget has values: dropped
	}
	for try := 0; int64(len(es)) < counts.min && try < 4*int(counts.min); try++ {
		name := g.propertyName(w, try)
		if name == "" || find(es, name) >= 0 {
			continue
		}
		e := add(name, nil)
		g.constrain(w, e)
		if e.drop {
			es = es[:len(es)-1]
		}
	}
	return es
}

// revive takes back entries dropped only for being deep down (see
// entry.deep) while fewer than least are kept: Oxford Dictionaries'
// Sense, all optional properties, has minProperties 1 and
// additionalProperties false, so that no other name can make it up.
func revive(es []entry, least int64) []entry {
	n := int64(0)
	for _, e := range es {
		if !e.drop {
			n++
		}
	}
	for i := range es {
		if n >= least {
			break
		}
		if es[i].deep && es[i].drop {
			es[i].drop, es[i].deep = false, false
			n++
		}
	}
	return es
}

// kept returns the entries not dropped.
func kept(es []entry) []entry {
	out := es[:0]
	for _, e := range es {
		if !e.drop {
			out = append(out, e)
		}
	}
	return out
}

// constrain adds to e what the parts say of a property of its name
// beyond properties (patternProperties, additionalProperties), and drops
// it, unless required, where a part refuses it: false, refused by
// additionalProperties false or by propertyNames, or wanted of types no
// value has (a member's string eTag under additionalProperties of type
// object). A part's additionalProperties sees its own properties only,
// not its members' (Schema.DeclaresOwn), as the validator does. A
// writeOnly property is dropped even when required.
func (g *gen) constrain(w *want, e *entry) {
	refused := false
	for p := range w.parts {
		declared := p.DeclaresOwn(e.name)
		matched := false
		for _, pp := range p.PatternProperties {
			if match(pp.Name, e.name) {
				matched = true
				if pp.Schema != e.w.s && !has(e.w.more, pp.Schema) {
					e.w = e.w.plus(pp.Schema)
				}
			}
		}
		if !declared && !matched {
			switch {
			case p.ClosedOwn():
				refused = true
			case p.AdditionalProperties != nil && p.AdditionalProperties != e.w.s && !has(e.w.more, p.AdditionalProperties):
				e.w = e.w.plus(p.AdditionalProperties)
			}
		}
		if p.PropertyNames != nil && g.checks > 0 {
			g.checks--
			if len(p.PropertyNames.Validate(e.name)) > 0 {
				refused = true
			}
		}
	}
	t := tAny
	for s := range e.w.parts {
		refused = refused || impossible(s)
		allowed := typesOf(s)
		if s.Nullable {
			allowed |= tNull
		}
		t &= allowed
	}
	if t == 0 {
		refused = true
	}
	if refused && !e.required || e.w.s != nil && e.w.s.WriteOnly {
		e.drop = true // answers never carry writeOnly values
	}
}

// avoid plans the object so that it does not match a schema it must not
// (not, the other alternatives of a oneOf), as its properties can tell:
// where the object would have all the properties the schema requires,
// those it need not have are dropped; where the schema refuses properties
// it does not declare and the object has one, nothing is needed; else a
// property the schema declares is given a value the schema refuses (one
// the object does not have yet and may have, first).
func (g *gen) avoid(w *want, es []entry) []entry {
	for n := range w.nots {
		if typesOf(n)&tObject == 0 || missing(es, n.Required) {
			continue
		}
		dropped := false
		for _, r := range n.Required {
			if i := find(es, r); !es[i].required {
				es[i].drop, es[i].deep, dropped = true, false, true
			}
		}
		if dropped || n.NoAdditionalProperties && len(n.PatternProperties) == 0 && undeclared(es, n) {
			continue
		}
		added := false
		for _, np := range n.Properties {
			if find(es, np.Name) >= 0 || anything(np.Schema) {
				continue
			}
			e := entry{name: np.Name}
			g.constrain(w, &e)
			if !e.drop {
				e.w = e.w.minus(np.Schema)
				es, added = append(es, e), true
				break
			}
		}
		if added {
			continue
		}
		// Optional properties first: a required one the object cannot
		// drop where its value cannot be made.
		for _, required := range [2]bool{false, true} {
			if i := refusable(es, n, required); i >= 0 {
				es[i].w = es[i].w.minus(n.Property(es[i].name))
				break
			}
		}
	}
	return es
}

// refusable returns the index of a planned property, required or not,
// whose value may be one that n's schema of it refuses, or -1: one n
// declares, that is not fixed, whose schemas are not n's, and whose type
// n's schema, if it says only a type, does not take whole.
func refusable(es []entry, n *openapi.Schema, required bool) int {
	for _, np := range n.Properties {
		i := find(es, np.Name)
		if i < 0 || anything(np.Schema) {
			continue
		}
		e := &es[i]
		if e.drop || e.isFixed || e.required != required || np.Schema == e.w.s || has(e.w.more, np.Schema) {
			continue
		}
		if e.w.s != nil && typeOnly(np.Schema) && typesOf(e.w.s)&^typesOf(np.Schema) == 0 {
			continue // its value would be of a type np takes: nothing n refuses
		}
		return i
	}
	return -1
}

// missing reports whether some of names are not planned.
func missing(es []entry, names []string) bool {
	for _, r := range names {
		if i := find(es, r); i < 0 || es[i].drop {
			return true
		}
	}
	return false
}

// undeclared reports whether a planned property is one n does not
// declare.
func undeclared(es []entry, n *openapi.Schema) bool {
	for _, e := range es {
		if !e.drop && n.Property(e.name) == nil {
			return true
		}
	}
	return false
}

// inherited fixes the discriminator property of an object whose schema
// is a named alternative of a discriminator in one of its allOf members
// (Cat, allOf Pet, Pet with a discriminator): its value is the name that
// maps to the schema, where the property's schema takes it.
func (g *gen) inherited(w *want, es []entry) {
	s := w.s
	if s == nil || s.Name == "" || len(s.AllOf) == 0 {
		return
	}
	for p := range w.parts {
		d := p.Discriminator
		if p == s || d == nil || d.PropertyName == "" {
			continue
		}
		i := find(es, d.PropertyName)
		v := d.Value(s)
		if i < 0 || v == "" || es[i].isFixed {
			return
		}
		if !g.takes(&es[i].w, v) {
			return // a member's enum or const names it otherwise: that value is made
		}
		es[i].isFixed, es[i].v = true, v
		return
	}
}

// takes reports whether every schema of w (the property's schemas in
// each part that declares it) takes v, by the validator; false once the
// checks are used up, so that nothing unchecked is fixed.
func (g *gen) takes(w *want, v any) bool {
	if !g.takesOne(w.s, v) {
		return false
	}
	for _, s := range w.more {
		if !g.takesOne(s, v) {
			return false
		}
	}
	return true
}

// takesOne reports whether s takes v (nil takes anything), spending a
// check; false once the checks are used up.
func (g *gen) takesOne(s *openapi.Schema, v any) bool {
	if s == nil {
		return true
	}
	if g.checks <= 0 {
		return false
	}
	g.checks--
	return len(s.Validate(v)) == 0
}

// propertyName makes the name of a property an object may have beyond
// those it declares, to reach minProperties: one that matches a
// patternProperties pattern of the parts, else (where no part forbids
// other properties) a word, or a string of the propertyNames schema.
func (g *gen) propertyName(w *want, try int) string {
	var open = true
	var names *openapi.Schema
	var patterns []string
	for p := range w.parts {
		open = open && !p.NoAdditionalProperties
		if names == nil {
			names = p.PropertyNames
		}
		for _, pp := range p.PatternProperties {
			patterns = append(patterns, pp.Name)
		}
	}
	if len(patterns) > 0 && (try%2 == 0 || !open) {
		pattern := patterns[try/2%len(patterns)]
		if re, _, err := parseRegexp(pattern); err == nil {
			name := g.matching(re, 1, 24, try)
			if match(pattern, name) {
				return name
			}
		}
	}
	if !open {
		return ""
	}
	if names != nil {
		nw := one(names)
		var nf facts
		nw.fold(&nf)
		nf.types = tString
		return g.str(&nw, &nf, "", try)
	}
	return g.f.Word()
}

// match reports whether name matches a patternProperties pattern, as the
// validator matches it.
func match(pattern, name string) bool {
	p, err := regex.Compile(pattern)
	return err == nil && p.MatchString(name)
}
