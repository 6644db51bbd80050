package verify

import (
	"context"
	"fmt"
	"net/http"

	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// updateSeed sets the updates' values apart from the create's.
const updateSeed = 0x0bda7e

// updated sends op, the sequence's replace (PUT) or merge (PATCH), nil
// for none, to the item it with a valid JSON body, then reads the item
// back: the read must answer each property the update sent (compare),
// where a merge's objects may hold more than it sent. The body carries
// the item's identifier where it declares the property the create's
// took it from. ok is false when a step failed, which ends the
// sequence.
func (r *runner) updated(ctx context.Context, seq sequence, op *openapi.Operation, it *created, seed uint64) (ok bool, err error) {
	if op == nil {
		return true, nil
	}
	uc, err := r.addressed(op, pathParam(op, seq.param.Name), it, seed^updateSeed)
	if err != nil || uc.Media == nil || !openapi.IsJSON(uc.Media.Type) {
		return true, nil // the positive checks said why, or a body compare cannot read
	}
	agree(uc)
	sameIdentifier(uc, it, seq.param.Name)
	if op.Method == http.MethodPatch {
		withoutNulls(uc)
	}
	req, body, err := r.prepare(uc)
	if err != nil {
		return true, nil
	}
	s, err := r.send(ctx, op, "stateful", op.Method+" after create", req, body, func(s *sent) []*Failure {
		out := r.judgePositive(uc)(s)
		if code := s.resp.StatusCode; code > 299 && code < 500 && code != http.StatusBadRequest && code != http.StatusUnprocessableEntity {
			out = append(out, &Failure{Rule: "state", Text: fmt.Sprintf("a valid %s of the item just created (%s) was refused with %d: %s", op.Method, it.id, code, oneLine(string(s.answer), 200))})
		}
		return out
	})
	if err != nil || s == nil || s.err != nil || s.resp.StatusCode > 299 {
		return false, err
	}
	got, err := r.readBack(ctx, seq, it, seed, "read after "+op.Method, patchedAs(uc, success(seq.read)))
	return err == nil && got != nil && got.err == nil && got.resp.StatusCode <= 299, err
}

// patchedAs is c as a read-back compares it: for a JSON Patch of adds
// (see exercise.PatchedValues), a call whose body is the values it set
// and whose schema is the item's, item; c itself otherwise.
func patchedAs(c *exercise.Call, item *openapi.Schema) *exercise.Call {
	values, ok := exercise.PatchedValues(c.Body)
	if !ok || item == nil {
		return c
	}
	cp := *c
	cp.Body = values
	cp.Media = &openapi.Media{Type: "application/json", Schema: item}
	return &cp
}

// sameIdentifier sets the properties of c's body that name the item it
// (its property named as the read's parameter, or id) to the values the
// create's answer or request gave them, where c's schema declares them
// writable and the body stays valid: an update that names another item
// in its body may rightly be refused.
func sameIdentifier(c *exercise.Call, it *created, name string) {
	obj, ok := c.Body.(map[string]any)
	if !ok || c.Media.Schema == nil {
		return
	}
	answer, _ := decode(it.sent.answer).(map[string]any)
	request, _ := it.call.Body.(map[string]any)
	for _, n := range []string{name, "id"} {
		ps := c.Media.Schema.Property(n)
		if ps == nil || ps.ReadOnly {
			continue
		}
		v, has := answer[n]
		if !has {
			v, has = request[n]
		}
		if !has {
			continue
		}
		old, had := obj[n]
		obj[n] = v
		if len(c.Media.Schema.ValidateRequest(obj)) > 0 {
			if had {
				obj[n] = old
			} else {
				delete(obj, n)
			}
		}
	}
}

// withoutNulls takes the nulls out of the top level of a merge's body,
// where it stays valid: a null in a merge patch removes the property,
// which a read then rightly leaves out.
func withoutNulls(c *exercise.Call) {
	obj, ok := c.Body.(map[string]any)
	if !ok || c.Media.Schema == nil {
		return
	}
	for k, v := range obj {
		if v != nil {
			continue
		}
		delete(obj, k)
		if len(c.Media.Schema.ValidateRequest(obj)) > 0 {
			obj[k] = nil
		}
	}
}
