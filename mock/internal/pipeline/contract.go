package pipeline

import (
	"sync/atomic"

	"github.com/plantmock/plantmock/mock/internal/event"
	"github.com/plantmock/plantmock/mock/internal/journal"
)

// countContract counts an exchange the mock answered in the contract
// report.
func (s *Engine) countContract(a *event.Answered) {
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
