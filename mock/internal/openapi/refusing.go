package openapi

import (
	"fmt"

	"github.com/plantmock/plantmock/mock/internal/regex"
)

// openRefusing leaves out, as a mistake of the document, the
// additionalProperties false of every schema that refuses a property
// required of it: by its own required, or by that of a schema it is an
// allOf member of (or the target of a $ref beside other keywords).
// Codat's TransactionMetadataList requires pageNumber through a member
// and declares no property of its own, so that its additionalProperties
// false refuses every one; Azure Logic's AssemblyProperties requires
// assemblyName, which its member's refuses; Airbyte's AirbyteStream
// requires json_schema and declares jsonSchema. So is that of a schema
// every alternative of whose anyOf or oneOf requires a property it
// refuses: Jira's WorkflowCondition declares no property of its own,
// and each of its oneOf alternatives requires nodeType. No object
// satisfies such a schema: every answer holding one would break it, and
// every request would be refused. Read without the keyword, the schema
// keeps its properties and what it requires.
//
// It runs on the model, before the schemas are compiled: the compiler
// leaves the keyword out of the nodes it marks (l.opened).
func (l *loader) openRefusing() {
	for _, s := range l.schemas.all {
		if s.ownClosed {
			anyOf := s.AnyOf[:len(s.AnyOf)-len(s.OneOf)]
			for _, alts := range [2][]*Schema{anyOf, s.OneOf} {
				if name, ok := s.refusedByAll(alts); ok {
					l.open(s, nil, name)
				}
			}
		}
		if len(s.Required) == 0 {
			continue
		}
		seen := map[*Schema]bool{}
		var walk func(p *Schema)
		walk = func(p *Schema) {
			if p == nil || seen[p] {
				return
			}
			seen[p] = true
			if p.ownClosed {
				if name, ok := p.refusedRequired(s.Required); ok {
					l.open(p, s, name)
				}
			}
			for _, m := range p.AllOf {
				walk(m)
			}
		}
		walk(s)
	}
	if len(l.opened) == 0 {
		return
	}
	// Schemas hold their members' additionalProperties false too (see
	// Schema.merge): worked out again without those left out.
	closed := map[*Schema]bool{}
	var isClosed func(s *Schema) bool
	isClosed = func(s *Schema) bool {
		if c, ok := closed[s]; ok {
			return c
		}
		closed[s] = s.ownClosed // allOf has no cycles (the loader refuses them); a $ref's may
		c := s.ownClosed
		for _, m := range s.AllOf {
			c = c || m != nil && isClosed(m)
		}
		closed[s] = c
		return c
	}
	for _, s := range l.schemas.all {
		s.NoAdditionalProperties = isClosed(s)
	}
}

// open leaves out the additionalProperties false of p, which refuses
// name, a property that s requires (nil: every alternative of p).
func (l *loader) open(p, s *Schema, name string) {
	if l.opened[p.src] {
		return
	}
	if l.opened == nil {
		l.opened = map[*node]bool{}
	}
	l.opened[p.src] = true
	p.ownClosed = false
	whose := "the schema"
	switch {
	case s == nil:
		whose = "every alternative of its anyOf or oneOf"
	case s != p:
		whose = "#" + s.ptr
	}
	kptr := child(p.ptr, "additionalProperties")
	l.mistake("refusing "+p.ptr, at(kptr, p.src.get("additionalProperties")),
		fmt.Sprintf("additionalProperties false refuses %s, which %s requires: no object satisfies the schema, and the keyword is left out of it", name, whose))
}

// refusedRequired returns the first property of required that s, whose
// own additionalProperties is false, refuses: one that its own
// properties and patternProperties do not name.
func (s *Schema) refusedRequired(required []string) (string, bool) {
	for _, r := range required {
		if s.DeclaresOwn(r) {
			continue
		}
		matched := false
		for _, pp := range s.PatternProperties {
			if p, err := regex.Compile(pp.Name); err == nil && p.MatchString(r) {
				matched = true
				break
			}
		}
		if !matched {
			return r, true
		}
	}
	return "", false
}

// refusedByAll returns a property that s, whose own additionalProperties
// is false, refuses and the first of alts requires, when every one of
// alts requires one that s refuses; false when alts is empty.
func (s *Schema) refusedByAll(alts []*Schema) (string, bool) {
	first := ""
	for i, a := range alts {
		if a == nil {
			return "", false
		}
		name, ok := s.refusedRequired(a.Required)
		if !ok {
			return "", false
		}
		if i == 0 {
			first = name
		}
	}
	return first, len(alts) > 0
}
