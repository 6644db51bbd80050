package answer

import (
	"errors"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/media"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// canned answers an operation that keeps no state: with the document's
// example for the success response when it has one that conforms, else
// with data generated from the response schema, else a sample of the
// media type.
func (s *Answerer) canned(x *Turn) (Outcome, *problem.Problem) {
	pl := x.Plan
	if x.Offer == nil {
		return Outcome{Body: nil}, nil
	}
	if pl.example != nil && x.firstOffer() && x.kind == media.JSON {
		return Outcome{Body: pl.example}, nil
	}
	body, p := s.Body(x, "", false)
	if p != nil {
		return Outcome{}, p
	}
	return Outcome{Body: body}, nil
}

// Body makes an answer body in the exchange's media type: the named
// example, else (unless dynamic) the media type's example where it
// conforms, else data generated from its schema, else a sample of the
// media type.
func (s *Answerer) Body(x *Turn, named string, dynamic bool) ([]byte, *problem.Problem) {
	m := x.Media()
	schema := m.Schema
	if named != "" {
		ex := m.Examples[named]
		if x.kind == media.JSON || !isString(ex) {
			if vs := schema.Validate(ex); len(vs) > 0 {
				return nil, problem.Internal("example %s of %s does not match its schema: %s", named, m.Type, vs[0])
			}
		}
		return s.encodeExample(x, ex, schema)
	}
	if !dynamic && m.HasExample && (x.kind != media.JSON && isString(m.Example) || schema.Validate(m.Example) == nil) {
		return s.encodeExample(x, m.Example, schema)
	}
	if schema == nil || x.kind == media.Binary {
		return media.Sample(x.CT, schema), nil
	}
	v, p := generateValue(x.budget(s), schema, x.Fake(s), x.Note)
	if p != nil {
		return nil, p
	}
	if e := x.Offer.made; e != nil {
		v = s.agree(x, e, v)
	}
	return s.encode(x, schema.WithoutWriteOnly(v), schema)
}

// encodeExample writes an example in the exchange's media type; an
// example of a non-JSON type written as a string is the body itself (an
// XML document, a CSV table).
func (s *Answerer) encodeExample(x *Turn, ex any, schema *openapi.Schema) ([]byte, *problem.Problem) {
	if str, ok := ex.(string); ok && x.kind != media.JSON {
		return []byte(str), nil
	}
	return s.encode(x, ex, schema)
}

// encode writes a JSON value in the exchange's media type.
func (s *Answerer) encode(x *Turn, v any, schema *openapi.Schema) ([]byte, *problem.Problem) {
	if x.kind == media.JSON {
		return jsonx.Append(make([]byte, 0, 256), v), nil
	}
	b, err := media.Encode(x.CT, v, schema)
	if errors.Is(err, media.ErrUnwritable) {
		return media.Sample(x.CT, schema), nil
	}
	if err != nil {
		return nil, problem.Internal("the answer cannot be written as %s: %v", x.CT, err)
	}
	return b, nil
}

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}

// generateTries is how many values generateValue makes before it gives
// up. A oneOf whose branches overlap (OpenAI's conversation items) is
// missed by about one generated value in six, as the branch drawn may
// match a sibling too: with 3 tries, 1 of 200 reads of a conversation
// item answered 500; with 8, none of 2,000. A schema every value
// fits takes one try, so only such schemas pay.
const generateTries = 8

// generateValue makes up a value that matches schema, trying a few times,
// within budget m. Where no try matches (a schema no value satisfies, as
// the start-up warnings say of the ones load can tell), the first try is
// the answer: the closest to the schema there is, in the status the
// operation declares, rather than a 500 it may not declare; note says
// so for the journal. Without a note (a value to be stored, which every
// later answer is checked against) and where the budget runs out, it is
// a problem.
func generateValue(m *gen.Meter, schema *openapi.Schema, faker *gofakeit.Faker, note func(string, ...any)) (any, *problem.Problem) {
	var first any
	var why openapi.Violation
	for try := 0; try < generateTries; try++ {
		v, err := gen.Within(m, schema, faker)
		if err != nil {
			return nil, notGenerated(err)
		}
		vs := schema.Validate(v)
		if len(vs) == 0 {
			return v, nil
		}
		if try == 0 {
			first, why = v, vs[0]
		}
	}
	if note == nil {
		return nil, notGenerated(why)
	}
	note("answered with generated data that breaks the schema: %s: no value that fits could be made", why)
	return first, nil
}

// notGenerated is the problem of an answer whose data could not be
// generated: why is a violation of the last try, or the budget that
// ran out (gen.ExceededError).
func notGenerated(why any) *problem.Problem {
	return problem.Internal("could not generate data that matches the response schema: %s", why)
}
