package exercise

import (
	"maps"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Variants of a call, for a caller that sends more than one valid request
// to an operation: its body in each declared media type, and with the
// optional parameters too. Each returns a copy; the call is not changed.

// Clone returns a copy of c whose Values and Body may be changed without
// changing c's.
func (c *Call) Clone() *Call {
	d := *c
	d.Values = maps.Clone(c.Values)
	d.Body = jsonx.Clone(c.Body)
	return &d
}

// InMedia returns a copy of c whose body is made anew in m, one of the
// operation's request media types. The error is an *Error saying why no
// valid body could be made in m.
func (c *Call) InMedia(m *openapi.Media) (*Call, error) {
	v, why := bodyValue(m, c.seed)
	if why != "" {
		return nil, unmade(c.Op, "%s: %s", m.Type, why)
	}
	d := c.Clone()
	d.Media, d.Body = m, v
	return d, nil
}

// WithOptional returns a copy of c with a value for each optional
// parameter that a valid one can be made and written for, besides the
// required ones.
func (c *Call) WithOptional() *Call {
	d := c.Clone()
	for i := range c.Op.Params {
		p := &c.Op.Params[i]
		if _, has := d.Values[key(p)]; has || p.Required {
			continue
		}
		s := p.Schema
		if p.Content != nil {
			s = p.Content.Schema
		}
		if s == nil {
			continue
		}
		v, vs := generate(s, c.seed, uint64(i+1), false)
		if len(vs) > 0 {
			continue
		}
		d.Values[key(p)] = v
		if _, err := d.request("http://verify.invalid"); err != nil {
			delete(d.Values, key(p)) // its style cannot write it, say
		}
	}
	return d
}
