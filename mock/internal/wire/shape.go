package wire

import (
	"encoding/json"

	"github.com/plantmock/plantmock/internal/jsonx"
)

// TypeSet is a set of JSON types, the "type" keyword of a schema.
type TypeSet uint8

// The JSON types of a TypeSet.
const (
	Null TypeSet = 1 << iota
	Boolean
	Integer
	Number
	String
	Array
	Object
)

// ParseType returns the TypeSet of one JSON Schema type name ("string",
// "integer", ...), or 0 for a name that is none of them.
func ParseType(name string) TypeSet {
	switch name {
	case "null":
		return Null
	case "boolean":
		return Boolean
	case "integer":
		return Integer
	case "number":
		return Number
	case "string":
		return String
	case "array":
		return Array
	case "object":
		return Object
	}
	return 0
}

// Shape is what decoding needs to know of a schema. A nil *Shape stands
// for a schema that allows anything.
type Shape struct {
	// Types are the JSON types the schema allows; 0 allows any. With 0,
	// a shape that has Items is taken for an array and one that has
	// Properties or Additional for an object.
	Types TypeSet
	// Items is the shape of an array's items (nil: any).
	Items *Shape
	// Properties are the shapes of an object's declared properties.
	Properties map[string]*Shape
	// Additional is the shape of an object's other properties
	// (additionalProperties; nil: any).
	Additional *Shape
}

// kind is how the wire syntax of a value is read: one text, a list, or
// name-value pairs.
type kind uint8

const (
	kindAny    kind = iota // no type constraint: one text, a list when repeated
	kindScalar             // one text, coerced to the allowed scalar type
	kindArray
	kindObject
)

// kindOf decides how a value of shape s is read: an array when arrays are
// allowed, else an object when objects are, else a scalar.
func kindOf(s *Shape) kind {
	if s == nil {
		return kindAny
	}
	switch t := s.Types; {
	case t&Array != 0:
		return kindArray
	case t&Object != 0:
		return kindObject
	case t != 0:
		return kindScalar
	case s.Items != nil:
		return kindArray
	case s.Properties != nil || s.Additional != nil:
		return kindObject
	}
	return kindAny
}

// items returns the shape of an array's items.
func (s *Shape) items() *Shape {
	if s == nil {
		return nil
	}
	return s.Items
}

// property returns the shape of an object's property name.
func (s *Shape) property(name string) *Shape {
	if s == nil {
		return nil
	}
	if p, ok := s.Properties[name]; ok {
		return p
	}
	return s.Additional
}

// propertyOK returns the shape of a declared property, and whether it is
// declared.
func (s *Shape) propertyOK(name string) (*Shape, bool) {
	if s == nil {
		return nil, false
	}
	p, ok := s.Properties[name]
	return p, ok
}

// stringOnly reports whether s allows strings and nothing else.
func (s *Shape) stringOnly() bool { return s != nil && s.Types == String }

// Coerce turns one text into the JSON value the shape expects of it:
// a boolean for "true" or "false", a number for a JSON number literal,
// null for "null" when null is allowed and strings are not. The types
// other than string are tried first, so that "10" is the number 10 for a
// schema allowing both integers and strings; text that fits none of them
// stays a string, for the schema to judge.
func Coerce(text string, s *Shape) any {
	if s == nil || s.Types == 0 {
		return text
	}
	t := s.Types
	if t&Boolean != 0 {
		switch text {
		case "true":
			return true
		case "false":
			return false
		}
	}
	if t&(Integer|Number) != 0 && jsonx.IsNumber(text) {
		return json.Number(text)
	}
	if t&Null != 0 && t&String == 0 && text == "null" {
		return nil
	}
	return text
}
