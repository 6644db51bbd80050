package mock

import "github.com/plantmock/plantmock/mock/internal/journal"

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
