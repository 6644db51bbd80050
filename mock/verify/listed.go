package verify

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// maxPage is the page size a list is asked for where its page-size
// parameter declares no maximum.
const maxPage = 1000

// listed lists the collection of the item it, where the sequence has a
// list, and looks for the item in the answer: an array, or the array of
// an envelope the mock recognises too (openapi.EnvelopeProperty). A list
// that pages is asked for its largest page (its page-size parameter at
// its maximum, else 1000); one that pages without a size it can be
// asked for is not sent, as the item may be on any page.
func (r *runner) listed(ctx context.Context, seq sequence, it *created, seed uint64) error {
	if seq.list == nil || seq.create.Body.JSON() == nil {
		return nil
	}
	lc, err := r.call(seq.list, seed)
	if err != nil {
		return nil // the positive checks said why
	}
	size := -1
	if pg := seq.list.Paging(); pg != nil {
		p := param(seq.list, "query", pg.Size)
		if p == nil {
			return nil
		}
		n, ok := largest(p.Schema)
		if !ok {
			return nil
		}
		size = n
		lc.Values["query."+pg.Size] = json.Number(strconv.Itoa(n))
		for _, o := range []string{pg.Offset, pg.Page, pg.Cursor} {
			delete(lc.Values, "query."+o) // the first page
		}
	}
	req, body, err := r.prepare(lc)
	if err != nil {
		return nil
	}
	_, err = r.send(ctx, seq.list, "stateful", "list after create", req, body, func(s *sent) []*Failure {
		out := r.judgePositive(lc)(s)
		return append(out, missing(seq, it, s, size)...)
	})
	return err
}

// missing is the failure of a list answer that does not hold the item
// it: none of its items has the item's identifier as its property named
// as the read's parameter, or id. An answer that says nothing either
// way is not judged: a refusal, a list that is neither an array nor a
// recognised envelope, a full page (size items, or the schema's
// maxItems), items without identifiers.
func missing(seq sequence, it *created, s *sent, size int) []*Failure {
	code := s.resp.StatusCode
	resp := seq.list.Response(code)
	if code < 200 || code > 299 || resp == nil || resp.JSON() == nil || resp.JSON().Schema == nil {
		return nil
	}
	schema, v := resp.JSON().Schema, decode(s.answer)
	if !schema.Is("array") {
		prop := openapi.EnvelopeProperty(schema, seq.create.Body.JSON().Schema, true)
		obj, _ := v.(map[string]any)
		if prop == "" || obj == nil {
			return nil
		}
		schema, v = schema.Property(prop), obj[prop]
	}
	items, ok := v.([]any)
	if !ok || size >= 0 && len(items) >= size || schema.MaxItems != nil && int64(len(items)) >= *schema.MaxItems {
		return nil
	}
	identified := false
	for _, item := range items {
		obj, _ := item.(map[string]any)
		for _, n := range []string{seq.param.Name, "id"} {
			if x, has := obj[n]; has {
				identified = true
				if text, ok := scalarText(x); ok && text == it.id {
					return nil
				}
				break
			}
		}
	}
	if !identified && len(items) > 0 {
		return nil
	}
	return []*Failure{{Rule: "state", Text: fmt.Sprintf("the list does not hold the item just created (%s %s): it has %d items, none of them it", seq.param.Name, it.id, len(items)), Schema: schema.Where()}}
}

// largest returns the largest page size s allows, at most maxPage.
func largest(s *openapi.Schema) (int, bool) {
	n := float64(maxPage)
	if s != nil && s.Maximum != nil && *s.Maximum < n {
		n = math.Floor(*s.Maximum)
		if s.ExclusiveMaximum && n == *s.Maximum {
			n--
		}
	}
	if n < 1 || s != nil && len(s.Validate(json.Number(strconv.Itoa(int(n))))) > 0 {
		return 0, false
	}
	return int(n), true
}

// param returns op's parameter in in named name, or nil.
func param(op *openapi.Operation, in, name string) *openapi.Param {
	for i := range op.Params {
		if p := &op.Params[i]; p.In == in && p.Name == name {
			return p
		}
	}
	return nil
}

// scalarText returns a string or a number as text.
func scalarText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	}
	return "", false
}
