package verify

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// sequenceSeed sets the stateful creates' values apart from the
// positive checks', so that their identifiers differ.
const sequenceSeed = 0x5eed5eed

// sequence is a collection whose items can be created and read: the
// create (POST /things), the read (GET /things/{id}) and, when selected,
// the delete (DELETE /things/{id}).
type sequence struct {
	create, read, remove *openapi.Operation
	param                *openapi.Param // the read's identifier
}

// sequences finds the collections of ops whose items can be created
// and read.
func sequences(ops []*openapi.Operation) []sequence {
	var out []sequence
	for _, c := range ops {
		if c.Method != http.MethodPost || c.Body == nil || c.Body.JSON() == nil {
			continue
		}
		seq := sequence{create: c}
		for _, o := range ops {
			dir, last := path.Split(o.Path)
			if strings.TrimSuffix(dir, "/") != strings.TrimSuffix(c.Path, "/") || !strings.HasPrefix(last, "{") || !strings.HasSuffix(last, "}") {
				continue
			}
			switch o.Method {
			case http.MethodGet:
				seq.read = o
				seq.param = pathParam(o, last[1:len(last)-1])
			case http.MethodDelete:
				seq.remove = o
			}
		}
		if seq.read != nil && seq.param != nil {
			out = append(out, seq)
		}
	}
	return out
}

func pathParam(op *openapi.Operation, name string) *openapi.Param {
	for i := range op.Params {
		if p := &op.Params[i]; p.In == "path" && p.Name == name {
			return p
		}
	}
	return nil
}

// stateful runs the sequence of each collection of ops: create an item,
// read it back and compare (readOnly and writeOnly properties aside),
// delete it, read it again, which must be refused with the declared
// not-found. A step that fails ends its sequence.
func (r *runner) stateful(ctx context.Context, ops []*openapi.Operation) error {
	for i, seq := range sequences(ops) {
		if err := r.sequence(ctx, seq, r.opts.Seed*0x9e3779b97f4a7c15+sequenceSeed+uint64(i)); err != nil {
			return err
		}
	}
	return nil
}

func (r *runner) sequence(ctx context.Context, seq sequence, seed uint64) error {
	c, err := r.call(seq.create, seed)
	if err != nil {
		return nil // the positive checks said why
	}
	req, body, err := r.prepare(c)
	if err != nil {
		return nil
	}
	created, err := r.send(ctx, seq.create, "stateful", "create", req, body, func(s *sent) []*Failure {
		out := r.judgePositive(c)(s)
		if code := s.resp.StatusCode; code > 299 && code < 500 && code != http.StatusBadRequest && code != http.StatusUnprocessableEntity {
			out = append(out, &Failure{Rule: "state", Text: fmt.Sprintf("a valid create was refused with %d: %s", code, oneLine(string(s.answer), 200))})
		}
		return out
	})
	if err != nil || created == nil || created.err != nil || created.resp.StatusCode > 299 {
		return err
	}
	id := identifier(created, c, seq.param.Name)
	if id == "" {
		r.rep.Unmade = append(r.rep.Unmade, fmt.Sprintf("%s: stateful: no identifier of the created item in Location, the answer or the request (%s)", seq.create.Name, seq.param.Name))
		return nil
	}
	read := func(name string, judge func(*exercise.Call) func(*sent) []*Failure) (*sent, error) {
		rc, err := r.addressed(seq.read, seq.param, id, seed)
		if err != nil {
			r.rep.Unmade = append(r.rep.Unmade, "stateful: "+err.Error())
			return nil, nil
		}
		req, body, err := r.prepare(rc)
		if err != nil {
			r.rep.Unmade = append(r.rep.Unmade, "stateful: "+err.Error())
			return nil, nil
		}
		return r.send(ctx, seq.read, "stateful", name, req, body, judge(rc))
	}
	got, err := read("read after create", func(rc *exercise.Call) func(*sent) []*Failure {
		return func(s *sent) []*Failure {
			out := r.judgePositive(rc)(s)
			out = append(out, leaks(seq.read, c, s)...)
			return append(out, compare(seq.read, c, s)...)
		}
	})
	if err != nil || got == nil || got.err != nil || got.resp.StatusCode > 299 || seq.remove == nil {
		return err
	}
	dc, err := r.addressed(seq.remove, pathParam(seq.remove, seq.param.Name), id, seed)
	if err != nil {
		r.rep.Unmade = append(r.rep.Unmade, "stateful: "+err.Error())
		return nil
	}
	if req, body, err = r.prepare(dc); err != nil {
		return nil
	}
	removed, err := r.send(ctx, seq.remove, "stateful", "delete after create", req, body, func(s *sent) []*Failure {
		out := r.judgePositive(dc)(s)
		if s.resp.StatusCode > 299 {
			out = append(out, &Failure{Rule: "state", Text: fmt.Sprintf("the delete of the item just created (%s) answered %d", id, s.resp.StatusCode)})
		}
		return out
	})
	if err != nil || removed == nil || removed.err != nil || removed.resp.StatusCode > 299 {
		return err
	}
	_, err = read("read after delete", func(rc *exercise.Call) func(*sent) []*Failure {
		return func(s *sent) []*Failure {
			out := r.judgePositive(rc)(s)
			code := s.resp.StatusCode
			switch {
			case seq.read.Declares(http.StatusNotFound) && code != http.StatusNotFound:
				out = append(out, &Failure{Rule: "state", Text: fmt.Sprintf("the read of a deleted item (%s) answered %d, not the declared 404", id, code)})
			case code < 400 || code > 499:
				out = append(out, &Failure{Rule: "state", Text: fmt.Sprintf("the read of a deleted item (%s) answered %d, not a 4xx", id, code)})
			}
			return out
		}
	})
	return err
}

// addressed is a valid call of op with its identifier parameter p set
// to id.
func (r *runner) addressed(op *openapi.Operation, p *openapi.Param, id string, seed uint64) (*exercise.Call, error) {
	if p == nil {
		return nil, &exercise.Error{Op: op.Name, Reason: "no identifier parameter"}
	}
	c, err := exercise.Make(op, seed)
	if err != nil {
		return nil, err
	}
	var v any = id
	if p.Schema != nil && (p.Schema.Is("integer") || p.Schema.Is("number")) && !p.Schema.Is("string") {
		v = json.Number(id)
	}
	c.Values[p.In+"."+p.Name] = v
	return c, nil
}

// identifier is the created item's identifier: the last segment of the
// Location header, else the answer's property named as the read's
// parameter (or "id"), else the request's.
func identifier(s *sent, c *exercise.Call, name string) string {
	if loc := s.resp.Header.Get("Location"); loc != "" {
		if u, err := url.Parse(loc); err == nil {
			if seg := path.Base(u.Path); seg != "." && seg != "/" && seg != "" {
				return seg
			}
		}
	}
	answer, _ := decode(s.answer).(map[string]any)
	sentBody, _ := c.Body.(map[string]any)
	for _, obj := range []map[string]any{answer, sentBody} {
		for _, n := range []string{name, "id"} {
			switch v := obj[n].(type) {
			case string:
				return v
			case json.Number:
				return v.String()
			}
		}
	}
	return ""
}

// compare lists where a read's answer disagrees with the body c
// created: each property sent that the read's schema declares, neither
// readOnly nor writeOnly, must be answered with the value sent.
func compare(read *openapi.Operation, c *exercise.Call, s *sent) []*Failure {
	code := s.resp.StatusCode
	if code < 200 || code > 299 {
		return []*Failure{{Rule: "state", Text: fmt.Sprintf("the read of the item just created answered %d", code)}}
	}
	resp := read.Response(code)
	sentBody, _ := c.Body.(map[string]any)
	got, _ := decode(s.answer).(map[string]any)
	if resp == nil || resp.JSON() == nil || resp.JSON().Schema == nil || sentBody == nil || got == nil || c.Media == nil {
		return nil
	}
	rs := resp.JSON().Schema
	var out []*Failure
	for _, p := range c.Media.Schema.Properties {
		v, has := sentBody[p.Name]
		ps := rs.Property(p.Name)
		if !has || ps == nil || ps.ReadOnly || ps.WriteOnly || p.Schema == nil || p.Schema.ReadOnly || p.Schema.WriteOnly {
			continue
		}
		g, has := got[p.Name]
		switch {
		case !has:
			out = append(out, &Failure{Rule: "state", Text: fmt.Sprintf("the read of the item just created has no %s; it was created with %s", p.Name, oneLine(string(mustJSON(v)), 100)), Schema: ps.Where()})
		case !same(g, v):
			out = append(out, &Failure{Rule: "state", Text: fmt.Sprintf("the read of the item just created has %s %s; it was created with %s", p.Name, oneLine(string(mustJSON(g)), 100), oneLine(string(mustJSON(v)), 100)), Schema: ps.Where()})
		}
	}
	return out
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
