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

// variant is one request of a check: its name and its call.
type variant struct {
	name string
	call *exercise.Call
}

// positive sends op's valid requests, c's variants, and judges their
// answers: each example of each request media type, then generated
// values with only what is required, with every property and optional
// parameter, in each other media type, and at the bounds of numeric
// parameters and properties. A variant that writes the same request as
// one before it is not sent again. The variants with every property are
// made from another seed than c, so that a create does not send the
// identifier of the one before it.
func (r *runner) positive(ctx context.Context, c *exercise.Call, seed uint64) error {
	op := c.Op
	var vs []variant
	vs = append(vs, examples(c)...)
	vs = append(vs, variant{"required only", requiredOnly(c)})
	other, err := r.call(op, seed^0xa11)
	if err != nil {
		other = c
	}
	all := other.WithOptional()
	vs = append(vs, variant{"all properties", all})
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
			vs = append(vs, variant{"in " + m.Type, d})
		}
	}
	vs = append(vs, bounds(all)...)
	done := map[string]bool{}
	for _, v := range vs {
		req, body, err := r.prepare(v.call)
		if err != nil {
			r.rep.Unmade = append(r.rep.Unmade, v.name+": "+err.Error())
			continue
		}
		line := curl(req, body, r.opts.Header)
		if done[line] {
			continue
		}
		done[line] = true
		s, err := r.send(ctx, op, "positive", v.name, req, body, r.judgePositive(v.call))
		if err != nil {
			return err
		}
		if s != nil && s.err == nil {
			r.cov.sentIn(v.call.Media)
		}
	}
	return nil
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
			out = append(out, variant{name, d})
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
			out = append(out, variant{"bound " + k + "=" + string(b), d})
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
			out = append(out, variant{"bound " + p.Name + "=" + string(b), d})
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
