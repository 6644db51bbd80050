package mock

import (
	"context"

	"github.com/plantmock/plantmock/mock/internal/journal"
)

// Find returns the default session's journal entries m selects, oldest
// first. An operation the document does not declare, or a bad regular
// expression in m.Body, is an error: such a Match would select nothing
// whatever the client did.
func (s *Server) Find(m Match) ([]Entry, error) {
	sel, err := s.e.CompileMatch(m)
	if err != nil {
		return nil, err
	}
	es, err := s.e.Entries(context.Background(), s.e.Sessions.Def)
	if err != nil {
		return nil, err
	}
	return handOut(journal.Find(es, sel)), nil
}

// Entry is one exchange the mock answered, or one webhook or callback it
// sent, as the journal records it. Its slices and maps are shared; treat
// them as read-only.
type Entry = journal.Entry

// Clipped says what the journal cut from an entry, to keep it bounded.
type Clipped = journal.Clipped

// Violation is one way an exchange broke the document.
type Violation = journal.Violation

// Match selects journal entries. Every condition given must hold; the
// zero Match selects every entry.
type Match = journal.Match
