package exercise

import (
	"mime"
	"slices"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// jsonPatchMediaType is RFC 6902's media type.
const jsonPatchMediaType = "application/json-patch+json"

// jsonPatch makes, for a body of media type m that is a JSON Patch (RFC
// 6902), one a client would send: an "add" of each property of a value
// of the item the operation answers with (its first JSON success
// answer's schema), readOnly ones left out, which sets the property
// whether or not the item has it. A patch generated from the patch's
// own schema names paths and values at random, which a service rightly
// refuses. false where m is no JSON Patch, the operation answers no
// object, or the patch breaks m's schema.
func jsonPatch(op *openapi.Operation, m *openapi.Media, seed uint64) ([]any, bool) {
	if mt, _, err := mime.ParseMediaType(m.Type); err != nil || mt != jsonPatchMediaType {
		return nil, false
	}
	var item *openapi.Schema
	for _, r := range op.Responses {
		if r.Code >= 200 && r.Code <= 299 && r.JSON() != nil && r.JSON().Schema != nil {
			item = r.JSON().Schema
			break
		}
	}
	if item == nil {
		return nil, false
	}
	v, vs := generate(item, seed, 0x7a7c4, true)
	obj, ok := v.(map[string]any)
	if len(vs) > 0 || !ok || len(obj) == 0 {
		return nil, false
	}
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	slices.Sort(names)
	ops := make([]any, 0, len(names))
	for _, k := range names {
		ops = append(ops, map[string]any{"op": "add", "path": "/" + openapi.PointerToken(k), "value": obj[k]})
	}
	if m.Schema != nil && len(m.Schema.ValidateRequest(ops)) > 0 {
		return nil, false
	}
	return ops, true
}

// PatchedValues returns what a JSON Patch made by jsonPatch sets: the
// value of each top-level property it adds or replaces, by name; false
// for a body that is no such patch.
func PatchedValues(body any) (map[string]any, bool) {
	ops, ok := body.([]any)
	if !ok || len(ops) == 0 {
		return nil, false
	}
	out := map[string]any{}
	for _, o := range ops {
		op, _ := o.(map[string]any)
		path, _ := op["path"].(string)
		kind, _ := op["op"].(string)
		name, top := strings.CutPrefix(path, "/")
		if !top || strings.Contains(name, "/") || kind != "add" && kind != "replace" {
			return nil, false
		}
		out[strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~")] = op["value"]
	}
	return out, true
}
