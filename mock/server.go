package mock

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/plantmock/plantmock/mock/internal/admin"
	"github.com/plantmock/plantmock/mock/internal/metrics"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/option"
	"github.com/plantmock/plantmock/mock/internal/pipeline"
	"github.com/plantmock/plantmock/mock/internal/record"
	"github.com/plantmock/plantmock/mock/internal/session"
	"github.com/plantmock/plantmock/mock/internal/webhook"
)

// Server is the mock: an http.Handler serving one OpenAPI document.
type Server struct {
	e          *pipeline.Engine
	admin      http.Handler
	adminCalls http.Handler // the admin API's calls past its guard, for ServeMCP
	adminToken string
	noAdmin    bool
	shutdown   time.Duration
	events     admin.Events      // the streams of /__admin/events
	recording  *record.Recording // Options.Proxy.Record; nil when nothing is recorded
	sender     *webhook.Sender   // webhooks and callbacks
	metrics    *metrics.Metrics  // GET /__admin/metrics
	reloads    reloads           // how the last Reload went
}

var _ http.Handler = (*Server)(nil)

// New loads the document in opts and returns a Server ready to serve it.
// A document it cannot serve is reported as a *SpecError, scenarios that
// do not fit it as a *ScenarioError; malformed tokens and seed data that
// do not validate are errors too.
func New(opts Options) (*Server, error) {
	s := &Server{
		e: &pipeline.Engine{
			MaxBody:  orDefault(opts.Limits.MaxBody, DefaultMaxBody),
			Cors:     opts.CORS,
			LogAll:   opts.LogRequests,
			Timeouts: opts.Limits.Timeouts.OrDefaults(),
		},
		adminToken: opts.Admin.Token,
		noAdmin:    opts.Admin.Disabled,
	}
	s.e.MaxResources = orDefault(opts.Limits.MaxResources, DefaultMaxResources)
	s.e.Log, s.e.Seed, s.e.NoJournal = opts.Logger, uint64(opts.Seed), opts.Journal.Size < 0
	s.e.IgnoreStreamField = opts.IgnoreStreamField
	if s.e.Log == nil {
		s.e.Log = slog.New(slog.DiscardHandler)
	}
	if s.e.Seed == 0 {
		var b [8]byte
		rand.Read(b[:])
		s.e.Seed = binary.LittleEndian.Uint64(b[:]) | 1
	}
	s.metrics = metrics.New(s.e.Log, &s.e.Sessions) // read once the state is open
	s.e.Upstreamed = s.metrics.Upstreamed
	var err error
	if s.admin, err = newAdmin(s, opts.Admin); err != nil {
		return nil, err
	}
	if err = s.e.SetPrefer(opts.Prefer); err != nil {
		return nil, err
	}
	if s.e.ClearCreds, err = option.ClearCredentials(opts.Journal.Credentials); err != nil {
		return nil, err
	}
	if s.e.Tokens, err = option.Tokens(opts.Tokens); err != nil {
		return nil, err
	}
	m, err := s.build(opts.Content(), nil)
	if err != nil {
		return nil, err
	}
	if len(opts.Documents) > 0 && opts.Proxy.URL != "" {
		return nil, &OptionError{Name: "proxy", Err: fmt.Errorf("a mock of Documents proxies none: serve the document --proxy checks alone, as Spec")}
	}
	s.e.Docs.Store(m)
	if len(opts.PreviousSpec) > 0 {
		if s.e.Previous, err = previous(opts); err != nil {
			return nil, err
		}
	}
	if err := s.e.NewUpstream(proxyOptions(opts.Proxy), m.Docs[0]); err != nil {
		return nil, err
	}
	if opts.Proxy.Record != "" && opts.Proxy.URL != "" {
		if s.recording, err = record.New(opts.Proxy.Record, opts.Proxy.RecordRedact, s.e.Log); err != nil {
			return nil, err
		}
	}
	s.shutdown = orDefault(opts.ShutdownTimeout, DefaultShutdownTimeout)
	s.sender = webhook.NewSender(s.e, webhook.Config{Options: webhookOptions(opts.Webhooks), Version: Version, Log: s.e.Log, Listeners: &s.e.Listeners, ClearCreds: s.e.ClearCreds})
	s.e.Listen(s.told(opts.Observe)...)
	s.e.Live = &s.events
	b, err := s.openState(opts)
	if err != nil {
		return nil, err
	}
	s.e.Store, s.e.Sessions = b.Store(), session.NewSessions(b, orDefault(opts.Limits.MaxSessions, DefaultMaxSessions), orDefault(opts.Limits.SessionIdle, DefaultSessionIdle))
	s.e.Budget.Time = opts.Limits.GenerationTime // gen takes 0 for its default
	if opts.Limits.Clock != nil {
		s.e.Sessions.Now = opts.Limits.Clock
	}
	s.e.RemoteJournal = b.Shared() && !s.e.NoJournal
	if s.e.RemoteJournal {
		s.e.StartLate()
	}
	if len(opts.SeedData) > 0 {
		if err := s.SeedData(opts.SeedData); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// previous loads Options.PreviousSpec, the previous version of the one
// document served.
func previous(opts Options) (*pipeline.Served, error) {
	if len(opts.Documents) > 0 {
		return nil, &OptionError{Name: "previous-spec", Err: errors.New("a mock of Documents has no previous document: give it beside the one document it precedes, as Spec")}
	}
	sv, err := pipeline.Judging(opts.PreviousSpec)
	if err != nil {
		return nil, &OptionError{Name: "previous-spec", Err: &SpecError{Err: err}}
	}
	return sv, nil
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
//
// With several documents it names each, with commas between them.
func (s *Server) Title() string {
	var titles []string
	for _, sv := range s.e.Mounted().Docs {
		titles = append(titles, strings.TrimSpace(sv.Doc.Title+" "+sv.Doc.Version))
	}
	return strings.Join(titles, ", ")
}

// Warnings returns what the document declares that is served with a
// caveat, one line each: keywords foreign to its dialect, methods declared
// twice on templates that differ only in parameter names, recursive
// schemas, schemas no answer can be made with, examples that do not
// conform to their schema (answers are generated instead). They are
// what serving logs at start; Options.Strict refuses them.
//
// With several documents each line starts with the document's name.
func (s *Server) Warnings() []string {
	return linesOf(s.e.Mounted(), func(d *openapi.Document) []string { return d.Warnings })
}

// Mistakes returns the served document's mistakes that touch one piece of
// it, one line each: the piece at fault (a schema keyword, a parameter) is
// left out and the rest of the document is served. Options.Strict refuses
// such a document instead.
//
// With several documents each line starts with the document's name.
func (s *Server) Mistakes() []string {
	return linesOf(s.e.Mounted(), func(d *openapi.Document) []string { return d.Mistakes })
}

// linesOf returns the lines lines gives of each document of m, each line
// after its document's name where there are several.
func linesOf(m *pipeline.Mounts, lines func(*openapi.Document) []string) []string {
	var out []string
	for _, sv := range m.Docs {
		for _, l := range lines(sv.Doc) {
			if m.Several() {
				l = sv.Name + ": " + l
			}
			out = append(out, l)
		}
	}
	return out
}

// strictRefusal is the error of a document refused in strict mode for
// its lines of kind ("mistakes" or "caveats"): the first, and how many
// more plantmock check lists.
func strictRefusal(lines []string, kind string) error {
	if len(lines) == 1 {
		return errors.New("refused in strict mode: " + lines[0])
	}
	return fmt.Errorf("refused in strict mode: %s (and %d more %s: plantmock check lists them)", lines[0], len(lines)-1, kind)
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

// serveOn serves h on ln; admin says whether h answers the admin API.
func (s *Server) serveOn(ctx context.Context, ln net.Listener, h http.Handler, admin bool) error {
	if admin && s.adminToken == "" && !loopback(ln.Addr()) {
		s.e.Log.Warn("the admin API is open to the network: whoever reaches this address can read the journal and change the mock's state; set an admin token (--admin-token or PLANTMOCK_ADMIN_TOKEN) or listen on 127.0.0.1",
			"addr", ln.Addr().String())
	}
	hs := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: s.e.Timeouts.Header,
		ReadTimeout:       s.e.Timeouts.Read,
		WriteTimeout:      s.e.Timeouts.WriteTimeout(),
		IdleTimeout:       s.e.Timeouts.Idle,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.e.Log.Handler(), slog.LevelDebug),
	}
	hs.RegisterOnShutdown(s.events.Close) // event streams never end on their own
	defer s.e.Listeners.Add(ln, h != s)()
	w := newWatch(watchTick(s.e.Timeouts))
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
		s.sender.CloseDeliveries(sctx) // webhooks and callbacks under way, in the time left
		s.writeRecording()             // the exchanges this listener proxied; logged if it fails
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

// proxyOptions returns po with its defaults.
func proxyOptions(po pipeline.ProxyOptions) pipeline.ProxyOptions {
	po.Timeout = orDefault(po.Timeout, DefaultProxyTimeout)
	return po
}

// webhookOptions returns wo with its defaults: DefaultWebhookRetries for
// 0, none for fewer.
func webhookOptions(wo webhook.Options) webhook.Options {
	switch {
	case wo.Retries == 0:
		wo.Retries = DefaultWebhookRetries
	case wo.Retries < 0:
		wo.Retries = 0
	}
	return wo
}
