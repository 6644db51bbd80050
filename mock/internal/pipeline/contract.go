package pipeline

import (
	"sync/atomic"

	"github.com/plantmock/plantmock/mock/internal/journal"
)

// countContract counts an exchange the mock answered in the contract
// report.
func (s *Engine) countContract(a *Answered) {
	vs := a.E.Violations
	var one [1]journal.Violation // on the stack: no allocation per refused request
	if a.RefusedUnlisted() {
		one[0] = refusal(a.Problem)
		vs = one[:]
	}
	var seen *atomic.Int64
	if a.Plan != nil {
		seen = &a.Plan.Seen
	}
	s.Contract.Add(&a.E, seen, vs)
}

// RefusedUnlisted reports whether the mock refused the exchange for
// breaking the contract without listing a violation (no credentials,
// no route): the contract counts it as one of the request's.
func (a *Answered) RefusedUnlisted() bool {
	p := a.Problem
	return p != nil && !a.Proxied && p.Code.Contract() && len(a.E.Violations) == 0
}
