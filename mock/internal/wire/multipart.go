package wire

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DecodeMultipart decodes a multipart/form-data body, contentType being
// the request's Content-Type header (which carries the boundary). Each
// part is the value of the property its name gives; a name given by
// several parts makes an array when the property is one, each part an
// item. A part is read by its Content-Type, else by its encoding's
// contentType, else by the default of the property's shape:
//
//   - JSON (application/json, *+json) is decoded, except for a file (a
//     part with a filename) of a property that allows only strings;
//   - text/plain, for a part that is not a file, is text coerced by the
//     property's shape;
//   - anything else, and any file, is its bytes as a string.
//
// A part whose Content-Type does not match its encoding's contentType is
// refused; a part without a Content-Type is read as its encoding says.
// A property whose encoding gives a style is read from the text parts
// its names claim (not files, no Content-Type or text/plain), as that
// property of a form body is: file_link_data[create] and
// file_link_data[metadata][k] make one deepObject. At most limit bytes are read from body,
// boundaries and part headers included; a longer body is refused. The
// error is an *Error.
func (f *Form) DecodeMultipart(body io.Reader, contentType string, limit int64) (map[string]any, error) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return nil, &Error{Reason: "malformed content type " + strconv.Quote(contentType) + ": " + err.Error()}
	}
	if !strings.HasPrefix(mt, "multipart/") {
		return nil, &Error{Reason: "content type " + mt + " is not multipart"}
	}
	boundary := params["boundary"]
	if boundary == "" {
		return nil, &Error{Reason: "content type " + mt + " has no boundary parameter"}
	}
	lr := newLimitReader(body, limit)
	mr := multipart.NewReader(lr, boundary)
	type group struct {
		field *field
		vals  []any
	}
	var (
		groups []*group // in order of first appearance
		byName = map[string]*group{}
		buf    bytes.Buffer
		pairs  []pair // the text parts of styled properties
	)
	for n := 1; ; n++ {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, lr.explain(err)
		}
		name := part.FormName()
		if name == "" {
			return nil, &Error{Reason: "part " + strconv.Itoa(n) + " has no form-data name"}
		}
		buf.Reset()
		if _, err := buf.ReadFrom(part); err != nil {
			return nil, lr.explain(err)
		}
		if ct := part.Header.Get("Content-Type"); part.FileName() == "" && (ct == "" || contentMode(ct) == modeText) && f.styled.has(name) {
			if !utf8.Valid(buf.Bytes()) {
				return nil, &Error{Path: name, Reason: "value is not valid UTF-8"}
			}
			pairs = append(pairs, pair{name: name, value: url.QueryEscape(buf.String())})
			continue
		}
		g := byName[name]
		if g == nil {
			g = &group{field: f.field(name)}
			byName[name] = g
			groups = append(groups, g)
		}
		v, perr := g.field.part(buf.Bytes(), part.Header.Get("Content-Type"), part.FileName() != "")
		if perr != nil {
			return nil, perr
		}
		g.vals = append(g.vals, v)
	}
	out := make(map[string]any, len(groups))
	if len(pairs) > 0 {
		// Escaped above, so that reading them as a form body's pairs
		// gives the parts' text back.
		src := source{list: pairs, plus: true, claims: &f.styled}
		for i := range f.fields {
			fd := &f.fields[i]
			if !fd.styled {
				continue
			}
			v, present, err := fd.fromPairs(&src)
			if err != nil {
				return nil, err
			}
			if present {
				out[fd.name] = v
			}
		}
	}
	for _, g := range groups {
		switch k := g.field.kind; {
		case k == kindArray, k == kindAny && len(g.vals) > 1:
			out[g.field.name] = g.vals
		case len(g.vals) > 1:
			return nil, timesError(g.field.path, "", len(g.vals))
		default:
			out[g.field.name] = g.vals[0]
		}
	}
	return out, nil
}

// part reads the content of one part of the field; file tells whether the
// part has a filename.
func (fd *field) part(data []byte, contentType string, file bool) (any, *Error) {
	if contentType != "" && fd.allowed != "" && !MatchContentType(fd.allowed, contentType) {
		return nil, &Error{Path: fd.path, Reason: "part content type " + strconv.Quote(contentType) + " is not " + strconv.Quote(fd.allowed)}
	}
	s := fd.shape
	if fd.kind == kindArray {
		s = s.items()
	}
	m := fd.mode
	if contentType != "" {
		m = contentMode(contentType)
	}
	if file && (m != modeJSON || s.stringOnly()) {
		m = modeRaw
	}
	if m != modeRaw && !utf8.Valid(data) {
		return nil, &Error{Path: fd.path, Reason: "value is not valid UTF-8"}
	}
	return interpret(fd.path, string(data), s, m)
}

// errTooLarge is what a limitReader returns past its limit.
var errTooLarge = errors.New("body too large")

// limitReader reads at most limit bytes of r, and notes an attempt to
// read more.
type limitReader struct {
	r     io.Reader
	limit int64
	left  int64
	over  bool
}

func newLimitReader(r io.Reader, limit int64) *limitReader {
	limit = max(limit, 0)
	return &limitReader{r: r, limit: limit, left: limit}
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.over {
		return 0, errTooLarge
	}
	if len(p) == 0 {
		return 0, nil
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	if l.left -= int64(n); l.left < 0 {
		l.over = true
		return 0, errTooLarge
	}
	return n, err
}

// explain turns an error met reading a multipart body into an *Error.
func (l *limitReader) explain(err error) *Error {
	if l.over {
		return &Error{Reason: "multipart body is larger than the limit of " + strconv.FormatInt(l.limit, 10) + " bytes"}
	}
	return &Error{Reason: "malformed multipart body: " + strings.TrimPrefix(err.Error(), "multipart: ")}
}
