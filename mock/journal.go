package mock

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	cliptext "github.com/plantmock/plantmock/internal/clip"
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
	// Notes say what the mock did with an accepted request beyond keeping
	// it: "ignored readOnly id", say.
	Notes []string `json:"notes,omitempty"`

	// Direction is "outbound" for a webhook or callback the mock sent (one
	// entry per attempt); empty for the requests it received. Of an
	// outbound entry, Method, Path, Header and Body are what was sent,
	// Status and Response the subscriber's answer, Violations the ways
	// that answer broke the document, and Operation "webhook NAME" or
	// "callback NAME".
	Direction string `json:"direction,omitempty"`
	// URL is where an outbound request went.
	URL string `json:"url,omitempty"`
	// Trigger is the Seq of the request whose answer sent an outbound
	// one; 0 when the admin API sent it.
	Trigger uint64 `json:"trigger,omitempty"`
	// Attempt counts the tries of an outbound request from 1; 0 when it
	// was not sent.
	Attempt int `json:"attempt,omitempty"`
	// Error says why an outbound request got no answer, or was not sent.
	Error string `json:"error,omitempty"`
}

// MarshalJSON writes bodies as JSON when they are JSON, else as strings.
func (e Entry) MarshalJSON() ([]byte, error) {
	type plain Entry
	return json.Marshal(struct {
		plain
		Body     any `json:"body,omitempty"`
		Response any `json:"response,omitempty"`
	}{plain(e), bodyValue(e.Body), bodyValue(e.Response)})
}

func bodyValue(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	if json.Valid(b) {
		return json.RawMessage(b)
	}
	return string(b)
}

// Violation is one way a request breaks the contract.
type Violation struct {
	// Path locates the value: "id", "tags[2]", "owner.name" in the body
	// (empty for the body as a whole), "query.limit" for parameters.
	Path   string `json:"path"`
	Reason string `json:"reason"`
	// Direction says which side of a proxied exchange broke the document:
	// "request" or "response"; empty for requests the mock answered.
	Direction string `json:"direction,omitempty"`
	// Schema is where in the document the broken rule is, as a JSON
	// pointer fragment to its keyword
	// (#/components/schemas/NewPlant/properties/id/type); empty when no
	// schema is at fault.
	Schema string `json:"schema,omitempty"`
}

// violations gives the document's violations the journal's form, on one
// side of the exchange (see Violation.Direction).
func violations(vs []openapi.Violation, direction string) []Violation {
	if len(vs) == 0 {
		return nil
	}
	out := make([]Violation, len(vs))
	for i, v := range vs {
		out[i] = Violation{Path: clip(v.Path, cliptext.Path), Reason: v.Reason, Direction: direction, Schema: v.Schema}
	}
	return out
}

// String returns "path: reason", or "body: reason" for the body as a
// whole, after "request " or "response " when the direction is known.
func (v Violation) String() string {
	switch {
	case v.Direction == "":
		return openapi.Violation{Path: v.Path, Reason: v.Reason}.String()
	case v.Path == v.Direction: // the response as a whole: its status, its type
		return v.Direction + ": " + v.Reason
	}
	return v.Direction + " " + openapi.Violation{Path: v.Path, Reason: v.Reason}.String()
}

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

// journal keeps the last exchanges of a session in a ring that grows up
// to its size.
type journal struct {
	size int
	mu   sync.Mutex // guards ring, next and seq
	ring []Entry
	next int // where the next entry goes once the ring is full
	seq  uint64
}

// newJournal returns a journal of size entries (0: DefaultJournalSize),
// or nil for a negative size: no journal.
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

// entries returns the kept exchanges, oldest first; nil for no journal.
func (j *journal) entries() []Entry {
	if j == nil {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make([]Entry, 0, len(j.ring))
	out = append(out, j.ring[j.next:]...)
	return append(out, j.ring[:j.next]...)
}

// find returns the entries sel selects, in order.
func find(es []Entry, sel func(Entry) bool) []Entry {
	var out []Entry
	for _, e := range es {
		if sel(e) {
			out = append(out, e)
		}
	}
	return out
}

func (j *journal) reset() {
	if j == nil {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.ring, j.next, j.seq = nil, 0, 0
}

// record adds the exchange to its session's journal and the contract
// report, logs it and shows it to the observer, once.
func (s *Server) record(x *exchange) {
	if x.recorded {
		return
	}
	x.recorded = true
	status, response := x.w.status, x.w.body
	if x.w.hijacked {
		status, response = 0, nil
	}
	e := s.entry(x, status, response)
	vs := e.Violations
	var one [1]Violation // on the stack: no allocation per refused request
	if p := x.problem; p != nil && !x.proxied && p.code.Contract() && len(vs) == 0 {
		one[0] = refusal(p)
		vs = one[:]
	}
	s.contract.add(&e, x.plan, vs)
	if s.recording != nil && x.proxied && x.problem == nil && x.plan != nil && !x.w.hijacked {
		if err := s.recording.add(x, &e); err != nil {
			s.log.Error("recording failed", "operation", e.Operation, "error", err.Error())
		}
	}
	switch {
	case x.journaled != 0:
		e.Seq = x.journaled // written with the create (see storeCreate)
		if want, _ := sentAs(x.plan.success, nil); e.Status != want {
			s.log.Error("the journal has a create's entry with the answer it was to give", "method", e.Method, "path", e.Path, "status", e.Status, "journaled", want)
		}
	case !s.noJournal:
		var err error
		if e.Seq, err = x.sess.state.record(x.r.Context(), e); err != nil {
			s.log.Error("the journal lost an exchange", "method", e.Method, "path", e.Path, "status", e.Status, "error", err.Error())
		}
	}
	if s.logAll {
		s.logExchange(&e)
	}
	if s.observe != nil {
		s.observe(e)
	}
	s.events.publish(e)
	s.afterAnswer(x, e.Seq)
}

// entry returns the journal entry of an exchange answered with status
// and response (its first 64 KiB kept), without its Seq.
func (s *Server) entry(x *exchange, status int, response []byte) Entry {
	r := x.r
	e := Entry{
		Time: x.start, Duration: time.Since(x.start),
		Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header,
		Body: clipBytes(x.raw), Status: status, Response: clipBytes(response),
		Session: x.sess.name, Token: x.cred.token,
	}
	if x.rule != nil {
		e.Scenario, e.Rule = x.scenario.name, x.rule.index+1
	}
	e.Notes = x.notes
	if op := x.op(); op != nil {
		e.Operation = op.Name
	}
	if p := x.problem; p != nil {
		e.Code = p.code
		if !x.proxied {
			e.Violations = violations(p.violations, "")
		}
	}
	if x.proxied {
		e.Violations = x.violations
	}
	return e
}

// storeCreate stores the resource of a create, made by doc, which sets
// answer to the body the create answers with. In a mock on Redis, the
// Redis operation that stores the resource writes the exchange's journal
// entry too, as the answer the create gives once stored, and record only
// numbers it (x.journaled): one round trip to Redis a create instead of
// two. The entry's duration ends as the create is sent to Redis.
func (s *Server) storeCreate(ctx context.Context, x *exchange, col, want string, doc func(string) ([]byte, error), answer *[]byte) (string, error) {
	st, shared := x.sess.state.(*sharedState)
	if !shared || s.noJournal {
		return s.store.Create(ctx, x.sess.name, col, want, doc)
	}
	key, seq, err := st.create(ctx, col, want, doc, func() Entry {
		status, body := sentAs(x.plan.success, *answer)
		return s.entry(x, status, body)
	})
	x.journaled = seq
	return key, err
}

func clipBytes(b []byte) []byte {
	if len(b) > maxJournalBody {
		return b[:maxJournalBody]
	}
	return b
}
