package verify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Negatives below the top level of a JSON body: a property of a
// property, of an array's items, of a oneOf or anyOf alternative.

// depth is a kind of place below the top level a mistake is made in.
type depth string

const (
	inObject depth = "nested"
	inItem   depth = "in an array item"
	inBranch depth = "in an alternative"
)

// slot is a property of the body below its top level: where it is, its
// schema and the schema of the object that holds it.
type slot struct {
	at     []any  // the keys and indexes from the body to the property
	name   string // written as violations write paths: customer.address.city, lines[0].qty
	schema *openapi.Schema
	parent *openapi.Schema
	kind   depth
	// branch is the oneOf or anyOf alternative the property is in, nil
	// for none; branchAt is where the alternative's value is, and rel
	// the property's path within it.
	branch   *openapi.Schema
	branchAt []any
	rel      string
}

// maxDepth bounds how deep slots are looked for.
const maxDepth = 12

// slots lists the properties of body below its top level, depth first
// in document order: in nested objects, in the first item of arrays, in
// the alternative of a oneOf or anyOf the value matches.
func slots(body any, s *openapi.Schema) []slot {
	var out []slot
	var walk func(v any, s *openapi.Schema, at []any, kind depth, br *slot, n int)
	walk = func(v any, s *openapi.Schema, at []any, kind depth, br *slot, n int) {
		if s == nil || n > maxDepth {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			for _, p := range s.Properties {
				if p.Schema == nil || p.Schema.ReadOnly {
					continue
				}
				here := append(slices.Clip(at), p.Name)
				if len(at) > 0 || br != nil {
					sl := slot{at: here, name: pathName(here), schema: p.Schema, parent: s, kind: kind}
					if br != nil {
						sl.branch, sl.branchAt, sl.rel = br.branch, br.branchAt, pathName(here[len(br.branchAt):])
					}
					out = append(out, sl)
				}
				if pv, has := x[p.Name]; has {
					k := kind
					if k == "" {
						k = inObject
					}
					walk(pv, p.Schema, here, k, br, n+1)
				}
			}
			if br == nil {
				for _, alt := range s.AnyOf {
					if alt != nil && len(alt.ValidateRequest(x)) == 0 {
						walk(x, alt, at, inBranch, &slot{branch: alt, branchAt: at}, n+1)
						break
					}
				}
			}
		case []any:
			if len(x) > 0 {
				walk(x[0], s.Items, append(slices.Clip(at), 0), inItem, br, n+1)
			}
		}
	}
	walk(body, s, nil, "", nil, 0)
	return out
}

// pathName writes a path as violations do: a.b[0].c.
func pathName(at []any) string {
	var b strings.Builder
	for _, k := range at {
		switch k := k.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", k)
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(k)
		}
	}
	return b.String()
}

// holder returns the object of v that holds the property at, nil when
// there is none.
func holder(v any, at []any) map[string]any {
	obj, _ := valueAtPath(v, at[:len(at)-1]).(map[string]any)
	return obj
}

// valueAtPath returns the value of v at at.
func valueAtPath(v any, at []any) any {
	for _, k := range at {
		switch k := k.(type) {
		case string:
			obj, _ := v.(map[string]any)
			v = obj[k]
		case int:
			arr, _ := v.([]any)
			if k >= len(arr) {
				return nil
			}
			v = arr[k]
		}
	}
	return v
}

// nestedMistakes are the invalid bodies made from c's below its top
// level: for each kind of mistake (a required property missing, a wrong
// type, a value outside its enum, out of range, breaking its pattern or
// its format), the first slot of each depth (nested object, array item,
// alternative) it can be made at. Each is checked with the engine's
// validator before it is kept: the whole body must be invalid, by that
// keyword alone, at that place (in an alternative, the alternative's
// value must break it alone, and the body match no other): a body the
// document accepts is never sent as a negative.
func nestedMistakes(c *exercise.Call) []invalid {
	if c.Media == nil || !openapi.IsJSON(c.Media.Type) || c.Media.Schema == nil {
		return nil
	}
	if _, ok := c.Body.(map[string]any); !ok {
		return nil
	}
	s := c.Media.Schema
	all := slots(c.Body, s)
	if len(all) == 0 {
		return nil
	}
	kinds := []struct {
		name     string
		keywords []string
		b        breaker
		vc       *valueClass
	}{
		{"missing required property", []string{"required"}, missingProperty, nil},
		{"wrong type of", []string{"type"}, wrongType, nil},
		{"outside its enum", []string{"enum"}, outsideEnum, nil},
	}
	classes := valueClasses()
	for i := range classes {
		kinds = append(kinds, struct {
			name     string
			keywords []string
			b        breaker
			vc       *valueClass
		}{classes[i].what, classes[i].keywords, nil, &classes[i]})
	}
	var out []invalid
	for _, k := range kinds {
		done := map[depth]bool{}
		for _, sl := range all {
			if done[sl.kind] {
				continue
			}
			for _, body := range candidates(c.Body, sl, k.b, k.vc) {
				why, ok := judgeNested(s, body, sl, k.keywords)
				if !ok {
					continue
				}
				done[sl.kind] = true
				name := nestedName(k.name, sl)
				out = append(out, replaceBody(name, body, why))
				break
			}
		}
	}
	return out
}

// nestedName names a nested negative: "missing required property
// customer.address.city (nested)", "property lines[0].qty out of range
// (in an array item)".
func nestedName(what string, sl slot) string {
	switch what {
	case "missing required property":
		return fmt.Sprintf("missing required property %s (%s)", sl.name, sl.kind)
	case "wrong type of":
		return fmt.Sprintf("wrong type of %s (%s)", sl.name, sl.kind)
	case "outside its enum":
		return fmt.Sprintf("value of %s outside its enum (%s)", sl.name, sl.kind)
	}
	return fmt.Sprintf("property %s %s (%s)", sl.name, what, sl.kind)
}

// candidates are copies of body with a mistake made at sl: by b, or
// each bad value vc makes from the value there.
func candidates(body any, sl slot, b breaker, vc *valueClass) []any {
	name := sl.at[len(sl.at)-1].(string)
	if b != nil {
		cp := jsonx.Clone(body)
		obj := holder(cp, sl.at)
		if obj == nil || !b(obj, name, sl.schema, sl.parent) {
			return nil
		}
		return []any{cp}
	}
	v, has := holder(body, sl.at)[name]
	if !has {
		return nil
	}
	var out []any
	for _, bad := range vc.make(sl.schema, v) {
		cp := jsonx.Clone(body)
		holder(cp, sl.at)[name] = bad
		out = append(out, cp)
	}
	return out
}

// judgeNested checks a body made wrong at sl with the engine's
// validator: it returns the violation to name when the body is invalid
// for that mistake alone.
func judgeNested(s *openapi.Schema, body any, sl slot, keywords []string) (openapi.Violation, bool) {
	vs := s.ValidateRequest(body)
	if len(vs) == 0 {
		return openapi.Violation{}, false
	}
	if sl.branch == nil {
		return brokenAt(vs, sl.name, keywords)
	}
	// In an alternative the body is invalid by the oneOf or anyOf as a
	// whole: the alternative's own value must break that keyword alone.
	bvs := sl.branch.ValidateRequest(valueAtPath(body, sl.branchAt))
	why, ok := brokenAt(bvs, sl.rel, keywords)
	if ok {
		why.Path = sl.name
	}
	return why, ok
}

// brokenAt is brokenBy for a property at path: a missing property's
// violation may name it, or its holder with the name in its reason.
func brokenAt(vs []openapi.Violation, path string, keywords []string) (openapi.Violation, bool) {
	parent, name := "", path
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		parent, name = path[:i], path[i+1:]
	}
	for i, v := range vs {
		if v.Path == parent && slices.Contains(keywords, "required") && strings.Contains(v.Reason, name) {
			vs[i].Path = path
		}
	}
	return brokenBy(vs, path, keywords)
}
