package state

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/plantmock/plantmock/mock/internal/store"
	"github.com/plantmock/plantmock/mock/internal/store/redisstore"
)

// The keys of what a session holds in Redis besides its resources, by
// their index in redisKeys: each is the session's base
// (redisstore.Store.SessionBase) and its suffix (sessionKeys). Touch
// keeps them alive as long as the session is used and deletes them when
// it expires, whatever they are.
const (
	keySeq     = iota // the last journal record's number; the session's clock
	keyActive         // the active scenario ("" for none), which Touch reads
	keyRules          // hash: rule name + "|m" or "|a" -> matches, answers
	keyJournal        // stream of journal records, capped in number and bytes
	keyJBytes         // the weight in bytes of the journal's records
	keyHooks          // hash: webhook name -> subscriber
	nKeys
)

// sessionKeys names the keys for redisstore. The suffixes are on the
// wire: replicas of other versions sharing a Redis use the same.
func sessionKeys() redisstore.SessionKeys {
	return redisstore.SessionKeys{
		Suffixes: []string{keySeq: "jseq", keyActive: "active", keyRules: "rules", keyJournal: "journal", keyJBytes: "jbytes", keyHooks: "hooks"},
		Clock:    keySeq,
		Read:     keyActive,
	}
}

// redisKeys are the keys of one session, by index.
type redisKeys [nKeys]string

// keysOf returns the keys of session name.
func (r *redis[E]) keysOf(name string) redisKeys {
	base := r.rs.SessionBase(name)
	var k redisKeys
	for i, suffix := range r.suffixes {
		k[i] = base + suffix
	}
	return k
}

// openRedis opens a Redis backend with opts.
func openRedis[E any](ctx context.Context, opts Options[E]) (*redis[E], error) {
	rs, err := redisstore.New(ctx, redisstore.Options{URL: opts.URL, Prefix: opts.Prefix, Space: opts.Space, Max: opts.MaxResources, Timeout: opts.Timeout,
		Session: sessionKeys(), Ops: redisOps, ReadOnly: []string{"active"}})
	if err != nil {
		return nil, err
	}
	return newRedis(rs, opts), nil
}

// redis keeps the state of sessions in Redis beside their resources, so
// that the replicas of a mock share journal, rule counters, active
// scenario and subscribers. redisstore keeps the sessions' lives
// (Touch); the keys and operations of their state are this package's.
type redis[E any] struct {
	rs       *redisstore.Store
	opts     Options[E]
	suffixes []string // sessionKeys().Suffixes
	// keepSize and keepBytes are Options.keep as append takes them.
	keepSize, keepBytes string
	def                 *redisSession[E]
	// bufs holds the buffers of stored entries: Call and CreateThen
	// copy a record before they return.
	bufs sync.Pool
}

var _ Backend[int] = (*redis[int])(nil)

func newRedis[E any](rs *redisstore.Store, opts Options[E]) *redis[E] {
	keep := opts.keep()
	r := &redis[E]{rs: rs, opts: opts, suffixes: sessionKeys().Suffixes,
		keepSize: strconv.Itoa(keep.Size), keepBytes: strconv.FormatInt(keep.Bytes, 10)}
	r.bufs.New = func() any { return new([]byte) }
	r.def = &redisSession[E]{r: r, keys: r.keysOf("")}
	return r
}

func (r *redis[E]) Store() store.Store  { return r.rs }
func (r *redis[E]) Default() Session[E] { return r.def }
func (r *redis[E]) Names() []string     { return nil }
func (r *redis[E]) Shared() bool        { return true }

// Sizes implements Backend: the state is every replica's, so none says.
func (r *redis[E]) Sizes() (entries, resources int64, ok bool) { return 0, 0, false }
func (r *redis[E]) Kind() string                               { return "redis" }
func (r *redis[E]) Close() error                               { return r.rs.Close() }

func (r *redis[E]) Health(ctx context.Context) error { return r.rs.Ping(ctx) }

func (r *redis[E]) Reset(ctx context.Context, s Session[E]) error {
	return reset(ctx, r.rs, s)
}

// Session returns a session of the request's own: it keeps the active
// scenario that the call which noted the session's use read.
func (r *redis[E]) Session(ctx context.Context, name string, now time.Time, create bool) (Session[E], error) {
	keys := r.keysOf(name)
	t, err := r.rs.Touch(ctx, name, keys[:], now, r.opts.Idle, r.opts.MaxSessions, create)
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
	return &redisSession[E]{r: r, name: name, keys: keys, seen: &Active{Name: t.Value, Set: t.ValueSet}}, nil
}

// redisSession is the state of a session kept in Redis.
type redisSession[E any] struct {
	r    *redis[E]
	name string
	keys redisKeys
	// seen is the value of the session's active key (see activeOf) as
	// the call that noted the session's use read it; nil for the default
	// session, or once a scenario was activated through this value,
	// whose active scenarios are read when asked for. A named session's
	// value belongs to one request.
	seen *Active
}

var _ CreateJournaler[int] = (*redisSession[int])(nil)

func (ss *redisSession[E]) Name() string { return ss.name }

// noJournal reports whether the sessions keep no journal.
func (r *redis[E]) noJournal() bool { return r.opts.JournalSize < 0 }

// Record appends the entry's record with append, which numbers it and
// drops the oldest records beyond the journal's bounds. It returns once
// Redis has the record, or the store's deadline passed: an entry is
// written after its answer, so a client that leaves meanwhile (ctx
// cancelled) neither stops it nor makes it look lost. ctx's values are
// kept.
func (ss *redisSession[E]) Record(ctx context.Context, e E) (uint64, error) {
	r := ss.r
	if r.noJournal() {
		return 0, nil
	}
	ctx = context.WithoutCancel(ctx)
	buf := r.bufs.Get().(*[]byte)
	*buf = r.opts.Codec.Append((*buf)[:0], e)
	v, err := r.rs.Call(ctx, "append", ss.appendKeys(make([]string, 0, 3)), r.appendArgs(make([]string, 0, 4), *buf, r.opts.Codec.Weight(e)))
	r.bufs.Put(buf)
	n, _ := v.(int64)
	return uint64(n), err
}

// StartRecord hands the entry's append to the batch of calls to Redis
// (redisstore.Store.Start), in order, and returns; Wait waits for its
// number. ctx's cancellation is dropped, as Record's is.
func (ss *redisSession[E]) StartRecord(ctx context.Context, e E) Pending {
	r := ss.r
	if r.noJournal() {
		return Pending{}
	}
	ctx = context.WithoutCancel(ctx)
	buf := r.bufs.Get().(*[]byte)
	*buf = r.opts.Codec.Append((*buf)[:0], e)
	st := r.rs.Start(ctx, "append", ss.appendKeys(make([]string, 0, 3)), r.appendArgs(make([]string, 0, 4), *buf, r.opts.Codec.Weight(e)))
	r.bufs.Put(buf) // appendArgs copied it into a string
	return Pending{wait: func(ctx context.Context) (uint64, error) {
		v, err := st.Wait(context.WithoutCancel(ctx))
		n, _ := v.(int64)
		return uint64(n), err
	}}
}

// appendKeys and appendArgs append the keys and arguments of append.
func (ss *redisSession[E]) appendKeys(keys []string) []string {
	return append(keys, ss.keys[keyJournal], ss.keys[keySeq], ss.keys[keyJBytes])
}

func (r *redis[E]) appendArgs(args []string, data []byte, weight int) []string {
	return append(args, r.keepSize, string(data), r.keepBytes, strconv.Itoa(weight))
}

// CreateJournaled stores the resource and its journal entry in one call
// to Redis (see redisstore.Store.CreateThen).
func (ss *redisSession[E]) CreateJournaled(ctx context.Context, col, key string, doc func(string) ([]byte, error), entry func() E) (string, uint64, error) {
	r := ss.r
	if r.noJournal() {
		key, err := r.rs.Create(ctx, ss.name, col, key, doc)
		return key, 0, err
	}
	buf := r.bufs.Get().(*[]byte)
	defer r.bufs.Put(buf)
	key, n, err := r.rs.CreateThen(ctx, ss.name, col, key, doc, redisstore.Then{
		Op: "append",
		Add: func(keys, args []string) ([]string, []string) {
			e := entry()
			*buf = r.opts.Codec.Append((*buf)[:0], e)
			return ss.appendKeys(keys), r.appendArgs(args, *buf, r.opts.Codec.Weight(e))
		},
	})
	return key, uint64(n), err
}

// Entries reads the newest records the journal keeps (newestScript).
func (ss *redisSession[E]) Entries(ctx context.Context) ([]E, error) {
	r := ss.r
	if r.noJournal() {
		return nil, nil
	}
	v, err := r.rs.Run(ctx, "journal", newestScript, []string{ss.keys[keyJournal]}, r.opts.JournalSize)
	if err != nil {
		return nil, err
	}
	recs, _ := v.([]any)
	out := make([]E, len(recs)/2)
	for i := range out {
		n, _ := recs[2*i].(string)
		data, _ := recs[2*i+1].(string)
		seq, _ := strconv.ParseUint(n, 10, 64)
		e := &out[i]
		if err := r.opts.Codec.Decode([]byte(data), e); err != nil {
			return nil, fmt.Errorf("journal record %d does not decode: %w", seq, err)
		}
		r.opts.Codec.Number(e, seq)
	}
	return out, nil
}

// ResetJournal sets the journal number back to 0 in place, not deleted,
// so that it keeps the session's TTL, which a record appended before the
// session's next Touch then inherits.
func (ss *redisSession[E]) ResetJournal(ctx context.Context) error {
	_, err := ss.r.rs.Run(ctx, "reset journal", resetJournalScript, []string{ss.keys[keyJournal], ss.keys[keySeq], ss.keys[keyJBytes]})
	return err
}

func (ss *redisSession[E]) Hit(ctx context.Context, rl *Rule) (int64, error) {
	v, err := ss.r.rs.Call(ctx, "hit", []string{ss.keys[keyRules], ss.keys[keySeq]}, []string{rl.name, strconv.FormatInt(rl.every, 10)})
	n, _ := v.(int64)
	return n, err
}

func (ss *redisSession[E]) ResetRules(ctx context.Context) error {
	return ss.r.rs.Do(ctx, "reset rules", "DEL", ss.keys[keyRules]).Err()
}

func (ss *redisSession[E]) Active(ctx context.Context, doc string) (Active, error) {
	if ss.seen != nil {
		return activeOf(ss.seen.Name, ss.seen.Set, doc), nil // no second round trip
	}
	v, err := ss.r.rs.Call(ctx, "active", []string{ss.keys[keyActive]}, nil)
	if err != nil {
		return Active{}, err
	}
	name, set := v.(string)
	return activeOf(name, set, doc), nil
}

// activeOf returns document doc's active scenario out of v, the value
// of a session's active key (set is false when it has none), as
// ops.activate writes it: the name alone is the document ""'s (a mock
// of one document, as before documents were kept apart); a NUL and a
// JSON object gives each document's by its name.
func activeOf(v string, set bool, doc string) Active {
	obj, several := strings.CutPrefix(v, "\x00")
	switch {
	case !set || several != (doc != ""):
		return Active{}
	case !several:
		return Active{Name: v, Set: true}
	}
	var m map[string]string
	if json.Unmarshal([]byte(obj), &m) != nil {
		return Active{}
	}
	name, ok := m[doc]
	return Active{Name: name, Set: ok}
}

func (ss *redisSession[E]) Activate(ctx context.Context, doc, name string) error {
	if _, err := ss.r.rs.Call(ctx, "activate", []string{ss.keys[keyActive], ss.keys[keySeq]}, []string{doc, name}); err != nil {
		return err
	}
	ss.seen = nil // read again when asked: other documents' are in the key too
	return nil
}

func (ss *redisSession[E]) Subscribers(ctx context.Context) (map[string]Subscriber, error) {
	raw, err := ss.r.rs.Do(ctx, "webhook subscribers", "HGETALL", ss.keys[keyHooks]).StrMap()
	if err != nil || len(raw) == 0 {
		return nil, err
	}
	out := make(map[string]Subscriber, len(raw))
	for name, data := range raw {
		var sub Subscriber
		if err := json.Unmarshal([]byte(data), &sub); err != nil {
			return nil, fmt.Errorf("webhook subscriber %q does not decode: %w", name, err)
		}
		out[name] = sub
	}
	return out, nil
}

// Subscribe stores the subscriber; subscribers live as long as the
// session's other state.
func (ss *redisSession[E]) Subscribe(ctx context.Context, name string, sub Subscriber) error {
	data, err := json.Marshal(sub)
	if err != nil {
		return err
	}
	_, err = ss.r.rs.Call(ctx, "subscribe", []string{ss.keys[keyHooks], ss.keys[keySeq]}, []string{name, string(data)})
	return err
}
