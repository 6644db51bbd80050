package verify

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Why an answer to a method a path does not declare is advice (see
// docs/verify.md, "Fail or advice").
const (
	whyMethodTaken = "a document may leave operations out (OpenAPI: a path item MAY be empty, due to ACL constraints), so a method it does not declare may still be served; where it is not, 405 is the status for it (RFC 9110 section 15.5.6)"
	whyMethod404   = "RFC 9110 lets a service answer 404 for a resource it will not disclose (section 15.5.5); 405 says the resource is there and the method is not (section 15.5.6)"
	whyMethod501   = "501 says the service does not recognize the method for any resource (RFC 9110 section 15.6.2), right where it serves the method nowhere; 405 is the status for a method this resource does not support (section 15.5.6)"
	whyMethod4xx   = "405 is the status for a method the resource does not support (RFC 9110 section 15.5.6); another refusal still refuses it"
	whyAllow       = "the Allow header lists the methods the resource supports at the time (RFC 9110 section 10.2.1), which may differ from those the document declares (one switched off for a while)"
)

// otherMethods are the methods tried on a path that does not declare
// them, in order: GET first, as it changes nothing.
func otherMethods() []string {
	return []string{http.MethodGet, http.MethodPatch, http.MethodPut, http.MethodPost, http.MethodDelete}
}

// unsupported sends, once for each path of the document, a request in
// the first method of otherMethods the path does not declare (but PUT,
// PATCH and DELETE where Options.NoDestructive), made from c, a valid
// call of an operation of the path: its URL, headers and credentials,
// no body. It must be refused with 405 and an Allow header (RFC 9110
// section 15.5.6). Neither HEAD nor OPTIONS is tried: a server answers
// them for any resource it serves.
func (r *runner) unsupported(ctx context.Context, c *exercise.Call) error {
	req, _, err := r.prepare(c)
	if err != nil {
		return nil // the positive checks said why
	}
	path := strings.TrimPrefix(req.URL.EscapedPath(), r.prefix)
	route, _ := r.doc.Router().Find(path)
	if route == nil || r.methodsTried[route] {
		return nil
	}
	r.methodsTried[route] = true
	method := ""
	for _, m := range otherMethods() {
		if r.opts.NoDestructive && m != http.MethodGet && m != http.MethodPost {
			continue
		}
		if other, _ := r.doc.Router().FindFor(path, m); other != nil && other.Operation(m) != nil {
			continue // declared here, or by a template the path matches too
		}
		method = m
		break
	}
	if method == "" {
		return nil
	}
	out, err := http.NewRequest(method, req.URL.String(), nil)
	if err != nil {
		return nil
	}
	for k, vs := range req.Header {
		if k != "Content-Type" {
			out.Header[k] = slices.Clone(vs)
		}
	}
	_, err = r.send(ctx, c.Op, "negative", "unsupported method "+method, out, nil, judgeMethod(route, method))
	return err
}

// judgeMethod judges the answer to a request in method, which route
// does not declare: 405 with an Allow header that lists the methods the
// route declares (HEAD and OPTIONS aside) and not method. An Allow
// header missing is a failure (RFC 9110 requires it); one that differs
// from the document, any other refusal, and an answer that takes the
// request are advice; a 5xx but 501 is a failure.
func judgeMethod(route *openapi.Route, method string) func(*sent) []*Failure {
	return func(s *sent) []*Failure {
		code := s.resp.StatusCode
		what := fmt.Sprintf("%s %s, a method the path does not declare (it declares %s)", method, route.Path, route.Allow)
		switch {
		case code == http.StatusMethodNotAllowed:
			return judgeAllow(s.resp.Header, route, method)
		case code == http.StatusNotImplemented:
			return []*Failure{{Rule: "unsupported method", Text: fmt.Sprintf("status 501 to %s; 405 is the status for it", what), Why: whyMethod501}}
		case code >= 500:
			return []*Failure{{Rule: "5xx", Text: fmt.Sprintf("a 5xx answer to %s: %d %s", what, code, oneLine(string(s.answer), 200))}}
		case code == http.StatusNotFound:
			return []*Failure{{Rule: "unsupported method", Text: fmt.Sprintf("status 404 to %s; 405 is the status for it", what), Why: whyMethod404}}
		case code >= 400:
			return []*Failure{{Rule: "unsupported method", Text: fmt.Sprintf("status %d to %s; 405 is the status for it", code, what), Why: whyMethod4xx}}
		}
		return []*Failure{{Rule: "unsupported method", Text: fmt.Sprintf("status %d: the service took %s", code, what), Why: whyMethodTaken}}
	}
}

// judgeAllow judges a 405's Allow header against the methods route
// declares.
func judgeAllow(h http.Header, route *openapi.Route, method string) []*Failure {
	vs, ok := h["Allow"]
	if !ok {
		return []*Failure{{Rule: "allow", Text: fmt.Sprintf("status 405 to %s %s without an Allow header, which RFC 9110 requires of a 405 (section 15.5.6): the methods the resource supports (%s)", method, route.Path, route.Allow)}}
	}
	var allow []string
	for _, v := range vs {
		for _, m := range strings.Split(v, ",") {
			if m = strings.TrimSpace(m); m != "" {
				allow = append(allow, m)
			}
		}
	}
	var wrong []string
	for _, m := range strings.Split(route.Allow, ", ") {
		if m != http.MethodHead && m != http.MethodOptions && !slices.Contains(allow, m) {
			wrong = append(wrong, "lacks "+m+", which the document declares")
		}
	}
	if slices.Contains(allow, method) {
		wrong = append(wrong, "lists "+method+", which the service refused")
	}
	if len(wrong) == 0 {
		return nil
	}
	return []*Failure{{Rule: "allow", Text: fmt.Sprintf("status 405 to %s %s: Allow: %s %s", method, route.Path, strings.Join(vs, ", "), strings.Join(wrong, "; ")), Why: whyAllow}}
}
