package journal

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	cliptext "github.com/plantmock/plantmock/internal/clip"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// What one journal entry keeps of an exchange (see ClipEntry).
const (
	MaxJournalBody        = 64 << 10 // of the request's body, and of the answer's
	maxJournalHeaders     = 16 << 10 // of the headers, counted as in HTTP/1.1
	maxJournalHeaderValue = 4 << 10  // of one header's value
	maxJournalURL         = 8 << 10  // of the path, and of the query
	MaxJournalViolations  = 100      // the first, in the order they are listed
)

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
	// Document names the document that answered, where the mock serves
	// several (mock.Document.Name); empty where it serves one.
	Document string `json:"document,omitempty"`
	// Scenario and Rule (1-based) name the rule that scripted the answer.
	Scenario string `json:"scenario,omitempty"`
	Rule     int    `json:"rule,omitempty"`
	// Session is the X-Mock-Session of the request; empty for the default.
	Session string `json:"session,omitempty"`

	Status int `json:"status"` // 0 when a fault left no answer
	// Response is the answer's body (its first 64 KiB).
	Response []byte `json:"response,omitempty"`
	// Code is the error value of an error answer made by the mock.
	Code problem.Code `json:"code,omitempty"`
	// Violations say why a request was rejected for breaking the contract.
	Violations []Violation `json:"violations,omitempty"`
	// Notes say what the mock did with an accepted request beyond keeping
	// it: "ignored readOnly id", say.
	Notes []string `json:"notes,omitempty"`
	// Drift, on a request refused for breaking the contract, says that
	// the previous version of the document (plantmock's --previous-spec)
	// accepts it, and why this one refuses it: what a client of that
	// version meets once the document changes. Empty otherwise.
	Drift string `json:"drift,omitempty"`

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

	// Clipped gives the original lengths of the parts the journal kept
	// only the start of; nil when it kept the whole exchange.
	Clipped *Clipped `json:"clipped,omitempty"`
}

// Clipped gives, for each part of an exchange the journal clipped, its
// length in bytes as sent; 0 for the parts kept whole. The journal keeps
// of the path and of the query their first 8 KiB, of the request's and
// the answer's bodies their first 64 KiB, of each header's value its
// first 4 KiB and of the headers, in name order and counted as in
// HTTP/1.1 ("Name: value" and a line end), those that fit in 16 KiB. A
// clipped path, query or header value ends in "...". Of the Violations
// it keeps the first 100; Violations is then how many were found.
// Unchecked is true when the mock stopped looking after 1,000.
type Clipped struct {
	Path       int  `json:"path,omitempty"`
	Query      int  `json:"query,omitempty"`
	Headers    int  `json:"headers,omitempty"`
	Body       int  `json:"body,omitempty"`
	Response   int  `json:"response,omitempty"`
	Violations int  `json:"violations,omitempty"`
	Unchecked  bool `json:"unchecked,omitempty"`
}

// ViolationCount is how many violations the exchange had, the journal
// keeping at most MaxJournalViolations of them.
func (e *Entry) ViolationCount() int {
	if e.Clipped != nil && e.Clipped.Violations > 0 {
		return e.Clipped.Violations
	}
	return len(e.Violations)
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

// Violations gives the document's violations the journal's form, on one
// side of the exchange (see Violation.Direction).
func Violations(vs []openapi.Violation, direction string) []Violation {
	if len(vs) == 0 {
		return nil
	}
	out := make([]Violation, len(vs))
	for i, v := range vs {
		out[i] = Violation{Path: cliptext.To(v.Path, cliptext.Path), Reason: v.Reason, Direction: direction, Schema: v.Schema}
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

// EntrySize is what an entry weighs against the journal's bytes: the
// bytes of its strings, bodies and headers, and a fixed part for the
// rest. The journal in memory and in Redis weigh entries alike.
func EntrySize(e *Entry) int {
	const fixed = 256
	n := fixed + len(e.Method) + len(e.Path) + len(e.Query) + headerSize(e.Header) + len(e.Body) + len(e.Token) +
		len(e.Operation) + len(e.Document) + len(e.Scenario) + len(e.Session) + len(e.Response) + len(e.Direction) + len(e.URL) + len(e.Error) + len(e.Drift)
	for _, v := range e.Violations {
		n += len(v.Path) + len(v.Reason) + len(v.Direction) + len(v.Schema)
	}
	for _, note := range e.Notes {
		n += len(note)
	}
	return n
}

// headerSize is the size of headers as HTTP/1.1 sends them: "Name: value"
// and a line end each.
func headerSize(h http.Header) int {
	n := 0
	for name, vs := range h {
		for _, v := range vs {
			n += len(name) + len(v) + 4
		}
	}
	return n
}

// ClipEntry clips the parts of an entry over the journal's bounds (see
// Clipped), given the lengths of the request's and the answer's bodies
// as sent, and how many violations were found. The entry's header map
// is replaced by a clipped copy when it is over, so that the request's
// own is left as it is.
func ClipEntry(e *Entry, bodyLen, responseLen, found int) {
	var c Clipped
	if len(e.Violations) > MaxJournalViolations {
		e.Violations = e.Violations[:MaxJournalViolations]
	}
	if found > len(e.Violations) {
		c.Violations = found
	}
	if len(e.Path) > maxJournalURL {
		c.Path, e.Path = len(e.Path), e.Path[:maxJournalURL]+"..."
	}
	if len(e.Query) > maxJournalURL {
		c.Query, e.Query = len(e.Query), e.Query[:maxJournalURL]+"..."
	}
	if len(e.Body) > MaxJournalBody {
		e.Body = e.Body[:MaxJournalBody]
	}
	if bodyLen > len(e.Body) {
		c.Body = bodyLen
	}
	if len(e.Response) > MaxJournalBody {
		e.Response = e.Response[:MaxJournalBody]
	}
	if responseLen > len(e.Response) {
		c.Response = responseLen
	}
	if size, long := headerStats(e.Header); size > maxJournalHeaders || long {
		c.Headers, e.Header = size, clipHeaders(e.Header)
	}
	if c != (Clipped{}) {
		clipped := c // on the heap only for an entry clipped
		e.Clipped = &clipped
	}
}

// headerStats returns headerSize(h), and whether a header's value is
// over maxJournalHeaderValue, in one pass over h.
func headerStats(h http.Header) (size int, long bool) {
	for name, vs := range h {
		for _, v := range vs {
			size += len(name) + len(v) + 4
			long = long || len(v) > maxJournalHeaderValue
		}
	}
	return size, long
}

// clipHeaders returns h with each value cut to maxJournalHeaderValue and,
// in name order, the headers that fit in maxJournalHeaders.
func clipHeaders(h http.Header) http.Header {
	out := http.Header{}
	room := maxJournalHeaders
	for _, name := range slices.Sorted(maps.Keys(h)) {
		for _, v := range h[name] {
			if len(v) > maxJournalHeaderValue {
				v = v[:maxJournalHeaderValue] + "..."
			}
			if room -= len(name) + len(v) + 4; room < 0 {
				return out
			}
			out[name] = append(out[name], v)
		}
	}
	return out
}

// Find returns the entries sel selects, in order.
func Find(es []Entry, sel func(Entry) bool) []Entry {
	var out []Entry
	for _, e := range es {
		if sel(e) {
			out = append(out, e)
		}
	}
	return out
}

// Quote quotes vs, the first problem.MaxQuotedViolations of them
// and how many more of n there are.
func Quote(vs []Violation, n int) string {
	quoted := vs[:min(len(vs), problem.MaxQuotedViolations)]
	parts := make([]string, len(quoted), len(quoted)+1)
	for i, v := range quoted {
		parts[i] = v.String()
	}
	if len(quoted) < n {
		parts = append(parts, problem.MoreViolations(n, len(quoted), false))
	}
	return strings.Join(parts, "; ")
}
