package verify

import (
	"net/http"
	"time"
)

// DefaultTimeout is how long an answer may take when Options.Timeout is
// 0; a slower one is a failure.
const DefaultTimeout = 10 * time.Second

// DefaultStreamItems and DefaultStreamTime bound how much of a stream
// (an answer of a sequential media type: server-sent events, JSON Lines,
// a JSON text sequence, multipart/mixed) is read when Options.StreamItems
// and Options.StreamTime are 0: what arrived by then is judged, so that
// a stream that never ends ends its check.
const (
	DefaultStreamItems = 100
	DefaultStreamTime  = 2 * time.Second
)

// Options says how Run verifies a service. The zero value sends every
// request to every operation, with made-up credentials, within
// DefaultTimeout each.
type Options struct {
	// Header is added to every request, replacing what verify would
	// send under the same names: real credentials (Authorization), a
	// tenant, a trace header. Its values are shown as *** in the
	// report's curl lines.
	Header http.Header

	// Credentials are real credentials by security scheme, the keys of
	// components.securitySchemes: for an http bearer scheme (and OAuth 2
	// and OpenID Connect) the token, sent as "Authorization: Bearer
	// TOKEN"; for http basic "user:password", sent base64-encoded; for
	// http digest "user:password", never sent: each request answers the
	// service's challenge with them (RFC 7616), the request challenged
	// sent again; for another http scheme what follows the scheme's name
	// in Authorization; for an apiKey the key, in the header, query
	// parameter or cookie the scheme names. Each request presents the
	// first security alternative of its operation whose schemes all have
	// credentials here (else the one verify makes credentials up for,
	// with these in place of made-up ones). Their values are shown as ***
	// in the report's curl lines. Run fails when a name is not a scheme
	// of the document, a basic or digest value has no colon, or a scheme is
	// mutualTLS.
	Credentials map[string]string

	// Scoped are further credentials that each hold some scopes of a
	// scheme only. A request presents, for an operation that asks scopes
	// of a scheme, the first scoped credential that holds them all, else
	// the scheme's Credentials value. Each scoped credential that lacks
	// one of them is sent once to the operation, in an otherwise valid
	// request that must be refused: a service that takes it ignores the
	// scope. An OAuth 2 scheme with a client credentials flow takes
	// "client_id:secret" here and in Credentials: a token is fetched at
	// its tokenUrl (for a scoped credential, with its scopes) before the
	// run, and sent instead. Run fails when a Scheme is not one of the
	// document's, or a token endpoint gives no token.
	Scoped []ScopedCredential

	// Only, when not empty, names the operations to verify, by
	// operationId or as "METHOD /path/template"; Skip names operations
	// to leave out. Run fails when a name matches no operation.
	Only, Skip []string

	// NoDestructive leaves out the operations that change or remove
	// what exists: DELETE, PUT and PATCH.
	NoDestructive bool

	// DryRun makes every request and reports it, without sending any.
	DryRun bool

	// MaxRequests bounds how many requests are sent; 0 means no bound.
	// Once it is reached, Run stops and says so in Report.Stopped.
	MaxRequests int

	// Rate bounds how many requests are sent a second, evenly spaced
	// (no bursts); 0 means no bound.
	Rate float64

	// Duration is the run's time budget; 0 means no bound. When it runs
	// out, Run stops (an answer under way is not waited for, nor
	// judged) and says so in Report.Stopped.
	Duration time.Duration

	// Seed makes the generated values reproducible: the same seed and
	// document give the same requests.
	Seed uint64

	// Timeout is how long each answer may take; 0 means
	// DefaultTimeout.
	Timeout time.Duration

	// StreamItems and StreamTime bound how much of each answer of a
	// sequential media type with an item schema is read: that many
	// items, for that long from the answer's headers (and never past
	// Timeout from the request); 0 means DefaultStreamItems and
	// DefaultStreamTime. Each item is judged as it arrives; a stream cut
	// at the bound is judged on the items that arrived, and is no
	// failure.
	StreamItems int
	StreamTime  time.Duration

	// AssertFormats holds the service to the formats plantmock asserts
	// (date, date-time, uuid, email, ipv4, ipv6, uri, int32, int64):
	// a value breaking one is then a failure, not advice. Without it,
	// formats are asserted only where the document's dialect asserts
	// them (the format-assertion vocabulary of JSON Schema 2020-12).
	AssertFormats bool

	// Workflows, when not nil, are Arazzo workflows to run instead of
	// the checks of every operation: each step's answer is judged by the
	// document, and a workflow that fails is a failure at the step it
	// failed at (see Workflows). Run fails when the description cannot
	// be read.
	Workflows *Workflows

	// Setup, when not nil, makes fixtures before the checks (see Setup):
	// its outputs are the values of the path parameters of their names,
	// so that operations on items that must exist run on ones that do.
	// Run fails when it cannot be read, or names an operation or a
	// workflow the document or description does not have.
	Setup *Setup

	// Previous, when not empty, is the document's previous version (OLD:
	// OpenAPI in YAML or JSON). Each failure is judged again, on the same
	// request and answer, against OLD's operation of the same method and
	// path template (parameters unnamed): Failure.AgainstPrevious says
	// whether OLD was broken the same way, and Report.Previous counts
	// the failures that come with the new version. Run fails when it
	// cannot be loaded.
	Previous []byte

	// Client sends the requests; nil means a client that follows no
	// redirects. Its Timeout is replaced by Timeout.
	Client *http.Client
}
