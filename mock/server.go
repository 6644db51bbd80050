package mock

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"github.com/plantmock/plantmock"
	"github.com/plantmock/plantmock/mock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Server is the mock: an http.Handler serving one OpenAPI document with an
// in-memory store.
type Server struct {
	doc           *openapi.Document
	plans         map[*openapi.Operation]*plan
	fallbackShape *errorShape // for problems found before routing
	tokens        map[string]struct{}
	seed          uint64
	maxBody       int64
	log           *slog.Logger

	scripts  map[string]*script   // loaded scenarios by name
	defs     map[string]*Scenario // and as they were given
	initial  *script              // the scenario active in new sessions
	nrules   int                  // rules in all scenarios
	maxDelay time.Duration        // the longest scripted delay

	admin      http.Handler
	cors       bool
	logAll     bool
	adminToken string
	noAdmin    bool

	now func() time.Time // the clock sessions expire by

	journalSize    int
	observe        func(Entry) // Options.Observe
	defaultSession *session
	sessions       sessions
	resources      atomic.Int64 // stored in all sessions
	maxResources   int64
	seq            atomic.Uint64 // values generated so far
	ids            atomic.Uint64 // identifiers assigned so far
}

var _ http.Handler = (*Server)(nil)

// New loads the document in opts and returns a Server ready to serve it.
// A document it cannot serve is reported as a *SpecError, scenarios that
// do not fit it as a *ScenarioError; malformed tokens and seed data that
// do not validate are errors too.
func New(opts Options) (*Server, error) {
	spec := opts.Spec
	if len(spec) == 0 {
		spec = []byte(plantmock.OpenAPI)
	}
	doc, err := openapi.Load(spec)
	if err != nil {
		return nil, &SpecError{Err: err}
	}
	s := &Server{
		doc:          doc,
		plans:        map[*openapi.Operation]*plan{},
		maxBody:      opts.MaxBody,
		log:          opts.Logger,
		seed:         uint64(opts.Seed),
		now:          time.Now,
		journalSize:  opts.JournalSize,
		maxResources: int64(opts.MaxResources),
		observe:      opts.Observe,
		sessions:     sessions{byName: map[string]*session{}, max: opts.MaxSessions, idle: opts.SessionIdle},
	}
	if s.maxResources <= 0 {
		s.maxResources = DefaultMaxResources
	}
	if s.sessions.max <= 0 {
		s.sessions.max = DefaultMaxSessions
	}
	if s.sessions.idle <= 0 {
		s.sessions.idle = DefaultSessionIdle
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.maxBody <= 0 {
		s.maxBody = DefaultMaxBody
	}
	if s.seed == 0 {
		var b [8]byte
		rand.Read(b[:])
		s.seed = binary.LittleEndian.Uint64(b[:]) | 1
	}
	if len(opts.Tokens) > 0 {
		s.tokens = map[string]struct{}{}
		for _, t := range opts.Tokens {
			if !isToken68(t) {
				return nil, fmt.Errorf("token %q is not a valid bearer token (RFC 6750 token68)", clip(t, 20))
			}
			s.tokens[t] = struct{}{}
		}
	}
	for _, op := range doc.Operations {
		if strings.HasPrefix(op.Path+"/", AdminPrefix) {
			return nil, &SpecError{Err: fmt.Errorf("path %s is under %s, which plantmock keeps for its admin API", op.Path, AdminPrefix)}
		}
	}
	if err := s.buildPlans(); err != nil {
		return nil, &SpecError{Err: err}
	}
	var shipped []*Scenario
	if !opts.NoShippedScenarios {
		shipped = ShippedScenarios()
	}
	if err := s.compileScripts(shipped, opts.Scenarios, opts.Scenario); err != nil {
		return nil, &ScenarioError{Err: err}
	}
	s.defaultSession = s.newSession("")
	s.adminToken, s.noAdmin = opts.AdminToken, opts.NoAdmin
	s.cors, s.logAll = opts.CORS, opts.LogRequests
	s.buildAdmin()
	if len(opts.SeedData) > 0 {
		if err := s.SeedData(opts.SeedData); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Title returns the served document's title and version, e.g.
// "OpenAPI Plant Store 1.0.0".
func (s *Server) Title() string { return strings.TrimSpace(s.doc.Title + " " + s.doc.Version) }

// ServeHTTP answers one request: route, authenticate, validate, respond;
// then it records the exchange in the journal.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.cors && s.allowOrigin(w, r) {
		return // a preflight, answered
	}
	if !s.noAdmin && strings.HasPrefix(r.URL.Path, AdminPrefix) {
		s.admin.ServeHTTP(w, r)
		return
	}
	rec := &recorder{ResponseWriter: w, start: time.Now()}
	defer s.finish(rec, r)
	s.serve(rec, r)
}

func (s *Server) serve(w *recorder, r *http.Request) {
	route, vals, rest := s.find(r.URL.EscapedPath())
	if route == nil {
		s.writeProblem(w, nil, &problem{code: CodeNoRoute, status: http.StatusNotFound,
			message: fmt.Sprintf("no path of the OpenAPI document matches %s", clip(r.URL.Path, 200))})
		return
	}
	op := route.Operation(r.Method)
	if op == nil {
		pl := s.anyPlan(route)
		s.writeProblem(w, pl, &problem{code: CodeMethod, status: http.StatusMethodNotAllowed,
			message: fmt.Sprintf("%s does not declare %s; allowed: %s", route.Path, clip(r.Method, 20), route.Allow),
			header:  [2]string{"Allow", route.Allow}})
		return
	}
	w.op = op
	pl := s.plans[op]
	if p := s.authenticate(op, r); p != nil {
		s.writeProblem(w, pl, p)
		return
	}
	sess, p := s.session(r)
	if p != nil {
		s.writeProblem(w, pl, p)
		return
	}
	w.sess = sess
	sp, p := s.selectScript(r, sess)
	if p != nil {
		s.writeProblem(w, pl, p)
		return
	}
	if rest != "" {
		r = withPath(r, rest)
	}
	if vs := op.ValidateParams(r); len(vs) > 0 {
		s.writeProblem(w, pl, &problem{code: CodeParameter, class: classRequest,
			message: "invalid parameters", violations: vs})
		return
	}
	raw, body, p := s.readBody(w, r, op)
	w.reqBody = raw
	if p != nil {
		s.writeProblem(w, pl, p)
		return
	}
	if prefs := r.Header.Values("Prefer"); len(prefs) > 0 {
		pf, p := parsePrefer(prefs)
		if p == nil && !pf.empty() {
			var done bool
			done, p = s.preferred(w, pl, pf)
			if done && p == nil {
				return
			}
		}
		if p != nil {
			s.writeProblem(w, pl, p)
			return
		}
	}
	if sp != nil {
		token := requestToken(op, r)
		if rule, seq := sp.match(sess, op, r, body, token); rule != nil {
			w.script, w.rule = sp.name, rule.index+1
			s.answer(w, r, sess, pl, rule, seq, vals, body, token)
			return
		}
	}
	s.respond(w, r, sess, pl, vals, body)
}

// find routes a request path, with or without a server base path in
// front; rest is the path without the base path when one was cut.
func (s *Server) find(path string) (route *openapi.Route, vals []string, rest string) {
	if route, vals = s.doc.Router().Find(path); route != nil {
		return route, vals, ""
	}
	for _, bp := range s.doc.BasePaths {
		if rest, ok := strings.CutPrefix(path, bp); ok && strings.HasPrefix(rest, "/") {
			if route, vals = s.doc.Router().Find(rest); route != nil {
				return route, vals, rest
			}
		}
	}
	return nil, nil, ""
}

// withPath returns a shallow copy of r whose URL path is the escaped path p.
func withPath(r *http.Request, p string) *http.Request {
	r2 := new(http.Request)
	*r2 = *r
	u := *r.URL
	u.RawPath = p
	if dec, err := url.PathUnescape(p); err == nil {
		u.Path = dec
	}
	r2.URL = &u
	return r2
}

func (s *Server) anyPlan(r *openapi.Route) *plan {
	for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE"} {
		if op := r.Operation(m); op != nil {
			return s.plans[op]
		}
	}
	return nil
}

// finish turns a panic into a 500 in the error shape, logged with its
// stack, and records the exchange.
func (s *Server) finish(rec *recorder, r *http.Request) {
	if v := recover(); v != nil {
		if v == http.ErrAbortHandler {
			s.record(rec, r)
			panic(v)
		}
		s.log.Error("panic while answering", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		if rec.status == 0 {
			s.writeProblem(rec, nil, &problem{code: CodeInternal, status: http.StatusInternalServerError,
				message: "internal error in plantmock; see its log"})
		}
	}
	s.record(rec, r)
}

// readBody reads and validates the request body against the operation;
// it returns the body and its decoded JSON value (nil when there is none).
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, op *openapi.Operation) ([]byte, any, *problem) {
	if op.Body == nil {
		return nil, nil, nil
	}
	if r.ContentLength > s.maxBody {
		return nil, nil, invalid(CodeBodyTooLarge, classTooLarge, "request body of %d bytes is over the limit of %d bytes", r.ContentLength, s.maxBody)
	}
	body := r.Body
	if r.ContentLength < 0 {
		body = http.MaxBytesReader(w, r.Body, s.maxBody) // unknown length: stop at the limit
	}
	raw, err := readAll(body, r.ContentLength)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, nil, invalid(CodeBodyTooLarge, classTooLarge, "request body is over the limit of %d bytes", s.maxBody)
		}
		return nil, nil, invalid(CodeBodyNotJSON, classRequest, "request body could not be read: %v", err)
	}
	ct := r.Header.Get("Content-Type")
	if len(raw) == 0 && ct == "" {
		if op.Body.Required {
			return raw, nil, invalid(CodeBodyMissing, classRequest, "request body is required (%s)", declaredTypes(op.Body))
		}
		return raw, nil, nil
	}
	media, p := matchMedia(op.Body, ct)
	if p != nil {
		return raw, nil, p
	}
	if !openapi.IsJSON(media.Type) {
		return raw, nil, nil // only JSON bodies are validated
	}
	if len(raw) == 0 {
		if op.Body.Required {
			return raw, nil, invalid(CodeBodyMissing, classRequest, "request body is required (%s)", declaredTypes(op.Body))
		}
		return raw, nil, nil
	}
	v, err := jsonx.Decode(raw)
	if err != nil {
		return raw, nil, invalid(CodeBodyNotJSON, classRequest, "%s", err.Error())
	}
	if vs := media.Schema.Validate(v); len(vs) > 0 {
		return raw, nil, &problem{code: CodeSchema, class: classSchema, message: "request body does not match the schema", violations: vs}
	}
	return raw, v, nil
}

// readAll reads a body, sized by its Content-Length when known.
func readAll(r io.Reader, n int64) ([]byte, error) {
	if n <= 0 {
		return io.ReadAll(r)
	}
	buf := make([]byte, n, n+1)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, err
	}
	// A body longer than its Content-Length is cut by net/http; read to EOF
	// to surface a limit error from MaxBytesReader, if any.
	var one [1]byte
	if k, err := r.Read(one[:]); k > 0 || (err != nil && err != io.EOF) {
		rest, err2 := io.ReadAll(r)
		if err2 != nil {
			return nil, err2
		}
		return append(append(buf, one[:k]...), rest...), err
	}
	return buf, nil
}

// matchMedia finds the declared media type for a Content-Type header.
func matchMedia(b *openapi.RequestBody, ct string) (*openapi.Media, *problem) {
	if ct == "application/json" {
		for _, m := range b.Content {
			if m.Type == ct {
				return m, nil
			}
		}
	}
	if ct == "" {
		return nil, invalid(CodeContentType, classMediaType, "missing Content-Type; send %s", declaredTypes(b))
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return nil, invalid(CodeContentType, classMediaType, "malformed Content-Type %q; send %s", clip(ct, 60), declaredTypes(b))
	}
	if cs, ok := params["charset"]; ok && openapi.IsJSON(mt) && !strings.EqualFold(cs, "utf-8") {
		return nil, invalid(CodeContentType, classMediaType, "charset %q is not accepted; JSON must be UTF-8", clip(cs, 20))
	}
	var wild *openapi.Media
	for _, m := range b.Content {
		if m.Type == mt {
			return m, nil
		}
		if wild == nil && mediaMatches(m.Type, mt) {
			wild = m
		}
	}
	if wild != nil {
		return wild, nil
	}
	return nil, invalid(CodeContentType, classMediaType, "Content-Type %s is not accepted; send %s", clip(mt, 60), declaredTypes(b))
}

func mediaMatches(pattern, mt string) bool {
	pt, ps, _ := strings.Cut(pattern, "/")
	t, st, _ := strings.Cut(mt, "/")
	return (pt == "*" || pt == t) && (ps == "*" || ps == st)
}

func declaredTypes(b *openapi.RequestBody) string {
	ts := make([]string, len(b.Content))
	for i, m := range b.Content {
		ts[i] = m.Type
	}
	return strings.Join(ts, " or ")
}

// Serve answers requests on ln until ctx is done, then shuts down
// gracefully: it stops accepting, lets in-flight requests finish for up to
// ShutdownTimeout, and returns nil.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error { return s.serveOn(ctx, ln, s) }

// ServeAdmin serves the admin API alone on ln, like Serve.
func (s *Server) ServeAdmin(ctx context.Context, ln net.Listener) error {
	return s.serveOn(ctx, ln, s.admin)
}

func (s *Server) serveOn(ctx context.Context, ln net.Listener, h http.Handler) error {
	hs := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      60*time.Second + s.maxDelay, // above the longest scripted delay
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	err := hs.Shutdown(sctx)
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		return serr
	}
	return err
}

// ShutdownTimeout bounds how long Serve waits for in-flight requests.
const ShutdownTimeout = 10 * time.Second

// Reset empties the default session's store and journal and starts its
// rule counters (times, every, .seq) again, as if the mock had just started.
func (s *Server) Reset() { s.defaultSession.reset(s) }

// ResetJournal empties the default session's journal.
func (s *Server) ResetJournal() {
	if j := s.defaultSession.journal; j != nil {
		j.reset()
	}
}
