package answer

import (
	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// maxCompleteDepth bounds how deep complete goes into a resource.
const maxCompleteDepth = 32

// complete fills in what a created resource lacks for the answer's schema,
// as a real server does: required properties the request did not give
// (creation times, URLs, counters) are made up from their schemas, and
// values of the wrong shape are replaced. The completed resource is what
// is stored, so that later reads answer the same. A resource that already
// fits is returned as it is.
//
// Values are made within budget m; once it has run out the resource is
// returned as it is, and m's Err says why.
func complete(obj map[string]any, answer *openapi.Schema, f *gofakeit.Faker, m *gen.Meter) map[string]any {
	if answer == nil || len(answer.Validate(Project(obj, answer))) == 0 {
		return obj
	}
	fill(obj, answer, f, m, 0)
	if m.Err() != nil || len(answer.Validate(Project(obj, answer))) == 0 {
		return obj
	}
	// The answer schema is not one fill can follow (an anyOf of objects,
	// say): start from a made-up answer and keep each of the request's
	// properties that it can take.
	made, err := gen.Within(m, answer, f)
	g, ok := made.(map[string]any)
	if err != nil || !ok || len(answer.Validate(g)) > 0 {
		return obj
	}
	for k, v := range obj {
		old, had := g[k]
		g[k] = v
		if len(answer.Validate(Project(g, answer))) > 0 {
			if had {
				g[k] = old
			} else {
				delete(g, k)
			}
		}
	}
	return g
}

// fill completes v in place where it can (objects and arrays) and returns
// what should stand in its place.
func fill(v any, s *openapi.Schema, f *gofakeit.Faker, m *gen.Meter, depth int) any {
	if s == nil || depth > maxCompleteDepth || m.Err() != nil {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		if len(s.Properties) == 0 {
			break
		}
		for _, p := range s.Properties {
			pv, ok := x[p.Name]
			switch {
			case !ok && s.Requires(p.Name):
				x[p.Name], _ = gen.Within(m, p.Schema, f)
			case ok && p.Schema != nil && len(p.Schema.Validate(pv)) > 0:
				x[p.Name] = fill(pv, p.Schema, f, m, depth+1)
			}
		}
		return x
	case []any:
		if s.Items == nil {
			break
		}
		for i, e := range x {
			if len(s.Items.Validate(e)) > 0 {
				x[i] = fill(e, s.Items, f, m, depth+1)
			}
		}
		return x
	}
	if len(s.Validate(v)) > 0 {
		made, _ := gen.Within(m, s, f)
		return made
	}
	return v
}
