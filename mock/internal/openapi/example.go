package openapi

import "strconv"

// Example is one example the document gives, as written: a media
// type's, a parameter's or a header's example or one of its named
// examples, or a schema's example or one of its examples. The mock
// answers from the decoded values Media keeps; package diff compares
// these, each with its place.
type Example struct {
	// Name is the key of a named example, a schema's examples item's
	// index ("0"), or "" for the example keyword.
	Name string
	// Value is the example decoded to a JSON value, as exampleValue
	// reads an Example Object.
	Value any
	place // where it is written: see Place
}

// examples reads the examples of a media type, parameter or header n at
// ptr: its example keyword, then its named examples, each Example Object
// after its $ref and read as a value of media type mt ("" for a
// parameter or header). An Example Object without a value the mock can
// use (an externalValue) is left out.
func (l *loader) examples(n *node, ptr, mt string) ([]Example, error) {
	var out []Example
	if ex := n.get("example"); ex != nil {
		out = append(out, Example{Value: ex.value(), place: placeOf(child(ptr, "example"), ex)})
	}
	exs := n.get("examples")
	if !exs.isObject() {
		return out, nil
	}
	for j, name := range exs.keys {
		ex, eptr, err := l.deref(exs.vals[j], child(child(ptr, "examples"), name))
		if err != nil {
			return nil, err
		}
		if v, ok := l.exampleValue(mt, ex, eptr); ok {
			out = append(out, Example{Name: name, Value: v, place: placeOf(eptr, ex)})
		}
	}
	return out, nil
}

// ExampleList returns the media type's examples as written: its example,
// then its named examples.
func (m *Media) ExampleList() []Example { return m.exampleList }

// ExampleList returns the parameter's examples as written: its example,
// then its named examples (those of its content are its Content's).
func (p *Param) ExampleList() []Example { return p.exampleList }

// ExampleList returns the header's examples as written: its example,
// then its named examples.
func (h *Header) ExampleList() []Example { return h.exampleList }

// ExampleList returns the schema's examples as written: its example
// (OpenAPI 3.0), then the items of its examples (JSON Schema); none for
// a schema without text of its own.
func (s *Schema) ExampleList() []Example {
	if s == nil || s.src == nil {
		return nil
	}
	var out []Example
	if ex := s.src.get("example"); ex != nil {
		out = append(out, Example{Value: ex.value(), place: placeOf(child(s.ptr, "example"), ex)})
	}
	if exs := s.src.get("examples"); exs != nil && exs.kind == arrayNode {
		for i, v := range exs.vals {
			name := strconv.Itoa(i)
			out = append(out, Example{Name: name, Value: v.value(), place: placeOf(child(child(s.ptr, "examples"), name), v)})
		}
	}
	return out
}
