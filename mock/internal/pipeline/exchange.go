package pipeline

import (
	"fmt"
	"net/http"
	"time"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/media"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/session"
)

// exchange is one request and what the mock worked out about it. ServeHTTP
// makes it, each stage of the handler fills in what it finds, and every
// later stage, the answer and the journal read it from here. The answer
// itself is noted by the recorder w.
type exchange struct {
	client *http.Request // the request as it came, before a base path was cut
	R      *http.Request
	Sv     *Served // what the mock served when the request arrived
	W      recorder
	start  time.Time

	// Found by routing.
	route   *openapi.Route // nil when no path matched
	Plan    *Plan          // the operation's plan; nil when no operation matched
	vals    []string       // path parameter values, in template order
	rawVals []string       // the same as they appear in the path, percent-escaped

	// Found by the checks.
	Sess       *session.Session // the session of X-Mock-Session, else the default one
	badSession *problem.Problem // why X-Mock-Session was refused; sess is the default one then
	newSession string           // an X-Mock-Session not alive, made by checkSession; sess is the default one till then
	cred       credentials
	Raw        []byte             // the request body as read
	Body       any                // the decoded JSON body; nil when there is none
	scenario   *scenario.Compiled // the selected scenario; nil for none
	prefer     preference         // what a Prefer header asks

	// Decided by the answer.
	rule    *scenario.Script // the rule that scripted the answer, if any
	seq     int64            // its 1-based count of answers in the session
	problem *problem.Problem // why the request was refused, if it was
	offer   *offer           // the media type the answer is written in; nil for none
	ct      string           // the Content-Type sent for it
	kind    media.Kind
	// unproven is set when the value answered is not the validated body
	// (an optional body left out), so the plan's proof does not hold.
	unproven bool
	// The flags of the other stages sit here beside these two: spread
	// among the pointers, their padding took the exchange from 504 to 528
	// bytes, past the 512 above which an allocation carries a header of
	// its type. Back at 504, BenchmarkCreateNoToken is where it was before
	// the two fields that crossed the line (2.24 against 2.06 µs, 8
	// alternate runs each, benchstat p=0.96); at 528 it was 2.82 against 2.36 µs (+20%, p<0.001).
	bodyRead bool // raw holds the whole body: it was read
	proxied  bool // with a proxy: the upstream answered
	recorded bool // the journal has the exchange
	// remote is set when the journal is kept out of the process (in
	// Redis): the answer is then flushed before its entry is written,
	// so that the client does not wait on that round trip (see record).
	remote  bool
	notes   []string // what the answer did beyond the usual, for the journal
	created any      // the resource a create stored, for the webhooks it sends

	// With a proxy: the ways the exchange broke the document, request
	// side then response side.
	violations []journal.Violation

	faker     *gofakeit.Faker // made on first use, see fake
	meter     *gen.Meter      // the answer's generation budget, made on first use, see budget
	journaled uint64          // the Seq of the entry its create wrote (see storeCreate); 0 for none
}

// media returns the declared media type the answer is written in, or nil
// when it has no body.
func (x *exchange) media() *openapi.Media {
	if x.offer == nil {
		return nil
	}
	return x.offer.media
}

// schema returns the schema of the answer's media type, or nil.
func (x *exchange) schema() *openapi.Schema {
	if m := x.media(); m != nil {
		return m.Schema
	}
	return nil
}

// settle notes the media type the answer is written in.
func (x *exchange) settle(o *offer, ct string) {
	x.offer, x.ct = o, ct
	if o != nil {
		x.kind = o.kind
		if ct != o.ct {
			x.kind = media.KindOf(ct)
		}
	}
}

// op returns the matched operation, or nil.
func (x *exchange) op() *openapi.Operation {
	if x.Plan == nil {
		return nil
	}
	return x.Plan.Op
}

// note records, for the journal, something the answer did that the
// client may not expect.
func (x *exchange) note(format string, args ...any) {
	x.notes = append(x.notes, fmt.Sprintf(format, args...))
}

// fake returns the faker for this exchange's generated data, making it on
// first use, so that answers that generate nothing leave the server's
// sequence of generated values alone. A Prefer seed makes it from that
// seed alone.
func (x *exchange) fake(s *Engine) *gofakeit.Faker {
	if x.faker == nil {
		if x.prefer.hasSeed {
			x.faker = gen.Faker(x.prefer.seed, 0)
		} else {
			x.faker = gen.Faker(s.Seed, s.Seq.Add(1))
		}
	}
	return x.faker
}

// budget returns the generation budget of this exchange's answer, making
// it on first use: every value generated for the answer spends from it,
// and it ends generation when the client goes.
func (x *exchange) budget(s *Engine) *gen.Meter {
	if x.meter == nil {
		// Apart from the exchange: held in it, the meter made every
		// request 128 bytes bigger (BenchmarkCreateNoToken 530 to 657
		// B/op), where only those that generate need it.
		m := gen.NewMeter(x.R.Context(), s.Budget)
		m.Refuse(x.Sv.Over)
		x.meter = &m
	}
	return x.meter
}

// overBudget returns the problem of an answer whose generation ran out of
// its budget, or nil.
func (x *exchange) overBudget() *problem.Problem {
	if x.meter == nil || x.meter.Err() == nil {
		return nil
	}
	return notGenerated(x.meter.Err())
}

// templateData is what templates see of a request: .body (the decoded
// JSON), .headers (first value per canonical name), .token and .seq.
func (x *exchange) templateData() map[string]any {
	return scenario.TemplateData(x.Body, x.R.Header, x.cred.token, x.seq)
}
