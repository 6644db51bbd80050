// Package mocktest runs a plantmock mock inside a Go test, the way
// net/http/httptest runs a handler: one call starts it on a loopback
// listener with a fresh store, and the test's cleanup stops it.
//
//	func TestCreate(t *testing.T) {
//		srv := mocktest.NewServer(t)
//		client := plants.NewClient(srv.URL, "token") // the client under test
//		...
//		srv.AssertCount(mock.Match{Operation: "POST /plants", Body: map[string]any{"id": 7}}, 1)
//	}
//
// Requests the mock rejects for breaking the contract fail the test when it
// ends, listing the violations, unless Options.AllowContractFailures is set.
//
// Receive starts a loopback receiver subscribed to one of the document's
// webhooks, and NewReceiver one for callbacks; the test reads what
// arrived with Next or Wait, and Deliveries lists every attempt the mock
// made.
package mocktest

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/plantmock/plantmock/internal/files"
	"github.com/plantmock/plantmock/mock"
)

// TB is the part of testing.TB the helper uses; *testing.T and *testing.B
// satisfy it.
type TB interface {
	Helper()
	Cleanup(func())
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// Options configure a test server. The zero value serves the embedded
// Plant Store with the shipped scenarios, accepts any bearer token and
// fails the test on contract failures.
type Options struct {
	// Options are the engine's: Spec, Tokens, Seed, Limits, Scenarios
	// built in Go, the active Scenario, Journal.Size, Observe, Logger.
	// Journal.Credentials defaults to mock.CredentialsClear when the
	// journal is kept in this process (no Store): assertions and Observe
	// see the credentials the client sent.
	mock.Options

	// SpecFile is an OpenAPI document to read and serve, like the
	// binary's --spec.
	SpecFile string

	// Specs are OpenAPI documents to read and serve side by side, like
	// the binary's --spec repeated: each FILE, BASE=FILE to mount it at
	// BASE (else at the path of its first server URL), or NAME:BASE=FILE
	// to name it too. Assertions name a document with mock.Match's
	// Document.
	Specs []string

	// ScenarioFiles are scenario files to load, like those of --scenarios.
	ScenarioFiles []string

	// ScenarioFS, if set, has scenario files (*.yaml, *.yml) at its root.
	ScenarioFS fs.FS

	// AllowContractFailures stops the test from failing when the client
	// sent requests the mock rejected for breaking the contract (a bad body,
	// parameter, path, method or credentials).
	AllowContractFailures bool
}

// Server is a running mock.
type Server struct {
	// Server is the loopback server: URL, Client() and Close.
	*httptest.Server
	// Mock is the engine, for what this package does not wrap.
	Mock *mock.Server

	t         TB
	mu        sync.Mutex   // guards failures, answered and receivers
	failures  []mock.Entry // requests that broke the contract
	answered  []mock.Entry // with a proxy: exchanges whose answer broke it
	receivers []*Receiver  // started by Receive and NewReceiver
}

// NewServer starts a mock for the test t and stops it when the test ends.
// It takes at most one Options. A document or scenario that cannot be
// loaded fails the test at once.
func NewServer(t TB, opts ...Options) *Server {
	t.Helper()
	var o Options
	switch len(opts) {
	case 0:
	case 1:
		o = opts[0]
	default:
		panic("mocktest: NewServer takes at most one Options")
	}
	s := &Server{t: t}
	mo := o.Options
	if o.SpecFile != "" {
		spec, err := files.ReadDocument(o.SpecFile, mock.DefaultMaxSpecFile)
		if err != nil {
			t.Fatalf("mocktest: %v", err)
			return nil
		}
		mo.Spec = spec
	}
	for _, v := range o.Specs {
		name, base, file, err := mock.SplitSpec(v)
		if err != nil {
			t.Fatalf("mocktest: Specs: %v", err)
			return nil
		}
		spec, err := files.ReadDocument(file, mock.DefaultMaxSpecFile)
		if err != nil {
			t.Fatalf("mocktest: %v", err)
			return nil
		}
		mo.Documents = append(mo.Documents, mock.Document{Spec: spec, Base: base, Name: name, Source: file})
	}
	mo.Scenarios = append([]*mock.Scenario(nil), mo.Scenarios...)
	for _, f := range o.ScenarioFiles {
		data, err := files.ReadPath(f, mock.MaxScenarioFile)
		if err != nil {
			t.Fatalf("mocktest: %v", err)
			return nil
		}
		sc, err := mock.ParseScenario(f, data)
		if err != nil {
			t.Fatalf("mocktest: %v", err)
			return nil
		}
		mo.Scenarios = append(mo.Scenarios, sc)
	}
	if o.ScenarioFS != nil {
		scs, err := mock.LoadScenarios(o.ScenarioFS, ".")
		if err != nil {
			t.Fatalf("mocktest: %v", err)
			return nil
		}
		mo.Scenarios = append(mo.Scenarios, scs...)
	}
	if mo.Journal.Credentials == "" && mo.Store.URL == "" {
		// The journal stays in this process, for the test's assertions,
		// which compare the credentials the client sent.
		mo.Journal.Credentials = mock.CredentialsClear
	}
	user := mo.Observe
	mo.Observe = func(e mock.Entry) {
		s.observe(e)
		if user != nil {
			user(e)
		}
	}
	m, err := mock.New(mo)
	if err != nil {
		t.Fatalf("mocktest: %v", err)
		return nil
	}
	s.Mock = m
	s.Server = httptest.NewServer(m)
	t.Cleanup(func() {
		s.Server.Close()
		if !o.AllowContractFailures {
			s.reportFailures()
		}
		m.Close() // the webhooks under way, the connections to Redis
		s.closeReceivers()
	})
	return s
}

// observe keeps the requests that broke the contract and the proxied
// answers that did. The webhooks and callbacks the mock sent are not the
// client's requests: they go to the receivers.
func (s *Server) observe(e mock.Entry) {
	if e.Direction == "outbound" {
		s.noteSent(e)
		return
	}
	req, resp := sides(e)
	if !e.Code.Contract() && !req && !resp {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if e.Code.Contract() || req {
		s.failures = append(s.failures, e)
	}
	if resp {
		s.answered = append(s.answered, e)
	}
}

func (s *Server) reportFailures() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.failures) == 0 {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "plantmock: the client sent %d request(s) that break the contract:", len(s.failures))
	for _, e := range s.failures {
		b.WriteString("\n  ")
		b.WriteString(describe(e))
		for _, v := range e.Violations {
			if v.Direction != "response" { // the service's side: AssertNoAnswerViolations
				b.WriteString("\n      ")
				b.WriteString(v.String())
			}
		}
	}
	b.WriteString("\n(set Options.AllowContractFailures to allow them)")
	s.t.Errorf("%s", b.String())
}

// sides reports whether a proxied exchange broke the document on the
// request's side, on the answer's, or both.
func sides(e mock.Entry) (request, response bool) {
	for _, v := range e.Violations {
		switch v.Direction {
		case "request":
			request = true
		case "response":
			response = true
		}
	}
	return request, response
}

// NewProxy starts a mock in front of the real service at upstream (see
// mock.Options.Proxy.URL): requests no scenario or Prefer answers go to it,
// and its answers are checked against the document. Requests the client
// sent that break the contract fail the test as with NewServer;
// AssertNoAnswerViolations checks the service's side.
func NewProxy(t TB, upstream string, opts ...Options) *Server {
	t.Helper()
	var o Options
	if len(opts) > 1 {
		panic("mocktest: NewProxy takes at most one Options")
	}
	if len(opts) == 1 {
		o = opts[0]
	}
	o.Proxy.URL = upstream
	return NewServer(t, o)
}

// AnswerViolations returns the proxied exchanges whose answer broke the
// document, oldest first.
func (s *Server) AnswerViolations() []mock.Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]mock.Entry(nil), s.answered...)
}

// AssertNoAnswerViolations fails the test if the real service behind a
// proxy answered anything that breaks the document, listing each
// exchange and its violations. It reports whether it passed.
func (s *Server) AssertNoAnswerViolations() bool {
	s.t.Helper()
	es := s.AnswerViolations()
	if len(es) == 0 {
		return true
	}
	var b strings.Builder
	fmt.Fprintf(&b, "plantmock: the service answered %d exchange(s) against the contract:", len(es))
	for _, e := range es {
		b.WriteString("\n  ")
		b.WriteString(describe(e))
		for _, v := range e.Violations {
			if v.Direction == "response" {
				b.WriteString("\n      ")
				b.WriteString(v.String())
			}
		}
	}
	s.t.Errorf("%s", b.String())
	return false
}

// Requests returns the exchanges the mock recorded, oldest first.
func (s *Server) Requests() []mock.Entry { return s.Mock.Journal() }

// Find returns the recorded exchanges m selects, oldest first. A Match
// that names an operation the document does not declare, or holds a bad
// regular expression, stops the test: it could never select anything.
func (s *Server) Find(m mock.Match) []mock.Entry {
	s.t.Helper()
	es, _ := s.find(m)
	return es
}

// find is Find that also reports whether m was usable.
func (s *Server) find(m mock.Match) ([]mock.Entry, bool) {
	s.t.Helper()
	es, err := s.Mock.Find(m)
	if err != nil {
		s.t.Fatalf("mocktest: %v", err)
		return nil, false
	}
	return es, true
}

// Count returns how many recorded exchanges m selects.
func (s *Server) Count(m mock.Match) int {
	s.t.Helper()
	return len(s.Find(m))
}

// AssertCount fails the test unless m selects exactly want recorded
// exchanges, showing what was received. It reports whether it passed.
func (s *Server) AssertCount(m mock.Match, want int) bool {
	s.t.Helper()
	es, ok := s.find(m)
	if !ok {
		return false
	}
	if got := len(es); got != want {
		s.t.Errorf("%s", s.mismatch(m, fmt.Sprintf("%d", want), got))
		return false
	}
	return true
}

// AssertCalled fails the test unless m selects at least one exchange.
func (s *Server) AssertCalled(m mock.Match) bool {
	s.t.Helper()
	es, ok := s.find(m)
	if !ok {
		return false
	}
	if len(es) == 0 {
		s.t.Errorf("%s", s.mismatch(m, "at least 1", 0))
		return false
	}
	return true
}

// AssertNotCalled fails the test if m selects any exchange.
func (s *Server) AssertNotCalled(m mock.Match) bool {
	s.t.Helper()
	return s.AssertCount(m, 0)
}

// mismatch says what was expected and lists what was received.
func (s *Server) mismatch(m mock.Match, want string, got int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "expected %s %s, got %d; received:", want, describeMatch(m), got)
	es := s.Requests()
	if len(es) == 0 {
		b.WriteString(" nothing")
	}
	writeNewest(&b, es, "requests")
	return b.String()
}

// writeNewest lists the newest entries, a line each, saying how many
// earlier ones it leaves out.
func writeNewest(b *strings.Builder, es []mock.Entry, earlier string) {
	const most = 20
	if len(es) > most {
		fmt.Fprintf(b, "\n  (%d earlier %s)", len(es)-most, earlier)
		es = es[len(es)-most:]
	}
	for _, e := range es {
		b.WriteString("\n  ")
		if e.Direction == "outbound" {
			b.WriteString(describeSent(e))
		} else {
			b.WriteString(describe(e))
		}
	}
}

// describeMatch says in words what a Match selects.
func describeMatch(m mock.Match) string {
	var b strings.Builder
	b.WriteString("request(s)")
	if m.Operation != "" {
		b.WriteString(" ")
		b.WriteString(m.Operation)
	}
	if m.Document != "" {
		fmt.Fprintf(&b, " of document %s", m.Document)
	}
	if m.Body != nil {
		body, _ := json.Marshal(m.Body)
		fmt.Fprintf(&b, " with body %s", body)
	}
	if m.Status != 0 {
		fmt.Fprintf(&b, " answered %d", m.Status)
	}
	if m.Func != nil {
		b.WriteString(" meeting the condition")
	}
	return b.String()
}

// describe writes one exchange on a line: POST /plants {"id":8} -> 200
// {"name":"x"}, after its document's name where the mock serves several.
func describe(e mock.Entry) string {
	var b strings.Builder
	if e.Document != "" {
		b.WriteString(e.Document)
		b.WriteString(": ")
	}
	b.WriteString(e.Method)
	b.WriteString(" ")
	b.WriteString(e.Path)
	if e.Query != "" {
		b.WriteString("?")
		b.WriteString(e.Query)
	}
	if len(e.Body) > 0 {
		b.WriteString(" ")
		b.WriteString(short(e.Body))
	}
	if e.Status == 0 {
		b.WriteString(" -> no answer (fault)")
	} else {
		fmt.Fprintf(&b, " -> %d", e.Status)
	}
	if len(e.Response) > 0 {
		b.WriteString(" ")
		b.WriteString(short(e.Response))
	}
	if e.Scenario != "" {
		fmt.Fprintf(&b, " (scenario %s, rule %d)", e.Scenario, e.Rule)
	}
	return b.String()
}

func short(b []byte) string {
	const most = 200
	if len(b) > most {
		return string(b[:most]) + "..."
	}
	return string(b)
}

// Resources returns the resources stored in a collection ("/plants"),
// oldest first, as JSON.
func (s *Server) Resources(collection string) []json.RawMessage { return s.Mock.Resources(collection) }

// DecodeResources decodes the resources of a collection into v, a pointer
// to a slice (of the caller's struct, or of any).
func (s *Server) DecodeResources(collection string, v any) {
	s.t.Helper()
	data, err := json.Marshal(s.Resources(collection))
	if err == nil {
		err = json.Unmarshal(data, v)
	}
	if err != nil {
		s.t.Fatalf("mocktest: decoding %s: %v", collection, err)
	}
}

// Resource decodes the resource stored under id (as written in a path:
// "7") into v and reports whether there is one.
func (s *Server) Resource(collection, id string, v any) bool {
	s.t.Helper()
	doc, ok := s.Mock.Resource(collection, id)
	if !ok {
		return false
	}
	if err := json.Unmarshal(doc, v); err != nil {
		s.t.Fatalf("mocktest: decoding %s/%s: %v", collection, id, err)
	}
	return true
}

// Reset empties the store and the journal and restarts rule counters.
// Contract failures seen so far are still reported.
func (s *Server) Reset() { s.Mock.Reset() }
