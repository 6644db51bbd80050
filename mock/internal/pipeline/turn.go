package pipeline

import (
	"fmt"
	"net/http"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/media"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/session"
)

// turn is a routed, checked request as its answer sees it, and what the
// answer noted of itself while it was decided. The pipeline fills in the
// request's side; the answer, its own.
type turn struct {
	client *http.Request // the request as it came, before a base path was cut
	R      *http.Request
	Plan   *Plan            // the operation's plan; nil when no operation matched
	vals   []string         // path parameter values, in template order
	Sess   *session.Session // the session of X-Mock-Session, else the default one
	Body   any              // the decoded JSON body; nil when there is none
	prefer preference       // what a Prefer header asks

	offer *offer // the media type the answer is written in; nil for none
	ct    string // the Content-Type sent for it
	kind  media.Kind
	// unproven is set when the value answered is not the validated body
	// (an optional body left out), so the plan's proof does not hold.
	unproven  bool
	notes     []string        // what the answer did beyond the usual, for the journal
	created   any             // the resource a create stored, for the webhooks it sends
	faker     *gofakeit.Faker // made on first use, see fake
	meter     *gen.Meter      // the answer's generation budget, made on first use, see budget
	journaled uint64          // the Seq of the entry its create wrote (see storeCreate); 0 for none
	entries   entries         // makes the journal entry a create writes with its resource
}

// entries makes the journal entry of an answered request, for a create
// whose state writes it with the resource (see storeCreate).
type entries interface {
	// entry returns the entry of the request answered with status and
	// body, without its Seq.
	entry(status int, body []byte) journal.Entry
}

// media returns the declared media type the answer is written in, or nil
// when it has no body.
func (x *turn) media() *openapi.Media {
	if x.offer == nil {
		return nil
	}
	return x.offer.media
}

// schema returns the schema of the answer's media type, or nil.
func (x *turn) schema() *openapi.Schema {
	if m := x.media(); m != nil {
		return m.Schema
	}
	return nil
}

// settle notes the media type the answer is written in.
func (x *turn) settle(o *offer, ct string) {
	x.offer, x.ct = o, ct
	if o != nil {
		x.kind = o.kind
		if ct != o.ct {
			x.kind = media.KindOf(ct)
		}
	}
}

// op returns the matched operation, or nil.
func (x *turn) op() *openapi.Operation {
	if x.Plan == nil {
		return nil
	}
	return x.Plan.Op
}

// note records, for the journal, something the answer did that the
// client may not expect.
func (x *turn) note(format string, args ...any) {
	x.notes = append(x.notes, fmt.Sprintf(format, args...))
}

// fake returns the faker for this answer's generated data, making it on
// first use, so that answers that generate nothing leave the server's
// sequence of generated values alone. A Prefer seed makes it from that
// seed alone.
func (x *turn) fake(s *answerer) *gofakeit.Faker {
	if x.faker == nil {
		if x.prefer.hasSeed {
			x.faker = gen.Faker(x.prefer.seed, 0)
		} else {
			x.faker = gen.Faker(s.Seed, s.Seq.Add(1))
		}
	}
	return x.faker
}

// budget returns the generation budget of this answer, making it on
// first use: every value generated for the answer spends from it, and it
// ends generation when the client goes.
func (x *turn) budget(s *answerer) *gen.Meter {
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
func (x *turn) overBudget() *problem.Problem {
	if x.meter == nil || x.meter.Err() == nil {
		return nil
	}
	return notGenerated(x.meter.Err())
}
