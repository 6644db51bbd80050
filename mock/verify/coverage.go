package verify

import (
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// coverage remembers what the run exercised: the operations answered,
// the declared responses answers were judged by, the request media types
// valid requests were sent in.
type coverage struct {
	ops       map[*openapi.Operation]bool
	responses map[*openapi.Response]bool
	media     map[*openapi.Media]bool
}

func newCoverage() coverage {
	return coverage{ops: map[*openapi.Operation]bool{}, responses: map[*openapi.Response]bool{}, media: map[*openapi.Media]bool{}}
}

// answered counts an answer of op with status.
func (c coverage) answered(op *openapi.Operation, status int) {
	c.ops[op] = true
	if r := op.Response(status); r != nil {
		c.responses[r] = true
	}
}

// sentIn counts a valid request sent in media type m.
func (c coverage) sentIn(m *openapi.Media) {
	if m != nil {
		c.media[m] = true
	}
}

// count is the coverage of ops.
func (c coverage) count(ops []*openapi.Operation) Coverage {
	var out Coverage
	out.OperationsDeclared = len(ops)
	for _, op := range ops {
		if c.ops[op] {
			out.Operations++
		}
		all := op.Responses
		if op.Default != nil {
			all = append(all[:len(all):len(all)], op.Default)
		}
		for _, r := range all {
			out.StatusesDeclared++
			if c.responses[r] {
				out.Statuses++
			}
		}
		if op.Body != nil {
			for _, m := range op.Body.Content {
				out.MediaTypesDeclared++
				if c.media[m] {
					out.MediaTypes++
				}
			}
		}
	}
	return out
}
