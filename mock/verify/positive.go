package verify

import (
	"context"
	"encoding/json"
	"math"
	"sort"
	"strconv"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// variant is one request of a check: its name and its call, or the
// choice to put into a call made for it (see positive).
type variant struct {
	name   string
	call   *exercise.Call
	choice *exercise.Choice
	// example is true for a body the document gives, which is not
	// shrunk (see shrink).
	example bool
}

// maxValid bounds the valid requests sent to one operation, so that
// the requests of a run grow with the operations of the document, not
// with the size of their enums and the number of their properties.
// Those past it are left out, in the order positive sends them.
const maxValid = 32

// choiceSeed sets the calls the choices are put into apart from the
// other variants', and from one another.
const choiceSeed = 0xc401ce

// positive sends op's valid requests, c's variants, and judges their
// answers, at most maxValid of them, in this order: each example of
// each request media type, then generated values with only what is
// required, with every property and optional parameter, in each other
// media type, at the bounds of numeric parameters and properties, then
// the choices of exercise.Choices (each anyOf and oneOf alternative,
// each enum value, each length bound). A variant that writes the same
// request as one before it is not sent again. The variants with every
// property are made from another seed than c, and each choice is put
// into a call of its own seed, so that creates do not repeat the
// identifier of the one before. A choice that cannot be put into its
// call, written, or routed to op is left out: it is a value the
// document allows that this request cannot carry.
func (r *runner) positive(ctx context.Context, c *exercise.Call, seed uint64) error {
	op := c.Op
	var vs []variant
	vs = append(vs, examples(c)...)
	vs = append(vs, variant{name: "required only", call: requiredOnly(c)})
	other, err := r.call(op, seed^0xa11)
	if err != nil {
		other = c
	}
	all := other.WithOptional()
	vs = append(vs, variant{name: "all properties", call: all})
	if op.Body != nil {
		for _, m := range op.Body.Content {
			if m == c.Media {
				continue
			}
			d, err := all.InMedia(m)
			if err != nil {
				r.rep.Unmade = append(r.rep.Unmade, err.Error())
				continue
			}
			vs = append(vs, variant{name: "in " + m.Type, call: d})
		}
	}
	vs = append(vs, bounds(all)...)
	for _, ch := range all.Choices() {
		vs = append(vs, variant{name: ch.Name, choice: &ch})
	}
	done := map[string]bool{}
	for j, v := range vs {
		if len(done) >= maxValid {
			break
		}
		if v.choice != nil {
			if v.call = r.chosen(op, v.choice, seed^(choiceSeed+uint64(j))*0x9e3779b97f4a7c15); v.call == nil {
				continue
			}
		}
		req, body, err := r.prepare(v.call)
		if err != nil {
			if v.choice == nil {
				r.rep.Unmade = append(r.rep.Unmade, v.name+": "+err.Error())
			}
			continue
		}
		if other := r.routed(req); v.choice != nil && other != nil && other != op {
			continue // an enum value of a path parameter that names another path
		}
		line := curl(req, body, r.opts.Header)
		if done[line] {
			continue
		}
		done[line] = true
		chk, s, err := r.exchange(ctx, op, "positive", v.name, req, body, r.judgePositive(v.call))
		if err != nil {
			return err
		}
		if s != nil && s.err == nil {
			r.cov.sentIn(v.call.Media)
		}
		r.taken.take(v.call, s)
		if s != nil && !v.example {
			err = r.shrink(ctx, v.call, chk)
		}
		r.rep.add(chk, r.rep.seen)
		if err != nil {
			return err
		}
	}
	return nil
}

// chosen is a valid call of op made from seed, with every optional
// parameter, and ch put into it; nil when ch cannot be put there.
func (r *runner) chosen(op *openapi.Operation, ch *exercise.Choice, seed uint64) *exercise.Call {
	base, err := r.call(op, seed)
	if err != nil {
		return nil
	}
	d, ok := ch.On(base.WithOptional())
	if !ok {
		return nil
	}
	agree(d)
	return d
}

// examples are c with each example of each request media type as its
// body, those that satisfy the schema.
func examples(c *exercise.Call) []variant {
	if c.Op.Body == nil {
		return nil
	}
	var out []variant
	for _, m := range c.Op.Body.Content {
		exs := m.Examples
		if len(exs) == 0 && m.HasExample {
			exs = map[string]any{"": m.Example}
		}
		names := make([]string, 0, len(exs))
		for n := range exs {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			ex := exs[n]
			if m.Schema != nil && len(m.Schema.ValidateRequest(ex)) > 0 {
				continue // a stale example says nothing of the service
			}
			d := c.Clone()
			d.Media, d.Body = m, jsonx.Clone(ex)
			name := "example"
			if n != "" {
				name += " " + n
			}
			if len(c.Op.Body.Content) > 1 {
				name += " in " + m.Type
			}
			out = append(out, variant{name: name, call: d, example: true})
		}
	}
	return out
}

// requiredOnly is c with only the body's required properties (at its
// top level), where that body is still valid.
func requiredOnly(c *exercise.Call) *exercise.Call {
	d := c.Clone()
	obj, ok := d.Body.(map[string]any)
	if !ok || d.Media == nil || d.Media.Schema == nil {
		return d
	}
	s := d.Media.Schema
	less := make(map[string]any, len(obj))
	for k, v := range obj {
		if s.Requires(k) {
			less[k] = v
		}
	}
	if len(s.ValidateRequest(less)) == 0 {
		d.Body = less
	}
	return d
}

// bounds are c with a numeric parameter or top-level body property at
// one of its bounds: its minimum and maximum, or the integers next to
// them when they are exclusive.
func bounds(c *exercise.Call) []variant {
	var out []variant
	for i := range c.Op.Params {
		p := &c.Op.Params[i]
		if p.Content != nil || p.In == "path" {
			continue
		}
		k := p.In + "." + p.Name
		for _, b := range edges(p.Schema) {
			if len(p.Schema.Validate(b)) > 0 {
				continue
			}
			d := c.Clone()
			d.Values[k] = b
			out = append(out, variant{name: "bound " + k + "=" + string(b), call: d})
		}
	}
	obj, ok := c.Body.(map[string]any)
	if !ok || c.Media == nil || c.Media.Schema == nil {
		return out
	}
	for _, p := range c.Media.Schema.Properties {
		if p.Schema == nil || p.Schema.ReadOnly {
			continue
		}
		if _, has := obj[p.Name]; !has {
			continue
		}
		for _, b := range edges(p.Schema) {
			d := c.Clone()
			d.Body.(map[string]any)[p.Name] = b
			if len(c.Media.Schema.ValidateRequest(d.Body)) > 0 {
				continue
			}
			out = append(out, variant{name: "bound " + p.Name + "=" + string(b), call: d})
		}
	}
	return out
}

// edges returns the values at a numeric schema's bounds.
func edges(s *openapi.Schema) []json.Number {
	if s == nil || !s.Is("integer") && !s.Is("number") {
		return nil
	}
	integer := !s.Is("number")
	var out []json.Number
	edge := func(b *float64, exclusive bool, step float64) {
		if b == nil || math.IsInf(*b, 0) || math.Abs(*b) > 1<<53 {
			return
		}
		v := *b
		if exclusive {
			if !integer {
				return
			}
			v += step
		}
		if integer {
			if step > 0 {
				v = math.Ceil(v)
			} else {
				v = math.Floor(v)
			}
		}
		out = append(out, json.Number(strconv.FormatFloat(v, 'f', -1, 64)))
	}
	edge(s.Minimum, s.ExclusiveMinimum, 1)
	edge(s.Maximum, s.ExclusiveMaximum, -1)
	return out
}
