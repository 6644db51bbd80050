package verify

import (
	"net/http"
	"time"
)

// DefaultTimeout is how long an answer may take when Options.Timeout is
// 0; a slower one is a failure.
const DefaultTimeout = 10 * time.Second

// Options says how Run verifies a service. The zero value sends every
// request to every operation, with made-up credentials, within
// DefaultTimeout each.
type Options struct {
	// Header is added to every request, replacing what verify would
	// send under the same names: real credentials (Authorization), a
	// tenant, a trace header. Its values are shown as *** in the
	// report's curl lines.
	Header http.Header

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

	// Seed makes the generated values reproducible: the same seed and
	// document give the same requests.
	Seed uint64

	// Timeout is how long each answer may take; 0 means
	// DefaultTimeout.
	Timeout time.Duration

	// Client sends the requests; nil means a client that follows no
	// redirects. Its Timeout is replaced by Timeout.
	Client *http.Client
}
