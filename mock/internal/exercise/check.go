package exercise

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/wire"
)

// Problem is one thing wrong with an answer.
type Problem struct {
	// Kind names the rule broken: "5xx", "status", "content-type",
	// "body" or "header".
	Kind string
	// Text says what is wrong and what the document declares, in one
	// line.
	Text string
	// Schema is where in the document the broken rule is, a JSON
	// pointer fragment (#/components/schemas/Plant/required); empty
	// when no schema is at fault.
	Schema string
}

// Check lists what is wrong with an answer to a valid request for op, an
// operation of doc, one line each: the Text of Judge's problems.
func Check(doc *openapi.Document, op *openapi.Operation, resp *http.Response, body []byte) []string {
	var out []string
	for _, p := range Judge(doc, op, resp, body) {
		out = append(out, p.Text)
	}
	return out
}

// Judge lists what is wrong with an answer to a valid request for op, an
// operation of doc; body is the answer's body, read in full (resp.Body is
// not read). An answer must not be a 5xx, unless the operation declares
// nothing else or its success schema has no finite value (and an operation that declares only 1xx statuses may
// answer 204, since no final 1xx exists); its status must be declared by
// op (exactly, by range such as 2XX, or by default); its Content-Type
// must be one of the declared media types of that response (ranges such
// as application/* count), and there must be no body where none is
// declared (a 1xx, 204 or 304 has none, whatever is declared: content
// declared for one cannot be sent); a JSON body must satisfy the declared schema, and the
// declared required headers must be present and every declared header
// valid (openapi's CheckResponse). An operation that declares no response
// at all (which OpenAPI 3.1 allows) admits any answer but a 5xx. The body of an answer to HEAD is not
// checked. Each problem names what is wrong and what the document
// declares.
func Judge(doc *openapi.Document, op *openapi.Operation, resp *http.Response, body []byte) []Problem {
	var out []Problem
	add := func(kind, format string, args ...any) []Problem {
		return append(out, Problem{Kind: kind, Text: fmt.Sprintf(format, args...)})
	}
	code := resp.StatusCode
	if code == http.StatusNoContent && declaresOnly(op, 100, 199) {
		return out // no final 1xx exists: an interim one, then 204
	}
	if code >= 500 && !answerable(op) {
		return out // the mock can only say it cannot answer
	}
	if code >= 500 && !declaresOnly(op, 500, 599) {
		out = add("5xx", "a 5xx answer: %d %s", code, clip(string(bytes.TrimSpace(body)), 300))
	}
	r := op.Response(code)
	if r == nil && len(op.Responses) == 0 && op.Default == nil {
		return out // the operation declares no answer: any is as good
	}
	if r == nil {
		return add("status", "status %d is not declared (%s declares %s)", code, op.Name, statuses(op))
	}
	ct := resp.Header.Get("Content-Type")
	head := op.Method == http.MethodHead || resp.Request != nil && resp.Request.Method == http.MethodHead
	switch {
	case len(r.Content) == 0:
		if len(body) > 0 {
			return add("content-type", "status %d declares no content, but the answer has a %d-byte body (Content-Type %q)", code, len(body), ct)
		}
	case len(body) == 0 && openapi.Bodiless(code):
		// The declared content cannot be sent with this status.
	case ct == "" && len(body) == 0 && !head:
		return add("content-type", "status %d declares content (%s), but the answer has no body", code, mediaTypes(r))
	default:
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil {
			return add("content-type", "Content-Type %q of status %d is malformed (declared: %s)", ct, code, mediaTypes(r))
		}
		if !declaresMedia(r, mt) {
			return add("content-type", "Content-Type %s is not declared for status %d (declared: %s)", mt, code, mediaTypes(r))
		}
	}
	if head {
		return out
	}
	req := checkRequest(doc, op, resp)
	if req == nil {
		return add("status", "cannot check the body and headers of status %d: no path routes to %s", code, op.Name)
	}
	r2 := *resp
	r2.Body = io.NopCloser(bytes.NewReader(body))
	for _, v := range doc.CheckResponse(req, &r2) {
		kind := "body"
		if strings.HasPrefix(v.Path, "header.") {
			kind = "header"
		}
		out = append(out, Problem{Kind: kind, Text: fmt.Sprintf("status %d: %s", code, violation(v)), Schema: v.Schema})
	}
	return out
}

// answerable reports whether some finite value satisfies the schema of
// op's success answer (see openapi.Schema.Finite): a mock cannot answer
// an operation whose schema requires itself with no way out, and says so
// with a 5xx.
func answerable(op *openapi.Operation) bool {
	_, r := op.Success()
	if r == nil || r.JSON() == nil {
		return true
	}
	return r.JSON().Schema.Finite()
}

// declaresOnly reports whether every response op declares has a status
// in [lo, hi]: then no answer outside it is possible.
func declaresOnly(op *openapi.Operation, lo, hi int) bool {
	if op.Default != nil || len(op.Responses) == 0 {
		return false
	}
	for _, r := range op.Responses {
		c := r.Code
		if c == 0 {
			c = int(r.Status[0]-'0') * 100
		}
		if c < lo || c > hi {
			return false
		}
	}
	return true
}

// violation writes a violation of an answer: body.owner.name: reason.
func violation(v openapi.Violation) string {
	switch {
	case v.Path == "response", strings.HasPrefix(v.Path, "header."):
		return v.Path + ": " + v.Reason
	case v.Path == "":
		return "body: " + v.Reason
	case strings.HasPrefix(v.Path, "["):
		return "body" + v.Path + ": " + v.Reason
	}
	return "body." + v.Path + ": " + v.Reason
}

// checkRequest returns a request that routes to op, for CheckResponse:
// the answer's own request where it does, else one for op's path
// template with each parameter "1".
func checkRequest(doc *openapi.Document, op *openapi.Operation, resp *http.Response) *http.Request {
	if resp.Request != nil && resp.Request.URL != nil && routesTo(doc, resp.Request.URL.EscapedPath(), op) {
		return &http.Request{Method: op.Method, URL: resp.Request.URL}
	}
	ones := make([]string, strings.Count(op.Path, "{"))
	for i := range ones {
		ones[i] = "1"
	}
	path := openapi.Fill(op.Path, ones)
	if !routesTo(doc, path, op) {
		return nil
	}
	return &http.Request{Method: op.Method, URL: &url.URL{Path: path}}
}

func declaresMedia(r *openapi.Response, mt string) bool {
	for _, m := range r.Content {
		if m.Type == mt || wire.MatchContentType(m.Type, mt) {
			return true
		}
	}
	return false
}

// statuses lists the statuses an operation declares.
func statuses(op *openapi.Operation) string {
	var out []string
	for _, r := range op.Responses {
		out = append(out, r.Status)
	}
	if op.Default != nil {
		out = append(out, "default")
	}
	if len(out) == 0 {
		return "no response"
	}
	return strings.Join(out, ", ")
}

// mediaTypes lists the media types a response declares.
func mediaTypes(r *openapi.Response) string {
	out := make([]string, len(r.Content))
	for i, m := range r.Content {
		out[i] = m.Type
	}
	return strings.Join(out, ", ")
}
