package mock

import (
	"context"

	"github.com/plantmock/plantmock/mock/internal/journal"
)

// Find returns the default session's journal entries m selects, oldest
// first. An operation the document does not declare, or a bad regular
// expression in m.Body, is an error: such a Match would select nothing
// whatever the client did.
func (s *Server) Find(m journal.Match) ([]journal.Entry, error) {
	sel, err := s.e.CompileMatch(m)
	if err != nil {
		return nil, err
	}
	es, err := s.e.Sessions.Def.State.Entries(context.Background())
	if err != nil {
		return nil, err
	}
	return handOut(journal.Find(es, sel)), nil
}
