package openapi

import (
	"fmt"

	"github.com/plantmock/plantmock/mock/internal/wire"
)

// shapes turns schemas into what the wire decoders need to know of them,
// once per schema (recursive schemas point at themselves).
type shapes map[*Schema]*wire.Shape

func (sh shapes) of(s *Schema) *wire.Shape {
	if s == nil {
		return nil
	}
	if w, ok := sh[s]; ok {
		return w
	}
	w := &wire.Shape{}
	sh[s] = w
	for _, t := range s.Types {
		w.Types |= wire.ParseType(t)
	}
	w.Items = sh.of(s.Items)
	if len(s.Properties) > 0 {
		w.Properties = make(map[string]*wire.Shape, len(s.Properties))
		for _, p := range s.Properties {
			w.Properties[p.Name] = sh.of(p.Schema)
		}
	}
	return w
}

// prepareWire builds the operation's parameter decoder and the form
// decoders of its form and multipart bodies.
func (o *Operation) prepareWire(sh shapes) error {
	list := make([]wire.Param, len(o.Params))
	for i, p := range o.Params {
		list[i] = wire.Param{Name: p.Name, In: p.In, Style: p.Style, Explode: p.Explode, Shape: sh.of(p.Schema)}
		if p.Content != nil {
			list[i].Content, list[i].Shape = p.Content.Type, sh.of(p.Content.Schema)
			if p.In == "querystring" && p.Content.Type == "application/x-www-form-urlencoded" {
				f, err := formOf(p.Content, sh)
				if err != nil {
					return fmt.Errorf("querystring %s: %w", p.Name, err)
				}
				list[i].Form = f
			}
		}
	}
	ps, err := wire.NewParams(list)
	if err != nil {
		return err
	}
	o.wire = ps
	if o.Body == nil {
		return nil
	}
	for _, m := range o.Body.Content {
		if !isForm(m.Type) {
			continue
		}
		if m.form, err = formOf(m, sh); err != nil {
			return fmt.Errorf("%s body: %w", m.Type, err)
		}
	}
	return nil
}

// formOf builds the form decoder of a form or multipart media type.
func formOf(m *Media, sh shapes) (*wire.Form, error) {
	enc := map[string]wire.Encoding{}
	for name, e := range m.Encoding {
		we := wire.Encoding{ContentType: e.ContentType, Style: e.Style, Explode: e.Explode}
		if e.AllowReserved {
			t := true
			we.AllowReserved = &t
		}
		enc[name] = we
	}
	return wire.NewForm(sh.of(m.Schema), enc)
}

// wireViolation turns a decoding error into a Violation.
func wireViolation(err error) Violation {
	if we, ok := err.(*wire.Error); ok {
		return Violation{Path: we.Path, Reason: we.Reason}
	}
	return Violation{Reason: err.Error()}
}
