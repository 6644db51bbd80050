package openapi

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/plantmock/plantmock/internal/jsonx"
)

// A mistake is an error in the document that touches one piece of it: a
// schema keyword whose value breaks its meta-schema (pattern: 12, an
// examples object, type: file, a pattern that is no regular expression),
// a parameter without a name. The piece is left out and the rest of the
// document is served; each mistake is one line of Document.Mistakes, counted
// by kind like the warnings. Documents are refused only when nothing
// sensible can be served (see Load).

// mistake records a mistake in the document whose piece is left out.
func (l *loader) mistake(kind, where, text string) {
	l.record(l.mistakes, &l.mistakeOrder, kind, where, text)
}

// maxDrops bounds how many rounds of faulty keywords one compile leaves
// out before it gives up: each round is a walk of the whole resource by
// the library, and a round leaves out every fault the library reported.
const maxDrops = 64

// compileLoc compiles the schema at loc in c's resource. When the resource
// breaks the dialect's meta-schema, the keywords at fault are left out of
// the resource (and of the model) as mistakes, and it tries again.
func (c *compiler) compileLoc(loc string) (*jsonschema.Schema, error) {
	for round := 0; ; round++ {
		cs, err := c.c.Compile(c.root + loc)
		if err == nil || round == maxDrops || !c.dropInvalid(err) {
			return cs, err
		}
	}
}

// dropInvalid leaves out of the resource every keyword that err, a
// meta-schema violation, finds at fault, and reports whether it left out
// any.
func (c *compiler) dropInvalid(err error) bool {
	var se *jsonschema.SchemaValidationError
	var ve *jsonschema.ValidationError
	if !errors.As(err, &se) || !errors.As(se.Err, &ve) {
		return false
	}
	// The library reports the violations in no fixed order: they are
	// left out in document order, so that the lines are the same on
	// every load.
	var leaves []*jsonschema.ValidationError
	var walk func(ve *jsonschema.ValidationError, where []string)
	walk = func(ve *jsonschema.ValidationError, where []string) {
		if len(ve.InstanceLocation) >= 2 {
			where = ve.InstanceLocation
		}
		if _, ok := ve.ErrorKind.(*kind.PropertyNames); ok {
			// A property name's violations are at the name, as a value
			// of its own, and the library reports the name at no place:
			// the only names the meta-schemas constrain are the
			// patternProperties of the schema it is in.
			leaf := *ve
			if len(leaf.InstanceLocation) < 2 {
				leaf.InstanceLocation = append(slices.Clip(where), "patternProperties")
			}
			leaves = append(leaves, &leaf)
			return
		}
		if len(ve.Causes) == 0 {
			leaves = append(leaves, ve)
		}
		for _, cause := range ve.Causes {
			walk(cause, where)
		}
	}
	walk(ve, nil)
	line := func(ve *jsonschema.ValidationError) (int32, string) {
		loc := ve.InstanceLocation
		if len(loc) < 2 {
			return 0, ""
		}
		ptr := loc[1]
		for _, tok := range loc[2:] {
			ptr = child(ptr, tok)
		}
		if n := c.l.root.pointer(ptr); n != nil {
			return n.line, ptr
		}
		return 0, ptr
	}
	slices.SortStableFunc(leaves, func(a, b *jsonschema.ValidationError) int {
		la, pa := line(a)
		lb, pb := line(b)
		return cmp.Or(cmp.Compare(la, lb), cmp.Compare(pa, pb))
	})
	dropped := false
	for _, leaf := range leaves {
		if c.drop(leaf) {
			dropped = true
		}
	}
	return dropped
}

// drop leaves out the keyword of one meta-schema violation: the keyword
// of the innermost schema object on the violation's path. A value that
// stands where a schema belongs and is none (properties: {x: 3}) becomes
// true, and a schema object violated as a whole (no keyword on the path)
// is emptied: either then accepts every value.
func (c *compiler) drop(ve *jsonschema.ValidationError) bool {
	loc := ve.InstanceLocation
	if len(loc) < 2 || loc[0] != c.defsKeyword() {
		return false
	}
	var (
		schema         map[string]any
		sptr, kw, kptr string
		cur            = c.defs[loc[1]]
		state          = inSchema
		ptr            = loc[1]
		parent         = func(v any) { c.defs[loc[1]] = v } // sets the value at the current step in its container
	)
	for _, tok := range loc[2:] {
		ptr = child(ptr, tok)
		switch x := cur.(type) {
		case map[string]any:
			if state == inSchema {
				schema, sptr, kw, kptr = x, ptr[:len(ptr)-len(PointerToken(tok))-1], tok, ptr
				state = keywordState(tok)
			} else {
				state = inSchema
			}
			cur, parent = x[tok], func(v any) { x[tok] = v }
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return false
			}
			if state == inList {
				state = inSchema
			}
			cur, parent = x[i], func(v any) { x[i] = v }
		default:
			return false
		}
		if state == inData {
			break
		}
	}
	text := reason(ve.ErrorKind)
	if pn, ok := ve.ErrorKind.(*kind.PropertyNames); ok && state == inMap {
		// A name of an object of schemas (a patternProperties key that
		// is no regular expression): that entry is at fault.
		m, ok := cur.(map[string]any)
		if _, has := m[pn.Property]; !ok || !has {
			return false
		}
		for len(ve.Causes) > 0 {
			ve = ve.Causes[0]
		}
		delete(m, pn.Property)
		eptr := child(ptr, pn.Property)
		c.forgetEntry(sptr, kw, pn.Property)
		c.mistake(fmt.Sprintf("invalid %s key %T", kw, ve.ErrorKind), at(eptr, c.l.root.pointer(eptr)),
			fmt.Sprintf("%s key %s is not valid JSON Schema (%s): the entry is left out of the schema", kw, clipped(string(jsonx.Marshal(pn.Property))), reason(ve.ErrorKind)))
		return true
	}
	if d, ok := ve.ErrorKind.(*kind.Dependency); ok && state == inSchema {
		// A keyword that needs another (draft 4: exclusiveMaximum needs
		// maximum): the keyword is at fault, not the schema.
		if x, ok := cur.(map[string]any); ok {
			schema, sptr, kw, kptr, state = x, ptr, d.Prop, child(ptr, d.Prop), inData
		}
	}
	if state == inSchema {
		// The path ends at a schema: it is at fault as a whole.
		switch x := cur.(type) {
		case bool:
			return false
		case map[string]any:
			if len(x) == 0 {
				return false
			}
			clear(x)
			c.forget(ptr, "")
			c.mistake("invalid schema", at(ptr, c.l.root.pointer(ptr)),
				fmt.Sprintf("the schema is not valid JSON Schema (%s): it is left out, and any value is accepted in its place", text))
		default:
			parent(c.anything())
			c.mistake("not a schema", at(ptr, c.l.root.pointer(ptr)),
				fmt.Sprintf("%s is not a schema (%s): any value is accepted in its place", clipped(string(jsonx.Marshal(cur))), text))
		}
		return true
	}
	v, ok := schema[kw]
	if !ok {
		return false
	}
	delete(schema, kw)
	c.forget(sptr, kw)
	c.mistake(fmt.Sprintf("invalid %s %T", kw, ve.ErrorKind), at(kptr, c.l.root.pointer(kptr)),
		fmt.Sprintf("%s: %s is not valid JSON Schema (%s): the keyword is left out of the schema", kw, clipped(string(jsonx.Marshal(v))), text))
	return true
}

// anything is the schema every value satisfies, in the dialect: true, or
// {} in draft 4, which has no boolean schemas.
func (c *compiler) anything() any {
	if c.v31 {
		return true
	}
	return map[string]any{}
}

// What the value at a step of a meta-schema violation's path is.
type pathState uint8

const (
	inSchema pathState = iota // a schema object
	inMap                     // an object of schemas (properties)
	inList                    // an array of schemas (allOf)
	inData                    // a keyword's value that holds no schemas
)

// keywordState is what the value of a schema's keyword kw is.
func keywordState(kw string) pathState {
	switch {
	case schemaMapKeywords[kw]:
		return inMap
	case kw == "items":
		return inSchema // an items array is a list, read by the []any case
	case schemaListKeywords[kw]:
		return inList
	case schemaKeywords[kw]:
		return inSchema
	}
	return inData
}

// mistake records a mistake of the document; the request compiler reads the
// same schemas again and says nothing new, and after Load (a schema
// compiled on first use) the mistakes have been reported.
func (c *compiler) mistake(kind, where, text string) {
	if c.mode != inRequest && !c.l.loaded {
		c.l.mistake(kind, where, text)
	}
}

// forget takes a keyword left out of the compiled schema at ptr out of the
// model too (every keyword when kw is empty), so that generated values
// and the fast path agree with the validator. After Load the model is
// read by requests and stays as it is: a schema compiled on first use
// then only accepts more than the model says.
func (c *compiler) forget(ptr, kw string) {
	if c.l.loaded {
		return
	}
	n := c.l.root.pointer(ptr)
	s := c.l.schemas.memo[n]
	if s == nil || s.src != n {
		return // not built, or a reference whose target is another schema
	}
	s.forget(kw)
}

// forgetEntry takes the entry name of keyword kw (an object of schemas,
// such as patternProperties) of the schema at ptr out of the model too.
func (c *compiler) forgetEntry(ptr, kw, name string) {
	if c.l.loaded {
		return
	}
	n := c.l.root.pointer(ptr)
	s := c.l.schemas.memo[n]
	if s == nil || s.src != n || kw != "patternProperties" {
		return
	}
	s.PatternProperties = slices.DeleteFunc(s.PatternProperties, func(p Property) bool { return p.Name == name })
	s.Structural = false
}

// forget clears what the model read from keyword kw (every keyword when
// kw is empty).
func (s *Schema) forget(kw string) {
	all := kw == ""
	if all || kw == "type" {
		s.Types = nil
	}
	if all || kw == "format" {
		s.Format = ""
	}
	if all || kw == "pattern" {
		s.Pattern = ""
	}
	if all || kw == "enum" {
		s.Enum = nil
	}
	if all || kw == "required" {
		s.Required = nil
	}
	if all || kw == "const" {
		s.Const, s.HasConst = nil, false
	}
	if all || kw == "example" || kw == "examples" {
		s.Example, s.HasExample = nil, false
	}
	for _, b := range []struct {
		kw string
		p  **int64
	}{{"minLength", &s.MinLength}, {"maxLength", &s.MaxLength}, {"minItems", &s.MinItems}, {"maxItems", &s.MaxItems},
		{"minProperties", &s.MinProperties}, {"maxProperties", &s.MaxProperties}, {"minContains", &s.MinContains}, {"maxContains", &s.MaxContains}} {
		if all || kw == b.kw {
			*b.p = nil
		}
	}
	if all || kw == "minimum" || kw == "exclusiveMinimum" {
		s.Minimum, s.ExclusiveMinimum = nil, false
	}
	if all || kw == "maximum" || kw == "exclusiveMaximum" {
		s.Maximum, s.ExclusiveMaximum = nil, false
	}
	if all || kw == "multipleOf" {
		s.MultipleOf = nil
	}
	if all {
		s.Properties, s.Items, s.AllOf, s.AnyOf, s.OneOf, s.Not = nil, nil, nil, nil, nil, nil
		s.NoAdditionalProperties, s.ownClosed, s.ownProps, s.Never = false, false, nil, false
	}
	s.Structural = false
}
