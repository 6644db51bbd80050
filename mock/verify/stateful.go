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
// the list (GET /things), the replace (PUT /things/{id}), the merge
// (PATCH /things/{id}) and the delete (DELETE /things/{id}).
type sequence struct {
	create, read                 *openapi.Operation
	list, replace, merge, remove *openapi.Operation
	param                        *openapi.Param // the read's identifier
}

// sequences finds the collections of ops whose items can be created
// and read. Every step is an operation that declares a success (see
// canStep): one that declares only refusals (a create with only 405)
// cannot be held to succeeding.
func sequences(ops []*openapi.Operation) []sequence {
	var out []sequence
	for _, c := range ops {
		if c.Method != http.MethodPost || c.Body == nil || c.Body.JSON() == nil || !canStep(c) {
			continue
		}
		seq := sequence{create: c}
		for _, o := range ops {
			if o.Method == http.MethodGet && o.Path == c.Path {
				seq.list = o
				continue
			}
			dir, last := path.Split(o.Path)
			if strings.TrimSuffix(dir, "/") != strings.TrimSuffix(c.Path, "/") || !strings.HasPrefix(last, "{") || !strings.HasSuffix(last, "}") || !canStep(o) {
				continue
			}
			switch o.Method {
			case http.MethodGet:
				seq.read = o
				seq.param = pathParam(o, last[1:len(last)-1])
			case http.MethodPut:
				seq.replace = o
			case http.MethodPatch:
				seq.merge = o
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

// canStep reports whether op can be a step of a sequence: it declares a
// success, a 2xx status, 2XX, or default (which stands for every status
// not listed). A redirect is no success here: the step's item is not in
// its answer.
func canStep(op *openapi.Operation) bool {
	code, r := op.Success()
	return r != nil && code >= 200 && code <= 299
}

func pathParam(op *openapi.Operation, name string) *openapi.Param { return param(op, "path", name) }

// stateful runs the sequence of each collection of ops: create an item;
// read it back and compare (readOnly and writeOnly properties aside);
// find it in the list; create it again where the client chooses its
// identifier, which must be refused; replace it and merge into it,
// reading it back after each; delete it, and read it again, which must
// be refused with the declared not-found. A step that fails ends its
// sequence, but for the list and the repeated create, which change
// nothing the later steps need.
func (r *runner) stateful(ctx context.Context, ops []*openapi.Operation) error {
	for i, seq := range sequences(ops) {
		if err := r.sequence(ctx, seq, r.opts.Seed*0x9e3779b97f4a7c15+sequenceSeed+uint64(i)); err != nil {
			return err
		}
	}
	return nil
}

// created is an item a sequence made: the create's call and answer, and
// its identifier.
type created struct {
	call *exercise.Call
	sent *sent
	id   string
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
	s, err := r.send(ctx, seq.create, "stateful", "create", req, body, func(s *sent) []*Failure {
		out := r.judgePositive(c)(s)
		if code := s.resp.StatusCode; code > 299 && code < 500 && code != http.StatusBadRequest && code != http.StatusUnprocessableEntity {
			out = append(out, &Failure{Rule: "state", Text: fmt.Sprintf("a valid create was refused with %d: %s", code, oneLine(string(s.answer), 200))})
		}
		return out
	})
	if err != nil || s == nil || s.err != nil || s.resp.StatusCode > 299 {
		return err
	}
	it := &created{call: c, sent: s, id: r.linked(seq, s, c)}
	if it.id == "" {
		it.id = identifier(s, c, seq.param.Name)
	}
	if it.id == "" {
		r.rep.Unmade = append(r.rep.Unmade, fmt.Sprintf("%s: stateful: no identifier of the created item in a link, Location, the answer or the request (%s)", seq.create.Name, seq.param.Name))
		return nil
	}
	got, err := r.readBack(ctx, seq, it, seed, "read after create", c)
	if err != nil || got == nil || got.err != nil || got.resp.StatusCode > 299 {
		return err
	}
	if err := r.listed(ctx, seq, it, seed); err != nil {
		return err
	}
	if err := r.repeated(ctx, seq, it); err != nil {
		return err
	}
	for _, up := range []*openapi.Operation{seq.replace, seq.merge} {
		ok, err := r.updated(ctx, seq, up, it, seed)
		if err != nil || !ok {
			return err
		}
	}
	return r.removed(ctx, seq, it, seed)
}

// readBack reads the item it and compares the answer with what c, the
// create or the update before, sent; writeOnly values c sent must not
// come back.
func (r *runner) readBack(ctx context.Context, seq sequence, it *created, seed uint64, name string, c *exercise.Call) (*sent, error) {
	return r.readItem(ctx, seq, it, seed, name, func(rc *exercise.Call) func(*sent) []*Failure {
		return func(s *sent) []*Failure {
			out := r.judgePositive(rc)(s)
			out = append(out, leaks(seq.read, c, s)...)
			return append(out, compare(seq.read, c, s)...)
		}
	})
}

// readItem sends the read of the item it, judged by judge.
func (r *runner) readItem(ctx context.Context, seq sequence, it *created, seed uint64, name string, judge func(*exercise.Call) func(*sent) []*Failure) (*sent, error) {
	rc, err := r.addressed(seq.read, seq.param, it.id, seed)
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

// removed deletes the item it, where the sequence has a delete, and
// reads it again: the read must get the declared 404, else a 4xx.
func (r *runner) removed(ctx context.Context, seq sequence, it *created, seed uint64) error {
	if seq.remove == nil {
		return nil
	}
	dc, err := r.addressed(seq.remove, pathParam(seq.remove, seq.param.Name), it.id, seed)
	if err != nil {
		r.rep.Unmade = append(r.rep.Unmade, "stateful: "+err.Error())
		return nil
	}
	req, body, err := r.prepare(dc)
	if err != nil {
		return nil
	}
	id := it.id
	s, err := r.send(ctx, seq.remove, "stateful", "delete after create", req, body, func(s *sent) []*Failure {
		out := r.judgePositive(dc)(s)
		if s.resp.StatusCode > 299 {
			out = append(out, &Failure{Rule: "state", Text: fmt.Sprintf("the delete of the item just created (%s) answered %d", id, s.resp.StatusCode)})
		}
		return out
	})
	if err != nil || s == nil || s.err != nil || s.resp.StatusCode > 299 {
		return err
	}
	_, err = r.readItem(ctx, seq, it, seed, "read after delete", func(rc *exercise.Call) func(*sent) []*Failure {
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

// linked is the created item's identifier as a link of the create's
// answer gives it: the value of the read's identifier parameter (by its
// name, or "path." and its name) in a link whose target is the read, a
// runtime expression evaluated over the create and its answer, or a
// constant; "" when no link gives one.
func (r *runner) linked(seq sequence, s *sent, c *exercise.Call) string {
	resp := seq.create.Response(s.resp.StatusCode)
	if resp == nil {
		return ""
	}
	x := openapi.Exchange{
		URL:         s.req.URL.String,
		Method:      s.req.Method,
		Status:      s.resp.StatusCode,
		Request:     s.req,
		Path:        r.pathValue(s.req),
		RequestBody: func() any { return c.Body },
		Header:      s.resp.Header,
		Body:        func() any { return decode(s.answer) },
	}
	name := seq.param.Name
	for _, lk := range resp.Links {
		if r.doc.LinkTarget(lk) != seq.read {
			continue
		}
		v, has := lk.Parameters[name]
		if !has {
			v, has = lk.Parameters["path."+name]
		}
		text, ok := v.(string)
		switch {
		case !has:
		case ok && strings.HasPrefix(strings.TrimSpace(text), "$"):
			if id, err := openapi.Evaluate(text, x); err == nil {
				return id
			}
		default:
			if id, ok := scalarText(v); ok && id != "" {
				return id
			}
		}
	}
	return ""
}

// pathValue returns what a request's path parameters were written as,
// by name.
func (r *runner) pathValue(req *http.Request) func(string) (string, bool) {
	return func(name string) (string, bool) {
		route, raw := r.doc.Router().Find(strings.TrimPrefix(req.URL.EscapedPath(), r.prefix))
		if route == nil {
			return "", false
		}
		for i, p := range route.Params {
			if p == name && i < len(raw) {
				return raw[i], true
			}
		}
		return "", false
	}
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
			if text, ok := scalarText(obj[n]); ok {
				return text
			}
		}
	}
	return ""
}

// compare returns where a read's answer disagrees with the body c sent
// (by a create, or an update): each property sent that the read's
// schema declares, neither readOnly nor writeOnly, must be answered
// with the value sent (as agrees compares them). All the properties that disagree are one
// failure, whose schema pointer is the first's: one read that
// disagrees is one problem.
func compare(read *openapi.Operation, c *exercise.Call, s *sent) []*Failure {
	what, verb := "the item just created", "created"
	if c.Op.Method != http.MethodPost {
		what, verb = "the item just updated", "updated by "+c.Op.Method
	}
	code := s.resp.StatusCode
	if code < 200 || code > 299 {
		return []*Failure{{Rule: "state", Text: fmt.Sprintf("the read of %s answered %d", what, code)}}
	}
	resp := read.Response(code)
	sentBody, _ := c.Body.(map[string]any)
	got, _ := decode(s.answer).(map[string]any)
	if resp == nil || resp.JSON() == nil || resp.JSON().Schema == nil || sentBody == nil || got == nil || c.Media == nil || c.Media.Schema == nil {
		return nil
	}
	rs := resp.JSON().Schema
	var texts []string
	where := ""
	for _, p := range c.Media.Schema.Properties {
		v, has := sentBody[p.Name]
		ps := rs.Property(p.Name)
		if !has || ps == nil || ps.ReadOnly || ps.WriteOnly || p.Schema == nil || p.Schema.ReadOnly || p.Schema.WriteOnly {
			continue
		}
		g, has := got[p.Name]
		switch {
		case !has:
			texts = append(texts, fmt.Sprintf("no %s; it was %s with %s", p.Name, verb, oneLine(string(mustJSON(v)), 100)))
		case !agrees(g, v, c.Op.Method == http.MethodPatch):
			texts = append(texts, fmt.Sprintf("%s %s; it was %s with %s", p.Name, oneLine(string(mustJSON(g)), 100), verb, oneLine(string(mustJSON(v)), 100)))
		default:
			continue
		}
		if where == "" {
			where = ps.Where()
		}
	}
	if len(texts) == 0 {
		return nil
	}
	return []*Failure{{Rule: "state", Text: fmt.Sprintf("the read of %s has %s", what, strings.Join(texts, "; ")), Schema: where}}
}

// agrees reports whether got, a property's value as read, is what was
// sent; after a merge (merge true), an object read may hold more than
// the object sent, as a merge patch changes only what it names, and a
// null sent means a property left out (RFC 7396).
func agrees(got, sent any, merge bool) bool {
	g, gok := got.(map[string]any)
	s, sok := sent.(map[string]any)
	if !merge || !gok || !sok {
		return same(got, sent)
	}
	for k, sv := range s {
		gv, has := g[k]
		switch {
		case sv == nil:
			if has && gv != nil {
				return false
			}
		case !has || !agrees(gv, sv, true):
			return false
		}
	}
	return true
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
