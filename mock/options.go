package mock

import (
	"log/slog"
	"time"

	"github.com/plantmock/plantmock/mock/internal/deliver"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/option"
	"github.com/plantmock/plantmock/mock/internal/pipeline"
	"github.com/plantmock/plantmock/mock/internal/session"
	"github.com/plantmock/plantmock/mock/internal/webhook"
)

// Limits on the files a mock is given: a document of at most
// DefaultMaxSpecFile bytes unless told otherwise (plantmock's --max-spec),
// seed data of at most MaxSeedFile, a scenario file of at most
// MaxScenarioFile. The largest public API descriptions are near 50 MB
// (Microsoft Graph's is 47 MB).
const (
	DefaultMaxSpecFile = 128 << 20
	MaxSeedFile        = 64 << 20
)

// Defaults: what a zero field of Options, or of one of its groups,
// means.
const (
	DefaultMaxBody         = 1 << 20                // Limits.MaxBody: 1 MiB
	DefaultMaxResources    = 1_000_000              // Limits.MaxResources: about 80 MB of plants
	DefaultMaxSessions     = 100                    // Limits.MaxSessions
	DefaultSessionIdle     = 30 * time.Minute       // Limits.SessionIdle
	DefaultGenerationTime  = gen.DefaultTime        // Limits.GenerationTime: 1s
	DefaultJournalSize     = 1000                   // Journal.Size, in each session
	DefaultJournalBytes    = 256 << 20              // Journal.Bytes, all sessions together
	DefaultStoreTimeout    = time.Second            // Store.Timeout, each call to Redis
	DefaultProxyTimeout    = 30 * time.Second       // Proxy.Timeout, a forwarded exchange
	DefaultWebhookTimeout  = deliver.DefaultTimeout // Webhooks.Timeout, each attempt: 10s
	DefaultWebhookRetries  = 3                      // Webhooks.Retries
	DefaultWebhookBackoff  = deliver.DefaultBackoff // Webhooks.Backoff, before the first retry: 250ms
	DefaultWebhookQueue    = deliver.DefaultQueue   // Webhooks.Queue, deliveries under way at once: 1000
	DefaultShutdownTimeout = 10 * time.Second       // ShutdownTimeout: requests, then deliveries
)

// The headers the mock reads and writes beside those of the document.
const (
	// SessionHeader gives a request its own session: its own store,
	// journal, rule counters and active scenario. Requests without it
	// share the default session.
	SessionHeader = session.Header

	// ScenarioHeader selects a scenario for one request, overriding the
	// active one.
	ScenarioHeader = pipeline.ScenarioHeader

	// ViolationsHeader carries, on an answer the mock proxied, how many
	// ways the exchange broke the document and the first of them:
	// "2; response status: 418 is not declared by POST /plants".
	ViolationsHeader = pipeline.ViolationsHeader
)

// Options configure a Server. The zero value serves the embedded Plant
// Store document with the shipped scenarios, accepts any well-formed
// bearer token, uses a random seed, keeps its state in this process
// within the default Limits, serves the admin API without a token to
// calls from this machine, forwards and sends nothing, and logs nothing.
//
// The fields up to SeedData, with Webhooks.Subscribers and
// Webhooks.Allow, are what the mock serves, which Reload can replace (see
// Content); New alone reads the others.
type Options struct {
	// Spec is an OpenAPI 3.0 or 3.1 document, YAML or JSON. Empty (the
	// default) means the embedded Plant Store document.
	Spec []byte

	// Documents, when not empty, are several documents served side by
	// side in place of Spec, each mounted at its base path (see
	// Document): a request goes to the document at the longest base path
	// its path starts with. Two documents that could be given the same
	// request are refused with a *SpecError. Sessions and the journal
	// span them; each keeps its resources, scenarios and webhooks.
	Documents []Document

	// Strict refuses a document that has mistakes plantmock would
	// otherwise serve around (see Server.Mistakes), or caveats (see
	// Server.Warnings): New fails with a *SpecError naming the first.
	// The default serves around them.
	Strict bool

	// Scenarios are loaded besides the shipped ones (see
	// ShippedScenarios; default: none); one with the name of a shipped
	// scenario replaces it. Each is checked against the document: New
	// fails with a *ScenarioError listing every problem.
	Scenarios []*Scenario

	// Scenario names the scenario active for requests that do not select
	// one with the X-Mock-Scenario header; empty (the default) means none.
	// Several names with commas between them make their rules active
	// together, in that order; a name ending in * stands for every loaded
	// name it starts ("recorded-*", the scenarios of a recording), sorted.
	Scenario string

	// NoShippedScenarios leaves out the shipped scenarios, which are
	// loaded by default. They are written for the Plant Store; with
	// another document, those that do not fit it are left out anyway.
	NoShippedScenarios bool

	// SeedData is JSON that fills the store at start (default: nothing):
	// an object of collection paths to arrays of resources, each
	// validated like a create.
	SeedData []byte

	// PreviousSpec is the version of Spec that clients use now (default:
	// none), for them to see what the change will refuse: a request Spec
	// refuses for breaking its contract (route, security, parameters,
	// body; not one over Limits.MaxBody) is judged against it too, and
	// where it would accept the request, the journal entry's Drift says
	// so. Answers are Spec's alone, and requests Spec accepts cost nothing
	// more. New refuses it beside Documents; Reload keeps it.
	PreviousSpec []byte

	// Tokens, when not empty, are the only bearer tokens (and API keys)
	// accepted; others get 401 with error="invalid_token". Empty (the
	// default) accepts any well-formed one.
	Tokens []string

	// Seed makes generated data reproducible: the same seed and the same
	// sequence of requests give the same answers. 0 (the default) picks a
	// random seed.
	Seed int64

	// CORS lets browsers call the mock from any origin: answers carry
	// Access-Control-Allow-Origin, and preflight requests are answered.
	// Off by default.
	CORS bool

	// IgnoreStreamField lets Accept alone choose between an answer's
	// JSON and its stream. By default, where an operation answers both
	// as JSON and in a sequential media type (text/event-stream, JSON
	// Lines, application/json-seq), a request body whose boolean stream
	// member is true gets the stream whatever its Accept says, as
	// OpenAI's, Anthropic's, Mistral's and Ollama's APIs answer (their
	// SDKs send Accept: application/json with stream: true).
	IgnoreStreamField bool

	// Prefer is a preference every request to the API has, as if it sent
	// it in a Prefer header ("dynamic=true, seed=7"; default: none): a
	// preference the request's own header gives wins over the one of the
	// same name here, the others still apply. New refuses an item that is
	// not name=value, a name plantmock does not know and a value the
	// header could not have; a code or example an operation does not
	// declare is refused per request (error CodePrefer), as the header is.
	Prefer string

	// Limits bound request bodies, stored resources and sessions; the
	// zero value sets the defaults.
	Limits Limits

	// Journal says how many exchanges the journal keeps and how it keeps
	// credentials; the zero value keeps the newest DefaultJournalSize,
	// with credentials masked.
	Journal JournalOptions

	// Store says where resources, sessions, journals, rule counters and
	// active scenarios are kept; the zero value keeps them in this
	// process.
	Store StoreOptions

	// Proxy puts the mock in front of a real service; the zero value
	// answers every request itself.
	Proxy pipeline.ProxyOptions

	// Webhooks say where the document's webhooks go and how webhooks
	// and callbacks are sent; the zero value subscribes nothing and lets
	// callbacks reach loopback alone.
	Webhooks webhook.Options

	// Admin says who may call the admin API (/__admin/) and whether the
	// mock's handler serves it; the zero value serves it, without a
	// token, to calls from this machine's pages and tools.
	Admin AdminOptions

	// ShutdownTimeout bounds how long Serve, once its context is done,
	// and Close wait for in-flight requests and deliveries; 0 means
	// DefaultShutdownTimeout.
	ShutdownTimeout time.Duration

	// LogRequests logs one line per request to Logger: method, path,
	// status, duration, session, scenario, rule, error code and
	// violations. Off by default.
	LogRequests bool

	// Observe, if set, is called with every exchange after it is answered,
	// on the request's goroutine, and with every attempt to send a webhook
	// or callback (Direction "outbound"), on the delivery's. It must be
	// quick and safe for concurrent use. Nil (the default) calls nothing.
	Observe func(Entry)

	// Logger receives start-up warnings and internal errors; nil (the
	// default) discards them.
	Logger *slog.Logger
}

// Content is what a Server serves that Reload can replace: the document,
// the scenarios, the webhooks' subscribers and the hosts callbacks may
// reach, and seed data. Each field is the Options field of its name
// (Webhooks and WebhookAllow are Options.Webhooks.Subscribers and
// Options.Webhooks.Allow), and its zero value means what that field's
// does.
type Content struct {
	Spec               []byte
	Documents          []Document
	Strict             bool
	Scenarios          []*Scenario
	Scenario           string
	NoShippedScenarios bool
	Webhooks           map[string]Subscriber
	WebhookAllow       []string
	SeedData           []byte
}

// Content returns what of o Reload replaces.
func (o Options) Content() Content {
	return Content{
		Spec: o.Spec, Documents: o.Documents, Strict: o.Strict, Scenarios: o.Scenarios, Scenario: o.Scenario,
		NoShippedScenarios: o.NoShippedScenarios, Webhooks: o.Webhooks.Subscribers, WebhookAllow: o.Webhooks.Allow,
		SeedData: o.SeedData,
	}
}

// StoreOptions say where a mock keeps its state. The zero value keeps it
// in this process.
type StoreOptions struct {
	// URL is the store: empty (the default) keeps everything in this
	// process. redis://[user:password@]HOST:PORT/DB (rediss:// for TLS)
	// keeps it in Redis, shared by every mock given the same URL and
	// Prefix: replicas behind a load balancer then serve as one mock.
	// Call Server.Close when done.
	URL string

	// Prefix starts every Redis key of the mock; empty (the default)
	// means "plantmock:" followed by the document's title, version and
	// ":", so that mocks of different documents share a Redis without
	// meeting.
	Prefix string

	// Wait is how long New waits for Redis to answer before it fails with
	// a *StoreError; 0 (the default) tries once.
	Wait time.Duration

	// Timeout bounds each call to Redis; 0 means DefaultStoreTimeout. A
	// request whose call did not finish in time is answered 503 (or the
	// 5xx the operation declares) with error code CodeUnavailable.
	Timeout time.Duration
}

// AdminOptions say who may call the admin API (/__admin/) and where it
// is served. The zero value serves it on the mock's handler, without a
// token, answering calls to IP addresses and localhost that no other
// origin's web page makes.
type AdminOptions struct {
	// Token, if set, is the bearer token every admin call needs (empty,
	// the default: none); the mocked API's own tokens never open the
	// admin API.
	Token string

	// CORS lists the origins (scheme://host[:port]) whose web pages may
	// call the admin API (default: none): their calls get CORS headers,
	// and their preflight requests are answered. The admin API refuses,
	// with 403, every call a browser marks as coming from a page of
	// another origin (Sec-Fetch-Site, Origin): without this, no web page
	// but the dashboard, served by the admin API itself, reaches it.
	CORS []string

	// AllowedHosts lists the host names, besides IP addresses and
	// localhost, that the admin API answers calls to (the Host header;
	// default: none): a name (mock.internal), *.domain for a domain's
	// hosts, or * for any. Calls to other names are refused with 403,
	// which keeps DNS rebinding out: a page whose name was made to
	// resolve to the mock sends its own name. Name the hosts by which the
	// mock is reached from other machines or containers.
	AllowedHosts []string

	// Disabled keeps the admin API off the mock's handler (default: on
	// it). Serve it with Server.ServeAdmin or Server.Admin on another
	// listener to have it elsewhere.
	Disabled bool

	// MCP gives the MCP endpoint (/__admin/mcp, and ServeMCP) the tools
	// that check documents and verify services (default: none).
	MCP MCPTools
}

// JournalOptions bound the journal, where every exchange is recorded, and
// say how it keeps credentials. The zero value keeps the newest
// DefaultJournalSize exchanges, within DefaultJournalBytes, with
// credentials masked.
type JournalOptions struct {
	// Size is how many exchanges each session's journal keeps (the
	// newest); 0 means DefaultJournalSize, a negative value turns the
	// journal off.
	Size int

	// Bytes bounds the bytes the journals of all sessions hold together;
	// 0 means DefaultJournalBytes. Each session's journal may hold an
	// equal share, Bytes / (Limits.MaxSessions + 1), and drops its oldest
	// entries beyond it, keeping at least the newest. Each entry keeps at
	// most the first 64 KiB of each body and 16 KiB of headers (see
	// Clipped).
	Bytes int64

	// Credentials says how the journal keeps credentials:
	// CredentialsMasked (the default, also "") masks them as each entry
	// is made, so that no view of the journal (the admin API, the
	// dashboard, its live events, the log, Observe) nor a shared Redis
	// holds them whole; CredentialsClear keeps them whole. Masked are the
	// Authorization, Proxy-Authorization, Cookie and Set-Cookie headers,
	// the API keys of the document's security schemes in headers and in
	// the query, and the entry's Token: the scheme and the last 4
	// characters stay ("Bearer ****wxyz"), values of 8 characters or
	// fewer are masked whole ("****").
	Credentials string
}

// Limits bound what a mock holds. The zero value of each field means its
// default.
type Limits struct {
	// MaxBody limits request bodies in bytes; 0 means DefaultMaxBody. A
	// larger body is refused with error code CodeBodyTooLarge.
	MaxBody int64

	// MaxResources bounds the resources stored in all sessions together;
	// 0 means DefaultMaxResources. A create beyond it is refused.
	MaxResources int

	// MaxSessions bounds the sessions (X-Mock-Session) alive at once; 0
	// means DefaultMaxSessions. SessionIdle is how long an unused session
	// lives; 0 means DefaultSessionIdle.
	MaxSessions int
	SessionIdle time.Duration

	// Timeouts bound how long a client may hold a connection Serve
	// accepted, in each phase of an exchange; a zero field means that of
	// DefaultTimeouts (header 10s, read 60s, write 60s, idle 120s).
	Timeouts Timeouts

	// GenerationTime bounds how long making the generated data of one
	// answer may take; 0 means DefaultGenerationTime. An answer past it
	// (or past the bound on values, 100,000) is a 500 in the document's
	// error shape, and the mock answers the next request.
	GenerationTime time.Duration

	// Clock is the time sessions are idle by; nil means time.Now. A test
	// moves it to expire sessions without waiting for them.
	Clock func() time.Time
}

// Values of Options.Journal.Credentials.
const (
	// CredentialsMasked keeps credentials in the journal masked: the
	// default.
	CredentialsMasked = option.CredentialsMasked
	// CredentialsClear keeps credentials in the journal whole.
	CredentialsClear = option.CredentialsClear
)
