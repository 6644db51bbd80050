package admin

import (
	"context"
	"crypto/subtle"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"

	cliptext "github.com/plantmock/plantmock/internal/clip"
	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/session"
	"github.com/plantmock/plantmock/mock/internal/store"
	"github.com/plantmock/plantmock/mock/internal/wire"
)

// Prefix is where the admin API lives.
const Prefix = "/__admin/"

// HealthPath is the admin API's health call. The mock's handler answers
// it even when the rest of the admin API is off, so that container
// health checks work whatever the flags.
const HealthPath = Prefix + "health"

// SessionHeader names the session an admin call is about, as it names a
// request's.
const SessionHeader = session.Header

// OpenAPI is the admin API's OpenAPI document.
//
//go:embed admin.yaml
var OpenAPI string

// maxBody bounds admin request bodies (seed data included).
const maxBody = 16 << 20

// Mock is what the admin API reads and drives: the server implements it.
// Its calls about one session go through the Session it resolves.
type Mock interface {
	// Health says what the mock serves and why it cannot, if it cannot.
	Health(ctx context.Context) Health
	// Session returns the session an X-Mock-Session value names, made
	// when it is not alive; a malformed name, or one too many, is a
	// problem.
	Session(ctx context.Context, name string) (Session, *problem.Problem)
	// Match compiles a journal query; a query that could select nothing
	// (an operation not declared, a bad pattern) is an error.
	Match(m journal.Match) (func(journal.Entry) bool, error)
	// Contract returns the contract report: JSON, or text by its Text.
	Contract() Report
	// Scenarios returns the loaded scenarios as they were given, sorted
	// by name.
	Scenarios() []*scenario.Scenario
	// Operations names the document's operations, in its order.
	Operations() []string
	// Webhooks lists the document's webhooks, in its order.
	Webhooks() []Webhook
	// Recording is the recording of a mock that records, else nil.
	Recording() Recording
	// Reloads is how the last reload went, as GET /__admin/reload gives it.
	Reloads() any
	// Documents lists the documents the mock serves, in their order.
	Documents() []Document
	// Raw is the document as it was read, for a mock of one or a
	// mock as one document shows it; nil for a mock of several.
	Raw() []byte
	// OperationExamples lists the operations with their examples, as
	// GET /__admin/operations answers them.
	OperationExamples() any
	// Explain says how the mock would answer r, without answering it,
	// as POST /__admin/explain answers.
	Explain(r *http.Request) any
	// Document returns the mock as one of its documents, called name,
	// shows it: its operations, scenarios, webhooks, contract report,
	// resources and journal entries alone; ok is false for none.
	Document(name string) (m Mock, ok bool)
}

// Document is one document a mock serves, as GET /__admin/documents
// lists it.
type Document struct {
	Name       string `json:"name"`
	Title      string `json:"title"`
	Version    string `json:"version"`
	Base       string `json:"base"` // the base path it is mounted at: / for one document
	Operations int    `json:"operations"`
	Scenarios  int    `json:"scenarios"`
	Webhooks   int    `json:"webhooks"`
	Exchanges  int64  `json:"exchanges"` // the requests its operations answered, in this process
}

// ErrNoSubscriber is Session.Send's error for a webhook without a
// subscriber in the session, answered 409 as when the call finds none
// before sending.
var ErrNoSubscriber = errors.New("the webhook has no subscriber in this session")

// Session is one session, as the admin API reads and changes it.
type Session interface {
	// Entries returns the session's journal, oldest first.
	Entries(ctx context.Context) ([]journal.Entry, error)
	// ResetJournal empties the journal and restarts its numbers.
	ResetJournal(ctx context.Context) error
	// Resources returns what the store holds for the session, by
	// collection, the mock's own bookkeeping left out.
	Resources(ctx context.Context) ([]store.Collection, error)
	// ResetResources empties the session's store.
	ResetResources(ctx context.Context) error
	// Seed makes a collection hold exactly the resources of v and says
	// how many it holds.
	Seed(ctx context.Context, collection string, v any) (int, *problem.Problem)
	// Reset empties the session's resources and journal and restarts its
	// rule counters.
	Reset(ctx context.Context) error
	// Active names the session's active scenario, of the document the
	// Mock shows (each document of several has its own); ok is false for
	// none.
	Active(ctx context.Context) (name string, ok bool, err error)
	// Activate makes the scenario called *name active, or none for nil,
	// in the document the Mock shows, or in every document that loads
	// one of that name; a name no scenario has is a *problem.Problem.
	Activate(ctx context.Context, name *string) error
	// Subscriber returns the session's subscriber of a webhook, its URL
	// as the admin API shows it (credentials masked); ok is false for
	// none.
	Subscriber(ctx context.Context, webhook string) (sub Subscriber, ok bool, err error)
	// Subscribe sets the subscriber of a webhook; an empty URL removes
	// it. A URL the mock may not send to is a problem.
	Subscribe(ctx context.Context, webhook string, sub Subscriber) error
	// Send queues a webhook to the session's subscriber, with body, or a
	// body generated when it is nil, and returns how many deliveries it
	// queued. No subscriber is ErrNoSubscriber (it may have been removed
	// since Subscriber was asked); a body that breaks the webhook's
	// schema is a problem. ctx is the admin call's: the deliveries never
	// go to the address it came in on.
	Send(ctx context.Context, webhook string, body any) (queued int, url string, err error)
}

// Health is what the health call says of the mock.
type Health struct {
	Version string // plantmock's
	Spec    string // the document's title and version
	Store   string // the state backend's kind
	Err     error  // why the mock cannot serve; nil when it can
}

// Report is the contract report, written as JSON or as text.
type Report interface{ Text() string }

// Webhook is a webhook the document declares.
type Webhook struct {
	Name    string
	Methods []string
}

// Subscriber is where a session's webhook goes.
type Subscriber struct {
	URL   string
	Token string
}

// Recording is what the admin API reads and does of a recording.
type Recording interface {
	// Status reports what the recording holds.
	Status() RecordStatus
	// Snapshot writes what it holds and lists the files written.
	Snapshot() ([]string, error)
}

// RecordStatus is what GET /__admin/record answers.
type RecordStatus struct {
	Folder    string `json:"folder"`
	Exchanges int    `json:"exchanges"` // kept since the start
	Pending   int    `json:"pending"`   // kept since the last snapshot began, not written yet
	Dropped   int    `json:"dropped"`   // past the bound, not recorded
	Bytes     int64  `json:"bytes"`     // of the exchanges kept, as the bound counts them
	Bound     int64  `json:"bound"`
}

// Options are the admin API's own.
type Options struct {
	// Token, if set, is the bearer token every call needs.
	Token string
	// CORS lists the origins whose pages may call the admin API.
	CORS []string
	// AllowedHosts lists the host names, besides IP addresses and
	// localhost, that the admin API answers calls to.
	AllowedHosts []string
	// MCP, if set, makes the handler of /__admin/mcp from calls, which
	// answers the admin API's calls past its guard and token.
	MCP func(calls http.Handler) http.Handler
	// Metrics, if set, answers GET /__admin/metrics (see metricsRoutes).
	Metrics http.Handler
}

// api is the admin API of one mock.
type api struct {
	m      Mock
	events *Events
	guard  adminGuard
	token  string
	mcp    func(calls http.Handler) http.Handler
	// metrics answers GET /__admin/metrics; nil: the call is not there.
	metrics http.Handler
	// listed is what GET /__admin/ lists, read from admin.yaml on the
	// first such call, so that a mock's start does not parse it.
	listed func() ([]Call, error)
}

// New returns the admin API of m: one route per call, behind the guard
// of opts and its token when there is one. ev streams the journal and
// the reloads. Options it cannot use are a *BadOption.
func New(m Mock, ev *Events, opts Options) (http.Handler, error) {
	g, err := newAdminGuard(opts)
	if err != nil {
		return nil, err
	}
	a := &api{m: m, events: ev, guard: g, token: opts.Token, mcp: opts.MCP, metrics: opts.Metrics,
		listed: sync.OnceValues(func() ([]Call, error) { return Calls(OpenAPI) })}
	return a.handler(), nil
}

// handler builds the routes, and the checks every call goes through.
func (a *api) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+HealthPath, func(w http.ResponseWriter, r *http.Request) { a.health(w, r, true) })
	mux.HandleFunc("GET /__admin/openapi.yaml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/yaml")
		io.WriteString(w, OpenAPI)
	})
	a.journalRoutes(mux)
	mux.HandleFunc("GET /__admin/contract", a.contract)
	a.storeRoutes(mux)
	mux.HandleFunc("GET /__admin/scenarios", a.withSession(a.scenarios))
	mux.HandleFunc("PUT /__admin/scenario", a.withSession(a.activate))
	mux.HandleFunc("POST /__admin/reset", a.withSession(func(w http.ResponseWriter, r *http.Request, ss Session) {
		noContent(w, ss.Reset(r.Context()))
	}))
	a.webhookRoutes(mux)
	a.recordRoutes(mux)
	mux.HandleFunc("GET /__admin/events", a.events.serve)
	mux.HandleFunc("GET /__admin/reload", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, a.mockOf(r).Reloads()) })
	mux.HandleFunc("GET /__admin/documents", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"documents": a.mockOf(r).Documents()})
	})
	a.dashboardRoutes(mux)
	a.explainRoutes(mux)
	a.metricsRoutes(mux)
	mux.HandleFunc("GET "+Prefix+"{$}", a.index)
	mux.HandleFunc(Prefix, noCall)
	calls := a.calls(mux)
	if a.mcp != nil {
		mux.Handle(Prefix+"mcp", a.mcp(calls))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !a.guard.admit(w, r) || !a.authorized(w, r) {
			return
		}
		calls.ServeHTTP(w, r)
	})
}

// calls answers the calls past the guard and the token: a clean path,
// and the document a call names.
func (a *api) calls(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.EscapedPath(); path.Clean(p) != p && path.Clean(p)+"/" != p {
			noCall(w, r) // ServeMux would redirect to the clean path; an API answers
			return
		}
		if r.URL.RawQuery != "" && r.URL.Query().Has("document") {
			name := r.URL.Query().Get("document")
			m, ok := a.m.Document(name)
			if !ok {
				names := make([]string, 0)
				for _, d := range a.m.Documents() {
					names = append(names, d.Name)
				}
				writeError(w, http.StatusNotFound, problem.CodeNoRoute, fmt.Sprintf("document=%s names no document the mock serves; documents: %s", cliptext.To(name, 60), strings.Join(names, ", ")))
				return
			}
			r = r.WithContext(context.WithValue(r.Context(), documentKey{}, m))
		}
		mux.ServeHTTP(w, r)
	})
}

// documentKey holds, in an admin call's context, the mock as the
// document its document parameter names shows it.
type documentKey struct{}

// mockOf returns the mock an admin call is about: as one document shows
// it, where the call names one (?document=), else the whole mock.
func (a *api) mockOf(r *http.Request) Mock {
	if m, ok := r.Context().Value(documentKey{}).(Mock); ok {
		return m
	}
	return a.m
}

// authorized checks the admin token, when there is one, and answers a
// call without it: the health call gets the status alone (health checks
// may not have the token), the rest 401.
func (a *api) authorized(w http.ResponseWriter, r *http.Request) bool {
	if a.token == "" || dashboardOpen(r) {
		return true
	}
	scheme, token := wire.Authorization(r.Header.Get("Authorization"))
	if strings.EqualFold(scheme, "Bearer") && subtle.ConstantTimeCompare([]byte(token), []byte(a.token)) == 1 {
		return true
	}
	if r.Method == http.MethodGet && r.URL.EscapedPath() == HealthPath {
		a.health(w, r, false)
		return false
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="plantmock-admin"`)
	writeError(w, http.StatusUnauthorized, problem.CodeTokenRejected, "the admin API needs \"Authorization: Bearer <admin token>\"")
	return false
}

// noCall answers a call the admin API does not have.
func noCall(w http.ResponseWriter, r *http.Request) {
	writeError(w, http.StatusNotFound, problem.CodeNoRoute, fmt.Sprintf("no admin call %s %s; see %sopenapi.yaml", cliptext.To(r.Method, 20), cliptext.To(r.URL.Path, 100), Prefix))
}

// withSession resolves the X-Mock-Session of an admin call. An admin call
// makes a session it names that is not alive: admin calls are how a
// session is set up before its first request (a scenario activated,
// resources stored, a webhook subscribed), and are behind the admin
// API's own checks.
func (a *api) withSession(h func(http.ResponseWriter, *http.Request, Session)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ss, p := a.mockOf(r).Session(r.Context(), r.Header.Get(SessionHeader))
		if p != nil {
			status := http.StatusBadRequest
			if p.Class == problem.ClassUnavailable {
				status = http.StatusServiceUnavailable
			}
			writeError(w, status, p.Code, p.Message)
			return
		}
		h(w, r, ss)
	}
}

// failed answers an admin call whose state could not be read or changed:
// 503 when the shared store did not answer, else 500.
func failed(w http.ResponseWriter, err error) {
	if errors.Is(err, store.ErrUnavailable) {
		writeError(w, http.StatusServiceUnavailable, problem.CodeUnavailable, "the mock's shared store did not answer in time: "+err.Error())
		return
	}
	writeError(w, http.StatusInternalServerError, problem.CodeInternal, "the store failed: "+err.Error())
}

// noContent answers 204, or how err failed the call.
func noContent(w http.ResponseWriter, err error) {
	if err != nil {
		answerProblem(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// writeError answers with status and the mock's own error shape.
func writeError(w http.ResponseWriter, status int, code problem.Code, msg string) {
	writeBody(w, status, problem.DefaultShape.Render(nil, status, code, msg))
}

// writeJSON answers 200 with v as JSON.
func writeJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeError(w, http.StatusInternalServerError, problem.CodeInternal, err.Error())
		return
	}
	writeBody(w, http.StatusOK, b)
}

// writeBody answers with status and a JSON body, with its length: the
// header net/http would have sent itself for a short one, and that keeps
// a long one from being sent in chunks.
func writeBody(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h["Content-Type"] = []string{"application/json"}
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	w.Write(body)
}

// readJSON decodes an admin call's body, answering the error itself.
func readJSON(w http.ResponseWriter, r *http.Request) (any, bool) {
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		writeError(w, http.StatusBadRequest, problem.CodeBodyTooLarge, fmt.Sprintf("admin body over %d bytes or unreadable: %v", maxBody, err))
		return nil, false
	}
	v, err := jsonx.Decode(raw)
	if err != nil {
		writeError(w, http.StatusBadRequest, problem.CodeBodyNotJSON, err.Error())
		return nil, false
	}
	return v, true
}

// health answers the health call: the status, and with full (the admin
// token given, or none needed) the version, the document and the store,
// and why the mock is unhealthy.
func (a *api) health(w http.ResponseWriter, r *http.Request, full bool) {
	st := a.mockOf(r).Health(r.Context())
	h := map[string]string{"status": "ok"}
	if full {
		h["version"], h["spec"], h["store"] = st.Version, st.Spec, st.Store
	}
	if st.Err != nil {
		h["status"] = "unhealthy"
		if full {
			h["reason"] = st.Err.Error()
		}
		b, _ := json.Marshal(h)
		writeBody(w, http.StatusServiceUnavailable, b)
		return
	}
	writeJSON(w, h)
}

// contract answers the contract report: JSON, or text with ?format=text.
func (a *api) contract(w http.ResponseWriter, r *http.Request) {
	rep := a.mockOf(r).Contract()
	switch f := r.URL.Query().Get("format"); f {
	case "", "json":
		writeJSON(w, rep)
	case "text":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, rep.Text())
	default:
		writeError(w, http.StatusBadRequest, problem.CodeParameter, fmt.Sprintf("format=%s: json or text", cliptext.To(f, 20)))
	}
}
