package problem

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

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

// ErrorCodes lists every Code, for working out which ones an error schema
// admits.
var ErrorCodes = []Code{
	CodeBodyMissing, CodeBodyNotJSON, CodeContentType, CodeBodyTooLarge, CodeSchema,
	CodeParameter, CodeScenario, CodePrefer, CodeSession, CodeFull, CodeWebhook,
	CodeNoCredentials, CodeBadCredentials, CodeTokenRejected, CodeForbidden,
	CodeNoRoute, CodeNotFound, CodeMethod, CodeNotAcceptable, CodeDuplicate, CodeInternal, CodeBadGateway, CodeUnavailable, CodeGatewayTimeout,
}

// Class groups problems that choose their status from the same preferences.
type Class uint8

const (
	ClassRequest     Class = iota // malformed or missing body, bad parameters
	ClassSchema                   // schema violations
	ClassTooLarge                 // body over the limit
	ClassMediaType                // content type not accepted
	ClassConflict                 // duplicate identifier
	ClassNotFound                 // unknown identifier
	ClassUnavailable              // the shared store did not answer
	NumClasses
)

// statusPreference lists, per class, the statuses to use when the operation
// declares them, best first. The first one is used when none is declared.
var statusPreference = [NumClasses][]int{
	ClassRequest:   {400, 422},
	ClassSchema:    {422, 400},
	ClassTooLarge:  {413, 400, 422},
	ClassMediaType: {415, 400, 422},
	ClassConflict:  {409}, // see openapi.Operation.Conflict
	ClassNotFound:  {404}, // see openapi.Operation.NotFound
	// A 5xx the operation declares, else 503.
	ClassUnavailable: {503, 500, 502, 504},
}

// Problem is a request the mock refuses or cannot answer. One function
// of the mock's, refuse, turns it into an HTTP answer.
type Problem struct {
	Code       Code
	Class      Class
	Status     int // fixed status (401, 404, 405, 500); 0 picks by class
	Message    string
	Violations []openapi.Violation
	More       bool      // more violations than listed, not looked for (openapi.Decoded)
	Header     [2]string // one extra header: name, value
	Challenges []string  // a 401's WWW-Authenticate challenges, one field each
	// Drift, on a refusal for breaking the contract, says that the
	// previous version of the document accepts the request (the
	// journal's Entry.Drift); empty otherwise.
	Drift string
}

func (p *Problem) Error() string { return p.Message }

// Text returns the message with its violations appended: the first
// MaxQuotedViolations, and how many more there are.
func (p *Problem) Text() string {
	if len(p.Violations) == 0 {
		return p.Message
	}
	quoted := p.Violations[:min(len(p.Violations), MaxQuotedViolations)]
	more := ""
	if len(quoted) < len(p.Violations) || p.More {
		more = "; " + MoreViolations(len(p.Violations), len(quoted), p.More)
	}
	n := len(p.Message) + len(": ") + len("; ")*(len(quoted)-1) + len(more)
	for _, v := range quoted {
		n += v.Len()
	}
	var b strings.Builder
	b.Grow(n) // one allocation; growing as it went, with a string a violation, it took four for two
	b.WriteString(p.Message)
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

// Invalid returns the problem of a request refused with code, whose
// status class c chooses: the message is format with args.
func Invalid(code Code, c Class, format string, args ...any) *Problem {
	msg := format
	if len(args) > 0 || strings.Contains(format, "%") {
		msg = fmt.Sprintf(format, args...)
	}
	return &Problem{Code: code, Class: c, Message: msg}
}

// PickStatus returns the status an operation answers a problem class with.
// An unknown identifier's is the operation's NotFound, a duplicate's
// its Conflict; else 404 and 409.
func PickStatus(op *openapi.Operation, c Class) int {
	if op != nil && (c == ClassNotFound || c == ClassConflict) {
		s := op.NotFound()
		if c == ClassConflict {
			s = op.Conflict()
		}
		if s != 0 {
			return s
		}
	}
	for _, s := range statusPreference[c] {
		if op != nil && op.Declares(s) {
			return s
		}
	}
	return statusPreference[c][0]
}

// Unavailable is the problem of a request the shared store (Redis) did
// not serve in time: a 503, or the 5xx the operation declares. err says
// why; a problem of the caller's in it is passed through.
func Unavailable(err error) *Problem {
	var p *Problem
	if errors.As(err, &p) {
		return p
	}
	return Invalid(CodeUnavailable, ClassUnavailable, "the mock's shared store did not answer in time; retry (a change asked for may or may not have been stored): %v", err)
}

// Internal is a problem of the mock's own: a 500.
func Internal(format string, args ...any) *Problem {
	p := Invalid(CodeInternal, ClassRequest, format, args...)
	p.Status = http.StatusInternalServerError
	return p
}

// Contract reports whether the code rejects a request for breaking the
// contract (its route, security, parameters or body), as opposed to the
// state of the mock (a duplicate or unknown identifier) or its control
// headers.
func (c Code) Contract() bool {
	switch c {
	case CodeBodyMissing, CodeBodyNotJSON, CodeContentType, CodeBodyTooLarge, CodeSchema, CodeParameter,
		CodeNoCredentials, CodeBadCredentials, CodeTokenRejected, CodeNoRoute, CodeMethod:
		return true
	}
	return false
}

// Document reports whether the code rejects a request for breaking the
// document itself: a Contract refusal but for a body over the mock's
// size limit, which is the mock's bound, not the document's. Such a
// request is what a proxy forwards anyway and what is judged against a
// previous document.
func (c Code) Document() bool { return c.Contract() && c != CodeBodyTooLarge }
