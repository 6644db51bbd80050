package wire

import (
	"fmt"
	"net/http"
	"net/textproto"
)

// Param describes one parameter of an operation.
type Param struct {
	// Name is the parameter's name. Header names compare without case.
	Name string
	// In is where the parameter is: "path", "query", "header",
	// "cookie", or "querystring" (OpenAPI 3.2) for one parameter that is
	// the whole query string, described by Content (and Form).
	In string
	// Style is how its value is written; "" is the default of In: simple
	// for path and header, form for query and cookie.
	Style string
	// Explode nil is the default of Style: true for form, false for the
	// others.
	Explode *bool
	// Content is the media type of a parameter described by content
	// instead of schema and style; "" for one with a schema. A JSON type
	// makes the value JSON text; text/plain makes it text coerced by the
	// shape; any other type keeps it as text.
	Content string
	// Shape is the shape of the parameter's schema (nil: any).
	Shape *Shape
	// Form, for a querystring parameter whose content is
	// application/x-www-form-urlencoded, decodes the query string into an
	// object (see NewForm); nil reads the query string, percent-decoded,
	// by Content as one value.
	Form *Form
}

// Value is one decoded parameter.
type Value struct {
	// Present reports whether the request carries the parameter, even
	// with an empty value (?flag, ?flag=).
	Present bool
	// Value is the parameter's JSON value when it is present and Err is
	// nil.
	Value any
	// Err, an *Error, says why the parameter could not be decoded.
	Err error
}

// Params decodes the parameters of one operation. It is built once by
// NewParams and is safe for concurrent use.
type Params struct {
	fields []param
	// query and cookie are the names the query and cookie parameters
	// read, for free-form exploded objects to leave alone.
	query, cookie claims
}

type location uint8

const (
	inPath location = iota
	inQuery
	inHeader
	inCookie
	inQueryString
)

// locations gives, for each value of Param.In, its location, default
// style and the styles it allows.
var locations = map[string]struct {
	in     location
	styles []style
}{
	"path":   {inPath, []style{styleSimple, styleLabel, styleMatrix}},
	"query":  {inQuery, []style{styleForm, styleSpace, stylePipe, styleDeep}},
	"header": {inHeader, []style{styleSimple}},
	"cookie": {inCookie, []style{styleForm}},
	// The whole query string: described by content, never by a style.
	"querystring": {inQueryString, nil},
}

type param struct {
	field
	in   location
	key  string // canonical header key
	form *Form  // of a form querystring parameter
}

// NewParams compiles the parameters of an operation. It refuses a
// location or style OpenAPI does not define, a style its location does
// not allow, two parameters of the same name and location, and a
// querystring parameter without Content.
func NewParams(list []Param) (*Params, error) {
	ps := &Params{fields: make([]param, 0, len(list))}
	seen := map[string]bool{}
	for _, p := range list {
		loc, ok := locations[p.In]
		if !ok {
			return nil, fmt.Errorf("parameter %q: %q is not a parameter location", p.Name, p.In)
		}
		if p.Name == "" {
			return nil, fmt.Errorf("%s parameter without a name", p.In)
		}
		key := p.Name
		if loc.in == inHeader {
			key = textproto.CanonicalMIMEHeaderKey(p.Name)
		}
		if seen[p.In+"."+key] {
			return nil, fmt.Errorf("%s.%s: declared twice", p.In, p.Name)
		}
		seen[p.In+"."+key] = true
		f := param{field: newField(p.Name, p.In+"."+p.Name, p.Shape), in: loc.in, key: key}
		if loc.in == inQueryString {
			if p.Content == "" {
				return nil, fmt.Errorf("%s: a querystring parameter is described by content", f.path)
			}
			f.form = p.Form
		}
		if p.Content != "" {
			f.mode, f.whole = contentMode(p.Content), true
		} else {
			st := loc.styles[0]
			if p.Style != "" {
				if st, ok = parseStyle(p.Style); !ok {
					return nil, fmt.Errorf("%s: unknown style %q", f.path, p.Style)
				}
				if !allows(loc.styles, st) {
					return nil, fmt.Errorf("%s: style %q is not defined for %s parameters", f.path, p.Style, p.In)
				}
			}
			f.setStyle(st, p.Explode)
		}
		ps.fields = append(ps.fields, f)
	}
	for i := range ps.fields {
		switch f := &ps.fields[i]; f.in {
		case inQuery:
			ps.query.add(&f.field)
		case inCookie:
			ps.cookie.add(&f.field)
		}
	}
	return ps, nil
}

func allows(styles []style, st style) bool {
	for _, s := range styles {
		if s == st {
			return true
		}
	}
	return false
}

// Decode decodes the parameters of r into dst[:0], one Value per
// parameter in the order given to NewParams, and returns it. path returns
// the raw text, still percent-encoded, that the router matched for a path
// parameter: the whole segment, with its leading "." for label style and
// ";" for matrix style (";color=blue", ";R=100;G=200"); path may be nil
// when the operation has no path parameters. The query string is parsed
// once for all query parameters, the Cookie header once for all cookie
// parameters.
func (ps *Params) Decode(dst []Value, r *http.Request, path func(name string) (raw string, ok bool)) []Value {
	dst = dst[:0]
	var (
		qbuf, cbuf     [8]pair
		query, cookies source
		parsedQ        bool
		parsedC        bool
	)
	for i := range ps.fields {
		f := &ps.fields[i]
		var (
			v       any
			present bool
			err     *Error
		)
		switch f.in {
		case inPath:
			if path == nil {
				break
			}
			var raw string
			if raw, present = path(f.name); present {
				v, err = f.fromPath(raw)
			}
		case inQuery:
			if !parsedQ {
				query = source{plus: true, claims: &ps.query}
				if r.URL != nil {
					query.list = appendQuery(qbuf[:0], r.URL.RawQuery)
				}
				parsedQ = true
			}
			v, present, err = f.fromPairs(&query)
		case inHeader:
			if lines := headerLines(r, f.key); len(lines) > 0 {
				present = true
				v, err = f.fromHeader(lines)
			}
		case inQueryString:
			if r.URL != nil && r.URL.RawQuery != "" {
				present = true
				v, err = f.fromQueryString(r.URL.RawQuery)
			}
		case inCookie:
			if !parsedC {
				cookies = source{list: appendCookies(cbuf[:0], r.Header["Cookie"]), first: true, claims: &ps.cookie}
				parsedC = true
			}
			v, present, err = f.fromPairs(&cookies)
		}
		if err != nil {
			dst = append(dst, Value{Present: present, Err: err})
			continue
		}
		dst = append(dst, Value{Present: present, Value: v})
	}
	return dst
}

// fromQueryString reads the whole query string as one value: an object
// by the form of an application/x-www-form-urlencoded parameter, else the
// percent-decoded text ("+" stays "+") read by the content's media type.
func (f *param) fromQueryString(raw string) (any, *Error) {
	if f.form != nil {
		v, err := f.form.DecodeURLEncoded([]byte(raw))
		if err != nil {
			e, ok := err.(*Error)
			if !ok {
				return nil, &Error{Path: f.path, Reason: err.Error()}
			}
			path := f.path
			if e.Path != "" {
				path += "." + e.Path
			}
			return nil, &Error{Path: path, Reason: e.Reason}
		}
		return v, nil
	}
	text, err := decodeText(f.path, raw, false)
	if err != nil {
		return nil, err
	}
	return interpret(f.path, text, f.shape, f.mode)
}
