package state

import (
	"context"
	"errors"
	"time"

	"github.com/plantmock/plantmock/mock/internal/store"
)

// Backend keeps the state of a mock's sessions: the default session and
// the named ones, bounded in number and idle time. A named session that
// expires gives its resources back to the store.
type Backend[E any] interface {
	// Store returns the store of every session's resources, kept under
	// the session's name.
	Store() store.Store
	// Default returns the default session, whose name is "".
	Default() Session[E]
	// Session returns the session called name (not ""), noting that it
	// was used at now. A session not alive (new, or expired) is made only
	// when create is set: else Session returns nil and no error. A new
	// session beyond the bound is ErrTooManySessions.
	Session(ctx context.Context, name string, now time.Time, create bool) (Session[E], error)
	// Names lists the named sessions this process keeps; none when they
	// are shared (see Shared), whose sessions are everyone's.
	Names() []string
	// Reset empties a session's resources and journal and restarts its
	// rule counters; its active scenario and subscribers stay.
	Reset(ctx context.Context, s Session[E]) error
	// Shared reports whether other processes share this state: an active
	// scenario may then have been set by one that loaded other scenarios.
	Shared() bool
	// Sizes returns how many journal entries the default session and the
	// named sessions keep in all, and how many resources the store holds
	// in all sessions (as they count against its bound), without using
	// any session, so that reading it keeps none alive. ok is false for
	// a shared state (Redis): it is every replica's, not this process's.
	Sizes() (entries, resources int64, ok bool)
	// Kind names the backend: "memory" or "redis".
	Kind() string
	// Health reports why the state cannot be reached, or nil.
	Health(ctx context.Context) error
	// Close releases the backend's connections; what it keeps outside
	// this process stays there.
	Close() error
}

// Session is the state of one session besides its resources.
type Session[E any] interface {
	// Name is the session's name; "" for the default session.
	Name() string

	// Record adds an entry to the journal and returns its sequence
	// number: 1 for the first after the journal was made or reset; 0
	// when there is no journal. The entry is passed by value: through
	// the interface, a pointer would move it to the heap on every call.
	Record(ctx context.Context, e E) (uint64, error)
	// StartRecord adds an entry to the journal as Record does, but
	// returns once the entry is on its way: entries started one after
	// another are numbered in that order, each before any entry started
	// or recorded after StartRecord returned. Its Pending gives the
	// sequence number.
	StartRecord(ctx context.Context, e E) Pending
	// Entries returns the entries the journal keeps, oldest first, each
	// with its sequence number.
	Entries(ctx context.Context) ([]E, error)
	// ResetJournal empties the journal and restarts its numbers.
	ResetJournal(ctx context.Context) error

	// Hit counts a match of r and returns how many times r has answered
	// in the session, this time included; 0 when r answers only every
	// n-th match and this is not one. Each document's rules (see
	// NewRuleSet) count apart.
	Hit(ctx context.Context, r *Rule) (int64, error)
	// ResetRules restarts the session's rule counters, of every document.
	ResetRules(ctx context.Context) error

	// Active returns the session's active scenario of document doc ("" for
	// a mock of one document). Each document has its own.
	Active(ctx context.Context, doc string) (Active, error)
	// Activate makes the scenario called name document doc's active one;
	// "" for none. Other documents' stay as they are.
	Activate(ctx context.Context, doc, name string) error

	// Subscribers returns the webhook subscribers set for the session,
	// by webhook name; a Subscriber with no URL stands for one removed.
	Subscribers(ctx context.Context) (map[string]Subscriber, error)
	// Subscribe sets the subscriber of the webhook called name.
	Subscribe(ctx context.Context, name string, sub Subscriber) error
}

// CreateJournaler is implemented by the sessions of a backend that can
// store a created resource and its journal entry in one operation, as
// http.Flusher is by the writers that can flush: the entry is in the
// journal exactly when the resource is in the store, and the two take
// one call instead of two (Redis: one round trip). Callers check for it
// with a type assertion and fall back to Store().Create and Record.
type CreateJournaler[E any] interface {
	// CreateJournaled is store.Store's Create of the session's resource
	// that, when it stores the resource, adds to the journal the entry
	// that entry makes (once doc has made the document), and returns its
	// sequence number; 0 when nothing was stored or there is no journal.
	CreateJournaled(ctx context.Context, col, key string, doc func(string) ([]byte, error), entry func() E) (string, uint64, error)
}

// Pending is an entry StartRecord handed to the journal.
type Pending struct {
	wait func(context.Context) (uint64, error) // nil when seq and err are known
	seq  uint64
	err  error
}

// Wait returns the entry's sequence number once the journal has it, as
// Record would have.
func (p Pending) Wait(ctx context.Context) (uint64, error) {
	if p.wait != nil {
		return p.wait(ctx)
	}
	return p.seq, p.err
}

// Active is a session's active scenario of one document, by name.
type Active struct {
	// Name is the scenario's name; "" when none is active.
	Name string
	// Set is false when no scenario was activated for the document in
	// the session: the mock's initial one is active.
	Set bool
}

// Subscriber is where a session's webhook is sent.
type Subscriber struct {
	URL   string `json:"url"`
	Token string `json:"token,omitempty"`
}

// Codec says how a backend handles the journal entries of type E: the
// memory backend keeps them as they are, the Redis backend their bytes.
// Weight and Append take the entry by value: a pointer given to a method
// of an interface moves what it points to to the heap, an allocation of
// a whole entry on every request (BenchmarkCreateValid in mock: 2.9 KB
// in 20 allocations a create with pointers, 2.6 KB in 19 by value).
type Codec[E any] interface {
	// Weight returns what an entry weighs against the journal's bytes.
	// Both backends weigh an entry alike.
	Weight(e E) int
	// Number sets an entry's sequence number.
	Number(e *E, seq uint64)
	// Append appends the stored form of an entry to buf.
	Append(buf []byte, e E) []byte
	// Decode reads into e what Append wrote.
	Decode(data []byte, e *E) error
}

// Options says which backend Open opens, and its bounds.
type Options[E any] struct {
	// URL names the backend: "" for memory, redis:// or rediss:// for
	// Redis (see redisstore.Options).
	URL string
	// Prefix starts every Redis key.
	Prefix string
	// Timeout bounds each call to Redis.
	Timeout time.Duration
	// MaxResources bounds the resources of every session together.
	MaxResources int
	// JournalSize is how many entries each session's journal keeps, the
	// newest; negative for no journal.
	JournalSize int
	// JournalBytes bounds the bytes (by Codec.Weight) of every session's
	// journal together: each keeps its share, JournalBytes /
	// (MaxSessions + 1), and at least its newest entry.
	JournalBytes int64
	// MaxSessions bounds the named sessions; Idle is how long one lives
	// unused.
	MaxSessions int
	Idle        time.Duration
	// Codec handles the journal's entries.
	Codec Codec[E]
	// Space names the Redis key space of a collection (see
	// redisstore.Options.Space); nil for one.
	Space func(col string) string
}

// keep is what each session's journal keeps: its share is fixed, so
// that the journals of the default session and of MaxSessions named ones
// hold no more than JournalBytes together, in memory or in Redis,
// whatever the order of their requests.
func (o *Options[E]) keep() keep {
	return keep{Size: o.JournalSize, Bytes: max(o.JournalBytes/int64(o.MaxSessions+1), 1)}
}

// ErrTooManySessions is Session's error for a new session beyond
// MaxSessions.
var ErrTooManySessions = errors.New("too many sessions")

// Open opens the backend opts.URL names: memory for "", else Redis. A
// Redis that does not answer is an error that wraps store.ErrUnavailable.
func Open[E any](ctx context.Context, opts Options[E]) (Backend[E], error) {
	if opts.URL == "" {
		return newMemory(opts), nil
	}
	r, err := openRedis(ctx, opts)
	if err != nil {
		return nil, err
	}
	return r, nil
}
