package answer

import (
	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// madeListOf returns the envelope of a list answer that is made up from
// its schema rather than read from a store: an object with one array
// property beside paging fields that metaFields recognises (has_more,
// next, a cursor, a total). It returns nil for any other schema. A
// canned list needs no resource schema to be told: the array is the
// only one.
func madeListOf(s *openapi.Schema) *envelope {
	if s == nil || !s.Is("object") {
		return nil
	}
	prop := ""
	for _, p := range s.Properties {
		if p.Schema != nil && p.Schema.Is("array") {
			if prop != "" {
				return nil // two lists: which one the fields speak of is not told
			}
			prop = p.Name
		}
	}
	if prop == "" {
		return nil
	}
	meta := metaFields(s, prop)
	if len(meta) == 0 {
		return nil
	}
	return &envelope{schema: s, Prop: prop, inner: s.Property(prop), Meta: meta}
}

// agree makes the paging fields of a made-up list v, of envelope e, say
// what its items do: the items made are all there is, so no page
// follows (has_more false, next and cursor null or left out where the
// schema lets them be) and the total is their count. An empty list that
// said has_more: true sent an SDK's pager round for ever. Where the
// fields so set break the schema (a total with a minimum), v is kept as
// it was made.
func (s *Answerer) agree(x *Turn, e *envelope, v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	items, _ := m[e.Prop].([]any)
	out, _ := jsonx.Clone(m).(map[string]any)
	s.fillMeta(x, e, out, listPage{total: len(items)})
	if len(e.schema.Validate(out)) > 0 {
		return v
	}
	return out
}
