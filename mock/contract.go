package mock

import (
	"github.com/plantmock/plantmock/mock/internal/journal"
)

// Contract returns what the mock has seen of the contract since it
// started, in this process: per operation seen, the exchanges and the
// ways they broke the document, request side and, with a proxy, answer
// side; operations sorted by name, violations in the order first seen.
func (s *Server) Contract() *ContractReport {
	plans := s.e.Served().Plans
	ops := make([]journal.OpCount, 0, len(plans))
	for _, pl := range plans {
		ops = append(ops, journal.OpCount{Name: pl.Op.Name, N: pl.Seen.Load()})
	}
	return s.e.Contract.Report(ops)
}

// ContractReport summarises, per operation, the exchanges a mock has seen
// and the ways they broke the document: on the request's side (the
// client's) and, with a proxy, on the answer's (the real service's).
type ContractReport = journal.ContractReport

// OperationReport is one operation's part of a ContractReport.
type OperationReport = journal.OperationReport

// ViolationReport is one way exchanges broke the document, how often,
// and the first exchange that did.
type ViolationReport = journal.ViolationReport

// Example names an exchange: its method, path and status.
type Example = journal.Example
