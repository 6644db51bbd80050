package openapi

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"

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
		enc := map[string]wire.Encoding{}
		for name, e := range m.Encoding {
			we := wire.Encoding{ContentType: e.ContentType, Style: e.Style, Explode: e.Explode}
			if e.AllowReserved {
				t := true
				we.AllowReserved = &t
			}
			enc[name] = we
		}
		if m.form, err = wire.NewForm(sh.of(m.Schema), enc); err != nil {
			return fmt.Errorf("%s body: %w", m.Type, err)
		}
	}
	return nil
}

// isForm reports whether a media type is a form or multipart body.
func isForm(mt string) bool {
	return mt == "application/x-www-form-urlencoded" || mt == "multipart/form-data"
}

// IsForm reports whether the media type is a form or multipart body,
// decoded into an object and validated against its schema.
func (m *Media) IsForm() bool { return m.form != nil }

// DecodeForm decodes a form or multipart body into a JSON object;
// contentType is the request's Content-Type (multipart needs its
// boundary).
func (m *Media) DecodeForm(raw []byte, contentType string) (map[string]any, []Violation) {
	var (
		v   map[string]any
		err error
	)
	if m.Type == "multipart/form-data" {
		v, err = m.form.DecodeMultipart(bytes.NewReader(raw), contentType, int64(len(raw))+1)
	} else {
		v, err = m.form.DecodeURLEncoded(raw)
	}
	if err != nil {
		return nil, []Violation{wireViolation(err)}
	}
	return v, nil
}

func wireViolation(err error) Violation {
	if we, ok := err.(*wire.Error); ok {
		return Violation{Path: we.Path, Reason: we.Reason}
	}
	return Violation{Reason: err.Error()}
}

// ValidateParams checks the request's path, query, header and cookie
// parameters against the declared ones, each read by its style. raw are
// the path parameter values as they appear in the path (still
// percent-escaped), in template order.
func (o *Operation) ValidateParams(r *http.Request, raw []string) []Violation {
	if len(o.Params) == 0 {
		return nil
	}
	var buf [8]wire.Value
	vals := o.wire.Decode(buf[:0], r, func(name string) (string, bool) {
		for j, n := range o.pathNames {
			if n == name && j < len(raw) {
				return raw[j], true
			}
		}
		return "", false
	})
	var out []Violation
	for i, v := range vals {
		p := &o.Params[i]
		where := p.In + "." + p.Name
		switch {
		case v.Err != nil:
			out = append(out, wireViolation(v.Err))
			continue
		case !v.Present:
			if p.Required {
				out = append(out, Violation{Path: where, Reason: "required parameter is missing"})
			}
			continue
		}
		s := p.Schema
		if p.Content != nil {
			s = p.Content.Schema
		}
		for _, vi := range s.Validate(v.Value) {
			vi.Path = joinParam(where, vi.Path)
			out = append(out, vi)
		}
	}
	sortViolations(out)
	return out
}

// coerce reads a header's text as the JSON value its schema expects.
func coerce(text string, s *Schema) any {
	switch {
	case s.Is("string"):
		return text
	case (s.Is("integer") || s.Is("number")) && validNumber(text):
		return jsonNumber(text)
	case s.Is("boolean") && (text == "true" || text == "false"):
		return text == "true"
	}
	return text
}

func joinParam(where, inner string) string {
	switch {
	case inner == "":
		return where
	case strings.HasPrefix(inner, "["):
		return where + inner
	}
	return where + "." + inner
}
