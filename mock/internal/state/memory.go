package state

import (
	"context"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plantmock/plantmock/mock/internal/store"
)

// memory keeps the state of sessions in this process.
type memory[E any] struct {
	store *store.Memory
	opts  Options[E]
	def   *memSession[E]

	mu     sync.Mutex // guards byName
	byName map[string]*memSession[E]
}

var (
	_ Backend[int] = (*memory[int])(nil)
)

func newMemory[E any](opts Options[E]) *memory[E] {
	m := &memory[E]{store: store.NewMemory(opts.MaxResources), opts: opts, byName: map[string]*memSession[E]{}}
	m.def = m.newSession("", time.Time{})
	return m
}

func (m *memory[E]) newSession(name string, now time.Time) *memSession[E] {
	ss := &memSession[E]{name: name, journal: newJournal(m.opts.Codec, m.opts.keep())}
	ss.use(now)
	return ss
}

func (m *memory[E]) Store() store.Store  { return m.store }
func (m *memory[E]) Default() Session[E] { return m.def }
func (m *memory[E]) Shared() bool        { return false }
func (m *memory[E]) Kind() string        { return "memory" }

func (m *memory[E]) Health(context.Context) error { return nil }
func (m *memory[E]) Close() error                 { return nil }

func (m *memory[E]) Session(_ context.Context, name string, now time.Time, create bool) (Session[E], error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ss := m.byName[name]
	if ss != nil && ss.idleSince(now) > m.opts.Idle {
		m.drop(name) // expired: start afresh
		ss = nil
	}
	if ss == nil {
		if !create {
			return nil, nil
		}
		if len(m.byName) >= m.opts.MaxSessions {
			m.expire(now)
		}
		if len(m.byName) >= m.opts.MaxSessions {
			return nil, ErrTooManySessions
		}
		ss = m.newSession(name, now)
		m.byName[name] = ss
	}
	ss.use(now)
	return ss, nil
}

// expire drops sessions idle for longer than the limit, and their
// resources. m.mu is held.
func (m *memory[E]) expire(now time.Time) {
	for name, ss := range m.byName {
		if ss.idleSince(now) > m.opts.Idle {
			m.drop(name)
		}
	}
}

// drop forgets a session and its resources. m.mu is held.
func (m *memory[E]) drop(name string) {
	delete(m.byName, name)
	m.store.Reset(context.Background(), name)
}

func (m *memory[E]) Names() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Sorted(maps.Keys(m.byName))
}

// Sizes implements Backend: the state is this process's alone.
func (m *memory[E]) Sizes() (entries, resources int64, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	entries = int64(m.def.journal.len())
	for _, ss := range m.byName {
		entries += int64(ss.journal.len())
	}
	return entries, m.store.Held(), true
}

func (m *memory[E]) Reset(ctx context.Context, s Session[E]) error {
	return reset(ctx, m.store, s)
}

// reset is Backend.Reset.
func reset[E any](ctx context.Context, st store.Store, s Session[E]) error {
	if err := s.ResetJournal(ctx); err != nil {
		return err
	}
	if err := s.ResetRules(ctx); err != nil {
		return err
	}
	return st.Reset(ctx, s.Name())
}

// memSession is the state of a session kept in this process.
type memSession[E any] struct {
	name    string
	journal *journal[E] // nil: no journal
	// counts holds, by document (RuleSet.doc), an
	// *atomic.Pointer[ruleCounts]: the counters of the rules of the set
	// of the document's rule counted first.
	counts   sync.Map
	active   atomic.Pointer[map[string]Active] // by document; nil: none set. Written under mu, copied
	lastUsed atomic.Int64                      // unix nanoseconds

	mu   sync.Mutex // guards subs, and the writes of active
	subs map[string]Subscriber
}

// ruleCounts are a session's counters of the rules of one set, by
// Rule.id. Rules of another set of the same document count afresh.
type ruleCounts struct {
	set *RuleSet
	c   []ruleCount
}

// ruleCount counts what one rule did in one session.
type ruleCount struct {
	matched  atomic.Int64 // requests that met the rule
	answered atomic.Int64 // requests the rule answered
}

func (ss *memSession[E]) use(now time.Time) { ss.lastUsed.Store(now.UnixNano()) }

func (ss *memSession[E]) idleSince(now time.Time) time.Duration {
	return now.Sub(time.Unix(0, ss.lastUsed.Load()))
}

func (ss *memSession[E]) Name() string { return ss.name }

func (ss *memSession[E]) Record(_ context.Context, e E) (uint64, error) {
	if ss.journal == nil {
		return 0, nil
	}
	return ss.journal.add(e), nil
}

// StartRecord records the entry at once: the journal is in this process.
func (ss *memSession[E]) StartRecord(ctx context.Context, e E) Pending {
	seq, err := ss.Record(ctx, e)
	return Pending{seq: seq, err: err}
}

func (ss *memSession[E]) Entries(context.Context) ([]E, error) { return ss.journal.entries(), nil }

func (ss *memSession[E]) ResetJournal(context.Context) error {
	ss.journal.reset()
	return nil
}

func (ss *memSession[E]) Hit(_ context.Context, r *Rule) (int64, error) {
	v, ok := ss.counts.Load(r.set.doc)
	if !ok {
		v, _ = ss.counts.LoadOrStore(r.set.doc, new(atomic.Pointer[ruleCounts]))
	}
	counts := v.(*atomic.Pointer[ruleCounts])
	cs := counts.Load()
	for cs == nil || cs.set != r.set {
		fresh := &ruleCounts{set: r.set, c: make([]ruleCount, r.set.n)}
		if counts.CompareAndSwap(cs, fresh) {
			cs = fresh
		} else {
			cs = counts.Load()
		}
	}
	c := &cs.c[r.id]
	if m := c.matched.Add(1); r.every > 1 && m%r.every != 0 {
		return 0, nil
	}
	return c.answered.Add(1), nil
}

func (ss *memSession[E]) ResetRules(context.Context) error {
	ss.counts.Clear()
	return nil
}

func (ss *memSession[E]) Active(_ context.Context, doc string) (Active, error) {
	if m := ss.active.Load(); m != nil {
		return (*m)[doc], nil
	}
	return Active{}, nil
}

func (ss *memSession[E]) Activate(_ context.Context, doc, name string) error {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	m := map[string]Active{}
	if old := ss.active.Load(); old != nil {
		m = maps.Clone(*old)
	}
	m[doc] = Active{Name: name, Set: true}
	ss.active.Store(&m)
	return nil
}

func (ss *memSession[E]) Subscribers(context.Context) (map[string]Subscriber, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return maps.Clone(ss.subs), nil
}

func (ss *memSession[E]) Subscribe(_ context.Context, name string, sub Subscriber) error {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.subs == nil {
		ss.subs = map[string]Subscriber{}
	}
	ss.subs[name] = sub
	return nil
}
