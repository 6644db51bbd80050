package exercise

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Error says why no valid request could be made for an operation.
type Error struct {
	Op     string // the operation's name, "GET /things/{id}"
	Reason string
}

func (e *Error) Error() string { return e.Op + ": " + e.Reason }

func unmade(op *openapi.Operation, format string, args ...any) *Error {
	return &Error{Op: op.Name, Reason: fmt.Sprintf(format, args...)}
}

// Call is a request for one operation, held as values until Request
// writes it. Make fills it; the caller may change Values and Body in
// between (to address the resource a create made, say), as long as they
// stay valid.
type Call struct {
	Op *openapi.Operation
	// Values are the parameters to send, as JSON values, by "in.name"
	// ("path.id", "query.limit", "header.X-Trace", "cookie.session").
	// Parameters without a value are not sent.
	Values map[string]any
	// Media is the declared media type the body is written in, nil for
	// no body; Body is the body as a JSON value, written by Media.Type.
	Media *openapi.Media
	Body  any
	// Auth is the security alternative the credentials meet; nil sends
	// none.
	Auth openapi.Requirement
	// InvalidParams, set by a caller that made a parameter's value
	// invalid on purpose (to see it refused), writes the parameters
	// without checking that they read back as valid.
	InvalidParams bool

	seed uint64
}

// attempts is how many values Make generates for a parameter or a body
// before it gives up on one that satisfies the schema; generators of
// patterns and formats sometimes miss.
const attempts = 4

// Make makes the values of a valid request for op: every required
// parameter, the body (in the first media type a value can be made for,
// JSON first; an optional body only when one can be made) and the
// credentials of the first security alternative that can be met. The same
// seed gives the same values. The error is an *Error.
func Make(op *openapi.Operation, seed uint64) (*Call, error) {
	c := &Call{Op: op, Values: map[string]any{}, seed: seed}
	for i := range op.Params {
		p := &op.Params[i]
		if !p.Required {
			continue
		}
		s := p.Schema
		if p.Content != nil {
			s = p.Content.Schema
		}
		if s == nil && p.Content == nil {
			return nil, unmade(op, "parameter %s has no schema", key(p))
		}
		v, vs := generate(s, seed, uint64(i+1), false)
		if len(vs) > 0 {
			return nil, unmade(op, "parameter %s: generated %s breaks its schema: %s", key(p), jsonx.Marshal(v), vs[0])
		}
		c.Values[key(p)] = v
	}
	if op.Body != nil {
		m, v, why := makeBody(op.Body, seed)
		switch {
		case m != nil:
			c.Media, c.Body = m, v
			if patch, ok := jsonPatch(op, m, seed); ok {
				c.Body = patch
			}
		case op.Body.Required:
			return nil, unmade(op, "%s", why)
		}
	}
	auth, ok := credentialsFor(op)
	if !ok {
		return nil, unmade(op, "no security alternative can be met (%s)", describeSecurity(op))
	}
	c.Auth = auth
	return c, nil
}

// key is a parameter's key in Call.Values.
func key(p *openapi.Param) string { return p.In + "." + p.Name }

// generate makes a value for schema s, the n-th of the call, trying a few
// fakers until one satisfies s as a request does (a required writeOnly
// property must be sent); it returns the last value made and what is
// wrong with it when none does. A body value (body true) leaves out the
// read-only properties a request need not send and fills in the write-only
// ones generation leaves out.
func generate(s *openapi.Schema, seed, n uint64, body bool) (any, []openapi.Violation) {
	var (
		v  any
		vs []openapi.Violation
	)
	for k := uint64(0); k < attempts; k++ {
		f := gen.Faker(seed, n<<8|k)
		made := gen.Value(s, f)
		v = jsonx.Clone(made)
		if body {
			v = forRequest(v, s, f, 0)
		}
		if vs = s.ValidateRequest(v); len(vs) == 0 {
			return v, nil
		}
		if body {
			// A schema that wants a readOnly property in a request too
			// (by a oneOf's required, a minProperties): the required
			// ones kept.
			kept := keepReadOnly(jsonx.Clone(made), s, f, 0)
			if len(s.ValidateRequest(kept)) == 0 {
				return kept, nil
			}
		}
	}
	return v, vs
}

// forRequest adapts a generated value to a request: read-only properties
// are left out, the required ones too (a client SHOULD NOT send them,
// and a required readOnly property is required in answers only), at
// every depth and in every media type the value is written in;
// write-only ones are added, also those of the first anyOf or oneOf
// alternative the value matches (as an answer, where write-only
// properties need not be there).
func forRequest(v any, s *openapi.Schema, f *gofakeit.Faker, depth int) any {
	return adapt(v, s, f, depth, false)
}

// keepReadOnly is forRequest keeping the required read-only properties.
func keepReadOnly(v any, s *openapi.Schema, f *gofakeit.Faker, depth int) any {
	return adapt(v, s, f, depth, true)
}

func adapt(v any, s *openapi.Schema, f *gofakeit.Faker, depth int, keepRequired bool) any {
	if s == nil || depth > 16 {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		for _, alt := range s.AnyOf {
			if alt != nil && len(alt.Validate(x)) == 0 {
				adapt(x, alt, f, depth+1, keepRequired)
				break
			}
		}
		for _, p := range s.Properties {
			if p.Schema == nil {
				continue
			}
			_, has := x[p.Name]
			switch {
			case p.Schema.ReadOnly && !(keepRequired && s.Requires(p.Name)):
				delete(x, p.Name)
			case p.Schema.WriteOnly && !has && !p.Schema.Never:
				x[p.Name] = gen.Value(p.Schema, f)
			case has:
				x[p.Name] = adapt(x[p.Name], p.Schema, f, depth+1, keepRequired)
			}
		}
	case []any:
		for i := range x {
			x[i] = adapt(x[i], s.Items, f, depth+1, keepRequired)
		}
	}
	return v
}

// Request writes the call as a request to base, the mock's URL without a
// trailing slash, and checks that it reads back as valid: the parameters
// by the operation's own decoder and schemas, a form or multipart body
// decoded and checked against its schema. The error is an *Error.
func (c *Call) Request(base string) (*http.Request, error) {
	r, err := c.request(base)
	if err != nil {
		return nil, err
	}
	return r.req, nil
}

// written is a request and what was written into its path.
type written struct {
	req  *http.Request
	path string // the path after base, escaped
}

func (c *Call) request(base string) (*written, error) {
	op := c.Op
	path, raw, err := c.path()
	if err != nil {
		return nil, err
	}
	var query []string
	h := http.Header{}
	var cookies []string
	for i := range op.Params {
		p := &op.Params[i]
		v, ok := c.Values[key(p)]
		if !ok || p.In == "path" {
			continue
		}
		var err error
		switch p.In {
		case "query":
			var part string
			part, err = queryPart(p, v)
			if part != "" {
				query = append(query, part)
			}
		case "querystring":
			var part string
			part, err = queryString(p, v)
			if part != "" {
				query = append(query, part)
			}
		case "header":
			var text string
			text, err = headerValue(p, v)
			h.Add(p.Name, text)
		case "cookie":
			var part string
			part, err = cookiePart(p, v)
			cookies = append(cookies, part)
		}
		if err != nil {
			return nil, unmade(op, "parameter %s: %v", key(p), err)
		}
	}
	query, cookies = c.credentials(h, query, cookies)
	var body io.Reader
	if c.Media != nil {
		data, ct, err := writeBody(c.Media, c.Body, c.seed)
		if err != nil {
			return nil, unmade(op, "%s body: %v", c.Media.Type, err)
		}
		body = bytes.NewReader(data)
		h.Set("Content-Type", ct)
	}
	u := base + path
	if len(query) > 0 {
		u += "?" + strings.Join(query, "&")
	}
	req, err := http.NewRequest(op.Method, u, body)
	if err != nil {
		return nil, unmade(op, "%v", err)
	}
	for k, vs := range h {
		req.Header[k] = vs
	}
	if len(cookies) > 0 {
		req.Header.Set("Cookie", strings.Join(cookies, "; "))
	}
	if vs := op.ValidateParams(req, raw); len(vs) > 0 && !c.InvalidParams {
		return nil, unmade(op, "the parameters as written (%s) read back as invalid: %s", req.URL.RequestURI(), vs[0])
	}
	return &written{req: req, path: path}, nil
}

// path fills the operation's path template: each declared path parameter
// by its style, any other with a word.
func (c *Call) path() (string, []string, error) {
	op := c.Op
	var b strings.Builder
	var raw []string
	rest := op.Path
	for {
		s := strings.IndexByte(rest, '{')
		if s < 0 {
			b.WriteString(escapeLiteral(rest))
			return b.String(), raw, nil
		}
		e := strings.IndexByte(rest[s:], '}')
		if e < 0 {
			b.WriteString(escapeLiteral(rest))
			return b.String(), raw, nil
		}
		name := rest[s+1 : s+e]
		b.WriteString(escapeLiteral(rest[:s]))
		text := "x1"
		if p := c.param("path", name); p != nil {
			v, ok := c.Values[key(p)]
			if !ok {
				return "", nil, unmade(op, "path parameter %s has no value", name)
			}
			var err error
			if text, err = pathValue(p, v); err != nil {
				return "", nil, unmade(op, "parameter %s: %v", key(p), err)
			}
			if text == "" {
				return "", nil, unmade(op, "parameter %s: an empty value cannot be sent in a path", key(p))
			}
		}
		b.WriteString(text)
		raw = append(raw, text)
		rest = rest[s+e+1:]
	}
}

func (c *Call) param(in, name string) *openapi.Param {
	for i := range c.Op.Params {
		if p := &c.Op.Params[i]; p.In == in && p.Name == name {
			return p
		}
	}
	return nil
}

// Request makes a valid request for op, an operation of doc, to base (the
// mock's URL, without a trailing slash), from seed: Make, then
// Call.Request, then a check that the request does not route to another
// operation (/things/mine for /things/{id}); Call.Request and the check
// are tried again with other values a few times. A request that routes
// nowhere is still returned: it is valid, and the mock must route it.
// The error is an *Error.
func Request(doc *openapi.Document, op *openapi.Operation, base string, seed uint64) (*http.Request, error) {
	var last error
	for k := uint64(0); k < attempts; k++ {
		c, err := Make(op, seed+k*0x9e3779b97f4a7c15)
		if err != nil {
			return nil, err
		}
		w, err := c.request(base)
		if err != nil {
			last = err
			continue
		}
		if other := routedTo(doc, w.path, op.Method); other != nil && other != op {
			last = unmade(op, "the request for %s routes to %s", w.path, other.Name)
			continue
		}
		return w.req, nil
	}
	return nil, last
}

// routesTo reports whether an escaped path and op's method route to op.
func routesTo(doc *openapi.Document, path string, op *openapi.Operation) bool {
	return routedTo(doc, path, op.Method) == op
}

// routedTo returns the operation an escaped path and a method route to,
// or nil.
func routedTo(doc *openapi.Document, path, method string) *openapi.Operation {
	route, _ := doc.Router().FindFor(path, method)
	if route == nil {
		return nil
	}
	return route.Operation(method)
}

// escape percent-encodes every byte of s but the unreserved characters
// of RFC 3986. A value so written reads the same in a path, a query and a
// cookie, and holds no delimiter of any style but label's '.'.
func escape(s string) string { return escapeBut(s, ".") }

// escapeLabel is escape for label style, where '.' delimits too.
func escapeLabel(s string) string { return escapeBut(s, "") }

// escapeLiteral percent-encodes what a path cannot carry as it is, for
// the literal text of a path template.
func escapeLiteral(s string) string { return escapeBut(s, "./:@!$&'()*+,;=") }

func escapeBut(s, keep string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '~' ||
			c < 0x80 && strings.IndexByte(keep, c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
