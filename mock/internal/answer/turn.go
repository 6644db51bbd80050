package answer

import (
	"fmt"
	"log/slog"
	"net/http"
	"sync/atomic"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/media"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/session"
	"github.com/plantmock/plantmock/mock/internal/store"
)

// Turn is a routed, checked request as its answer sees it, and what the
// answer noted of itself while it was decided. The pipeline fills in the
// request's side and the media type it settles; the answer, its own.
// The pipeline's exchange embeds it, so that a request is one
// allocation.
type Turn struct {
	Client *http.Request // the request as it came, before a base path was cut
	R      *http.Request
	Plan   *Plan            // the operation's plan; nil when no operation matched
	Vals   []string         // path parameter values, in template order
	Sess   *session.Session // the session of X-Mock-Session, else the default one
	Body   any              // the decoded JSON body; nil when there is none
	Prefer Preference       // what a Prefer header asks

	Offer *offer // the media type the answer is written in; nil for none
	CT    string // the Content-Type sent for it
	kind  media.Kind
	// unproven is set when the value answered is not the validated body
	// (an optional body left out), so the plan's proof does not hold.
	unproven  bool
	Notes     []string        // what the answer did beyond the usual, for the journal
	Created   any             // the resource a create stored, for the webhooks it sends
	faker     *gofakeit.Faker // made on first use, see fake
	meter     *gen.Meter      // the answer's generation budget, made on first use, see budget
	Journaled uint64          // the Seq of the entry its create wrote (see storeCreate); 0 for none
	Entries   Entries         // makes the journal entry a create writes with its resource
}

// Entries makes the journal entry of an answered request, for a create
// whose state writes it with the resource (see storeCreate).
type Entries interface {
	// Entry returns the entry of the request answered with status and
	// body, without its Seq.
	Entry(status int, body []byte) journal.Entry
}

// Media returns the declared media type the answer is written in, or nil
// when it has no body.
func (x *Turn) Media() *openapi.Media {
	if x.Offer == nil {
		return nil
	}
	return x.Offer.media
}

// schema returns the schema of the answer's media type, or nil.
func (x *Turn) schema() *openapi.Schema {
	if m := x.Media(); m != nil {
		return m.Schema
	}
	return nil
}

// Settle notes the media type the answer is written in.
func (x *Turn) Settle(o *offer, ct string) {
	x.Offer, x.CT = o, ct
	if o != nil {
		x.kind = o.kind
		if ct != o.CT {
			x.kind = media.KindOf(ct)
		}
	}
}

// Op returns the matched operation, or nil.
func (x *Turn) Op() *openapi.Operation {
	if x.Plan == nil {
		return nil
	}
	return x.Plan.Op
}

// Note records, for the journal, something the answer did that the
// client may not expect.
func (x *Turn) Note(format string, args ...any) {
	x.Notes = append(x.Notes, fmt.Sprintf(format, args...))
}

// FakeAside gives the turn a faker of its own, from the Prefer header's
// seed where it has one, else from seed, leaving the sequence of the
// mock's (or its document's) generated values where it is: for an
// answer explained, not given, so that explaining a request changes no
// later answer.
func (x *Turn) FakeAside(seed uint64) {
	if x.Prefer.hasSeed {
		seed = x.Prefer.seed
	}
	x.faker = gen.Faker(seed, 0)
}

// Fake returns the faker for this answer's generated data, making it on
// first use, so that answers that generate nothing leave the server's
// sequence of generated values alone. A Prefer seed makes it from that
// seed alone.
func (x *Turn) Fake(s *Answerer) *gofakeit.Faker {
	if x.faker == nil {
		switch {
		case x.Prefer.hasSeed:
			x.faker = gen.Faker(x.Prefer.seed, 0)
		case x.Plan != nil && x.Plan.values != nil:
			v := x.Plan.values // a document's own, of several
			x.faker = gen.Faker(v.Seed, v.Seq.Add(1))
		default:
			x.faker = gen.Faker(s.Seed, s.Seq.Add(1))
		}
	}
	return x.faker
}

// budget returns the generation budget of this answer, making it on
// first use: every value generated for the answer spends from it, and it
// ends generation when the client goes.
func (x *Turn) budget(s *Answerer) *gen.Meter {
	if x.meter == nil {
		// Apart from the exchange: held in it, the meter made every
		// request 128 bytes bigger (BenchmarkCreateNoToken 530 to 657
		// B/op), where only those that generate need it.
		m := gen.NewMeter(x.R.Context(), s.Budget)
		m.Refuse(x.Plan.over)
		x.meter = &m
	}
	return x.meter
}

// overBudget returns the problem of an answer whose generation ran out of
// its budget, or nil.
func (x *Turn) overBudget() *problem.Problem {
	if x.meter == nil || x.meter.Err() == nil {
		return nil
	}
	return notGenerated(x.meter.Err())
}

// Answerer answers valid requests as their operations behave, keeping
// their resources in the store.
type Answerer struct {
	Store        store.Store   // every session's resources: sessions.backend's
	Seed         uint64        // the seed of generated data
	Seq          atomic.Uint64 // values generated so far
	MaxResources int
	NoJournal    bool         // Options.Journal.Size < 0
	Log          *slog.Logger // where answers tell what they left out
	Budget       gen.Budget   // an answer's generation budget: the defaults (tests set others)
	// IgnoreStreamField lets Accept alone choose between an answer's
	// JSON and its stream, whatever a request body's stream member says
	// (Options.IgnoreStreamField; see Negotiate).
	IgnoreStreamField bool
}
