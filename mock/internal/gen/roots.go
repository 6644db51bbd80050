package gen

import (
	"maps"
	"slices"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// AnswerRoots returns the schemas answers are generated from, the roots
// Oversized and Unmatched look from: the component schemas, by name,
// then those of the operations' responses (their default last), in the
// document's order.
func AnswerRoots(doc *openapi.Document) []*openapi.Schema {
	var out []*openapi.Schema
	for _, name := range slices.Sorted(maps.Keys(doc.Schemas)) {
		out = append(out, doc.Schemas[name])
	}
	for _, op := range doc.Operations {
		for _, r := range op.Responses {
			for _, m := range r.Content {
				out = append(out, m.Schema)
			}
		}
		if op.Default != nil {
			for _, m := range op.Default.Content {
				out = append(out, m.Schema)
			}
		}
	}
	return out
}
