package cases

import (
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// keywords30 are the draft 4 keywords that the OpenAPI 3.0 Schema Object
// keeps, with the same meaning, and whose values are not schemas.
var keywords30 = map[string]bool{
	"title": true, "description": true, "format": true, "default": true,
	"multipleOf": true, "maximum": true, "exclusiveMaximum": true,
	"minimum": true, "exclusiveMinimum": true, "maxLength": true,
	"minLength": true, "pattern": true, "maxItems": true, "minItems": true,
	"uniqueItems": true, "maxProperties": true, "minProperties": true,
	"required": true, "enum": true,
}

// notNameChar matches a character OpenAPI 3.0 does not allow in the name
// of a component.
var notNameChar = regexp.MustCompile(`[^a-zA-Z0-9._-]`)

// prepare4 makes the component schemas of the document for a draft 4
// group: the schema as Case and each of its root definitions as
// Case_<name>, with every "#..." reference rewritten to point into
// components/schemas. It returns why the group is skipped instead, if it
// uses what the OpenAPI 3.0 Schema Object lacks: the reasons, sorted.
func prepare4(schema any) (map[string]any, []string) {
	root, ok := schema.(map[string]any)
	if !ok {
		return nil, []string{"a schema that is not an object"}
	}
	c := &converter{names: map[string]string{}}
	defs := map[string]any{}
	if d, ok := root["definitions"]; ok {
		if defs, ok = d.(map[string]any); !ok {
			c.unsupported("definitions that are not an object")
		}
		taken := map[string]bool{}
		for name := range defs {
			comp := "Case_" + notNameChar.ReplaceAllString(name, "_")
			if taken[comp] {
				c.unsupported("definitions whose names collide as component names")
			}
			taken[comp] = true
			c.names[name] = comp
		}
	}
	out := map[string]any{"Case": c.convert(root, true)}
	for name, def := range defs {
		out[c.names[name]] = c.convert(def, false)
	}
	if len(c.reasons) > 0 {
		return nil, slices.Sorted(maps.Keys(c.reasons))
	}
	return out, nil
}

// converter rewrites one draft 4 schema into OpenAPI 3.0 Schema Objects.
type converter struct {
	names   map[string]string // root definition name -> component name
	reasons map[string]bool   // what the schema uses that 3.0 lacks
}

func (c *converter) unsupported(reason string) {
	if c.reasons == nil {
		c.reasons = map[string]bool{}
	}
	c.reasons[reason] = true
}

// convert returns s as an OpenAPI 3.0 Schema Object, noting anything 3.0
// lacks; root says whether s is the group's schema (whose definitions
// become components).
func (c *converter) convert(s any, root bool) any {
	obj, ok := s.(map[string]any)
	if !ok {
		c.unsupported("a schema that is not an object")
		return s
	}
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		switch {
		case keywords30[k]:
			out[k] = v
		case k == "definitions" && root: // become components
		case k == "$comment": // a comment of later drafts, of no effect in draft 4
		case k == "definitions":
			c.unsupported("definitions below the root")
		case k == "$ref":
			out[k] = c.ref(v)
		case k == "type":
			if t, ok := v.(string); !ok {
				c.unsupported("type array")
			} else if t == "null" {
				c.unsupported("type null") // 3.0 has nullable instead
			}
			out[k] = v
		case k == "items":
			if _, ok := v.([]any); ok {
				c.unsupported("items array")
			} else {
				out[k] = c.convert(v, false)
			}
		case k == "additionalProperties":
			if b, ok := v.(bool); ok {
				out[k] = b
			} else {
				out[k] = c.convert(v, false)
			}
		case k == "not":
			out[k] = c.convert(v, false)
		case k == "allOf" || k == "anyOf" || k == "oneOf":
			vs, _ := v.([]any)
			subs := make([]any, len(vs))
			for i, sub := range vs {
				subs[i] = c.convert(sub, false)
			}
			out[k] = subs
		case k == "properties":
			m, _ := v.(map[string]any)
			props := make(map[string]any, len(m))
			for name, sub := range m {
				props[name] = c.convert(sub, false)
			}
			out[k] = props
		default:
			c.unsupported("keyword " + k)
		}
	}
	return out
}

// ref rewrites a "#..." reference of the group's schema to the same place
// in components/schemas; any other reference needs a remote document.
func (c *converter) ref(v any) any {
	s, _ := v.(string)
	u, err := url.Parse(s)
	if err != nil || !strings.HasPrefix(s, "#") {
		c.unsupported("remote ref")
		return v
	}
	tokens := []string{} // of the JSON pointer in the fragment
	if u.Fragment != "" {
		if !strings.HasPrefix(u.Fragment, "/") {
			c.unsupported("ref to a location-independent identifier")
			return v
		}
		for _, t := range strings.Split(u.Fragment[1:], "/") {
			tokens = append(tokens, strings.NewReplacer("~1", "/", "~0", "~").Replace(t))
		}
	}
	comp := "Case"
	if len(tokens) > 0 && tokens[0] == "definitions" {
		if len(tokens) < 2 || c.names[tokens[1]] == "" {
			c.unsupported("ref to no definition")
			return v
		}
		comp, tokens = c.names[tokens[1]], tokens[2:]
	}
	ptr := "/components/schemas/" + comp
	for _, t := range tokens {
		ptr += "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(t)
	}
	return "#" + (&url.URL{Fragment: ptr}).EscapedFragment()
}
