package mock

import (
	"bufio"
	"context"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/plantmock/plantmock/mock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// DefaultJournalSize is how many exchanges the journal keeps by default.
const DefaultJournalSize = 1000

// maxJournalBody bounds the bytes of a body the journal keeps.
const maxJournalBody = 64 << 10

// Entry is one exchange the mock answered, as the journal records it.
// Its slices and maps are shared; treat them as read-only.
type Entry struct {
	Seq      uint64        `json:"seq"` // 1 for the first request after start or reset
	Time     time.Time     `json:"time"`
	Duration time.Duration `json:"duration"`

	Method string      `json:"method"`
	Path   string      `json:"path"`
	Query  string      `json:"query,omitempty"`
	Header http.Header `json:"headers"`
	// Body is the request body (its first 64 KiB).
	Body  []byte `json:"body,omitempty"`
	Token string `json:"token,omitempty"` // the bearer token or API key
	// Operation is the matched operation, "POST /plants"; empty when no
	// operation matched (404, 405).
	Operation string `json:"operation,omitempty"`
	// Scenario and Rule (1-based) name the rule that scripted the answer.
	Scenario string `json:"scenario,omitempty"`
	Rule     int    `json:"rule,omitempty"`
	// Session is the X-Mock-Session of the request; empty for the default.
	Session string `json:"session,omitempty"`

	Status int `json:"status"` // 0 when a fault left no answer
	// Response is the answer's body (its first 64 KiB).
	Response []byte `json:"response,omitempty"`
	// Code is the error value of an error answer made by the mock.
	Code Code `json:"code,omitempty"`
	// Violations say why a request was rejected for breaking the contract.
	Violations []Violation `json:"violations,omitempty"`
}

// Violation is one way a request breaks the contract.
type Violation struct {
	// Path locates the value: "id", "tags[2]", "owner.name" in the body
	// (empty for the body as a whole), "query.limit" for parameters.
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// String returns "path: reason".
func (v Violation) String() string { return openapi.Violation(v).String() }

// Contract reports whether the code rejects a request for breaking the
// contract (its route, security, parameters or body), as opposed to the
// state of the mock (a duplicate or unknown identifier) or its control
// headers.
func (c Code) Contract() bool {
	switch c {
	case CodeBodyMissing, CodeBodyNotJSON, CodeContentType, CodeBodyTooLarge, CodeSchema, CodeParameter,
		CodeNoCredentials, CodeBadCredentials, CodeTokenRejected, CodeNoRoute, CodeMethod:
		return true
	}
	return false
}

// journal keeps the last exchanges in a ring that grows up to its size.
type journal struct {
	size int
	mu   sync.Mutex // guards ring, next and seq
	ring []Entry
	next int // where the next entry goes once the ring is full
	seq  uint64
}

func newJournal(size int) *journal {
	if size < 0 {
		return nil
	}
	if size == 0 {
		size = DefaultJournalSize
	}
	return &journal{size: size}
}

func (j *journal) add(e *Entry) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.seq++
	e.Seq = j.seq
	if len(j.ring) < j.size {
		j.ring = append(j.ring, *e)
		return
	}
	j.ring[j.next] = *e
	j.next = (j.next + 1) % j.size
}

// entries returns the kept exchanges, oldest first.
func (j *journal) entries() []Entry {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make([]Entry, 0, len(j.ring))
	out = append(out, j.ring[j.next:]...)
	return append(out, j.ring[:j.next]...)
}

func (j *journal) reset() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.ring, j.next, j.seq = nil, 0, 0
}

// recorder is the ResponseWriter of one request: it notes what the mock
// answered, for the journal.
type recorder struct {
	http.ResponseWriter
	start    time.Time
	status   int
	body     []byte
	op       *openapi.Operation
	reqBody  []byte
	problem  *problem
	script   string
	rule     int
	sess     *session
	hijacked bool
	recorded bool
}

func (w *recorder) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *recorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.body == nil {
		w.body = b // the mock never reuses a buffer it has written
	} else if len(w.body) < maxJournalBody {
		w.body = append(w.body[:len(w.body):len(w.body)], b...)
	}
	return w.ResponseWriter.Write(b)
}

// Hijack lets faults take the connection over.
func (w *recorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	hj, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, http.ErrNotSupported
	}
	w.hijacked = true
	return hj.Hijack()
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *recorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// record adds the exchange to the journal and shows it to the observer.
func (s *Server) record(w *recorder, r *http.Request) {
	var j *journal
	if w.sess != nil {
		j = w.sess.journal
	} else {
		j = s.defaultSession.journal
	}
	if w.recorded || j == nil && s.observe == nil && !s.logAll {
		return
	}
	w.recorded = true
	e := Entry{
		Time: w.start, Duration: time.Since(w.start),
		Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header,
		Body: clipBytes(w.reqBody), Status: w.status, Response: clipBytes(w.body),
		Scenario: w.script, Rule: w.rule,
	}
	if w.sess != nil {
		e.Session = w.sess.name
	}
	if w.hijacked {
		e.Status, e.Response = 0, nil
	}
	if w.op != nil {
		e.Operation = w.op.Name
		e.Token = requestToken(w.op, r)
	}
	if p := w.problem; p != nil {
		e.Code = p.code
		if len(p.violations) > 0 {
			e.Violations = make([]Violation, len(p.violations))
			for i, v := range p.violations {
				e.Violations[i] = Violation(v)
			}
		}
	}
	if j != nil {
		j.add(&e)
	}
	if s.logAll {
		s.logExchange(&e)
	}
	if s.observe != nil {
		s.observe(e)
	}
}

func clipBytes(b []byte) []byte {
	if len(b) > maxJournalBody {
		return b[:maxJournalBody]
	}
	return b
}

// Journal returns the exchanges the default session's journal keeps,
// oldest first.
func (s *Server) Journal() []Entry {
	if s.defaultSession.journal == nil {
		return nil
	}
	return s.defaultSession.journal.entries()
}

// Match selects journal entries. Every condition given must hold; the
// zero Match selects every entry.
type Match struct {
	// Operation is "METHOD /path/template", as in a scenario.
	Operation string `json:"operation,omitempty"`
	// Status is the answer's status.
	Status int `json:"status,omitempty"`
	// Body is a JSON subset of the request body, as in a scenario's
	// when.body: strings may be /regex/.
	Body any `json:"body,omitempty"`
	// Func, if set, must return true.
	Func func(Entry) bool `json:"-"`
}

// Find returns the journal entries m selects, oldest first. A bad regular
// expression in m.Body is an error.
func (s *Server) Find(m Match) ([]Entry, error) {
	sel, err := m.compile()
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, e := range s.Journal() {
		if sel(e) {
			out = append(out, e)
		}
	}
	return out, nil
}

// compile returns the predicate of m.
func (m Match) compile() (func(Entry) bool, error) {
	var pat any
	if m.Body != nil {
		v, err := jsonx.Normalize(m.Body)
		if err != nil {
			return nil, err
		}
		if pat, err = compilePattern(v, "body"); err != nil {
			return nil, err
		}
	}
	op := normalizeOperation(m.Operation)
	return func(e Entry) bool {
		if op != "" && e.Operation != op || m.Status != 0 && e.Status != m.Status {
			return false
		}
		if pat != nil {
			v, err := jsonx.Decode(e.Body)
			if err != nil || !matchPattern(pat, v) {
				return false
			}
		}
		return m.Func == nil || m.Func(e)
	}, nil
}

// normalizeOperation writes "post  /plants" as "POST /plants".
func normalizeOperation(op string) string {
	method, path, _ := strings.Cut(strings.TrimSpace(op), " ")
	if method == "" {
		return ""
	}
	return strings.ToUpper(method) + " " + strings.TrimSpace(path)
}

// logExchange writes one log line for an exchange. Tokens are not logged.
func (s *Server) logExchange(e *Entry) {
	attrs := []slog.Attr{
		slog.String("method", e.Method), slog.String("path", e.Path),
		slog.Int("status", e.Status), slog.Duration("duration", e.Duration),
	}
	if e.Session != "" {
		attrs = append(attrs, slog.String("session", e.Session))
	}
	if e.Scenario != "" {
		attrs = append(attrs, slog.String("scenario", e.Scenario), slog.Int("rule", e.Rule))
	}
	if e.Code != 0 {
		attrs = append(attrs, slog.Int("error", int(e.Code)))
	}
	if len(e.Violations) > 0 {
		vs := make([]string, len(e.Violations))
		for i, v := range e.Violations {
			vs[i] = v.String()
		}
		attrs = append(attrs, slog.Any("violations", vs))
	}
	s.log.LogAttrs(context.Background(), slog.LevelInfo, "request", attrs...)
}
