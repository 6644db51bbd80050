package pipeline

import (
	"time"

	"github.com/plantmock/plantmock/mock/internal/session"
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

// WebhookOptions say where the document's webhooks (OpenAPI 3.1) go and
// how webhooks and callbacks are sent. The zero value subscribes nothing,
// lets callbacks reach loopback alone and sends with the defaults.
type WebhookOptions struct {
	// Subscribers subscribe URLs to the document's webhooks, by name, in
	// every session (default: none); a session changes its own through
	// the admin API. A webhook is sent after a create that stores what
	// its body schema describes, when a scenario rule names it, and when
	// the admin API sends it.
	Subscribers map[string]session.Subscriber

	// Allow lists the hosts callbacks may be sent to (host, host:port,
	// *.domain, "loopback" or "*"): a callback URL taken from a request
	// or the document goes nowhere else. Empty (the default) means
	// loopback; the hosts of Subscribers are always in it. It is checked
	// again on the addresses a name resolves to, when a webhook or
	// callback connects: loopback addresses need "loopback" (or the
	// address), link-local and cloud metadata addresses need the address
	// itself, whatever name or "*" led there. No webhook or callback ever
	// connects to the addresses Serve and ServeAdmin serve on.
	Allow []string

	// Timeout bounds each attempt of a webhook or callback; 0 means
	// DefaultWebhookTimeout. An attempt that cannot connect, times out
	// or gets a 5xx is retried Retries times (0: DefaultWebhookRetries;
	// negative: never), after a backoff that doubles from Backoff (0:
	// DefaultWebhookBackoff), with jitter. At most Queue deliveries (0:
	// DefaultWebhookQueue) are under way at once; more are dropped with a
	// log line.
	Timeout time.Duration
	Retries int
	Backoff time.Duration
	Queue   int
}

// OptionError is an Options value New cannot use. Name is the option as
// the command line spells it ("admin-cors").
type OptionError struct {
	Name string
	Err  error
}

// Error names the option and says what is wrong with its value.
func (e *OptionError) Error() string { return e.Name + ": " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *OptionError) Unwrap() error { return e.Err }

// The headers the mock reads and writes beside those of the document.
const (
	// ScenarioHeader selects a scenario for one request, overriding the
	// active one.
	ScenarioHeader = "X-Mock-Scenario"

	// ViolationsHeader carries, on an answer the mock proxied, how many
	// ways the exchange broke the document and the first of them:
	// "2; response status: 418 is not declared by POST /plants".
	ViolationsHeader = "X-Mock-Violations"
)

// ProxyError is New's error for an Options.Proxy.URL or Proxy.Invalid it
// cannot use.
type ProxyError struct{ Err error }

func (e *ProxyError) Error() string { return e.Err.Error() }

func (e *ProxyError) Unwrap() error { return e.Err }

// WebhookError is New's error for Options.Webhooks.Subscribers or Allow it
// cannot use; its message starts with the flag's name.
type WebhookError struct{ Err error }

func (e *WebhookError) Error() string { return e.Err.Error() }

func (e *WebhookError) Unwrap() error { return e.Err }
