package openapi

import (
	"slices"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Property is one named property of an object schema.
type Property struct {
	Name   string
	Schema *Schema
}

// Schema is the part of a JSON Schema that plantmock reads to generate,
// project and shape data. allOf members are merged into it: Properties and
// Required hold the union, in document order. Validate checks a decoded value
// against the full schema, including the keywords not modelled here.
type Schema struct {
	Ref                    string   // the $ref it came from, if any
	Name                   string   // component name, if it is a component schema
	Types                  []string // "object", "string", ...; empty means any type
	Format                 string
	Nullable               bool
	Properties             []Property
	Required               []string
	NoAdditionalProperties bool
	Items                  *Schema
	AnyOf                  []*Schema // anyOf and oneOf alternatives
	Enum                   []any     // JSON values
	Const                  any
	HasConst               bool
	Example                any
	HasExample             bool
	Default                any
	HasDefault             bool
	Minimum                *float64
	Maximum                *float64
	ExclusiveMinimum       bool
	ExclusiveMaximum       bool
	MultipleOf             *float64
	MinLength              *int64
	MaxLength              *int64
	Pattern                string
	MinItems               *int64
	MaxItems               *int64
	UniqueItems            bool
	ReadOnly               bool
	WriteOnly              bool
	// XML is the schema's xml object: how the value is written in XML
	// bodies; nil when the schema has none.
	XML *XML

	// The keywords below are the schema's own: allOf members' are not
	// merged into them (values must satisfy the members' too, see AllOf).
	// Keywords the document's dialect lacks are not read: the validator
	// ignores them too (in 3.0: const, contains, prefixItems,
	// patternProperties, propertyNames, dependentRequired,
	// dependentSchemas, dependencies, if, then and else).

	// AllOf are the allOf members, and in 3.1 the target of a $ref with
	// sibling keywords. Their properties, required names, type, format,
	// items and example are merged into the schema (the fields above); a
	// value satisfies each member in full, their other keywords too.
	AllOf []*Schema
	// OneOf are the oneOf alternatives, of which a value matches exactly
	// one. AnyOf lists them too, after the anyOf alternatives.
	OneOf []*Schema
	// Discriminator is the schema's discriminator object, or nil.
	Discriminator *Discriminator
	// Not is the schema a value must not match, or nil.
	Not *Schema
	// If, Then and Else are the conditional subschemas (nil when absent).
	If, Then, Else *Schema
	// PrefixItems are the schemas of an array's first items: prefixItems
	// (3.1), or an items array (a tuple, 3.0). Items is then the schema
	// of the items after them, when there is one.
	PrefixItems []*Schema
	// Contains is the schema some items of an array match: at least
	// MinContains (1 when nil) and at most MaxContains of them.
	Contains    *Schema
	MinContains *int64
	MaxContains *int64
	// MinProperties and MaxProperties bound how many properties an object
	// has.
	MinProperties *int64
	MaxProperties *int64
	// AdditionalProperties is the schema of the properties neither
	// Properties nor PatternProperties name, when additionalProperties is
	// a schema (false is NoAdditionalProperties; true and absent are nil).
	// Like additionalProperties false, it sees the schema's own
	// properties only, not its members' (see DeclaresOwn).
	AdditionalProperties *Schema
	// typeInferred is true when Types is object only because the schema
	// declares properties and no type: it constrains only objects, and
	// a value of another type satisfies it.
	typeInferred bool
	// ownProps are the names the schema's own properties keyword
	// declares, kept where allOf members merged others into Properties.
	ownProps []string
	// ownClosed is true when the schema itself says additionalProperties
	// false; NoAdditionalProperties holds its members' too.
	ownClosed bool
	// PatternProperties are the schemas of the properties whose names
	// match a pattern, by pattern (Name holds the regular expression).
	PatternProperties []Property
	// PropertyNames is the schema every property name matches, or nil.
	PropertyNames *Schema
	// ContentMediaType and ContentSchema (3.1) describe what a string
	// holds: a string of JSON that ContentSchema describes, say. They
	// annotate, and Validate does not check them; a server-sent event's
	// data is checked against them (see Media.CheckItem).
	ContentMediaType string
	ContentSchema    *Schema
	// ContentEncoding (3.1) is how the string encodes its content
	// ("base64"); an annotation too.
	ContentEncoding string
	// UnevaluatedProperties and UnevaluatedItems (3.1) are the schemas of
	// the properties and items no other keyword evaluated, as written;
	// nil when absent. Only Validate applies them (see Opaque).
	UnevaluatedProperties *Schema
	UnevaluatedItems      *Schema
	// DependentRequired are the properties an object must have when it
	// has another (dependentRequired, and dependencies' arrays).
	DependentRequired []Dependency
	// DependentSchemas are the schemas an object must match when it has a
	// property, by property name (dependentSchemas, and dependencies'
	// schemas).
	DependentSchemas []Property
	// Opaque is true when the schema has keywords the model does not
	// hold that constrain values ($dynamicRef, unevaluatedProperties,
	// unevaluatedItems, a $ref the model cannot follow): only Validate
	// knows what it accepts.
	Opaque bool
	// Never is true for the schema false, which no value satisfies.
	Never bool
	// Recursive is true when the schema contains itself (a tree node whose
	// children are nodes); walks of it stop at a depth bound.
	Recursive bool

	// Structural is true when the schema constrains nothing beyond type,
	// properties, required and additionalProperties (at every level), so
	// that copying valid values into its declared properties is valid.
	Structural bool

	src      *node  // the schema as written
	ptr      string // where it is in the document
	comp     *compiler
	compiled atomic.Pointer[jsonschema.Schema]
	// compiledRequest is the schema compiled for requests, when the
	// document judges requests differently (see ValidateRequest).
	compiledRequest atomic.Pointer[jsonschema.Schema]
	exampleOK       atomic.Int32 // 0 not yet known, 1 the example conforms, 2 it does not
	// fast is the decoder of DecodeRequest (fastpath.go), compiled on
	// first use.
	fast fastPath
}

// Discriminator is a schema's discriminator object: the property that
// names which alternative of anyOf or oneOf a value is, and the names
// (mapping keys) of alternatives whose name is not their component name.
type Discriminator struct {
	PropertyName string
	// Mapping maps property values to schema references
	// ("#/components/schemas/Dog") or component names ("Dog").
	Mapping map[string]string
}

// Value returns the discriminator value that names alternative alt: the
// mapping key whose schema it is, else its component name; "" when alt
// has neither.
func (d *Discriminator) Value(alt *Schema) string {
	if d == nil || alt == nil {
		return ""
	}
	best := ""
	for k, ref := range d.Mapping {
		if ref == alt.Where() || alt.Name != "" && (ref == alt.Name || ref == "#/components/schemas/"+PointerToken(alt.Name)) {
			if best == "" || k < best {
				best = k // the least key, when several map to alt
			}
		}
	}
	if best != "" {
		return best
	}
	return alt.Name
}

// Dependency is an entry of dependentRequired: an object that has
// property Name has the properties Required too.
type Dependency struct {
	Name     string
	Required []string
}

// XML is a schema's xml object (OAS 3.x): the element or attribute name,
// namespace and prefix, and whether an array is wrapped in an element.
type XML struct {
	Name      string
	Namespace string
	Prefix    string
	Attribute bool
	Wrapped   bool
}

// GoodExample returns the schema's example when it has one that satisfies
// the schema; documents' examples are often stale.
func (s *Schema) GoodExample() (any, bool) {
	if s == nil || !s.HasExample {
		return nil, false
	}
	switch s.exampleOK.Load() {
	case 1:
		return s.Example, true
	case 2:
		return nil, false
	}
	ok := len(s.Validate(s.Example)) == 0
	if ok {
		s.exampleOK.Store(1)
	} else {
		s.exampleOK.Store(2)
	}
	return s.Example, ok
}

// Is reports whether the schema allows JSON type t ("integer" is allowed by
// "number" too).
func (s *Schema) Is(t string) bool {
	if s == nil {
		return false
	}
	for _, x := range s.Types {
		if x == t {
			return true
		}
	}
	return false
}

// DeclaresOwn reports whether the schema's own properties keyword names
// a property: those its own additionalProperties leave alone. A member's
// properties, merged into Properties, are not the schema's own:
// {allOf: [{properties: {id: ...}}], additionalProperties: false} refuses
// an object with an id, as JSON Schema reads it.
func (s *Schema) DeclaresOwn(name string) bool {
	if s == nil {
		return false
	}
	if len(s.AllOf) == 0 {
		return s.Property(name) != nil
	}
	return slices.Contains(s.ownProps, name)
}

// TypeWritten reports whether Types is what the schema (or an allOf
// member) says, not object inferred from properties alone, which
// constrain only objects: {properties: {branch: ...}} lets 7 through.
func (s *Schema) TypeWritten() bool { return s != nil && len(s.Types) > 0 && !s.typeInferred }

// ClosedOwn reports whether the schema itself says additionalProperties
// false (not one of its allOf members).
func (s *Schema) ClosedOwn() bool { return s != nil && s.ownClosed }

// Property returns the schema of the named property, or nil.
func (s *Schema) Property(name string) *Schema {
	if s == nil {
		return nil
	}
	for i := range s.Properties {
		if s.Properties[i].Name == name {
			return s.Properties[i].Schema
		}
	}
	return nil
}

// Requires reports whether name is a required property.
func (s *Schema) Requires(name string) bool {
	if s == nil {
		return false
	}
	for _, r := range s.Required {
		if r == name {
			return true
		}
	}
	return false
}

// Same reports whether s and o were built from the same schema text.
func (s *Schema) Same(o *Schema) bool {
	return s != nil && o != nil && (s == o || s.src == o.src)
}

// Where returns the schema's place in the document, as a JSON pointer.
func (s *Schema) Where() string { return "#" + s.ptr }

// Validate checks v, a value decoded with json.Decoder.UseNumber (maps,
// slices, strings, json.Number, bools and nil), against the schema, by the
// document's dialect, as a response: a required property that is writeOnly
// need not be there. It returns what is wrong with v, or nil.
func (s *Schema) Validate(v any) []Violation { return s.validate(v, inResponse) }

// ValidateRequest is Validate for a value a client sends: a required
// property that is readOnly need not be there.
func (s *Schema) ValidateRequest(v any) []Violation { return s.validate(v, inRequest) }

func (s *Schema) validate(v any, mode direction) []Violation {
	if s == nil {
		return nil
	}
	var cs *jsonschema.Schema
	if mode == inRequest || s.compiled.Load() == nil {
		if s.comp != nil {
			cs = s.comp.compileFor(s, mode)
		}
	} else {
		cs = s.compiled.Load()
	}
	if cs == nil {
		return []Violation{{Reason: "the schema at " + s.Where() + " cannot be compiled"}}
	}
	tv, vs, _ := tame(v, s.comp.reach, 0)
	if vs != nil {
		return vs
	}
	out := s.comp.l.patterns.validate(cs, v, tv, &s.comp.locations)
	sortViolations(out)
	return out
}
