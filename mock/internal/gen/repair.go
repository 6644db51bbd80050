package gen

import (
	"slices"
	"strconv"
	"strings"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// maxRepairKeys bounds the objects whose properties repair takes out one
// by one.
const maxRepairKeys = 16

// repair tries to make v, which breaks w with violations vs, satisfy w by
// taking out what the violations point at (properties, and items with
// those after them), then each property of v in turn (a property that
// an alternative, unevaluatedProperties or a dependentSchemas refuses,
// say). It works on
// a copy, and returns it and whether it now satisfies w; else v and
// false.
func (g *gen) repair(w *want, v any, vs []openapi.Violation) (any, bool) {
	if !container(v) || g.checks <= 0 {
		return v, false
	}
	c := jsonx.Clone(v)
	made := false
	for _, x := range vs {
		var ok bool
		c, ok = cutAt(c, x.Path)
		made = made || ok
	}
	if made {
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

// cutAt takes out what a violation's path ("owner.name", "tags[2]")
// points at: a property of an object, or an array's item and those after
// it. It returns the value with the cut made and whether it made one.
func cutAt(v any, path string) (any, bool) {
	return cut(v, split(path))
}

func cut(v any, segs []string) (any, bool) {
	if len(segs) == 0 {
		return v, false
	}
	switch x := v.(type) {
	case map[string]any:
		e, has := x[segs[0]]
		if !has {
			return v, false
		}
		if len(segs) == 1 {
			delete(x, segs[0])
			return x, true
		}
		e, ok := cut(e, segs[1:])
		x[segs[0]] = e
		return x, ok
	case []any:
		i, err := strconv.Atoi(segs[0])
		if err != nil || i < 0 || i >= len(x) {
			return v, false
		}
		if len(segs) == 1 {
			return x[:i], true
		}
		e, ok := cut(x[i], segs[1:])
		x[i] = e
		return x, ok
	}
	return v, false
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
