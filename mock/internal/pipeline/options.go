package pipeline

import (
	"time"

	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/option"
)

// ProxyOptions put a mock in front of a real service: requests are
// checked as usual, and those no Prefer header or scenario rule answers
// are forwarded. The zero value forwards nothing.
type ProxyOptions struct {
	// URL, when set, is the base URL of the real service (empty, the
	// default: none). A forwarded request has its path joined to the
	// URL's, hop-by-hop headers dropped, Host rewritten and
	// X-Forwarded-* added. The answer is checked against the document
	// and passed on unchanged; the ways the exchange broke the document
	// are counted in the X-Mock-Violations header, listed in the journal
	// and logged. The upstream is reached whatever its name resolves to
	// (it is the operator's choice), never at an address Serve or
	// ServeAdmin serves on; its redirects are passed to the client, not
	// followed.
	URL string

	// Invalid says what the mock does with a request that breaks the
	// document: "forward" (the default, also "") passes it on, "refuse"
	// answers it as the mock would.
	Invalid string

	// Only lists the operations ("GET /plants/{id}") forwarded: the
	// others are mocked, and requests that match no operation are refused
	// as without a proxy. MockOnly lists instead the operations the mock
	// answers itself, forwarding the rest. Give one or neither; empty
	// (the default) forwards every operation.
	Only     []string
	MockOnly []string

	// Timeout bounds a forwarded exchange; 0 means DefaultProxyTimeout.
	// Past it the client gets 504 with error CodeGatewayTimeout; an
	// upstream that fails gets 502, CodeBadGateway.
	Timeout time.Duration

	// Record, when set, is a folder to write what the real service
	// answers to, as the mock's own inputs (empty, the default, records
	// nothing): a scenario file per operation (recorded-post-plants.yaml)
	// whose rules answer each distinct request as the service did, and
	// seed-data.json with the resources it returned. Credentials, cookies
	// and Set-Cookie are never written; RecordRedact (default: none)
	// names more headers and body properties to leave out (body
	// properties of answers are written as "REDACTED"). Each operation has
	// a file name of its own (recorded-get-plants-{id}.yaml; "-" in a
	// path is written "~", so /a-b and /a/b stay apart), and files are
	// replaced through new temporary files: nothing is written outside the
	// folder, nor through a link planted in it. Requests only keep what
	// they record in memory (64 MiB at most; past it exchanges are
	// counted, not recorded); the files are written by the admin call
	// POST /__admin/record/snapshot, when Serve ends, and by Close.
	Record       string
	RecordRedact []string
}

// OptionError, ProxyError and WebhookError are option's errors.
type (
	OptionError  = option.Error
	ProxyError   = option.ProxyError
	WebhookError = option.WebhookError
)

// The headers the mock reads and writes beside those of the document.
const (
	// ScenarioHeader selects a scenario for one request, overriding the
	// active one.
	ScenarioHeader = "X-Mock-Scenario"

	// ViolationsHeader is journal's.
	ViolationsHeader = journal.ViolationsHeader
)
