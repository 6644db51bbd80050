package verify

import (
	"context"
	"fmt"
	"net/http"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// repeated sends the create of the item it again, the same request,
// where the document makes the item's identifier unique: the client
// chooses it, as the create's body requires a property named as the
// read's path parameter, which neither the create's body nor the
// read's answer declares readOnly. Two items cannot have one
// identifier, so the repeat must be refused with a 4xx; where the
// create declares 400, 422, 4XX or default (or 409), in a declared
// status and shape, as for any invalid request. Where it declares no
// status for a conflict (openapi.Operation.Conflict), a repeat that is
// not refused is advice: the document gives the create no way to say
// no.
func (r *runner) repeated(ctx context.Context, seq sequence, it *created) error {
	name, c := seq.param.Name, it.call
	obj, _ := c.Body.(map[string]any)
	v, has := obj[name]
	if !has || c.Media == nil || c.Media.Schema == nil {
		return nil
	}
	ps := c.Media.Schema.Property(name)
	if ps == nil || ps.ReadOnly || !c.Media.Schema.Requires(name) {
		return nil
	}
	if rs := success(seq.read); rs != nil && rs.Property(name) != nil && rs.Property(name).ReadOnly {
		return nil
	}
	req, body, err := r.prepare(c)
	if err != nil {
		return nil
	}
	why := openapi.Violation{Path: name, Reason: fmt.Sprintf("%s %s is the identifier of the item just created", name, jsonx.Marshal(v)), Schema: ps.Where()}
	_, err = r.send(ctx, seq.create, "stateful", "create that repeats an identifier", req, body, func(s *sent) []*Failure {
		if code := s.resp.StatusCode; code < 400 {
			f := &Failure{Rule: "state", Text: fmt.Sprintf("status %d: a create that repeats %s %s, the identifier of the item just created, was not refused", code, name, jsonx.Marshal(v)), Schema: ps.Where()}
			if seq.create.Conflict() == 0 {
				f.Why = whyNoConflict
			}
			return []*Failure{f}
		}
		return r.judgeNegative(seq.create, why, false)(s)
	})
	return err
}

// whyNoConflict is why a repeated create that succeeds is advice where
// the create declares no status for a conflict.
const whyNoConflict = "the create declares no status for a conflict (409, 422, 400, 4XX or default), so the document gives it no way to refuse a repeated identifier"

// success returns the schema of op's first JSON success answer, or nil.
func success(op *openapi.Operation) *openapi.Schema {
	for _, resp := range op.Responses {
		if resp.Code >= http.StatusOK && resp.Code < http.StatusMultipleChoices && resp.JSON() != nil {
			return resp.JSON().Schema
		}
	}
	return nil
}
