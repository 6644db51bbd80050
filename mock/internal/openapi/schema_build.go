package openapi

import (
	"fmt"
	"strings"
)

// maxSchemaNesting bounds how deeply schema text may nest (references do
// not count: a recursive schema is built once and points at itself).
const maxSchemaNesting = 256

// schemaBuilder builds the Schema model from schema nodes. Each node is
// built once, so a schema that contains itself through a reference becomes
// a Schema that points at itself.
type schemaBuilder struct {
	l    *loader
	memo map[*node]*Schema
	// stack holds the nodes being built, with the depth in the instance
	// (how many properties or items deep) at which each was entered: a node
	// met again at the same instance depth refers to itself in place.
	stack    map[*node]int
	building map[*Schema]bool
	pending  [][2]*Schema // allOf merges waiting for their member to be built
	// resources are the enclosing schemas with their own $id.
	resources []resourceRoot
	all       []*Schema // every schema built, in order
	need      []*Schema // schemas that are validated on their own
}

func newSchemaBuilder(l *loader) *schemaBuilder {
	return &schemaBuilder{l: l, memo: map[*node]*Schema{}, stack: map[*node]int{}, building: map[*Schema]bool{}}
}

// build builds the schema at ptr.
func (b *schemaBuilder) build(n *node, ptr string) (*Schema, error) {
	s, err := b.schema(n, ptr, 0, 0)
	if err != nil {
		return nil, err
	}
	for len(b.pending) > 0 {
		p := b.pending[0]
		b.pending = b.pending[1:]
		p[0].merge(p[1])
	}
	return s, nil
}

// validated marks a schema as one that values are validated against on
// their own (a body, a parameter, a header), so it is compiled at load.
func (b *schemaBuilder) validated(s *Schema) {
	if s != nil {
		b.need = append(b.need, s)
	}
}

// schema builds the Schema of node n at ptr, nested depth levels deep
// in schema text and inst levels deep in the instance (how many
// properties or items deep), or returns the one built already.
func (b *schemaBuilder) schema(n *node, ptr string, depth, inst int) (*Schema, error) {
	if depth > maxSchemaNesting {
		return nil, fail(ptr, n, "schemas nested deeper than %d levels", maxSchemaNesting)
	}
	if d, ok := b.stack[n]; ok && d == inst {
		return nil, fail(ptr, n, "the schema refers to itself without going into the value (through $ref or allOf, anyOf, oneOf), so no value could ever be checked against it")
	}
	if s, ok := b.memo[n]; ok {
		if b.building[s] {
			s.Recursive = true
		}
		return s, nil
	}
	if n.kind != objectNode {
		return b.leaf(n, ptr), nil
	}
	b.stack[n] = inst
	defer delete(b.stack, n)

	if b.l.doc.v31 && n.has("$id") {
		b.resources = append(b.resources, resourceRoot{n, ptr})
		defer func() { b.resources = b.resources[:len(b.resources)-1] }()
	}
	target, plain, err := b.target(n, ptr, depth, inst)
	if err != nil {
		return nil, err
	}
	if plain {
		// A plain reference (in 3.0 its siblings are ignored): the
		// schema is its target.
		b.memo[n] = target
		return target, nil
	}

	s := &Schema{src: n, ptr: ptr, Ref: n.get("$ref").text()}
	b.memo[n] = s
	b.building[s] = true
	defer delete(b.building, s)
	b.all = append(b.all, s)
	if strings.HasPrefix(ptr, "/components/schemas/") && !strings.Contains(ptr[len("/components/schemas/"):], "/") {
		s.Name = unescapeToken(ptr[len("/components/schemas/"):])
	}
	b.referred(s, n, target)
	b.fill(s, n)
	if target != nil && !b.building[target] {
		// fill set Structural from the schema's own keywords; the target,
		// merged already, constrains the value too.
		s.Structural = s.Structural && target.Structural
	}

	if err := b.applicators(s, n, ptr, depth, inst); err != nil {
		return nil, err
	}
	if err := b.subschemas(s, n, ptr, depth, inst); err != nil {
		return nil, err
	}
	if len(s.Types) == 0 && len(s.Properties) > 0 {
		s.Types, s.typeInferred = []string{"object"}, true
	}
	return s, nil
}

// leaf builds the Schema of a node that is no schema object: true or
// false, or a value that is not a schema at all.
func (b *schemaBuilder) leaf(n *node, ptr string) *Schema {
	var s *Schema
	if n.kind == boolNode {
		s = &Schema{src: n, ptr: ptr, Never: !n.b, Structural: true}
	} else {
		// Not a schema: the validator's check of the document reports it
		// as a mistake (mistake.go) and accepts any value in its place, as
		// the model does.
		s = &Schema{src: n, ptr: ptr}
	}
	b.memo[n] = s
	b.all = append(b.all, s)
	return s
}

// target builds the target of the $ref of schema object n, when it has
// one the model can follow (nil otherwise), and reports whether n is a
// plain reference, whose schema is its target: one with no siblings that
// constrain, or any in 3.0.
func (b *schemaBuilder) target(n *node, ptr string, depth, inst int) (target *Schema, plain bool, err error) {
	ref := n.get("$ref")
	if ref == nil {
		return nil, false, nil
	}
	tn, tptr, ok, outside, err := b.resolve(ref, ptr)
	if err != nil {
		return nil, false, err
	}
	if !ok {
		return nil, false, nil
	}
	if outside {
		// The document's schema, as the validator reads it: references
		// within it are not relative to the $id the reference was in.
		within := b.resources
		b.resources = nil
		defer func() { b.resources = within }()
	}
	if target, err = b.schema(tn, tptr, depth+1, inst); err != nil {
		return nil, false, err
	}
	return target, !b.l.doc.v31 || !constrains(n), nil
}

// referred joins s, built from schema object n, to the target of its
// $ref: s takes the target's name and merges it as a member. Without a
// target, a $ref the model could not follow makes s opaque.
func (b *schemaBuilder) referred(s *Schema, n *node, target *Schema) {
	if target != nil {
		if target.Name != "" {
			s.Name = target.Name
		}
		b.mergeLater(s, target)
		s.AllOf = append(s.AllOf, target)
	} else if n.has("$ref") && !b.dangling(n.get("$ref").text()) {
		s.Opaque = true // a reference only the validator follows
	}
}

// applicators builds the subschemas of allOf, properties, items (one
// schema) and anyOf and oneOf, in that order: the allOf members merged
// into s, the properties and items entered one deeper in the instance.
func (b *schemaBuilder) applicators(s *Schema, n *node, ptr string, depth, inst int) error {
	if all := n.get("allOf"); all != nil && all.kind == arrayNode {
		for i, m := range all.vals {
			ms, err := b.schema(m, child(child(ptr, "allOf"), fmt.Sprint(i)), depth+1, inst)
			if err != nil {
				return err
			}
			b.mergeLater(s, ms)
			s.AllOf = append(s.AllOf, ms)
		}
	}
	if props := n.get("properties"); props.isObject() {
		for i, name := range props.keys {
			ps, err := b.schema(props.vals[i], child(child(ptr, "properties"), name), depth+1, inst+1)
			if err != nil {
				return err
			}
			s.setProperty(name, ps)
			if len(s.AllOf) > 0 {
				s.ownProps = append(s.ownProps, name)
			}
		}
	}
	if items := n.get("items"); items != nil && items.kind != arrayNode {
		is, err := b.schema(items, child(ptr, "items"), depth+1, inst+1)
		if err != nil {
			return err
		}
		s.Items = is
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		alts := n.get(kw)
		if alts == nil || alts.kind != arrayNode {
			continue
		}
		for i, a := range alts.vals {
			as, err := b.schema(a, child(child(ptr, kw), fmt.Sprint(i)), depth+1, inst)
			if err != nil {
				return err
			}
			s.AnyOf = append(s.AnyOf, as)
			if kw == "oneOf" {
				s.OneOf = append(s.OneOf, as)
			}
		}
	}
	return nil
}

// subschemas builds the subschemas of the keywords beyond properties,
// items, allOf, anyOf and oneOf, those of the document's dialect. The
// ones that apply to the value itself (not, if, then, else) are entered at
// its instance depth, the others one deeper; dependentSchemas apply to
// the value itself but are entered one deeper too, so that a document
// whose dependentSchemas refer back to the schema is not refused here
// (the validator judges it).
func (b *schemaBuilder) subschemas(s *Schema, n *node, ptr string, depth, inst int) error {
	// one builds the subschema of kw; a value that is no schema is left to
	// the validator's check of the document, except under not, if, then
	// and else, which were always built.
	one := func(kw string, in int) (*Schema, error) {
		sub := n.get(kw)
		switch {
		case sub == nil:
			return nil, nil
		case sub.kind != objectNode && sub.kind != boolNode && kw != "not" && kw != "if" && kw != "then" && kw != "else":
			return nil, nil
		}
		return b.schema(sub, child(ptr, kw), depth+1, in)
	}
	var err error
	if s.Not, err = one("not", inst); err != nil {
		return err
	}
	if ap := n.get("additionalProperties"); ap.isObject() {
		if s.AdditionalProperties, err = one("additionalProperties", inst+1); err != nil {
			return err
		}
	}
	if items := n.get("items"); items != nil && items.kind == arrayNode && !b.l.doc.v31 {
		// A tuple: draft 4 reads an items array so, and 3.0 documents are
		// validated by draft 4.
		if s.PrefixItems, err = b.list(items, child(ptr, "items"), depth, inst+1); err != nil {
			return err
		}
	}
	// if, then and else are built in 3.0 too, where the validator ignores
	// them, to find schemas that refer to themselves in place.
	var cond [3]*Schema
	for i, kw := range []string{"if", "then", "else"} {
		if cond[i], err = one(kw, inst); err != nil {
			return err
		}
	}
	if !b.l.doc.v31 {
		return nil
	}
	s.If, s.Then, s.Else = cond[0], cond[1], cond[2]
	if s.Contains, err = one("contains", inst+1); err != nil {
		return err
	}
	if s.PropertyNames, err = one("propertyNames", inst+1); err != nil {
		return err
	}
	if s.ContentSchema, err = one("contentSchema", inst+1); err != nil {
		return err
	}
	s.ContentMediaType = n.get("contentMediaType").text()
	s.ContentEncoding = n.get("contentEncoding").text()
	if s.UnevaluatedProperties, err = one("unevaluatedProperties", inst+1); err != nil {
		return err
	}
	if s.UnevaluatedItems, err = one("unevaluatedItems", inst+1); err != nil {
		return err
	}
	if p := n.get("prefixItems"); p != nil && p.kind == arrayNode {
		if s.PrefixItems, err = b.list(p, child(ptr, "prefixItems"), depth, inst+1); err != nil {
			return err
		}
	}
	if s.PatternProperties, err = b.named(n.get("patternProperties"), child(ptr, "patternProperties"), depth, inst+1); err != nil {
		return err
	}
	if s.DependentSchemas, err = b.named(n.get("dependentSchemas"), child(ptr, "dependentSchemas"), depth, inst+1); err != nil {
		return err
	}
	if deps := n.get("dependencies"); deps.isObject() {
		// The draft 4 keyword, which the validator still applies: arrays
		// are required names, anything else a schema.
		for i, name := range deps.keys {
			v := deps.vals[i]
			if v.kind == arrayNode {
				s.DependentRequired = append(s.DependentRequired, Dependency{Name: name, Required: texts(v)})
				continue
			}
			if v.kind != objectNode && v.kind != boolNode {
				continue
			}
			ds, err := b.schema(v, child(child(ptr, "dependencies"), name), depth+1, inst+1)
			if err != nil {
				return err
			}
			s.DependentSchemas = append(s.DependentSchemas, Property{Name: name, Schema: ds})
		}
	}
	return nil
}

// list builds the schemas of an array of schemas at ptr.
func (b *schemaBuilder) list(n *node, ptr string, depth, inst int) ([]*Schema, error) {
	out := make([]*Schema, 0, len(n.vals))
	for i, v := range n.vals {
		s, err := b.schema(v, child(ptr, fmt.Sprint(i)), depth+1, inst)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// named builds the schemas of an object of schemas at ptr (nil when n is
// not an object), in document order.
func (b *schemaBuilder) named(n *node, ptr string, depth, inst int) ([]Property, error) {
	if !n.isObject() {
		return nil, nil
	}
	out := make([]Property, 0, len(n.keys))
	for i, name := range n.keys {
		s, err := b.schema(n.vals[i], child(ptr, name), depth+1, inst)
		if err != nil {
			return nil, err
		}
		out = append(out, Property{Name: name, Schema: s})
	}
	return out, nil
}

// texts returns the strings of an array node.
func texts(n *node) []string {
	out := make([]string, 0, len(n.vals))
	for _, v := range n.vals {
		out = append(out, v.text())
	}
	return out
}

// resourceRoot is a schema with its own $id (3.1): references within it
// are relative to it.
type resourceRoot struct {
	n   *node
	ptr string
}

// resolve finds the target of a schema's $ref for the model. A JSON
// pointer that points at nothing (within an $id: under it nor in the
// document) is a mistake, left out. In 3.1, references the model cannot
// follow (to an $id or an anchor, or a URI relative to an enclosing $id)
// are left to the validator, which resolves them by JSON Schema's rules,
// and ok is false: the model knows nothing of the target. outside is true
// for a reference within an $id that idRef reads as one into the
// document.
func (b *schemaBuilder) resolve(ref *node, ptr string) (tn *node, tptr string, ok, outside bool, err error) {
	text := ref.text()
	if len(b.resources) == 0 {
		text = b.l.local(text) // within an $id, $self is no base
	}
	if b.dangling(text) {
		b.l.mistake("dangling $ref", at(ptr, ref), fmt.Sprintf("$ref %q points at nothing: the reference is left out, and the schema is read without it", text))
		return nil, "", false, false, nil
	}
	if len(b.resources) > 0 {
		tn, tptr, outside, ok = b.l.idRef(b.resources[len(b.resources)-1], text)
		return tn, tptr, ok, outside, nil
	}
	if b.l.doc.v31 && !strings.HasPrefix(text, "#/") {
		return nil, "", false, false, nil
	}
	tn, tptr, err = b.l.resolve(text, ptr, ref)
	return tn, tptr, err == nil, false, err
}

// dangling reports whether ref, the $ref of a schema being built, is a
// JSON pointer that points at nothing: in the document, or within an $id
// under it and in the document (see danglingIn).
func (b *schemaBuilder) dangling(ref string) bool {
	if len(b.resources) > 0 {
		return b.l.danglingIn(b.resources[len(b.resources)-1], ref)
	}
	return b.l.dangling(ref)
}

// mergeLater merges member m into s now, or once m is built when it is
// still being built (a recursive allOf).
func (b *schemaBuilder) mergeLater(s, m *Schema) {
	if b.building[m] {
		b.pending = append(b.pending, [2]*Schema{s, m})
		return
	}
	s.merge(m)
}

// constrains reports whether a schema with $ref says anything besides the
// reference (3.1 applies such siblings alongside the target).
func constrains(n *node) bool {
	for _, k := range n.keys {
		switch k {
		case "$ref", "description", "summary", "title", "$comment", "example", "examples", "deprecated", "externalDocs", "xml", "discriminator":
		default:
			if !strings.HasPrefix(k, "x-") {
				return true
			}
		}
	}
	return false
}

// fill reads the keywords of one schema object.
func (b *schemaBuilder) fill(s *Schema, n *node) {
	b.fillTypes(s, n)
	s.Format = n.get("format").text()
	s.Pattern = n.get("pattern").text()
	if r := n.get("required"); r != nil && r.kind == arrayNode {
		for _, v := range r.vals {
			s.Required = append(s.Required, v.text())
		}
	}
	b.fillBounds(s, n)
	s.UniqueItems = n.get("uniqueItems").flag(false)
	s.ReadOnly = n.get("readOnly").flag(false)
	s.WriteOnly = n.get("writeOnly").flag(false)
	if x := n.get("xml"); x.isObject() {
		s.XML = &XML{
			Name:      x.get("name").text(),
			Namespace: x.get("namespace").text(),
			Prefix:    x.get("prefix").text(),
			Attribute: x.get("attribute").flag(false),
			Wrapped:   x.get("wrapped").flag(false),
		}
	}
	if ap := n.get("additionalProperties"); ap != nil && ap.kind == boolNode && !ap.b {
		s.NoAdditionalProperties, s.ownClosed = true, true
	}
	b.fillValues(s, n)
	if d := n.get("discriminator"); d.isObject() {
		s.Discriminator = discriminator(d)
	}
	if b.l.doc.v31 {
		fill31(s, n)
	}
	s.Structural = structuralKeywords(n, b.l.doc.v31)
}

// fillTypes reads type, and nullable, which in 3.0 adds null to the
// types the schema names.
func (b *schemaBuilder) fillTypes(s *Schema, n *node) {
	switch t := n.get("type"); {
	case t == nil:
	case t.kind == stringNode && jsonTypes[t.str]:
		s.Types = []string{t.str}
	case t.kind == arrayNode:
		for _, v := range t.vals {
			if jsonTypes[v.text()] {
				s.Types = append(s.Types, v.text())
			}
		}
	}
	s.Nullable = n.get("nullable").flag(false) && !b.l.doc.v31
	if s.Nullable && len(s.Types) > 0 && !s.Is("null") {
		s.Types = append(s.Types, "null")
	}
}

// fillBounds reads the counts (of characters, items, properties and in
// 3.1 contained items) and the numeric bounds, where
// exclusiveMinimum and exclusiveMaximum are a flag in 3.0 and a bound
// of their own in 3.1.
func (b *schemaBuilder) fillBounds(s *Schema, n *node) {
	ints := []struct {
		kw string
		p  **int64
	}{{"minLength", &s.MinLength}, {"maxLength", &s.MaxLength}, {"minItems", &s.MinItems}, {"maxItems", &s.MaxItems},
		{"minProperties", &s.MinProperties}, {"maxProperties", &s.MaxProperties}}
	if b.l.doc.v31 {
		ints = append(ints, struct {
			kw string
			p  **int64
		}{"minContains", &s.MinContains}, struct {
			kw string
			p  **int64
		}{"maxContains", &s.MaxContains})
	}
	for _, f := range ints {
		if v, ok := n.get(f.kw).integer(); ok {
			*f.p = &v
		}
	}
	floats := []struct {
		kw string
		p  **float64
	}{{"minimum", &s.Minimum}, {"maximum", &s.Maximum}, {"multipleOf", &s.MultipleOf}}
	for _, f := range floats {
		if v, ok := n.get(f.kw).float(); ok {
			*f.p = &v
		}
	}
	for _, e := range []struct {
		kw    string
		bound **float64
		excl  *bool
	}{{"exclusiveMinimum", &s.Minimum, &s.ExclusiveMinimum}, {"exclusiveMaximum", &s.Maximum, &s.ExclusiveMaximum}} {
		x := n.get(e.kw)
		if x == nil {
			continue
		}
		if x.kind == boolNode {
			*e.excl = x.b && !b.l.doc.v31
			continue
		}
		if v, ok := x.float(); ok {
			*e.bound, *e.excl = &v, true
		}
	}
}

// fillValues reads the values a schema names: enum, const (3.1),
// default, and example, or else the first of examples.
func (b *schemaBuilder) fillValues(s *Schema, n *node) {
	if e := n.get("enum"); e != nil && e.kind == arrayNode {
		s.Enum = make([]any, 0, len(e.vals))
		for _, v := range e.vals {
			s.Enum = append(s.Enum, v.value())
		}
	}
	if c := n.get("const"); c != nil && b.l.doc.v31 {
		s.Const, s.HasConst = c.value(), true
	}
	if d := n.get("default"); d != nil {
		s.Default, s.HasDefault = d.value(), true
	}
	if ex := n.get("example"); ex != nil {
		s.Example, s.HasExample = ex.value(), true
	} else if exs := n.get("examples"); exs != nil && exs.kind == arrayNode && len(exs.vals) > 0 {
		s.Example, s.HasExample = exs.vals[0].value(), true
	}
}

// discriminator reads a discriminator object: its property name and its
// mapping, if any.
func discriminator(d *node) *Discriminator {
	disc := &Discriminator{PropertyName: d.get("propertyName").text()}
	if m := d.get("mapping"); m.isObject() {
		disc.Mapping = make(map[string]string, len(m.keys))
		for i, k := range m.keys {
			disc.Mapping[k] = m.vals[i].text()
		}
	}
	return disc
}

// fill31 reads the keywords only 3.1 has that the model knows:
// dependentRequired, and those that make the schema opaque, which only
// the validator follows.
func fill31(s *Schema, n *node) {
	if dr := n.get("dependentRequired"); dr.isObject() {
		for i, name := range dr.keys {
			if dr.vals[i].kind == arrayNode {
				s.DependentRequired = append(s.DependentRequired, Dependency{Name: name, Required: texts(dr.vals[i])})
			}
		}
	}
	for _, k := range []string{"$dynamicRef", "$recursiveRef", "unevaluatedProperties", "unevaluatedItems"} {
		if n.has(k) {
			s.Opaque = true
		}
	}
}

// jsonTypes are the names type may hold; the model leaves others out
// (the validator refuses them: see fault.go).
var jsonTypes = map[string]bool{"null": true, "boolean": true, "object": true, "array": true, "number": true, "string": true, "integer": true}

// structuralKeywords reports whether a schema object constrains only type,
// properties, required and additionalProperties (and int32/int64 formats)
// by its own keywords.
func structuralKeywords(n *node, v31 bool) bool {
	for i, k := range n.keys {
		switch k {
		case "items":
			if n.vals[i].kind == arrayNode {
				return false // a tuple
			}
		case "type", "properties", "required", "allOf", "$ref",
			"title", "description", "example", "examples", "default", "deprecated", "readOnly", "writeOnly",
			"externalDocs", "xml", "discriminator", "$comment", "$id", "$anchor", "$schema", "$defs", "definitions", "nullable":
		case "additionalProperties":
			if v := n.vals[i]; v.kind != boolNode {
				return false
			}
		case "format":
			if f := n.vals[i].text(); f != "int32" && f != "int64" {
				return false
			}
		default:
			if !strings.HasPrefix(k, "x-") {
				return false
			}
		}
	}
	return true
}

// settle works out what depends on the whole graph of schemas once every
// schema is built: a schema is structural when it and everything it
// contains are.
func (b *schemaBuilder) settle() {
	state := map[*Schema]uint8{} // 1 visiting, 2 done
	var visit func(s *Schema) bool
	visit = func(s *Schema) bool {
		if s == nil {
			return true
		}
		switch state[s] {
		case 1:
			return true // assumed until shown otherwise
		case 2:
			return s.Structural
		}
		state[s] = 1
		ok := s.Structural
		for _, p := range s.Properties {
			if !visit(p.Schema) {
				ok = false
			}
		}
		if !visit(s.Items) {
			ok = false
		}
		s.Structural = ok
		state[s] = 2
		return ok
	}
	for _, s := range b.all {
		visit(s)
	}
}

func (s *Schema) merge(m *Schema) {
	if m == nil || m == s {
		return
	}
	if len(s.Types) == 0 {
		s.Types, s.typeInferred = m.Types, m.typeInferred
	}
	if s.Format == "" {
		s.Format = m.Format
	}
	for _, p := range m.Properties {
		s.setProperty(p.Name, p.Schema)
	}
	for _, r := range m.Required {
		if !s.Requires(r) {
			s.Required = append(s.Required, r)
		}
	}
	if s.Items == nil {
		s.Items = m.Items
	}
	if s.XML == nil {
		s.XML = m.XML
	}
	if !s.HasExample && m.HasExample {
		s.Example, s.HasExample = m.Example, true
	}
	s.NoAdditionalProperties = s.NoAdditionalProperties || m.NoAdditionalProperties
	s.Structural = s.Structural && m.Structural
	s.Recursive = s.Recursive || m.Recursive
	s.Never = s.Never || m.Never
}

func (s *Schema) setProperty(name string, ps *Schema) {
	for i := range s.Properties {
		if s.Properties[i].Name == name {
			s.Properties[i].Schema = ps
			return
		}
	}
	s.Properties = append(s.Properties, Property{Name: name, Schema: ps})
}
