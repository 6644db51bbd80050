package openapi

import (
	"slices"
	"strconv"
)

// readOnly and writeOnly (OAS 3.0 4.7.25, kept by 3.1 for its documents):
// a readOnly property is sent by servers only, a writeOnly one by clients
// only. What a client sends as readOnly is not kept, and what it sends as
// writeOnly is kept but never answered. Validation's half of the rule (a
// required readOnly property is required in responses only) is in
// Validate and ValidateRequest.

// maxStripDepth bounds how deep WithoutReadOnly and WithoutWriteOnly go
// into a value.
const maxStripDepth = 64

// WithoutReadOnly returns v without the properties s declares readOnly, at
// any depth (through properties, items and the alternatives of anyOf and
// oneOf), and where each left-out property was ("id", "items[0].created").
// v is not changed: what changes is copied.
func (s *Schema) WithoutReadOnly(v any) (any, []string) {
	var dropped []string
	out, _ := strip(v, s, func(p *Schema) bool { return p.ReadOnly }, "", 0, &dropped)
	slices.Sort(dropped)
	return out, dropped
}

// WithoutWriteOnly returns v without the properties s declares writeOnly,
// at any depth, as WithoutReadOnly does for readOnly ones.
func (s *Schema) WithoutWriteOnly(v any) any {
	out, _ := strip(v, s, func(p *Schema) bool { return p.WriteOnly }, "", 0, nil)
	return out
}

// HasWriteOnly reports whether s declares a writeOnly property anywhere
// WithoutWriteOnly looks.
func (s *Schema) HasWriteOnly() bool {
	return s.declares(func(p *Schema) bool { return p.WriteOnly }, map[*Schema]bool{})
}

// HasReadOnly reports whether s declares a readOnly property anywhere
// WithoutReadOnly looks.
func (s *Schema) HasReadOnly() bool {
	return s.declares(func(p *Schema) bool { return p.ReadOnly }, map[*Schema]bool{})
}

func (s *Schema) declares(drop func(*Schema) bool, seen map[*Schema]bool) bool {
	if s == nil || seen[s] {
		return false
	}
	seen[s] = true
	for _, p := range s.Properties {
		if p.Schema != nil && (drop(p.Schema) || p.Schema.declares(drop, seen)) {
			return true
		}
	}
	if s.Items.declares(drop, seen) {
		return true
	}
	for _, a := range s.AnyOf {
		if a.declares(drop, seen) {
			return true
		}
	}
	return false
}

// strip returns v without the properties drop picks, and whether that
// differs from v; what it changes is copied. dropped, when not nil, gets
// the paths of what was left out.
func strip(v any, s *Schema, drop func(*Schema) bool, path string, depth int, dropped *[]string) (any, bool) {
	if s == nil || depth > maxStripDepth {
		return v, false
	}
	switch x := v.(type) {
	case map[string]any:
		var out map[string]any // the copy, once something changes
		for k, pv := range x {
			ps, gone := propertyOf(s, k, drop, 0)
			var nv any
			if !gone {
				if ps == nil {
					continue
				}
				var changed bool
				if nv, changed = strip(pv, ps, drop, join(path, k), depth+1, dropped); !changed {
					continue
				}
			}
			if out == nil {
				out = make(map[string]any, len(x))
				for k2, v2 := range x {
					out[k2] = v2
				}
			}
			if gone {
				delete(out, k)
				if dropped != nil {
					*dropped = append(*dropped, join(path, k))
				}
			} else {
				out[k] = nv
			}
		}
		if out == nil {
			return x, false
		}
		return out, true
	case []any:
		items := s.Items
		for _, a := range s.AnyOf {
			if items != nil {
				break
			}
			items = a.Items
		}
		if items == nil {
			return x, false
		}
		var out []any
		for i, e := range x {
			ne, changed := strip(e, items, drop, path+"["+strconv.Itoa(i)+"]", depth+1, dropped)
			if !changed {
				continue
			}
			if out == nil {
				out = append([]any(nil), x...)
			}
			out[i] = ne
		}
		if out == nil {
			return x, false
		}
		return out, true
	}
	return v, false
}

// propertyOf finds the schema of property k in s or its alternatives;
// gone is true when one of them declares it as drop picks.
func propertyOf(s *Schema, k string, drop func(*Schema) bool, depth int) (ps *Schema, gone bool) {
	if s == nil || depth > maxStripDepth {
		return nil, false
	}
	if p := s.Property(k); p != nil {
		if drop(p) {
			return p, true
		}
		ps = p
	}
	for _, a := range s.AnyOf {
		ap, g := propertyOf(a, k, drop, depth+1)
		if g {
			return ap, true
		}
		if ps == nil {
			ps = ap
		}
	}
	return ps, false
}

// join appends a property name to a path.
func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}
