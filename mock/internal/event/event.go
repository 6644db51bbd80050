// Package event is what the mock tells its listeners of each exchange it
// answered: a value copied out of the request's state once the answer is
// written. It holds no request, no closure and no handle on the session,
// so a listener can read an exchange but change nothing of it; the
// journal it is numbered in is the one thing it may write to.
//
// The pipeline makes the values and the listeners (the journal, the
// recording, the metrics, the webhooks, the dashboard's events) read
// them: this package sits below both, so that no listener imports the
// pipeline.
package event

import (
	"net"
	"net/http"
	"net/url"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// Answered is an exchange the mock answered, as listeners are told of
// it. Listeners read it and never change it, but for the journal's,
// which numbers E (E.Seq) for those after it.
type Answered struct {
	// E is the journal entry, credentials masked and clipped.
	E journal.Entry
	// Journal is the journal of the session the exchange was in: it
	// numbers E, and the attempts of what the answer sends.
	Journal journal.Recorder
	Doc     string   // the name of the document that served it, as the mock serves it
	Via     net.Addr // the listener the request came in on; nil when unknown

	URL    url.URL     // the request's URL as it came, before a base path was cut (no scheme or host)
	Host   string      // its Host
	TLS    bool        // it came over TLS
	Header http.Header // its header, credentials clear
	Vals   []string    // its path parameter values, in template order
	Raw    []byte      // its body as read
	Body   any         // its body decoded; nil when there is none
	Token  string      // its bearer token or API key, if any

	Plan     *answer.Plan     // the operation's plan; nil when no operation matched
	Rule     *scenario.Script // the scenario rule that scripted the answer, if any
	Seq      int64            // the rule's count of answers in the session
	Problem  *problem.Problem // why the request was refused, if it was
	Created  any              // the resource a create stored
	Proxied  bool             // the real service answered
	Hijacked bool             // a fault took the connection over: no answer was written

	Status   int         // the answer's status; 0 when hijacked
	Answer   http.Header // the answer's header as sent
	Response []byte      // the first journal.MaxJournalBody bytes of its body, at least
	Written  int         // the bytes of its body, all of them

	// Journaled is the Seq of the entry a create wrote with its resource
	// (0 for none): the journal listener numbers nothing then.
	Journaled uint64
	// Late is set when the journal wrote E off the request's path (a
	// journal kept in Redis) before listeners were told: E.Seq is its
	// number, 0 when it was lost, and the journal listener leaves it.
	Late bool
	// After is set when the answer sends webhooks or callbacks, and Fake
	// then gives their generated values the answer's faker.
	After bool
	Fake  *gofakeit.Faker
}

// RefusedUnlisted reports whether the mock refused the exchange for
// breaking the contract without listing a violation (no credentials,
// no route): the contract counts it as one of the request's.
func (a *Answered) RefusedUnlisted() bool {
	p := a.Problem
	return p != nil && !a.Proxied && p.Code.Contract() && len(a.E.Violations) == 0
}

// Listener is told of answered exchanges and outbound attempts.
type Listener = journal.Listener[Answered]

// Emitter tells listeners of answered exchanges and outbound attempts.
type Emitter = journal.Emitter[Answered]
