package mock

import (
	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// canned answers an operation that keeps no state: with the document's
// example for the success response when it has one that conforms, else
// with data generated from the response schema.
func (s *Server) canned(x *exchange) *problem {
	pl := x.plan
	if pl.example != nil || pl.successMedia == nil || pl.successMedia.Schema == nil {
		s.writeBody(x, pl.example)
		return nil
	}
	v, p := generateValue(pl.successMedia.Schema, x.fake(s))
	if p != nil {
		return p
	}
	s.writeBody(x, jsonx.Marshal(v))
	return nil
}

// generateValue makes up a value that matches schema, trying a few times.
func generateValue(schema *openapi.Schema, faker *gofakeit.Faker) (any, *problem) {
	var vs []openapi.Violation
	for try := 0; try < 3; try++ {
		v := gen.Value(schema, faker)
		if vs = schema.Validate(v); len(vs) == 0 {
			return v, nil
		}
	}
	return nil, internal("could not generate data that matches the response schema: %s", vs[0])
}
