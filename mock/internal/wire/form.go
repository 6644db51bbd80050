package wire

import (
	"fmt"
	"sort"
)

// Encoding is what decoding needs of an OpenAPI Encoding Object: how one
// property of a form body is written.
type Encoding struct {
	// ContentType is the media type of the property's values: one type,
	// a wildcard (image/*) or a comma-separated list of them. "" is the
	// default of the property's shape: application/json for an object or
	// an array of objects, text/plain otherwise. A multipart part whose
	// own Content-Type does not match a ContentType given here is refused.
	ContentType string
	// Style, Explode and AllowReserved are those of the Encoding Object,
	// "" and nil when it leaves them out. When any of the three is given,
	// a property of the body is read like a query parameter of that Style
	// and Explode, whatever ContentType says: in a multipart body, from
	// the text parts its names claim (file_link_data[create]). That
	// multipart bodies have styles is OpenAPI 3.1's and 3.2's rule; 3.0
	// says they ignore them, but documents of every version write them
	// for multipart (Stripe's, a 3.0 one) and their SDKs send them so.
	// AllowReserved counts only by its presence: reserved characters are
	// accepted either way (see the package documentation).
	Style         string
	Explode       *bool
	AllowReserved *bool
}

// Form decodes application/x-www-form-urlencoded and multipart/form-data
// bodies of one schema into JSON objects. It is built once by NewForm and
// is safe for concurrent use.
type Form struct {
	fields []field // declared and encoded properties, sorted by name
	index  map[string]int
	extra  field // template of the fields of undeclared names
	claims claims
	// styled are the names the fields read by style claim: a multipart
	// body's text parts of those names are read as a form body's pairs.
	styled claims
	// freeForm is set when a property takes every name no other claims
	// (an exploded object without declared properties), leaving none for
	// the body's additional properties.
	freeForm bool
}

// NewForm compiles the body schema s, whose properties are the fields of
// the form, and the encoding of its properties. Encodings may name
// properties s does not declare. It refuses a style a query parameter
// could not have and a content type that does not parse.
func NewForm(s *Shape, enc map[string]Encoding) (*Form, error) {
	names := make([]string, 0, len(enc))
	if s != nil {
		for name := range s.Properties {
			names = append(names, name)
		}
	}
	for name := range enc {
		if _, declared := s.propertyOK(name); !declared {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	f := &Form{fields: make([]field, 0, len(names)), index: make(map[string]int, len(names))}
	for _, name := range names {
		fd, err := newFormField(name, s.property(name), enc[name])
		if err != nil {
			return nil, err
		}
		f.index[name] = len(f.fields)
		f.fields = append(f.fields, fd)
	}
	var additional *Shape
	if s != nil {
		additional = s.Additional
	}
	f.extra, _ = newFormField("", additional, Encoding{})
	for i := range f.fields {
		fd := &f.fields[i]
		f.claims.add(fd)
		if fd.styled {
			f.styled.add(fd)
		}
		if fd.styled && fd.style != styleDeep && fd.explode && fd.kind == kindObject && len(fd.props) == 0 {
			f.freeForm = true
		}
	}
	return f, nil
}

func newFormField(name string, s *Shape, e Encoding) (field, error) {
	fd := newField(name, name, s)
	fd.allowed = e.ContentType
	if e.ContentType != "" && !validMediaType(e.ContentType) {
		return fd, fmt.Errorf("%s: malformed encoding contentType %q", name, e.ContentType)
	}
	fd.mode = defaultMode(s)
	if e.ContentType != "" {
		fd.mode = listMode(e.ContentType)
	}
	if e.Style != "" || e.Explode != nil || e.AllowReserved != nil {
		st := styleForm
		if e.Style != "" {
			var ok bool
			st, ok = parseStyle(e.Style)
			if !ok || !allows(locations["query"].styles, st) {
				return fd, fmt.Errorf("%s: encoding style %q is not a style of query parameters", name, e.Style)
			}
		}
		fd.setStyle(st, e.Explode)
	}
	return fd, nil
}

// field returns the field of a name, declared or not.
func (f *Form) field(name string) *field {
	if i, ok := f.index[name]; ok {
		return &f.fields[i]
	}
	fd := f.extra
	fd.name, fd.path = name, name
	return &fd
}

// defaultMode is the mode of the default contentType of a property of
// shape s: JSON for an object or an array of objects, text otherwise.
func defaultMode(s *Shape) mode {
	k := kindOf(s)
	if k == kindArray {
		k = kindOf(s.items())
	}
	if k == kindObject {
		return modeJSON
	}
	return modeText
}

// listMode is the mode of a contentType list: JSON when every entry is
// JSON, text when every entry is text/plain, the text as it is otherwise.
func listMode(list string) mode {
	m := mode(255)
	for _, e := range splitList(list) {
		switch em := contentMode(e); {
		case m == 255:
			m = em
		case em != m:
			return modeRaw
		}
	}
	if m == 255 {
		return modeText
	}
	return m
}

// DecodeURLEncoded decodes an application/x-www-form-urlencoded body. Each
// property is read like a query parameter: by its style when its encoding
// gives one, otherwise as a value of its content type, a repeated name
// making an array when the property is one. Names the schema does not
// declare are properties too, read by the shape of additionalProperties.
// The error is an *Error.
func (f *Form) DecodeURLEncoded(body []byte) (map[string]any, error) {
	var buf [16]pair
	src := source{list: appendQuery(buf[:0], string(body)), plus: true, claims: &f.claims}
	out := make(map[string]any, len(src.list))
	for i := range f.fields {
		fd := &f.fields[i]
		v, present, err := fd.fromPairs(&src)
		if err != nil {
			return nil, err
		}
		if present {
			out[fd.name] = v
		}
	}
	if !f.freeForm {
		err := src.unclaimed("", f.extra.shape, f.extra.mode, func(name string, v any) { out[name] = v })
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
