package mock

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/media"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Code is the numeric error value of an error answer (the "error" field of
// the Plant Store's Error schema). Codes are stable. The first three digits
// name the kind of problem in HTTP terms; the status sent is the one the
// operation declares for it.
type Code int32

// The error values plantmock answers with.
const (
	CodeBodyMissing    Code = 40000 // the request body is required but empty
	CodeBodyNotJSON    Code = 40001 // the body is not JSON (or not UTF-8)
	CodeContentType    Code = 40002 // the Content-Type is missing or not declared
	CodeBodyTooLarge   Code = 40003 // the body is over the size limit
	CodeSchema         Code = 40004 // the body breaks the request schema
	CodeParameter      Code = 40005 // a path, query, header or cookie parameter is invalid
	CodeScenario       Code = 40006 // X-Mock-Scenario names no loaded scenario
	CodePrefer         Code = 40007 // a Prefer header asks for something not declared
	CodeSession        Code = 40008 // X-Mock-Session is malformed, or there are too many sessions
	CodeFull           Code = 40009 // the store holds MaxResources resources
	CodeWebhook        Code = 40010 // an admin call names no declared webhook, or one without a subscriber
	CodeNoCredentials  Code = 40100 // no credentials for the declared security scheme
	CodeBadCredentials Code = 40101 // credentials of another scheme, or malformed
	CodeTokenRejected  Code = 40102 // a well-formed token that is not accepted
	CodeForbidden      Code = 40300 // the admin API refuses a page of another origin, or an unknown Host
	CodeNoRoute        Code = 40400 // no path of the document matches
	CodeNotFound       Code = 40401 // no resource with that identifier
	CodeMethod         Code = 40500 // the path does not declare the method
	CodeNotAcceptable  Code = 40600 // Accept takes none of the declared media types (406 declared)
	CodeDuplicate      Code = 40900 // a resource with that identifier exists
	CodeInternal       Code = 50000 // the mock could not build a conforming answer
	CodeBadGateway     Code = 50200 // with a proxy: the upstream failed (refused, reset, malformed answer)
	CodeGatewayTimeout Code = 50400 // with a proxy: the upstream did not answer in time
	CodeUnavailable    Code = 50300 // the shared store (Redis) did not answer in time
)

// errorCodes lists every Code, for working out which ones an error schema
// admits.
var errorCodes = []Code{
	CodeBodyMissing, CodeBodyNotJSON, CodeContentType, CodeBodyTooLarge, CodeSchema,
	CodeParameter, CodeScenario, CodePrefer, CodeSession, CodeFull, CodeWebhook,
	CodeNoCredentials, CodeBadCredentials, CodeTokenRejected, CodeForbidden,
	CodeNoRoute, CodeNotFound, CodeMethod, CodeNotAcceptable, CodeDuplicate, CodeInternal, CodeBadGateway, CodeUnavailable, CodeGatewayTimeout,
}

// class groups problems that choose their status from the same preferences.
type class uint8

const (
	classRequest     class = iota // malformed or missing body, bad parameters
	classSchema                   // schema violations
	classTooLarge                 // body over the limit
	classMediaType                // content type not accepted
	classConflict                 // duplicate identifier
	classNotFound                 // unknown identifier
	classUnavailable              // the shared store did not answer
	numClasses
)

// statusPreference lists, per class, the statuses to use when the operation
// declares them, best first. The first one is used when none is declared.
var statusPreference = [numClasses][]int{
	classRequest:   {400, 422},
	classSchema:    {422, 400},
	classTooLarge:  {413, 400, 422},
	classMediaType: {415, 400, 422},
	classConflict:  {409, 422, 400},
	classNotFound:  {404, 400, 422},
	// A 5xx the operation declares, else 503.
	classUnavailable: {503, 500, 502, 504},
}

// problem is a request the mock refuses or cannot answer. One function,
// refuse, turns it into an HTTP answer.
type problem struct {
	code       Code
	class      class
	status     int // fixed status (401, 404, 405, 500); 0 picks by class
	message    string
	violations []openapi.Violation
	more       bool      // more violations than listed, not looked for (openapi.Decoded)
	header     [2]string // one extra header: name, value
	challenges []string  // a 401's WWW-Authenticate challenges, one field each
}

func (p *problem) Error() string { return p.message }

// text returns the message with its violations appended: the first
// maxQuotedViolations, and how many more there are.
func (p *problem) text() string {
	if len(p.violations) == 0 {
		return p.message
	}
	quoted := p.violations[:min(len(p.violations), maxQuotedViolations)]
	more := ""
	if len(quoted) < len(p.violations) || p.more {
		more = "; " + moreViolations(len(p.violations), len(quoted), p.more)
	}
	n := len(p.message) + len(": ") + len("; ")*(len(quoted)-1) + len(more)
	for _, v := range quoted {
		n += v.Len()
	}
	var b strings.Builder
	b.Grow(n) // one allocation; growing as it went, with a string a violation, it took four for two
	b.WriteString(p.message)
	b.WriteString(": ")
	for i, v := range quoted {
		if i > 0 {
			b.WriteString("; ")
		}
		v.Build(&b)
	}
	b.WriteString(more)
	return b.String()
}

func invalid(code Code, c class, format string, args ...any) *problem {
	msg := format
	if len(args) > 0 || strings.Contains(format, "%") {
		msg = fmt.Sprintf(format, args...)
	}
	return &problem{code: code, class: c, message: msg}
}

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

// pickStatus returns the status an operation answers a problem class with.
func pickStatus(op *openapi.Operation, c class) int {
	for _, s := range statusPreference[c] {
		if op != nil && op.Declares(s) {
			return s
		}
	}
	return statusPreference[c][0]
}

// refuse answers x with p in the error shape of its operation (of the
// route's first operation for a 405, of the document for a 404), and
// notes p for the journal. It is the one place problems become answers.
func (s *Server) refuse(x *exchange, p *problem) {
	x.problem = p
	pl := x.plan
	if pl == nil && x.route != nil {
		pl = x.sv.anyPlan(x.route)
	}
	status := p.status
	if status == 0 {
		status = pl.status[p.class]
	}
	shape := x.sv.fallbackShape
	if pl != nil {
		shape = pl.errorShape(status)
	}
	h := x.w.Header()
	if p.header[0] != "" {
		h.Set(p.header[0], p.header[1])
	}
	if len(p.challenges) > 0 {
		h["Www-Authenticate"] = p.challenges
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
				writeJSON(&x.w, status, ct, body, x.sendsAfter(status))
			}
			s.logInternal(status, p)
			return
		}
	}
	writeJSON(&x.w, status, shape.contentType, shape.body(status, p), x.sendsAfter(status))
	s.logInternal(status, p)
}

// foreignError writes an error answer in a declared media type that is
// not JSON: the message as text where the schema is a string or there is
// none, else the usual error object written in that type.
func foreignError(m *openapi.Media, status int, p *problem) (string, []byte) {
	ct := media.ContentType(m.Type, "")
	if m.Schema == nil || m.Schema.Is("string") || media.KindOf(ct) == media.Text {
		return ct, []byte(p.text())
	}
	v := map[string]any{"error": json.Number(strconv.Itoa(int(p.code))), "message": p.text()}
	b, err := media.Encode(ct, v, m.Schema)
	if err != nil {
		return ct, media.Sample(ct, m.Schema)
	}
	return ct, b
}

// logInternal logs an internal error answer.
func (s *Server) logInternal(status int, p *problem) {
	if status >= 500 {
		s.log.Error("answered with an internal error", "status", status, "message", p.text())
	}
}

// unavailable is the problem of a request the shared store (Redis) did
// not serve in time: a 503, or the 5xx the operation declares. err says
// why; a problem of the caller's in it is passed through.
func unavailable(err error) *problem {
	var p *problem
	if errors.As(err, &p) {
		return p
	}
	return invalid(CodeUnavailable, classUnavailable, "the mock's shared store did not answer in time; retry (a change asked for may or may not have been stored): %v", err)
}

// internal is a problem of the mock's own: a 500.
func internal(format string, args ...any) *problem {
	p := invalid(CodeInternal, classRequest, format, args...)
	p.status = http.StatusInternalServerError
	return p
}
