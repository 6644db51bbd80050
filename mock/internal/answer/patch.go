package answer

import (
	"errors"
	"maps"
	"mime"
	"slices"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// jsonPatchType is the media type of a JSON Patch (RFC 6902).
const jsonPatchType = "application/json-patch+json"

// patch is the body of a PATCH, as it changes a resource: a merge patch
// (RFC 7396), or a JSON Patch (RFC 6902).
type patch struct {
	merge map[string]any  // the merge patch, readOnly properties taken out; nil for a JSON Patch
	ops   jsonpatch.Patch // the JSON Patch; nil for a merge patch
}

// sets reports whether the patch sets the value at a violation's path
// ("name", "config.url", "tags[2]") to a value its operation's schema
// checked (see broken): a merge patch's values but null. No schema of
// the resource checked what a JSON Patch sets: all it breaks counts.
func (p patch) sets(path string) bool { return p.merge != nil && setBy(p.merge, path) }

// patchOf returns the patch x's body is, as its media type says; false
// when it is none: a merge patch that is no object, or a JSON Patch that
// is no list of operations.
func patchOf(x *Turn) (patch, bool) {
	mt, _, _ := mime.ParseMediaType(x.R.Header.Get("Content-Type"))
	if strings.EqualFold(mt, jsonPatchType) {
		ops, err := jsonpatch.DecodePatch(jsonx.Marshal(x.Body))
		if err != nil {
			return patch{}, false
		}
		ops = slices.DeleteFunc(ops, func(op jsonpatch.Operation) bool {
			if name := x.Plan.Col.readOnlyTarget(op); name != "" {
				x.Note("ignored readOnly %s", name)
				return true
			}
			return false
		})
		return patch{ops: ops}, true
	}
	obj, _ := x.Body.(map[string]any)
	if obj == nil {
		return patch{}, false
	}
	if m := x.Plan.Op.Body.Media(strings.ToLower(mt)); m != nil && m.Schema != nil {
		v, dropped := m.Schema.WithoutReadOnly(obj)
		for _, d := range dropped {
			x.Note("ignored readOnly %s", d)
		}
		obj = v.(map[string]any)
	}
	return patch{merge: obj}, true
}

// readOnlyTarget returns the readOnly property (of the create schema or
// of the item as answered) that a JSON Patch operation would change: its
// path's, or a move's from's, first segment; "" for none. A client may
// not set a readOnly property with a JSON Patch, as with a merge patch.
func (c *collection) readOnlyTarget(op jsonpatch.Operation) string {
	if op.Kind() == "test" {
		return ""
	}
	var paths []string
	if to, err := op.Path(); err == nil {
		paths = append(paths, to)
	}
	if op.Kind() == "move" {
		if from, err := op.From(); err == nil {
			paths = append(paths, from)
		}
	}
	for _, ptr := range paths {
		first, _, _ := strings.Cut(strings.TrimPrefix(ptr, "/"), "/")
		name := strings.ReplaceAll(strings.ReplaceAll(first, "~1", "/"), "~0", "~")
		for _, s := range []*openapi.Schema{c.Schema, c.item} {
			if p := s.Property(name); p != nil && p.ReadOnly {
				return name
			}
		}
	}
	return ""
}

// jsonPatchOptions are RFC 6902's: no negative indexes (a library's own
// extension), and a bound on what copy operations may add, so that a
// small patch cannot copy a resource into one of 2^n times its size.
var jsonPatchOptions = func() *jsonpatch.ApplyOptions {
	o := jsonpatch.NewApplyOptions()
	o.SupportNegativeIndices = false
	o.AccumulatedCopySizeLimit = 1 << 20
	return o
}()

// apply returns a copy of cur with the patch applied, or nil and why it
// cannot be (a JSON Patch whose test fails or whose path leads nowhere,
// or one that makes the resource no object).
func (p patch) apply(cur map[string]any) (map[string]any, *problem.Problem) {
	if p.ops == nil {
		return mergePatch(jsonx.Clone(cur).(map[string]any), p.merge), nil
	}
	out, err := p.ops.ApplyWithOptions(jsonx.Marshal(cur), jsonPatchOptions)
	if err != nil {
		return nil, unapplied(err)
	}
	v, err := jsonx.Decode(out)
	obj, _ := v.(map[string]any)
	if err != nil || obj == nil {
		return nil, problem.Invalid(problem.CodeSchema, problem.ClassSchema, "the JSON Patch cannot be applied: it makes the resource no object")
	}
	return obj, nil
}

// unapplied is the problem of a JSON Patch that cannot be applied.
func unapplied(err error) *problem.Problem {
	why := err.Error()
	switch {
	case errors.Is(err, jsonpatch.ErrTestFailed):
		why = "a test operation failed"
	case errors.Is(err, jsonpatch.ErrMissing):
		why = "a path names nothing in the resource"
	}
	return problem.Invalid(problem.CodeSchema, problem.ClassSchema, "the JSON Patch cannot be applied: %s", why)
}

// unmixed returns merged, a resource a merge patch made whose
// violations of the create schema are vs, with each of its top-level
// objects that the merge made wrong (a property of one alternative of a
// oneOf merged into another's: adyen's bank account identification,
// whose type the patch changes) replaced by the patch's object whole,
// where that object fits: the patch names the object it means, and RFC
// 7396's field-by-field merge of two alternatives is neither. It
// returns the violations left; the journal notes each replacement.
func (c *collection) unmixed(x *Turn, merged, patch map[string]any, vs []openapi.Violation) (map[string]any, []openapi.Violation) {
	for k, pv := range patch {
		obj, ok := pv.(map[string]any)
		within := func(v openapi.Violation) bool { return v.Within(k) }
		if !ok || !slices.ContainsFunc(vs, within) {
			continue
		}
		try := maps.Clone(merged)
		try[k] = jsonx.Clone(obj)
		if tvs := c.violations(try); !slices.ContainsFunc(tvs, within) {
			x.Note("replaced %s whole: merged into what was stored, it would not fit the schema", k)
			merged, vs = try, tvs
		}
	}
	return merged, vs
}

// violations returns where a stored resource breaks the create schema,
// as a client would send it (without its readOnly properties, nor an
// identifier the mock assigns); nil without a create schema.
func (c *collection) violations(res map[string]any) []openapi.Violation {
	if c.Schema == nil {
		return nil
	}
	probe, _ := c.Schema.WithoutReadOnly(res)
	if m, ok := probe.(map[string]any); ok && c.assigned {
		m = maps.Clone(m)
		delete(m, c.IdProp)
		probe = m
	}
	return c.Schema.ValidateRequest(probe)
}

// broken returns the violations of a patched resource (after) that the
// patch is to blame for: those the resource did not have before it,
// but for those of a value the patch sets, which the operation's own
// schema let it set (GitHub's PATCH of a team takes a permission its
// create does not). What is left is what the patch removed (a null for
// a required property, RFC 7396) or made wrong around what it set.
func broken(after, before []openapi.Violation, p patch) []openapi.Violation {
	var out []openapi.Violation
	for _, v := range after {
		if slices.ContainsFunc(before, func(b openapi.Violation) bool { return b.Path == v.Path && b.Reason == v.Reason }) || p.sets(v.Path) {
			continue
		}
		out = append(out, v)
	}
	return out
}

// setBy reports whether a merge patch sets the value at path (a
// violation's: "name", "config.url", "tags[2]") to something other
// than null: the value, or one of the objects or arrays it is in.
func setBy(patch map[string]any, path string) bool {
	var at any = patch
	for path != "" {
		m, ok := at.(map[string]any)
		if !ok {
			return at != nil // an array or a value the patch sets whole
		}
		name := path
		if i := strings.IndexAny(path, ".["); i >= 0 {
			name, path = path[:i], strings.TrimPrefix(path[i:], ".")
		} else {
			path = ""
		}
		if at, ok = m[name]; !ok || at == nil {
			return false
		}
	}
	return at != nil
}

// mergePatch applies an RFC 7396 JSON merge patch to target, in place.
func mergePatch(target, patch map[string]any) map[string]any {
	for k, pv := range patch {
		if pv == nil {
			delete(target, k)
			continue
		}
		if pm, ok := pv.(map[string]any); ok {
			tm, _ := target[k].(map[string]any)
			if tm == nil {
				tm = map[string]any{}
			}
			target[k] = mergePatch(tm, pm)
			continue
		}
		target[k] = pv
	}
	return target
}
