package diff

import (
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Report is what changed from OLD to NEW, in a fixed order: the changes
// to the document as a whole, then each operation's in NEW's order
// (its security, parameters, request body, responses, callbacks), then
// the operations NEW removed, in OLD's order, then the webhooks' changes
// alike.
type Report struct {
	Changes []Change `json:"changes"`
	// Traffic is what recorded traffic showed, once the report is
	// weighed against some (see Weigh); nil until then.
	Traffic *Traffic `json:"traffic,omitempty"`
	// old is OLD, loaded: Weigh routes by it the requests NEW routes
	// nowhere.
	old *openapi.Document
}

// Compare loads old and new, OpenAPI 3.0, 3.1 or 3.2 documents in YAML
// or JSON (any mix), and reports what changed between them. A document
// that cannot be loaded is a *LoadError.
func Compare(old, new []byte) (*Report, error) {
	od, err := openapi.Load(old)
	if err != nil {
		return nil, &LoadError{Err: err}
	}
	nd, err := openapi.Load(new)
	if err != nil {
		return nil, &LoadError{New: true, Err: err}
	}
	c := &comparer{old: od, new: nd}
	c.schemes(od, nd)
	c.operations(od, nd)
	c.webhooks(od, nd)
	return &Report{Changes: c.changes, old: od}, nil
}

// LoadError is Compare's error for a document it cannot load.
type LoadError struct {
	New bool // NEW cannot be loaded; else OLD
	Err error
}

func (e *LoadError) Error() string {
	if e.New {
		return "NEW: " + e.Err.Error()
	}
	return "OLD: " + e.Err.Error()
}

func (e *LoadError) Unwrap() error { return e.Err }

// Count returns how many changes are at level, and of them how many
// are ignored.
func (r *Report) Count(level Level) (n, ignored int) {
	for i := range r.Changes {
		if r.Changes[i].Level == level {
			n++
			if r.Changes[i].Ignored != "" {
				ignored++
			}
		}
	}
	return n, ignored
}

// Fails reports whether a change that is not ignored fails at on (see
// Change.Fails); at "traffic", also whether a recorded exchange OLD
// accepted breaks NEW and no change explains it.
func (r *Report) Fails(on string) bool {
	for i := range r.Changes {
		if r.Changes[i].Fails(on) {
			return true
		}
	}
	return on == "traffic" && r.Traffic != nil && r.Traffic.unexplained() > 0
}

// comparer gathers the changes of one comparison of old with new.
type comparer struct {
	old, new *openapi.Document
	changes  []Change
}

// add appends a change.
func (c *comparer) add(ch Change) { c.changes = append(c.changes, ch) }

// loc makes a Location, nil for no pointer.
func loc(pointer string, line int) *Location {
	if pointer == "" {
		return nil
	}
	return &Location{Pointer: pointer, Line: line}
}

// byName returns the first of xs whose name (as name reads it) is want,
// or nil: how headers, links and examples of OLD and NEW are matched.
func byName[T any](xs []T, name func(*T) string, want string) *T {
	for i := range xs {
		if name(&xs[i]) == want {
			return &xs[i]
		}
	}
	return nil
}
