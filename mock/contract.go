package mock

import (
	"context"

	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/pipeline"
)

// Contract returns what the mock has seen of the contract since it
// started, in this process: per operation seen, the exchanges and the
// ways they broke the document, request side and, with a proxy, answer
// side; operations sorted by name, violations in the order first seen.
// With several documents, each operation names its document, and the
// report lists them by document.
func (s *Server) Contract() *ContractReport {
	s.e.Settled(context.Background())
	m := s.e.Mounted()
	docs := []string{""} // requests of the one document, or of none of several
	for _, sv := range m.Docs {
		if sv.Name != "" {
			docs = append(docs, sv.Name)
		}
	}
	return s.contractOf(docs, m.Docs...)
}

// contractOf is the contract report of the documents served, of the
// exchanges of docs that matched none of their operations.
func (s *Server) contractOf(docs []string, served ...*pipeline.Served) *ContractReport {
	var ops []journal.OpCount
	for _, sv := range served {
		for _, pl := range sv.Plans {
			ops = append(ops, journal.OpCount{Document: sv.Name, Name: pl.Op.Name, N: pl.Seen.Load()})
		}
	}
	return s.e.Contract.Report(docs, ops)
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
