package mock

import (
	"context"

	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/store/redisstore"
)

// With its state in Redis, a request in the default session would read
// the session's active scenario first: a round trip of its own, before
// the create's. Instead, it goes on with the scenario this process last
// read or set (sessionState.guess), when that scenario has no rule for
// the operation, so that deciding under it asks Redis nothing, and makes
// sure of it before anything is answered or stored: a create checks it
// in the very operation that stores (redisstore.ExpectActive), and when
// another scenario is active there, stores nothing and the request is
// decided again under that one; any other answer reads the scenario
// first, as without this. A scenario switched through another replica is
// never missed: what a request does is as if it had read the scenario
// when its create ran.

// seenActive is a session's active scenario as Redis holds it: set is
// false when none was set (the initial one is active), name is "" when
// none is active.
type seenActive struct {
	name string
	set  bool
}

// assume lets x go on with the active scenario seen last, when it can,
// and returns it.
func assume(x *exchange) (*scenario, bool) {
	sc, seen, ok := x.sess.state.guess(&x.sv.scenarios)
	if !ok || sc.hasRulesFor(x.plan.op) {
		return nil, false
	}
	x.assumed = &seenActive{seen.name, seen.set} // allocated only here
	return sc, true
}

// hasRulesFor reports whether a rule of sc may answer op.
func (sc *scenario) hasRulesFor(op *openapi.Operation) bool {
	if sc == nil {
		return false
	}
	for _, rl := range sc.rules {
		if rl.ops == nil || rl.ops[op] {
			return true
		}
	}
	return false
}

// checksAssumed reports whether answering a with p leaves the assumed
// scenario to be checked by the answer itself: only a create does.
func checksAssumed(x *exchange, a answer, p *problem) bool {
	return p == nil && a.kind == behave && x.plan.do == create
}

// readActive reads the active scenario of a request that went on with
// the one seen last, and reports whether it is another.
func (s *Server) readActive(x *exchange) (changed bool, p *problem) {
	x.assumed = nil
	sc, err := x.sess.state.active(x.r.Context(), &x.sv.scenarios)
	if err != nil {
		return false, unavailable(err)
	}
	changed = sc != x.scenario
	x.scenario = sc
	return changed, nil
}

// expectAssumed returns the context of x's store calls: one under which
// a create checks the assumed scenario, if there is one.
func expectAssumed(x *exchange) context.Context {
	ctx := x.r.Context()
	if sa := x.assumed; sa != nil {
		ctx = redisstore.ExpectActive(ctx, sa.name, sa.set)
	}
	return ctx
}

// errAssumedStale is the problem of a create that found another scenario
// active than the one its request went on with; the request is decided
// again, and nobody sees it.
var errAssumedStale = &problem{message: "the active scenario changed"}
