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

// pairs is how the parts of OLD and NEW are matched: it calls f with
// each of news and the first of olds of the same key (nil for none), in
// NEW's order, then with each of olds whose key no one of news has (nil
// for NEW's), in OLD's order.
func pairs[T any](olds, news []*T, key func(*T) string, f func(o, n *T)) {
	byKey := make(map[string]*T, len(olds))
	for _, o := range olds {
		if k := key(o); byKey[k] == nil {
			byKey[k] = o
		}
	}
	inNew := make(map[string]bool, len(news))
	for _, n := range news {
		k := key(n)
		inNew[k] = true
		f(byKey[k], n)
	}
	for _, o := range olds {
		if !inNew[key(o)] {
			f(o, nil)
		}
	}
}

// pairsOf is pairs for parts kept as values.
func pairsOf[T any](olds, news []T, key func(*T) string, f func(o, n *T)) {
	pairs(pointers(olds), pointers(news), key, f)
}

// pointers returns a pointer to each of xs.
func pointers[T any](xs []T) []*T {
	out := make([]*T, len(xs))
	for i := range xs {
		out[i] = &xs[i]
	}
	return out
}
