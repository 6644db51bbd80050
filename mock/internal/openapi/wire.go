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
	w.Additional = sh.of(s.AdditionalProperties)
	if len(s.Types) == 0 {
		sh.alternatives(w, s.AnyOf)
	}
	return w
}

// alternatives adds to w, the shape of a schema that names no type, what
// its anyOf and oneOf alternatives take: each one's types, and the items,
// properties and other properties of the first that has them. A value
// is then read as any alternative could take it (an integer or an object,
// start=5 or start[gte]=5), and the schema's validation picks among them.
func (sh shapes) alternatives(w *wire.Shape, alts []*Schema) {
	for _, a := range alts {
		aw := sh.of(a)
		if aw == nil {
			continue
		}
		if aw.Types == 0 {
			w.Types = 0 // an alternative of any type: the value is read as any
			return
		}
		w.Types |= aw.Types
		if w.Items == nil {
			w.Items = aw.Items
		}
		for name, p := range aw.Properties {
			if w.Properties == nil {
				w.Properties = map[string]*wire.Shape{}
			}
			if _, ok := w.Properties[name]; !ok {
				w.Properties[name] = p
			}
		}
		if w.Additional == nil {
			w.Additional = aw.Additional
		}
	}
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
