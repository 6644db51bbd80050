package exercise

import (
	"slices"
	"unicode/utf8"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// maxSmaller bounds the calls Smaller returns, so that a large body
// does not make a long list no caller will send.
const maxSmaller = 64

// Smaller returns calls one step smaller than c, each still valid (the
// body satisfies its schema and reads back as valid; parameters are
// checked when Request writes them), in this order: c with every
// optional parameter and top-level body property left out at once;
// then each optional parameter left out; each optional body property
// left out, at any depth; each string (a parameter's, or in the body)
// cut to half its length, and each array to half its items, not below
// minLength or minItems. Path parameters are kept (another value
// addresses another thing), and so is a stream's body. It returns none
// when nothing can be made smaller; c is not changed.
func (c *Call) Smaller() []*Call {
	var out []*Call
	add := func(d *Call) {
		if len(out) < maxSmaller {
			out = append(out, d)
		}
	}
	if d := c.bare(); d != nil {
		add(d)
	}
	var cuts []*Call
	for i := range c.Op.Params {
		p := &c.Op.Params[i]
		v, has := c.Values[key(p)]
		if !has || p.In == "path" {
			continue
		}
		if !p.Required {
			d := c.Clone()
			delete(d.Values, key(p))
			add(d)
		}
		s := p.Schema
		if p.Content != nil {
			s = p.Content.Schema
		}
		if w, ok := halved(v, s); ok {
			d := c.Clone()
			d.Values[key(p)] = w
			cuts = append(cuts, d)
		}
	}
	if c.Media != nil && c.Media.Schema != nil && !c.Media.Itemized() {
		var es []edit
		edits(c.Body, c.Media.Schema, nil, &es)
		for _, drop := range []bool{true, false} {
			for _, e := range es {
				if e.drop != drop {
					continue
				}
				v := e.apply(jsonx.Clone(c.Body))
				if len(c.Media.Schema.ValidateRequest(v)) > 0 || readsBack(c.Media, v, c.seed) != "" {
					continue
				}
				d := c.Clone()
				d.Body = v
				if drop {
					add(d)
				} else {
					cuts = append(cuts, d)
				}
			}
		}
	}
	for _, d := range cuts {
		add(d)
	}
	return out
}

// bare is c with every optional parameter (path ones aside) and every
// optional top-level property of its body left out, nil when that
// leaves nothing out or the body is then invalid.
func (c *Call) bare() *Call {
	d := c.Clone()
	less := false
	for i := range c.Op.Params {
		p := &c.Op.Params[i]
		if _, has := d.Values[key(p)]; has && !p.Required && p.In != "path" {
			delete(d.Values, key(p))
			less = true
		}
	}
	if obj, ok := d.Body.(map[string]any); ok && d.Media != nil && d.Media.Schema != nil && !d.Media.Itemized() {
		kept := map[string]any{}
		for k, v := range obj {
			if d.Media.Schema.Requires(k) {
				kept[k] = v
			}
		}
		if len(kept) < len(obj) && len(d.Media.Schema.ValidateRequest(kept)) == 0 && readsBack(d.Media, kept, c.seed) == "" {
			d.Body = kept
			less = true
		}
	}
	if !less {
		return nil
	}
	return d
}

// edit is one step that makes a body smaller: the value at path (of
// property names and item indexes) left out (drop, a property), or
// replaced by value (a string or an array halved).
type edit struct {
	path  []any
	drop  bool
	value any
}

// apply makes the edit in root, a copy of the body, and returns it.
func (e edit) apply(root any) any {
	if len(e.path) == 0 {
		return e.value
	}
	parent := root
	for _, k := range e.path[:len(e.path)-1] {
		switch k := k.(type) {
		case string:
			parent = parent.(map[string]any)[k]
		case int:
			parent = parent.([]any)[k]
		}
	}
	switch k := e.path[len(e.path)-1].(type) {
	case string:
		if e.drop {
			delete(parent.(map[string]any), k)
		} else {
			parent.(map[string]any)[k] = e.value
		}
	case int:
		parent.([]any)[k] = e.value
	}
	return root
}

// edits appends to es the edits of v, a value of schema s at path: each
// optional property left out, each string and array halved, at any
// depth (down to 8).
func edits(v any, s *openapi.Schema, path []any, es *[]edit) {
	if len(path) > 8 {
		return
	}
	if w, ok := halved(v, s); ok {
		*es = append(*es, edit{path: path, value: w})
	}
	if s == nil {
		return
	}
	at := func(k any) []any { return append(slices.Clip(path), k) }
	switch x := v.(type) {
	case map[string]any:
		for _, k := range names(x) {
			if !s.Requires(k) {
				*es = append(*es, edit{path: at(k), drop: true})
			}
			edits(x[k], s.Property(k), at(k), es)
		}
	case []any:
		for i := range x {
			edits(x[i], s.Items, at(i), es)
		}
	}
}

// halved is v, a string or an array, cut to half its length (of
// characters, or items), not below s's minLength or minItems; false
// when it cannot be cut, or the cut value breaks s.
func halved(v any, s *openapi.Schema) (any, bool) {
	var w any
	switch x := v.(type) {
	case string:
		n := utf8.RuneCountInString(x)
		l := n / 2
		if s != nil && s.MinLength != nil && int64(l) < *s.MinLength {
			l = int(*s.MinLength)
		}
		if l >= n {
			return nil, false
		}
		w = string([]rune(x)[:l])
	case []any:
		l := len(x) / 2
		if s != nil && s.MinItems != nil && int64(l) < *s.MinItems {
			l = int(*s.MinItems)
		}
		if l >= len(x) {
			return nil, false
		}
		w = jsonx.Clone(x[:l])
	default:
		return nil, false
	}
	if s != nil && len(s.ValidateRequest(w)) > 0 {
		return nil, false
	}
	return w, true
}
