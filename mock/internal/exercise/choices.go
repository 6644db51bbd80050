package exercise

import (
	"fmt"
	"strings"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Lengths beyond these are not chosen: a string of maxLength 1 MiB or an
// array of 10,000 items says little more of a service than the lower
// bound does, and costs a large request.
const (
	maxChosenLength = 1024
	maxChosenItems  = 100
)

// A Choice is a value a caller may send in place of the one Make chose,
// to cover what the document allows: an anyOf or oneOf alternative of
// the body or of one of its top-level properties, an enum value of a
// parameter or of a top-level property, or a string or an array at one
// of its length bounds. Choices are made once from a call; On puts one
// into any call of the same operation.
type Choice struct {
	// Name says what is chosen: "alternative body 2/3 Cat",
	// `enum kind="seed"`, "maxLength query.q=64".
	Name  string
	key   string         // "body", "body.NAME" for a property, else a parameter's key
	media *openapi.Media // the body's media type, for body choices
	value any
}

// Choices returns the choices of c's operation, in this order (within
// each kind, one of each parameter or property in turn): the
// alternatives of the body and of each top-level body property; each
// enum value of each parameter and top-level body property (a one-item
// array for an array of enum values); the lengths at the bounds of each
// string and array parameter (but path ones) and top-level body
// property: minLength, maxLength, minItems, maxItems, those up to 1024
// characters or 100 items. Body choices are made for a JSON body only,
// readOnly properties left out. Each value satisfies its own schema;
// On checks the body it lands in. c is not changed.
func (c *Call) Choices() []Choice {
	var alts, enums, lengths [][]Choice // by parameter or property
	obj, isObj := c.Body.(map[string]any)
	jsonBody := c.Media != nil && c.Media.Schema != nil && openapi.IsJSON(c.Media.Type)
	if jsonBody {
		s := c.Media.Schema
		alts = append(alts, c.alternatives("body", "body", s, 1))
		if isObj {
			for i, p := range s.Properties {
				if p.Schema == nil || p.Schema.ReadOnly {
					continue
				}
				alts = append(alts, c.alternatives(p.Name, "body."+p.Name, p.Schema, uint64(i+2)))
			}
		}
	}
	for i := range c.Op.Params {
		p := &c.Op.Params[i]
		if p.Content != nil || p.Schema == nil {
			continue
		}
		k := key(p)
		enums = append(enums, enumChoices(k, k, p.Schema, nil))
		if p.In == "path" {
			continue // an empty or a long segment addresses another resource
		}
		v, has := c.Values[k]
		if !has {
			v, _ = generate(p.Schema, c.seed, uint64(i+1), false)
		}
		lengths = append(lengths, c.lengthChoices(k, k, p.Schema, v, nil, uint64(i+1)))
	}
	if jsonBody && isObj {
		for i, p := range c.Media.Schema.Properties {
			if p.Schema == nil || p.Schema.ReadOnly {
				continue
			}
			enums = append(enums, enumChoices(p.Name, "body."+p.Name, p.Schema, c.Media))
			v, has := obj[p.Name]
			if !has {
				v, _ = generate(p.Schema, c.seed, uint64(i+1)<<16, true)
			}
			lengths = append(lengths, c.lengthChoices(p.Name, "body."+p.Name, p.Schema, v, c.Media, uint64(i+1)<<16))
		}
	}
	return append(append(interleave(alts), interleave(enums)...), interleave(lengths)...)
}

// interleave takes one choice of each group in turn, so that a caller
// that sends only the first few sends some of every group (a long enum
// does not crowd out the others).
func interleave(groups [][]Choice) []Choice {
	var out []Choice
	for i := 0; ; i++ {
		took := false
		for _, g := range groups {
			if i < len(g) {
				out = append(out, g[i])
				took = true
			}
		}
		if !took {
			return out
		}
	}
}

// On returns a copy of c with ch's value in place, and whether it could
// be put there: a body choice needs a body of the media type it was
// made for (an object, for a property's), and the body must still
// satisfy its schema. Parameters are checked when Request writes them.
func (ch Choice) On(c *Call) (*Call, bool) {
	d := c.Clone()
	name, prop := strings.CutPrefix(ch.key, "body.")
	switch {
	case ch.key == "body" || prop:
		if d.Media != ch.media || d.Media == nil || d.Media.Schema == nil {
			return nil, false
		}
		if prop {
			obj, ok := d.Body.(map[string]any)
			if !ok {
				return nil, false
			}
			obj[name] = jsonx.Clone(ch.value)
		} else {
			d.Body = jsonx.Clone(ch.value)
		}
		if len(d.Media.Schema.ValidateRequest(d.Body)) > 0 {
			return nil, false
		}
	default:
		d.Values[ch.key] = jsonx.Clone(ch.value)
	}
	return d, true
}

// alternatives are the choices of one value per anyOf or oneOf
// alternative of s, the schema of what key names (called what in
// names), where it has two or more; n sets their values apart from the
// call's others.
func (c *Call) alternatives(what, key string, s *openapi.Schema, n uint64) []Choice {
	alts := gen.Alternatives(s)
	if len(alts) < 2 {
		return nil
	}
	var out []Choice
	for i, a := range alts {
		for k := uint64(0); k < attempts; k++ {
			f := gen.Faker(c.seed, (n<<8|uint64(i))<<8|k)
			v, ok := gen.Alternative(s, i, f)
			if !ok {
				break // no value takes it: another faker would not help
			}
			v = forRequest(jsonx.Clone(v), s, f, 0)
			if len(s.ValidateRequest(v)) > 0 || len(a.ValidateRequest(v)) > 0 {
				continue
			}
			name := fmt.Sprintf("alternative %s %d/%d", what, i+1, len(alts))
			if a.Name != "" {
				name += " " + a.Name
			}
			out = append(out, Choice{Name: name, key: key, media: c.Media, value: v})
			break
		}
	}
	return out
}

// enumChoices are the choices of each enum value of s, or of an array
// of one item for each enum value of s's items, those that satisfy s.
func enumChoices(what, key string, s *openapi.Schema, m *openapi.Media) []Choice {
	var out []Choice
	switch {
	case len(s.Enum) > 0:
		for _, v := range s.Enum {
			if len(s.Validate(v)) == 0 {
				out = append(out, Choice{Name: fmt.Sprintf("enum %s=%s", what, jsonx.Marshal(v)), key: key, media: m, value: v})
			}
		}
	case s.Is("array") && s.Items != nil && len(s.Items.Enum) > 0:
		for _, v := range s.Items.Enum {
			if a := []any{v}; len(s.Validate(a)) == 0 {
				out = append(out, Choice{Name: fmt.Sprintf("enum %s=[%s]", what, jsonx.Marshal(v)), key: key, media: m, value: a})
			}
		}
	}
	return out
}

// lengthChoices are the choices of v, a valid value of s, made as long
// as each of s's length bounds: a string cut, or its characters
// repeated; an array cut, or added to with items made from s's items
// schema. Those that no longer satisfy s (a pattern or format broken)
// are left out.
func (c *Call) lengthChoices(what, key string, s *openapi.Schema, v any, m *openapi.Media, n uint64) []Choice {
	var out []Choice
	add := func(bound string, want *int64, limit int64, resize func(int) any) {
		if want == nil || *want < 0 || *want > limit {
			return
		}
		w := resize(int(*want))
		if w == nil || len(s.Validate(w)) > 0 {
			return
		}
		out = append(out, Choice{Name: fmt.Sprintf("%s %s=%d", bound, what, *want), key: key, media: m, value: w})
	}
	switch x := v.(type) {
	case string:
		resize := func(l int) any { return resized(x, l) }
		add("minLength", s.MinLength, maxChosenLength, resize)
		add("maxLength", s.MaxLength, maxChosenLength, resize)
	case []any:
		resize := func(l int) any {
			out := make([]any, 0, l)
			out = append(out, x[:min(l, len(x))]...)
			for j := len(out); j < l; j++ {
				if s.Items == nil {
					return nil
				}
				it, vs := generate(s.Items, c.seed, n<<12|uint64(j), m != nil)
				if len(vs) > 0 {
					return nil
				}
				out = append(out, it)
			}
			return out
		}
		add("minItems", s.MinItems, maxChosenItems, resize)
		add("maxItems", s.MaxItems, maxChosenItems, resize)
	}
	return out
}

// resized returns s cut to l characters, or its characters repeated
// until it has l ("a" for an empty s).
func resized(s string, l int) string {
	rs := []rune(s)
	if len(rs) >= l {
		return string(rs[:l])
	}
	if len(rs) == 0 {
		rs = []rune("a")
	}
	out := make([]rune, l)
	for i := range out {
		out[i] = rs[i%len(rs)]
	}
	return string(out)
}
