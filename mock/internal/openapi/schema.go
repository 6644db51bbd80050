package openapi

import (
	"encoding/json"

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

	// Structural is true when the schema constrains nothing beyond type,
	// properties, required and additionalProperties (at every level), so
	// that copying valid values into its declared properties is valid.
	Structural bool

	hash     uint64
	compiled *jsonschema.Schema
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
	return s != nil && o != nil && (s == o || s.hash == o.hash)
}

// Validate checks v, a value decoded with json.Decoder.UseNumber (maps,
// slices, strings, json.Number, bools and nil), against the schema and
// returns what is wrong with it, or nil. Integers must be written as
// integers and fit int64 (int32 where the format says so).
func (s *Schema) Validate(v any) []Violation {
	if s == nil {
		return nil
	}
	var out []Violation
	if s.compiled != nil {
		if err := s.compiled.Validate(v); err != nil {
			out = violationsOf(err)
		}
	}
	out = checkIntegers(s, v, nil, out)
	if len(out) == 0 {
		return nil
	}
	sortViolations(out)
	return out
}

// checkIntegers adds a violation for every integer-typed value that is not
// an integer literal or does not fit its format, where the compiled schema
// (which sees numbers as mathematical values) found nothing wrong.
func checkIntegers(s *Schema, v any, path []string, out []Violation) []Violation {
	if s == nil {
		return out
	}
	switch x := v.(type) {
	case json.Number:
		if s.Is("integer") && !s.Is("number") {
			if why := integerProblem(string(x), s.Format); why != "" {
				out = appendUnique(out, Violation{Path: joinPath(path), Reason: why})
			}
		}
	case map[string]any:
		for i := range s.Properties {
			p := &s.Properties[i]
			pv, ok := x[p.Name]
			if !ok || p.Schema == nil {
				continue
			}
			if n, isNum := pv.(json.Number); isNum {
				// A scalar: no path to build unless it is wrong.
				if p.Schema.Is("integer") && !p.Schema.Is("number") {
					if why := integerProblem(string(n), p.Schema.Format); why != "" {
						out = appendUnique(out, Violation{Path: childPath(path, p.Name), Reason: why})
					}
				}
				continue
			}
			switch pv.(type) {
			case map[string]any, []any:
				out = checkIntegers(p.Schema, pv, append(path[:len(path):len(path)], p.Name), out)
			}
		}
	case []any:
		if s.Items != nil {
			for i, e := range x {
				out = checkIntegers(s.Items, e, append(path, itoa(i)), out)
			}
		}
	}
	return out
}
