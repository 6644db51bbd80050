package store

import (
	"context"
	"errors"
)

// Store keeps the resources of every session. Sessions are named by
// strings ("" is the default session) and share nothing but the bound on
// resources. Implementations are safe for concurrent use.
//
// Documents are stored and returned as given: the caller does not modify a
// slice after passing it to the store, nor one the store returned.
type Store interface {
	// Create stores a new resource in collection col of session sess and
	// returns its key. With a key, doc(key) is stored under it unless the
	// key is taken (ErrExists). With key "", the store assigns one: the
	// decimal form of the collection's next sequence number, which counts
	// up from above the highest whole-number key the collection was given
	// (so 78 after a resource under 77), skipping keys that are taken.
	// When doc fails, nothing is stored and its error is returned as it
	// is; doc may be called more than once. Beyond the bound on resources,
	// nothing is stored and the error is ErrFull.
	Create(ctx context.Context, sess, col, key string, doc func(key string) ([]byte, error)) (string, error)

	// Get returns the resource stored under key, or ErrNotFound.
	Get(ctx context.Context, sess, col, key string) ([]byte, error)

	// List returns up to limit resources of a collection, oldest first;
	// limit < 0 means all. An unknown collection is empty.
	List(ctx context.Context, sess, col string, limit int) ([][]byte, error)

	// Update replaces the resource under key with what fn makes of it and
	// returns the new document; ErrNotFound when there is none. When fn
	// fails, nothing changes and its error is returned as it is. fn may be
	// called more than once and must not have side effects beyond its
	// result.
	Update(ctx context.Context, sess, col, key string, fn func(old []byte) ([]byte, error)) ([]byte, error)

	// Delete removes the resource under key and returns it; ErrNotFound
	// when there is none.
	Delete(ctx context.Context, sess, col, key string) ([]byte, error)

	// Count returns how many resources a collection holds.
	Count(ctx context.Context, sess, col string) (int, error)

	// Dump returns the session's collections that hold resources, sorted
	// by name, each with its resources oldest first.
	Dump(ctx context.Context, sess string) ([]Collection, error)

	// Fill makes a collection hold exactly the given resources, in order,
	// and restarts its sequence above the highest whole-number key the
	// items give. Items with a key keep it; the others are assigned keys as
	// Create assigns them, skipping the keys the items give. It returns the keys in item order. Two items with the same key
	// are refused with ErrExists, and a fill that would take the store
	// beyond its bound with ErrFull; either way the collection is left as
	// it was.
	Fill(ctx context.Context, sess, col string, items []Item) ([]string, error)

	// Reset removes everything the session holds and restarts its
	// sequences; the resources count against the bound no more.
	Reset(ctx context.Context, sess string) error
}

// Collection is one collection of a session, as Dump returns it.
type Collection struct {
	Name string   // the collection's path, e.g. /plants
	Docs [][]byte // its resources, oldest first
}

// Item is one resource to Fill a collection with: Key is its identifier,
// "" to have one assigned; Doc makes its document from the key.
type Item struct {
	Key string
	Doc func(key string) []byte
}

// Errors a caller branches on, with errors.Is.
var (
	ErrExists   = errors.New("store: a resource with that key exists")
	ErrNotFound = errors.New("store: no resource with that key")
	ErrFull     = errors.New("store: the bound on resources is reached")
	// ErrUnavailable is wrapped by the errors of a store kept elsewhere
	// (Redis) that did not answer in time. A change asked for may or may
	// not have been made.
	ErrUnavailable = errors.New("store: unavailable")
)
