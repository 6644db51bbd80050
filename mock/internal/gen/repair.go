package gen

import (
	"slices"
	"strconv"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// maxRepairKeys bounds the objects whose properties repair takes out one
// by one.
const maxRepairKeys = 16

// repair tries to make v, which breaks w with violations vs, satisfy w by
// taking properties out of its objects: first those the violations point
// at, then each property of v in turn (a property that an alternative,
// unevaluatedProperties or a dependentSchemas refuses, say). It works on
// a copy, and returns it and whether it now satisfies w; else v and
// false.
func (g *gen) repair(w *want, v any, vs []openapi.Violation) (any, bool) {
	if !container(v) || g.checks <= 0 {
		return v, false
	}
	c := clone(v)
	cut := false
	for _, x := range vs {
		cut = cutAt(c, x.Path) || cut
	}
	if cut {
		if ok, _ := g.check(w, c); ok {
			return c, true
		}
	}
	m, ok := c.(map[string]any)
	if !ok || len(m) > maxRepairKeys {
		return v, false
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i := len(keys) - 1; i >= 0 && g.checks > 0; i-- {
		k := keys[i]
		kv := m[k]
		delete(m, k)
		if ok, _ := g.check(w, m); ok {
			return m, true
		}
		m[k] = kv
	}
	return v, false
}

// container reports whether v is an object or an array.
func container(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// clone returns a deep copy of a JSON value's objects and arrays.
func clone(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = clone(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = clone(e)
		}
		return out
	}
	return v
}

// cutAt takes out the property a violation's path ("owner.name",
// "tags[2].id") points at, where its parent is an object; it reports
// whether it did.
func cutAt(v any, path string) bool {
	segs := split(path)
	if len(segs) == 0 {
		return false
	}
	for _, s := range segs[:len(segs)-1] {
		switch x := v.(type) {
		case map[string]any:
			v = x[s]
		case []any:
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(x) {
				return false
			}
			v = x[i]
		default:
			return false
		}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	last := segs[len(segs)-1]
	if _, has := m[last]; !has {
		return false
	}
	delete(m, last)
	return true
}

// split splits a violation's path into property names and indexes.
func split(path string) []string {
	var out []string
	for _, part := range strings.Split(path, ".") {
		for part != "" {
			i := strings.IndexByte(part, '[')
			if i < 0 {
				out = append(out, part)
				break
			}
			if i > 0 {
				out = append(out, part[:i])
			}
			j := strings.IndexByte(part[i:], ']')
			if j < 0 {
				return nil
			}
			out = append(out, part[i+1:i+j])
			part = part[i+j+1:]
		}
	}
	return out
}
