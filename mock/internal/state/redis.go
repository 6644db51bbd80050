package state

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/plantmock/plantmock/mock/internal/store"
	"github.com/plantmock/plantmock/mock/internal/store/redisstore"
)

// redis keeps the state of sessions in Redis beside their resources (see
// redisstore.Store's Touch, Hit, Active and Append), so that the
// replicas of a mock share journal, rule counters, active scenario and
// subscribers.
type redis[E any] struct {
	rs   *redisstore.Store
	opts Options[E]
	keep redisstore.Keep // Options.keep, as the store takes it
	def  *redisSession[E]
	// bufs holds the buffers of stored entries: Append and CreateRecorded
	// copy a record before they return.
	bufs sync.Pool
}

var _ Backend[int] = (*redis[int])(nil)

func newRedis[E any](rs *redisstore.Store, opts Options[E]) *redis[E] {
	r := &redis[E]{rs: rs, opts: opts, keep: redisstore.Keep(opts.keep())}
	r.bufs.New = func() any { return new([]byte) }
	r.def = &redisSession[E]{r: r}
	return r
}

func (r *redis[E]) Store() store.Store  { return r.rs }
func (r *redis[E]) Default() Session[E] { return r.def }
func (r *redis[E]) Names() []string     { return nil }
func (r *redis[E]) Shared() bool        { return true }
func (r *redis[E]) Kind() string        { return "redis" }
func (r *redis[E]) Close() error        { return r.rs.Close() }

func (r *redis[E]) Health(ctx context.Context) error { return r.rs.Ping(ctx) }

func (r *redis[E]) Reset(ctx context.Context, s Session[E]) error {
	return reset(ctx, r.rs, s)
}

// Session returns a session of the request's own: it keeps the active
// scenario that the call which noted the session's use read.
func (r *redis[E]) Session(ctx context.Context, name string, now time.Time, create bool) (Session[E], error) {
	t, err := r.rs.Touch(ctx, name, now, r.opts.Idle, r.opts.MaxSessions, create)
	if err == redisstore.ErrTooManySessions {
		return nil, ErrTooManySessions
	}
	if err != nil {
		return nil, err
	}
	for _, n := range t.Expired {
		if err := r.rs.Reset(ctx, n); err != nil {
			return nil, err
		}
	}
	if t.New {
		return nil, nil
	}
	return &redisSession[E]{r: r, name: name, seen: &Active{Name: t.Active, Set: t.ActiveSet}}, nil
}

// redisSession is the state of a session kept in Redis.
type redisSession[E any] struct {
	r    *redis[E]
	name string
	// seen is the session's active scenario as the call that noted the
	// session's use read it, or as it was set since through this value;
	// nil for the default session, whose active scenario is read when
	// asked for. A named session's value belongs to one request.
	seen *Active
}

var _ CreateJournaler[int] = (*redisSession[int])(nil)

func (ss *redisSession[E]) Name() string { return ss.name }

// noJournal reports whether the sessions keep no journal.
func (r *redis[E]) noJournal() bool { return r.opts.JournalSize < 0 }

func (ss *redisSession[E]) Record(ctx context.Context, e E) (uint64, error) {
	r := ss.r
	if r.noJournal() {
		return 0, nil
	}
	buf := r.bufs.Get().(*[]byte)
	*buf = r.opts.Codec.Append((*buf)[:0], e)
	seq, err := r.rs.Append(ctx, ss.name, r.keep, *buf, r.opts.Codec.Weight(e))
	r.bufs.Put(buf)
	return seq, err
}

// CreateJournaled stores the resource and its journal entry in one call
// to Redis (see redisstore.CreateRecorded).
func (ss *redisSession[E]) CreateJournaled(ctx context.Context, col, key string, doc func(string) ([]byte, error), entry func() E) (string, uint64, error) {
	r := ss.r
	if r.noJournal() {
		key, err := r.rs.Create(ctx, ss.name, col, key, doc)
		return key, 0, err
	}
	buf := r.bufs.Get().(*[]byte)
	defer r.bufs.Put(buf)
	return r.rs.CreateRecorded(ctx, ss.name, col, key, doc, redisstore.JournalRecord{
		Keep: r.keep,
		Data: func() ([]byte, int) {
			e := entry()
			*buf = r.opts.Codec.Append((*buf)[:0], e)
			return *buf, r.opts.Codec.Weight(e)
		},
	})
}

func (ss *redisSession[E]) Entries(ctx context.Context) ([]E, error) {
	r := ss.r
	if r.noJournal() {
		return nil, nil
	}
	recs, err := r.rs.Journal(ctx, ss.name, r.keep.Size)
	if err != nil {
		return nil, err
	}
	out := make([]E, len(recs))
	for i, rec := range recs {
		if err := r.opts.Codec.Decode(rec.Data, &out[i]); err != nil {
			return nil, fmt.Errorf("journal record %d does not decode: %w", rec.Seq, err)
		}
		r.opts.Codec.Number(&out[i], rec.Seq)
	}
	return out, nil
}

func (ss *redisSession[E]) ResetJournal(ctx context.Context) error {
	return ss.r.rs.ResetJournal(ctx, ss.name)
}

func (ss *redisSession[E]) Hit(ctx context.Context, rl *Rule) (int64, error) {
	return ss.r.rs.Hit(ctx, ss.name, rl.name, rl.every)
}

func (ss *redisSession[E]) ResetRules(ctx context.Context) error {
	return ss.r.rs.ResetRules(ctx, ss.name)
}

func (ss *redisSession[E]) Active(ctx context.Context) (Active, error) {
	if ss.seen != nil {
		return *ss.seen, nil // no second round trip
	}
	name, set, err := ss.r.rs.Active(ctx, ss.name)
	return Active{Name: name, Set: set}, err
}

func (ss *redisSession[E]) Activate(ctx context.Context, name string) error {
	if err := ss.r.rs.SetActive(ctx, ss.name, name); err != nil {
		return err
	}
	if ss.seen != nil {
		ss.seen = &Active{Name: name, Set: true}
	}
	return nil
}

func (ss *redisSession[E]) Subscribers(ctx context.Context) (map[string]Subscriber, error) {
	raw, err := ss.r.rs.Subscribers(ctx, ss.name)
	if err != nil || len(raw) == 0 {
		return nil, err
	}
	out := make(map[string]Subscriber, len(raw))
	for name, data := range raw {
		var sub Subscriber
		if err := json.Unmarshal(data, &sub); err != nil {
			return nil, fmt.Errorf("webhook subscriber %q does not decode: %w", name, err)
		}
		out[name] = sub
	}
	return out, nil
}

func (ss *redisSession[E]) Subscribe(ctx context.Context, name string, sub Subscriber) error {
	data, err := json.Marshal(sub)
	if err != nil {
		return err
	}
	return ss.r.rs.Subscribe(ctx, ss.name, name, data)
}
