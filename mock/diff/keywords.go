package diff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// applicators compares the keywords of JSON Schema 2020-12 that hold
// subschemas or conditions (prefixItems, contains and its bounds,
// patternProperties, propertyNames, dependentRequired, dependentSchemas,
// if, then and else, not, unevaluatedProperties and unevaluatedItems)
// and the ones that say what a string holds (contentMediaType,
// contentEncoding, contentSchema).
//
// A subschema that only narrows the values when it narrows (contains
// without maxContains, propertyNames, a pattern property's, a dependent
// schema, then and else, the unevaluated ones, contentSchema) is walked
// like a property. One that may go either way (not, if, contains with
// maxContains) is compared for any change, reported as other values.
func (a *at) applicators() {
	o, n := a.old, a.new
	a.prefixItems()
	a.contains()
	closes := func(s *openapi.Schema) bool { return s.NoAdditionalProperties || s.AdditionalProperties != nil }
	a.named("patternProperties", "pattern-property", o.PatternProperties, n.PatternProperties, closes(o) || closes(n))
	a.sub("propertyNames", "property-names", o.PropertyNames, n.PropertyNames, true)
	a.dependentRequired()
	a.named("dependentSchemas", "dependent-schema", o.DependentSchemas, n.DependentSchemas, false)
	a.conditional()
	a.sub("not", "not", o.Not, n.Not, false)
	a.sub("unevaluatedProperties", "unevaluated-properties", unevaluated(o, o.UnevaluatedProperties, "additionalProperties"),
		unevaluated(n, n.UnevaluatedProperties, "additionalProperties"), true)
	a.sub("unevaluatedItems", "unevaluated-items", unevaluated(o, o.UnevaluatedItems, "items"), unevaluated(n, n.UnevaluatedItems, "items"), true)
	a.content()
}

// unevaluated is u, s's unevaluatedProperties or unevaluatedItems,
// where it may refuse values: nil when s writes kw, additionalProperties
// or items, which evaluates every property or item that the others
// leave (JSON Schema 2020-12 Core, 10.3.1.2 and 10.3.2.3), so that none
// is left to u.
func unevaluated(s, u *openapi.Schema, kw string) *openapi.Schema {
	if ptr, _ := s.Place(kw); strings.HasSuffix(ptr, "/"+kw) {
		return nil
	}
	return u
}

// sub compares the subschemas o and n of keyword kw, whose rules start
// with rule: one added accepts fewer values, one removed more. With
// monotone, a subschema that accepts fewer values makes the schema
// accept fewer, and the two are walked; without, any change is reported
// as other values.
func (a *at) sub(kw, rule string, o, n *openapi.Schema, monotone bool) {
	switch {
	case o == nil && n == nil:
	case o == nil:
		a.change(rule+"-added", narrower, kw+" was added", kw)
	case n == nil:
		a.change(rule+"-removed", wider, kw+" was removed", kw)
	case monotone:
		a.w.schema(a.root, a.rootPrefix, join(a.path, "("+kw+")"), o, n, false)
	case a.w.differs(o, n):
		a.change(rule+"-changed", unsure, kw+" changed, which may refuse values OLD accepted and accept others", kw)
	}
}

// differs reports whether comparing o with n finds a change of the
// values they accept, as the walk's side sees it (an example changed is
// none).
func (w *walk) differs(o, n *openapi.Schema) bool {
	return slices.ContainsFunc(w.probed(w.side, o, n), func(c Change) bool { return c.Level != Compatible })
}

// probed compares o with n apart, on side, and returns the changes,
// kept out of the report, at their levels as an operation's (a hook's
// are not swapped).
func (w *walk) probed(side Side, o, n *openapi.Schema) []Change {
	probe := w.op.probe()
	probe.hook = ""
	probe.walk(side).schema("", "", "", o, n, false)
	return probe.c.changes
}

// prefixItems compares the schemas of an array's first items, place by
// place. Where one document has more of them, the other judges those
// places by its items schema (any value when it has none).
func (a *at) prefixItems() {
	o, n := a.old.PrefixItems, a.new.PrefixItems
	schemaAt := func(ps []*openapi.Schema, items *openapi.Schema, i int) *openapi.Schema {
		switch {
		case i < len(ps):
			return ps[i]
		case items != nil:
			return items
		}
		return &openapi.Schema{}
	}
	for i := range max(len(o), len(n)) {
		a.w.schema(a.root, a.rootPrefix, fmt.Sprintf("%s[%d]", a.path, i), schemaAt(o, a.old.Items, i), schemaAt(n, a.new.Items, i), false)
	}
}

// contains compares contains, minContains (1 when absent) and
// maxContains.
func (a *at) contains() {
	o, n := a.old, a.new
	a.sub("contains", "contains", o.Contains, n.Contains, o.MaxContains == nil && n.MaxContains == nil)
	if o.Contains == nil || n.Contains == nil {
		return
	}
	one := int64(1)
	omin, nmin := o.MinContains, n.MinContains
	if omin == nil {
		omin = &one
	}
	if nmin == nil {
		nmin = &one
	}
	a.bound("min-contains", true, float(omin), float(nmin), false, false, "minContains")
	a.bound("max-contains", false, float(o.MaxContains), float(n.MaxContains), false, false, "maxContains")
}

// float is a count as a bound, nil for none.
func float(v *int64) *float64 {
	if v == nil {
		return nil
	}
	f := float64(*v)
	return &f
}

// named compares keyword kw's subschemas by name (a pattern, a property
// name): one added accepts fewer values, one removed more, and the
// others are walked. With judged (additionalProperties is in either
// schema), a pattern property added also takes its properties out of
// what additionalProperties judges, and one removed gives them back to
// it: other values either way (additionalProperties false refuses them).
func (a *at) named(kw, rule string, o, n []openapi.Property, judged bool) {
	pairsOf(o, n, func(p *openapi.Property) string { return p.Name }, func(op, np *openapi.Property) {
		switch {
		case op == nil && judged:
			a.change(rule+"-added", unsure, fmt.Sprintf("%s %q was added, which also takes its properties from additionalProperties", kw, np.Name), kw)
		case op == nil:
			a.change(rule+"-added", narrower, fmt.Sprintf("%s %q was added", kw, np.Name), kw)
		case np == nil && judged:
			a.change(rule+"-removed", unsure, fmt.Sprintf("%s %q was removed, which gives its properties to additionalProperties", kw, op.Name), kw)
		case np == nil:
			a.change(rule+"-removed", wider, fmt.Sprintf("%s %q was removed", kw, op.Name), kw)
		default:
			a.w.schema(a.root, a.rootPrefix, join(a.path, "("+kw+" "+np.Name+")"), op.Schema, np.Schema, false)
		}
	})
}

// dependentRequired compares the properties an object must have when
// it has another: a name more required accepts fewer objects.
func (a *at) dependentRequired() {
	deps := func(s *openapi.Schema) map[string][]string {
		out := map[string][]string{}
		for _, d := range s.DependentRequired {
			out[d.Name] = append(out[d.Name], d.Required...)
		}
		return out
	}
	o, n := deps(a.old), deps(a.new)
	var more, fewer []string
	for name, req := range n {
		for _, r := range req {
			if !slices.Contains(o[name], r) {
				more = append(more, name+" → "+r)
			}
		}
	}
	for name, req := range o {
		for _, r := range req {
			if !slices.Contains(n[name], r) {
				fewer = append(fewer, name+" → "+r)
			}
		}
	}
	slices.Sort(more)
	slices.Sort(fewer)
	if len(more) > 0 {
		a.change("dependent-required-added", narrower, "dependentRequired requires "+strings.Join(more, ", "), "dependentRequired", "dependencies")
	}
	if len(fewer) > 0 {
		a.change("dependent-required-removed", wider, "dependentRequired no longer requires "+strings.Join(fewer, ", "), "dependentRequired", "dependencies")
	}
}

// conditional compares if, then and else. A condition added, with then
// or else, accepts fewer values, one removed more; under the same if,
// then and else are walked; a changed if sends values to the other
// branch: other values.
func (a *at) conditional() {
	o, n := a.old, a.new
	oc := o.If != nil && (o.Then != nil || o.Else != nil)
	nc := n.If != nil && (n.Then != nil || n.Else != nil)
	switch {
	case !oc && !nc:
	case !oc:
		a.change("conditional-added", narrower, "if, with then or else, was added", "if")
	case !nc:
		a.change("conditional-removed", wider, "if, with then or else, was removed", "if")
	case a.w.differs(o.If, n.If):
		a.change("conditional-changed", unsure, "if changed, which sends values to the other of then and else", "if")
	default:
		a.sub("then", "then", o.Then, n.Then, true)
		a.sub("else", "else", o.Else, n.Else, true)
	}
}

// content compares what a string holds: a media type or an encoding
// changed is read another way, either way; contentSchema is walked.
func (a *at) content() {
	o, n := a.old, a.new
	for _, c := range []struct{ kw, rule, was, is string }{
		{"contentMediaType", "content-media-type", o.ContentMediaType, n.ContentMediaType},
		{"contentEncoding", "content-encoding", o.ContentEncoding, n.ContentEncoding},
	} {
		if c.was == c.is {
			continue
		}
		what := fmt.Sprintf("%s became %q, from %q: the string is written and read another way", c.kw, c.is, c.was)
		a.change(c.rule+"-changed", unsure, what, c.kw)
	}
	a.sub("contentSchema", "content-schema", o.ContentSchema, n.ContentSchema, true)
}
