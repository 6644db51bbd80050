package mock

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/plantmock/plantmock"
	"github.com/plantmock/plantmock/mock/internal/admin"
	"github.com/plantmock/plantmock/mock/internal/deliver"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/session"
	"github.com/plantmock/plantmock/mock/internal/store"
	"github.com/plantmock/plantmock/mock/internal/wire"
)

// Server is the mock: an http.Handler serving one OpenAPI document.
type Server struct {
	// Worked out at start; read-only after New. What derives from the
	// document and scenarios is in sv, swapped whole by Reload.
	sv           atomic.Pointer[served]
	tokens       map[string]struct{}
	seed         uint64
	maxBody      int64
	maxResources int
	admin        http.Handler
	cors         bool
	logAll       bool
	adminToken   string
	noAdmin      bool
	observe      func(journal.Entry) // Options.Observe
	noJournal    bool                // Options.Journal.Size < 0
	// remoteJournal is set when the journal is kept out of the process
	// (state.Backend.Shared: in Redis), so that writing an entry is a
	// round trip the client must not wait on (see exchange.remote).
	remoteJournal bool
	clearCreds    bool // Options.Journal.Credentials is CredentialsClear
	log           *slog.Logger

	upstream  *upstream  // Options.Proxy.URL; nil when the mock answers alone
	recording *recording // Options.Proxy.Record; nil when nothing is recorded
	shutdown  time.Duration
	timeouts  timeouts   // a connection's, in Serve
	budget    gen.Budget // an answer's generation budget: the defaults (tests set others)

	// State.
	store      store.Store      // every session's resources: sessions.backend's
	sessions   session.Sessions // the default and named sessions
	seq        atomic.Uint64    // values generated so far
	contract   journal.Contract // what the exchanges did to the contract
	deliveries *deliver.Sender  // webhooks and callbacks under way
	listeners  listeners        // what Serve and ServeAdmin serve on
	events     admin.Events     // the streams of /__admin/events
	emitter    emitter          // what is told of each exchange and attempt (see listen)
	reloads    reloads          // how the last Reload went
}

var _ http.Handler = (*Server)(nil)

// New loads the document in opts and returns a Server ready to serve it.
// A document it cannot serve is reported as a *SpecError, scenarios that
// do not fit it as a *ScenarioError; malformed tokens and seed data that
// do not validate are errors too.
func New(opts Options) (*Server, error) {
	s := &Server{
		maxBody:      orDefault(opts.Limits.MaxBody, DefaultMaxBody),
		maxResources: orDefault(opts.Limits.MaxResources, DefaultMaxResources),
		log:          opts.Logger,
		seed:         uint64(opts.Seed),
		observe:      opts.Observe,
		adminToken:   opts.Admin.Token,
		noAdmin:      opts.Admin.Disabled,
		cors:         opts.CORS,
		logAll:       opts.LogRequests,
		noJournal:    opts.Journal.Size < 0,
		timeouts:     defaultTimeouts,
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.seed == 0 {
		var b [8]byte
		rand.Read(b[:])
		s.seed = binary.LittleEndian.Uint64(b[:]) | 1
	}
	var err error
	if s.admin, err = newAdmin(s, opts.Admin); err != nil {
		return nil, err
	}
	if s.clearCreds, err = clearCredentials(opts.Journal.Credentials); err != nil {
		return nil, err
	}
	if len(opts.Tokens) > 0 {
		s.tokens = map[string]struct{}{}
		for _, t := range opts.Tokens {
			if !wire.IsToken68(t) {
				return nil, &OptionError{Name: "token", Err: fmt.Errorf("%q is not a valid bearer token (RFC 6750 token68)", clip(t, 20))}
			}
			s.tokens[t] = struct{}{}
		}
	}
	sv, err := s.build(opts.Content())
	if err != nil {
		return nil, err
	}
	s.sv.Store(sv)
	if err := s.newUpstream(opts, sv); err != nil {
		return nil, err
	}
	s.shutdown = orDefault(opts.ShutdownTimeout, DefaultShutdownTimeout)
	s.deliveries = s.newSender(opts)
	s.listen()
	b, err := s.openState(opts)
	if err != nil {
		return nil, err
	}
	s.store, s.sessions = b.Store(), session.NewSessions(b, orDefault(opts.Limits.MaxSessions, DefaultMaxSessions), orDefault(opts.Limits.SessionIdle, DefaultSessionIdle))
	s.remoteJournal = b.Shared() && !s.noJournal
	if len(opts.SeedData) > 0 {
		if err := s.SeedData(opts.SeedData); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// build loads the document of c and works out what serving it takes,
// with the scenarios and webhooks of c: what New starts with, and what
// Reload swaps in. It does not read c.SeedData.
func (s *Server) build(c Content) (*served, error) {
	spec := c.Spec
	if len(spec) == 0 {
		spec = []byte(plantmock.OpenAPI)
	}
	// The shipped scenarios are parsed beside the document: they do not
	// depend on it, and on a second core that takes them off the start-up.
	var shippedc chan []*scenario.Scenario
	if !c.NoShippedScenarios {
		shippedc = make(chan []*scenario.Scenario, 1)
		go func() { shippedc <- scenario.ShippedScenarios() }()
	}
	doc, err := openapi.Load(spec)
	if err != nil {
		return nil, &SpecError{Err: err}
	}
	if c.Strict && len(doc.Mistakes) > 0 {
		return nil, &SpecError{Err: strictMistake(doc.Mistakes)}
	}
	for _, f := range doc.Mistakes {
		s.log.Warn("the document has a mistake: the piece at fault is left out", "mistake", f)
	}
	answers := answerSchemas(doc)
	oversized, over := gen.Oversized(answers, gen.Budget{})
	doc.Warnings = append(doc.Warnings, oversized...)
	doc.Warnings = append(doc.Warnings, gen.Unmatched(answers)...)
	for _, w := range doc.Warnings {
		s.log.Warn("the document is served with a caveat", "caveat", w)
	}
	for _, op := range doc.Operations {
		if strings.HasPrefix(op.Path+"/", AdminPrefix) {
			return nil, &SpecError{Err: fmt.Errorf("path %s is under %s, which plantmock keeps for its admin API", op.Path, AdminPrefix)}
		}
	}
	sv := &served{doc: doc, plans: map[*openapi.Operation]*plan{}, secrets: journal.NewSecrets(doc), log: s.log, over: over}
	if err := sv.buildPlans(); err != nil {
		return nil, &SpecError{Err: err}
	}
	if err := sv.newHookSet(c); err != nil {
		return nil, err
	}
	var shipped []*scenario.Scenario
	if shippedc != nil {
		shipped = <-shippedc
	}
	scripted := scenario.Compiling{Doc: doc, Success: func(op *openapi.Operation) int { return sv.plans[op].success }, Log: s.log}
	if sv.scenarios, err = scenario.CompileScenarios(scripted, shipped, c.Scenarios, c.Scenario); err != nil {
		return nil, &ScenarioError{Err: err}
	}
	return sv, nil
}

// answerSchemas returns the schemas answers are generated from: the
// component schemas, by name, and those of the operations' responses.
func answerSchemas(doc *openapi.Document) []*openapi.Schema {
	var out []*openapi.Schema
	for _, name := range slices.Sorted(maps.Keys(doc.Schemas)) {
		out = append(out, doc.Schemas[name])
	}
	for _, op := range doc.Operations {
		for _, r := range op.Responses {
			for _, m := range r.Content {
				out = append(out, m.Schema)
			}
		}
		if op.Default != nil {
			for _, m := range op.Default.Content {
				out = append(out, m.Schema)
			}
		}
	}
	return out
}

// orDefault returns v, or def when v is not above zero.
func orDefault[T int | int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Title returns the served document's title and version, e.g.
// "OpenAPI Plant Store 1.0.0".
func (s *Server) Title() string {
	return strings.TrimSpace(s.served().doc.Title + " " + s.served().doc.Version)
}

// Warnings returns what the document declares that is served with a
// caveat, one line each: keywords foreign to its dialect, methods declared
// twice on templates that differ only in parameter names, recursive
// schemas.
func (s *Server) Warnings() []string { return append([]string(nil), s.served().doc.Warnings...) }

// Mistakes returns the served document's mistakes that touch one piece of
// it, one line each: the piece at fault (a schema keyword, a parameter) is
// left out and the rest of the document is served. Options.Strict refuses
// such a document instead.
func (s *Server) Mistakes() []string { return append([]string(nil), s.served().doc.Mistakes...) }

// strictMistake is the error of a document refused for its mistakes: the
// first, and how many more there are.
func strictMistake(mistakes []string) error {
	if len(mistakes) == 1 {
		return errors.New("refused in strict mode: " + mistakes[0])
	}
	return fmt.Errorf("refused in strict mode: %s (and %d more mistakes: plantmock check lists them)", mistakes[0], len(mistakes)-1)
}

// Serve answers requests on ln until ctx is done, then shuts down
// gracefully: it stops accepting, lets in-flight requests and then the
// webhooks and callbacks under way finish within Options.ShutdownTimeout
// (logging how many deliveries it dropped), and returns nil.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	return s.serveOn(ctx, ln, s, !s.noAdmin)
}

// ServeAdmin serves the admin API alone on ln, like Serve. No webhook,
// callback or proxied request of the Server's reaches ln from the moment
// ServeAdmin first accepts on it; start it, and wait for that, before
// Serve answers requests that could cause callbacks (as plantmock's
// --admin-addr does).
func (s *Server) ServeAdmin(ctx context.Context, ln net.Listener) error {
	return s.serveOn(ctx, ln, s.admin, true)
}

// timeouts bound how long a client may hold a connection in each phase
// of an exchange: sending the header, sending the whole request, taking
// the answer (see writeTimeout), and between requests. A client past one
// loses the connection, at most about a tenth of the shortest timeout
// late (see watch).
type timeouts struct{ header, read, write, idle time.Duration }

// writeTimeout returns net/http's WriteTimeout, which counts from the end
// of a request's header: room for the body to come (up to the read
// timeout, so that a body that stalls is still answered), then for the
// answer to be taken. A scripted delay starts the write timeout again
// when it ends (see give), whatever scenarios were loaded when Serve
// began.
func (t timeouts) writeTimeout() time.Duration { return t.read + t.write }

// defaultTimeouts are every Server's; tests set shorter ones.
var defaultTimeouts = timeouts{header: 10 * time.Second, read: 60 * time.Second, write: 60 * time.Second, idle: 120 * time.Second}

// serveOn serves h on ln; admin says whether h answers the admin API.
func (s *Server) serveOn(ctx context.Context, ln net.Listener, h http.Handler, admin bool) error {
	if admin && s.adminToken == "" && !loopback(ln.Addr()) {
		s.log.Warn("the admin API is open to the network: whoever reaches this address can read the journal and change the mock's state; set an admin token (--admin-token or PLANTMOCK_ADMIN_TOKEN) or listen on 127.0.0.1",
			"addr", ln.Addr().String())
	}
	hs := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: s.timeouts.header,
		ReadTimeout:       s.timeouts.read,
		WriteTimeout:      s.timeouts.writeTimeout(),
		IdleTimeout:       s.timeouts.idle,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
	hs.RegisterOnShutdown(s.events.Close) // event streams never end on their own
	defer s.listeners.add(ln, h != s)()
	w := newWatch(watchTick(s.timeouts))
	defer w.handOver()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(w.listener(ln)) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), s.shutdown)
	defer cancel()
	err := hs.Shutdown(sctx)
	if h == s {
		s.closeDeliveries(sctx) // webhooks and callbacks under way, in the time left
		s.writeRecording()      // the exchanges this listener proxied; logged if it fails
	}
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		return serr
	}
	return err
}

// loopback reports whether a listener's address is on the loopback
// interface alone, out of other machines' reach.
func loopback(a net.Addr) bool {
	ta, ok := a.(*net.TCPAddr)
	return ok && ta.IP.IsLoopback()
}
