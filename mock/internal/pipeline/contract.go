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
	if p := a.Problem; p != nil && !a.Proxied && p.Code.Contract() && len(vs) == 0 {
		one[0] = refusal(p)
		vs = one[:]
	}
	var seen *atomic.Int64
	if a.Plan != nil {
		seen = &a.Plan.Seen
	}
	s.Contract.Add(&a.E, seen, vs)
}
