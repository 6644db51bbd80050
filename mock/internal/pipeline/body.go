package pipeline

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// checkBody reads the request body and validates it against the
// operation: size, Content-Type, JSON syntax and schema. It puts the body
// as read and its decoded JSON value in x. A JSON body is read and judged
// in one pass by the schema's fast path, which names what is wrong as the
// validator would; a body the fast path cannot be sure of is decoded, then
// validated.
func (s *Engine) checkBody(x *exchange) *problem.Problem {
	op, r := x.Plan.Op, x.R
	if op.Body == nil {
		return unwantedBody(x)
	}
	if r.ContentLength > s.MaxBody {
		return problem.Invalid(problem.CodeBodyTooLarge, problem.ClassTooLarge, "request body of %d bytes is over the limit of %d bytes", r.ContentLength, s.MaxBody)
	}
	body := r.Body
	if r.ContentLength < 0 {
		body = http.MaxBytesReader(&x.W, r.Body, s.MaxBody) // unknown length: stop at the limit
	}
	raw, err := readAll(body, r.ContentLength)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return problem.Invalid(problem.CodeBodyTooLarge, problem.ClassTooLarge, "request body is over the limit of %d bytes", s.MaxBody)
		}
		return problem.Invalid(problem.CodeBodyNotJSON, problem.ClassRequest, "request body could not be read: %v", err)
	}
	x.Raw, x.bodyRead = raw, true
	ct := headerValue(r.Header, "Content-Type")
	if len(raw) == 0 && ct == "" {
		return requiredBody(op.Body)
	}
	media, p := matchMedia(op.Body, ct)
	if p != nil {
		return p
	}
	if len(raw) == 0 {
		return requiredBody(op.Body)
	}
	if media.Itemized() {
		return checkItems(r, media, raw, ct)
	}
	if media.IsForm() {
		v, vs := media.DecodeForm(raw, ct)
		if p := gone(r); p != nil {
			return p
		}
		if len(vs) == 0 && media.Schema != nil {
			vs = media.Schema.ValidateRequest(v)
		}
		if len(vs) > 0 {
			return &problem.Problem{Code: problem.CodeSchema, Class: problem.ClassSchema, Message: "request body does not match the schema", Violations: vs}
		}
		x.Body = v
		return nil
	}
	if !openapi.IsJSON(media.Type) {
		return nil // other media types are accepted as they are
	}
	d, ok := media.Schema.DecodeRequest(r.Context(), raw) // read and checked in one pass
	v, vs := d.Value, d.Violations
	if !ok {
		if p := gone(r); p != nil {
			return p // the fast path stopped for it, or the validator would run for nobody
		}
		var err error
		if v, err = jsonx.Decode(raw); err != nil {
			return problem.Invalid(problem.CodeBodyNotJSON, problem.ClassRequest, "%s", err.Error())
		}
		vs = media.Schema.ValidateRequest(v)
	}
	if len(vs) > 0 {
		return &problem.Problem{Code: problem.CodeSchema, Class: problem.ClassSchema, Message: "request body does not match the schema", Violations: vs, More: d.More}
	}
	x.Body = v
	return nil
}

// checkItems checks a body of a sequential media type (JSON Lines, a
// JSON text sequence, multipart/mixed) item by item against its item
// schema, and refuses the first item that breaks it, naming it:
// item[3].name.
// The body is read already: a bytes.Reader gives CheckItems no error to
// return.
func checkItems(r *http.Request, media *openapi.Media, raw []byte, ct string) *problem.Problem {
	vs, _ := media.CheckItems(bytes.NewReader(raw), ct, true)
	if p := gone(r); p != nil {
		return p
	}
	if len(vs) > 0 {
		return &problem.Problem{Code: problem.CodeSchema, Class: problem.ClassSchema, Message: "request body does not match the item schema", Violations: vs}
	}
	return nil
}

// gone returns the problem of a request whose client has gone before its
// body was checked, or nil. The checks that can take milliseconds (a big
// body, thousands of violations) look at the request's context first, or
// as they go, so that a client that leaves does not leave work behind;
// the schema library's own validation, once started, runs to its end.
func gone(r *http.Request) *problem.Problem {
	if err := r.Context().Err(); err != nil {
		return problem.Invalid(problem.CodeBodyNotJSON, problem.ClassRequest, "request body was not checked: the client has gone (%v)", err)
	}
	return nil
}

// unwantedBody is the problem of a body sent to an operation that
// declares none: answered with the operation's 415, else its 400. An
// operation that declares neither has no way to say no, and its body is
// ignored, as HTTP servers ignore a GET's: inventing an undeclared 4xx
// would break the contract a client was written against.
func unwantedBody(x *exchange) *problem.Problem {
	status, r := x.Plan.NoBody, x.R
	if status == 0 || r.ContentLength == 0 {
		return nil
	}
	if r.ContentLength < 0 { // unknown length: is there a byte?
		var one [1]byte
		if n, _ := io.ReadFull(r.Body, one[:]); n == 0 {
			return nil
		}
	}
	p := problem.Invalid(problem.CodeContentType, problem.ClassMediaType, "%s %s takes no request body; send none", x.Plan.Op.Method, x.Plan.Op.Path)
	p.Status = status
	return p
}

// requiredBody is the problem of an empty body: none when it is optional.
func requiredBody(b *openapi.RequestBody) *problem.Problem {
	if !b.Required {
		return nil
	}
	return problem.Invalid(problem.CodeBodyMissing, problem.ClassRequest, "request body is required (%s)", declaredTypes(b))
}

// readAll reads a body, sized by its Content-Length when known.
func readAll(r io.Reader, n int64) ([]byte, error) {
	if n <= 0 {
		return io.ReadAll(r)
	}
	buf := make([]byte, n, n+1)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, err
	}
	// A body longer than its Content-Length is cut by net/http; read to EOF
	// to surface a limit error from MaxBytesReader, if any.
	var one [1]byte
	if k, err := r.Read(one[:]); k > 0 || (err != nil && err != io.EOF) {
		rest, err2 := io.ReadAll(r)
		if err2 != nil {
			return nil, err2
		}
		return append(append(buf, one[:k]...), rest...), err
	}
	return buf, nil
}

// matchMedia finds the declared media type for a Content-Type header.
func matchMedia(b *openapi.RequestBody, ct string) (*openapi.Media, *problem.Problem) {
	if ct == "application/json" {
		for _, m := range b.Content {
			if m.Type == ct {
				return m, nil
			}
		}
	}
	if ct == "" {
		return nil, problem.Invalid(problem.CodeContentType, problem.ClassMediaType, "missing Content-Type; send %s", declaredTypes(b))
	}
	mt, params, err := mime.ParseMediaType(ct)
	if errors.Is(err, mime.ErrInvalidMediaParameter) {
		// Parameters that are not name=value (text/plain; utf-8, as a
		// document may itself declare it): the type alone is read.
		err = nil
	}
	if err != nil {
		return nil, problem.Invalid(problem.CodeContentType, problem.ClassMediaType, "malformed Content-Type %q; send %s", Clip(ct, 60), declaredTypes(b))
	}
	if cs, ok := params["charset"]; ok && openapi.IsJSON(mt) && !strings.EqualFold(cs, "utf-8") {
		return nil, problem.Invalid(problem.CodeContentType, problem.ClassMediaType, "charset %q is not accepted; JSON must be UTF-8", Clip(cs, 20))
	}
	if m := b.Media(mt); m != nil {
		return m, nil
	}
	return nil, problem.Invalid(problem.CodeContentType, problem.ClassMediaType, "Content-Type %s is not accepted; send %s", Clip(mt, 60), declaredTypes(b))
}

func declaredTypes(b *openapi.RequestBody) string {
	ts := make([]string, len(b.Content))
	for i, m := range b.Content {
		ts[i] = m.Type
	}
	return strings.Join(ts, " or ")
}
