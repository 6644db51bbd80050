package mock

import (
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
