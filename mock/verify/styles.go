package verify

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Negatives of parameters, each parameter on its own and in its declared
// style: the value is changed as a JSON value (a scalar, an array's
// first item, an object's property), and the call writes it as the
// parameter's style and explode say (form, spaceDelimited,
// pipeDelimited, deepObject, simple, label, matrix), so that the mistake
// is sent as a client keeping the document would send the value.

// paramSpot is a place in a parameter's value a mistake is made at: the
// value itself, its first item, or one of its properties.
type paramSpot struct {
	inner  string // the path within the value: "", "[0]", "max"
	schema *openapi.Schema
	value  any               // the valid value there
	set    func(bad any) any // the whole value with bad there (a copy)
}

// paramSpots lists where v, the value of a parameter of schema s, can be
// made wrong: v itself, then its first item (an array), then each of its
// properties, in document order (an object).
func paramSpots(s *openapi.Schema, v any) []paramSpot {
	out := []paramSpot{{inner: "", schema: s, value: v, set: func(bad any) any { return bad }}}
	switch x := v.(type) {
	case []any:
		if len(x) > 0 && s.Items != nil {
			out = append(out, paramSpot{inner: "[0]", schema: s.Items, value: x[0], set: func(bad any) any {
				cp := slices.Clone(x)
				cp[0] = bad
				return cp
			}})
		}
	case map[string]any:
		for _, p := range s.Properties {
			pv, has := x[p.Name]
			if !has || p.Schema == nil {
				continue
			}
			name := p.Name
			out = append(out, paramSpot{inner: name, schema: p.Schema, value: pv, set: func(bad any) any {
				cp := jsonx.Clone(any(x)).(map[string]any)
				cp[name] = bad
				return cp
			}})
		}
	}
	return out
}

// paramKind is a kind of mistake in a parameter's value: its name, the
// keywords it breaks, and the bad values it makes at a spot.
type paramKind struct {
	what     string
	keywords []string
	make     func(s *openapi.Schema, v any, name string) []any
}

// paramKinds are the mistakes made in each parameter: a wrong type (a
// word where a number or boolean is wanted), a string outside its
// enum, then the value classes (out of range, breaking a pattern or a
// format).
func paramKinds() []paramKind {
	kinds := []paramKind{
		{"wrong type", []string{"type"}, func(s *openapi.Schema, v any, _ string) []any {
			if s.Is("string") || len(s.Types) == 0 || !(s.Is("integer") || s.Is("number") || s.Is("boolean")) {
				return nil
			}
			return []any{"not-a-" + s.Types[0]}
		}},
		{"outside its enum", []string{"enum"}, func(s *openapi.Schema, v any, name string) []any {
			if len(s.Enum) == 0 || !s.Is("string") {
				return nil
			}
			return []any{"not-in-enum-" + name}
		}},
	}
	for _, vc := range valueClasses() {
		kinds = append(kinds, paramKind{vc.what, vc.keywords, func(s *openapi.Schema, v any, _ string) []any { return vc.make(s, v) }})
	}
	return kinds
}

// styleMistakes are the invalid requests made from all (c with its
// optional parameters) by changing one parameter's value: for each
// parameter (path, query, header, cookie) and each kind of mistake, the
// value as a whole, and the first of its items or properties, the
// mistake can be made at, where the
// parameter's schema finds the whole value wrong there by those keywords
// alone. The request as the call writes it is checked again before it
// is sent (see invalid.keywords): read back by the operation's decoder,
// by its style, it must break those keywords alone, at that spot.
func styleMistakes(all *exercise.Call) []invalid {
	var out []invalid
	kinds := paramKinds()
	for i := range all.Op.Params {
		p := &all.Op.Params[i]
		if p.Content != nil || p.Schema == nil {
			continue
		}
		k := p.In + "." + p.Name
		v, has := all.Values[k]
		if !has {
			continue
		}
		spots := paramSpots(p.Schema, v)
		for _, kind := range kinds {
			// The value as a whole, then the first item or property.
			if in, ok := styleMistake(all, p, k, spots[:1], kind); ok {
				out = append(out, in)
			}
			if in, ok := styleMistake(all, p, k, spots[1:], kind); ok {
				out = append(out, in)
			}
		}
	}
	return out
}

// styleMistake is the first mistake of kind at one of spots of parameter
// p's value, as the invalid request that sends it.
func styleMistake(all *exercise.Call, p *openapi.Param, k string, spots []paramSpot, kind paramKind) (invalid, bool) {
	for _, sp := range spots {
		name := p.Name
		if sp.inner != "" && sp.inner[0] != '[' {
			name = sp.inner
		}
		for _, bad := range kind.make(sp.schema, sp.value, name) {
			whole := sp.set(bad)
			why, ok := brokenBy(p.Schema.ValidateRequest(whole), sp.inner, kind.keywords)
			if !ok {
				continue
			}
			why.Path = joinPath(k, sp.inner)
			d := all.Clone()
			d.Values[k] = whole
			d.InvalidParams = true
			return invalid{name: paramMistakeName(p, why.Path, kind.what), why: why, param: true, from: d,
				keywords: kind.keywords, mutate: unchanged}, true
		}
	}
	return invalid{}, false
}

// joinPath writes a parameter's key with a path within its value, as
// the operation's decoder names violations: query.ids[0], query.filter.max.
func joinPath(k, inner string) string {
	switch {
	case inner == "":
		return k
	case inner[0] == '[':
		return k + inner
	}
	return k + "." + inner
}

// paramMistakeName names a parameter's negative, with the parameter's
// style where it is not the one its place has by default: "wrong type
// of parameter query.limit", "parameter query.filter.max out of range
// (deepObject)".
func paramMistakeName(p *openapi.Param, path, what string) string {
	var name string
	switch what {
	case "wrong type":
		name = "wrong type of parameter " + path
	case "outside its enum":
		name = "value of parameter " + path + " outside its enum"
	default:
		name = "parameter " + path + " " + what
	}
	if st := styleName(p); st != "" {
		name += " (" + st + ")"
	}
	return name
}

// styleName is p's style as a negative's name shows it: "" for the
// default of its place (form, exploded, in a query or cookie; simple,
// not exploded, in a path or header), else the style, with ", exploded"
// or ", not exploded" where that is not the style's default.
func styleName(p *openapi.Param) string {
	style := p.Style
	def := "simple"
	if p.In == "query" || p.In == "cookie" {
		def = "form"
	}
	if style == "" {
		style = def
	}
	explode := style == "form"
	if p.Explode != nil {
		explode = *p.Explode
	}
	switch {
	case style == def && explode == (style == "form"):
		return ""
	case explode == (style == "form"):
		return style
	case explode:
		return style + ", exploded"
	}
	return style + ", not exploded"
}

// bodyItemMistakes are the invalid bodies made from c's by changing the
// first item of an array of scalars (an array of strings with a
// pattern, of numbers with bounds), at the top level or nested, for
// each kind of mistake; each checked with the engine's validator as
// nestedMistakes checks its own.
func bodyItemMistakes(c *exercise.Call) []invalid {
	if c.Media == nil || !openapi.IsJSON(c.Media.Type) || c.Media.Schema == nil {
		return nil
	}
	s := c.Media.Schema
	kinds := paramKinds()
	// In JSON a string item can be of the wrong type too.
	kinds[0].make = func(s *openapi.Schema, _ any, _ string) []any {
		if len(s.Types) == 0 {
			return nil
		}
		var out []any
		for _, v := range []any{"not-a-" + s.Types[0], json.Number("12345"), true, map[string]any{}} {
			if !s.Is(typeOf(v)) && !(typeOf(v) == "integer" && s.Is("number")) {
				out = append(out, v)
			}
		}
		return out
	}
	var out []invalid
	for _, kind := range kinds {
		for _, it := range scalarItems(c.Body, s, nil, 0) {
			name := fmt.Sprint(it.at[len(it.at)-2])
			done := false
			for _, bad := range kind.make(it.schema, valueAtPath(c.Body, it.at), name) {
				body := jsonx.Clone(c.Body)
				arr, _ := valueAtPath(body, it.at[:len(it.at)-1]).([]any)
				if len(arr) == 0 {
					break
				}
				arr[0] = bad
				why, ok := brokenAt(s.ValidateRequest(body), pathName(it.at), kind.keywords)
				if !ok {
					continue
				}
				out = append(out, replaceBody(itemMistakeName(pathName(it.at), kind.what), body, why))
				done = true
				break
			}
			if done {
				break
			}
		}
	}
	return out
}

func itemMistakeName(path, what string) string {
	switch what {
	case "wrong type":
		return "wrong type of " + path + " (a scalar array item)"
	case "outside its enum":
		return "value of " + path + " outside its enum (a scalar array item)"
	}
	return "item " + path + " " + what + " (a scalar array item)"
}

// scalarItem is the first item of an array of scalars in a body: where
// it is (the last key 0) and its schema.
type scalarItem struct {
	at     []any
	schema *openapi.Schema
}

// scalarItems lists the first items of the arrays of scalars in v, whose
// schema is s, depth first in document order, below objects and the
// first items of arrays of objects (readOnly properties aside).
func scalarItems(v any, s *openapi.Schema, at []any, n int) []scalarItem {
	if s == nil || n > maxDepth {
		return nil
	}
	var out []scalarItem
	switch x := v.(type) {
	case map[string]any:
		for _, p := range s.Properties {
			pv, has := x[p.Name]
			if !has || p.Schema == nil || p.Schema.ReadOnly {
				continue
			}
			out = append(out, scalarItems(pv, p.Schema, append(slices.Clip(at), p.Name), n+1)...)
		}
	case []any:
		if len(x) == 0 || s.Items == nil || len(at) == 0 {
			break
		}
		switch x[0].(type) {
		case map[string]any, []any:
			out = append(out, scalarItems(x[0], s.Items, append(slices.Clip(at), 0), n+1)...)
		case nil:
		default:
			out = append(out, scalarItem{at: append(slices.Clip(at), 0), schema: s.Items})
		}
	}
	return out
}
