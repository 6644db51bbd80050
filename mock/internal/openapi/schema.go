package openapi

import (
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
	err := cs.Validate(v)
	if err == nil {
		return nil
	}
	out := violationsOf(err)
	sortViolations(out)
	return out
}
