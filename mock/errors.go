package mock

import (
	"encoding/json"
	"strconv"

	"github.com/plantmock/plantmock/mock/internal/media"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// SpecError reports an OpenAPI document the mock cannot serve.
type SpecError struct{ Err error }

// Error says what is wrong with the document.
func (e *SpecError) Error() string { return "OpenAPI document: " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *SpecError) Unwrap() error { return e.Err }

// ScenarioError reports scenarios that do not fit the document. Its
// message has one line per problem: "file:line: rule N: why".
type ScenarioError struct{ Err error }

// Error lists the problems, one per line.
func (e *ScenarioError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *ScenarioError) Unwrap() error { return e.Err }

// refuse answers x with p in the error shape of its operation (of the
// route's first operation for a 405, of the document for a 404), and
// notes p for the journal. It is the one place problems become answers.
func (s *Server) refuse(x *exchange, p *problem.Problem) {
	x.problem = p
	pl := x.plan
	if pl == nil && x.route != nil {
		pl = x.sv.anyPlan(x.route)
	}
	status := p.Status
	if status == 0 {
		status = pl.status[p.Class]
	}
	shape := x.sv.fallbackShape
	if pl != nil {
		shape = pl.errorShape(status)
	}
	h := x.w.Header()
	if p.Header[0] != "" {
		h.Set(p.Header[0], p.Header[1])
	}
	if len(p.Challenges) > 0 {
		h["Www-Authenticate"] = p.Challenges
	}
	if pl != nil && pl.errHeaders != nil {
		for _, rh := range pl.errHeaders[pl.op.Response(status)] {
			if len(h.Values(rh.name)) == 0 {
				h.Set(rh.name, rh.value(s, x))
			}
		}
	}
	if x.plan != nil {
		if resp := x.plan.op.Response(status); resp != nil && resp.JSON() == nil {
			// The document declares this answer without a JSON body: none,
			// or one of another media type.
			if len(resp.Content) == 0 {
				h.Set("Content-Length", "0")
				x.w.WriteHeader(status)
			} else {
				ct, body := foreignError(resp.Content[0], status, p)
				writeJSON(&x.w, status, ct, body, x.flushes(status))
			}
			s.logInternal(status, p)
			return
		}
	}
	writeJSON(&x.w, status, shape.ContentType, shape.Body(status, p), x.flushes(status))
	s.logInternal(status, p)
}

// foreignError writes an error answer in a declared media type that is
// not JSON: the message as text where the schema is a string or there is
// none, else the usual error object written in that type.
func foreignError(m *openapi.Media, status int, p *problem.Problem) (string, []byte) {
	ct := media.ContentType(m.Type, "")
	if m.Schema == nil || m.Schema.Is("string") || media.KindOf(ct) == media.Text {
		return ct, []byte(p.Text())
	}
	v := map[string]any{"error": json.Number(strconv.Itoa(int(p.Code))), "message": p.Text()}
	b, err := media.Encode(ct, v, m.Schema)
	if err != nil {
		return ct, media.Sample(ct, m.Schema)
	}
	return ct, b
}

// logInternal logs an internal error answer.
func (s *Server) logInternal(status int, p *problem.Problem) {
	if status >= 500 {
		s.log.Error("answered with an internal error", "status", status, "message", p.Text())
	}
}

// Code is the numeric error value of an error answer (the "error" field of
// the Plant Store's Error schema). Codes are stable. The first three digits
// name the kind of problem in HTTP terms; the status sent is the one the
// operation declares for it.
type Code = problem.Code

// The error values plantmock answers with.
const (
	CodeBodyMissing    = problem.CodeBodyMissing    // the request body is required but empty
	CodeBodyNotJSON    = problem.CodeBodyNotJSON    // the body is not JSON (or not UTF-8)
	CodeContentType    = problem.CodeContentType    // the Content-Type is missing or not declared
	CodeBodyTooLarge   = problem.CodeBodyTooLarge   // the body is over the size limit
	CodeSchema         = problem.CodeSchema         // the body breaks the request schema
	CodeParameter      = problem.CodeParameter      // a path, query, header or cookie parameter is invalid
	CodeScenario       = problem.CodeScenario       // X-Mock-Scenario names no loaded scenario
	CodePrefer         = problem.CodePrefer         // a Prefer header asks for something not declared
	CodeSession        = problem.CodeSession        // X-Mock-Session is malformed, or there are too many sessions
	CodeFull           = problem.CodeFull           // the store holds MaxResources resources
	CodeWebhook        = problem.CodeWebhook        // an admin call names no declared webhook, or one without a subscriber
	CodeNoCredentials  = problem.CodeNoCredentials  // no credentials for the declared security scheme
	CodeBadCredentials = problem.CodeBadCredentials // credentials of another scheme, or malformed
	CodeTokenRejected  = problem.CodeTokenRejected  // a well-formed token that is not accepted
	CodeForbidden      = problem.CodeForbidden      // the admin API refuses a page of another origin, or an unknown Host
	CodeNoRoute        = problem.CodeNoRoute        // no path of the document matches
	CodeNotFound       = problem.CodeNotFound       // no resource with that identifier
	CodeMethod         = problem.CodeMethod         // the path does not declare the method
	CodeNotAcceptable  = problem.CodeNotAcceptable  // Accept takes none of the declared media types (406 declared)
	CodeDuplicate      = problem.CodeDuplicate      // a resource with that identifier exists
	CodeInternal       = problem.CodeInternal       // the mock could not build a conforming answer
	CodeBadGateway     = problem.CodeBadGateway     // with a proxy: the upstream failed (refused, reset, malformed answer)
	CodeGatewayTimeout = problem.CodeGatewayTimeout // with a proxy: the upstream did not answer in time
	CodeUnavailable    = problem.CodeUnavailable    // the shared store (Redis) did not answer in time
)
