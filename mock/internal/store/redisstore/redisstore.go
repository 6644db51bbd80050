package redisstore

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/rueidis"

	"github.com/plantmock/plantmock/mock/internal/store"
)

// Store is a store.Store kept in Redis. Its methods are safe for
// concurrent use, also by several processes sharing one Redis.
type Store struct {
	rdb     rueidis.Client
	prefix  string
	space   func(col string) string // Options.Space; nil for none
	shared  shared                  // keys made once
	max     int
	timeout time.Duration
	hold    time.Duration // how long a reservation may wait for its document
	batches *batcher      // the writer of the calls of requests
	batch   *rueidis.Lua  // batchScript with Options.Ops
	rd      *redialer     // opens its connections
	// readOnly are the operations sent again on a fresh connection
	// (see the package's readOnly), Options.ReadOnly's among them.
	readOnly map[string]bool

	// sessKeys is Options.Session, and clock and read the indexes of
	// its clock and of the key Touch reads as touch takes them.
	sessKeys    SessionKeys
	clock, read string

	defKeys     sync.Map     // collection path -> *keys of the default session's collection (see keys)
	defKeyCount atomic.Int64 // how many were made

	closeOnce sync.Once
}

// hold is how long a create's reservation counts against the bound and
// keeps its key when the create does not store it, e.g. because its
// process stopped.
const hold = time.Minute

var _ store.Store = (*Store)(nil)

// New connects to the Redis at opts.URL and returns a Store there, once
// Redis has answered a PING. Errors Redis causes wrap ErrUnavailable.
//
// The client is rueidis: it pipelines the calls of concurrent requests on
// one connection, so that a busy mock writes and reads many calls per
// system call, which halves the processor time of a call to Redis beside
// a client that takes a pooled connection per call.
func New(ctx context.Context, opts Options) (*Store, error) {
	if n := len(opts.Session.Suffixes); n > 0 && (opts.Session.Clock < 0 || opts.Session.Clock >= n || opts.Session.Read < 0 || opts.Session.Read >= n) {
		panic("redisstore: Options.Session's Clock and Read are not indexes of its Suffixes")
	}
	co, err := parseURL(opts.URL)
	if err != nil {
		return nil, err
	}
	if opts.Prefix == "" {
		opts.Prefix = DefaultPrefix
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	co.ForceSingleClient = true // one server: no cluster or sentinel discovery
	co.DisableCache = true
	co.Dialer.Timeout = timeout
	co.ConnWriteTimeout = timeout
	// While Redis is down, requests fail at once with the last dial's
	// error, and dials wait between them (see redialer): rueidis would
	// dial again on every call, and retry read-only calls until their
	// deadline.
	rd := &redialer{dial: opts.Dial}
	co.DialCtxFn = rd.dialCtx
	co.RetryDelay = rd.retryDelay
	rdb, err := rueidis.NewClient(co)
	if err != nil {
		return nil, unavailable("ping "+co.InitAddress[0], err)
	}
	s := &Store{rdb: rdb, prefix: opts.Prefix, space: opts.Space, shared: sharedKeys(opts.Prefix), max: opts.Max, timeout: timeout, hold: hold,
		batch: batchScript(opts.Ops), sessKeys: opts.Session, clock: "0", read: "0", rd: rd, readOnly: maps.Clone(readOnly)}
	for _, op := range opts.ReadOnly {
		s.readOnly[op] = true
	}
	if n := len(opts.Session.Suffixes); n > 0 {
		s.clock, s.read = strconv.Itoa(opts.Session.Clock+1), strconv.Itoa(opts.Session.Read+1)
	}
	if err := s.ping(ctx); err != nil {
		rdb.Close()
		return nil, unavailable("ping "+co.InitAddress[0], err)
	}
	s.batches = newBatcher(s)
	return s, nil
}

// parseURL parses a Redis URL into client options. Its errors do not show
// the password.
func parseURL(raw string) (rueidis.ClientOption, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return rueidis.ClientOption{}, errors.New("redisstore: the Redis URL does not parse")
	}
	if u.Scheme != "redis" && u.Scheme != "rediss" {
		return rueidis.ClientOption{}, fmt.Errorf("redisstore: %s: the scheme must be redis or rediss", u.Redacted())
	}
	co, err := rueidis.ParseURL(raw)
	if err != nil {
		msg := err.Error()
		if p, ok := u.User.Password(); ok && p != "" {
			msg = strings.ReplaceAll(msg, p, "xxxxx")
		}
		return co, fmt.Errorf("redisstore: %s: %s", u.Redacted(), msg)
	}
	return co, nil
}

// Close closes the connections to Redis. What the store holds stays in
// Redis.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.batches.close()
		s.rdb.Close()
	})
	return nil
}

var errClosed = errors.New("the store is closed")

// do sends one command within the store's deadline.
func (s *Store) do(ctx context.Context, cmd func(b rueidis.Builder) rueidis.Completed) rueidis.RedisResult {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	return s.rdb.Do(ctx, cmd(s.rdb.B()))
}

// run runs a script within the store's deadline. A script's nil answer is
// a nil value; its numbers are int64, its strings string, its arrays
// []any.
func (s *Store) run(ctx context.Context, op string, script *rueidis.Lua, keys []string, args ...any) (any, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	strs := make([]string, len(args))
	for i, a := range args {
		switch a := a.(type) {
		case string:
			strs[i] = a
		case []byte:
			strs[i] = string(a)
		case int:
			strs[i] = strconv.Itoa(a)
		case int64:
			strs[i] = strconv.FormatInt(a, 10)
		case uint64:
			strs[i] = strconv.FormatUint(a, 10)
		default:
			panic(fmt.Sprintf("redisstore: script argument of type %T", a))
		}
	}
	v, err := script.Exec(ctx, s.rdb, keys, strs).ToAny()
	for try := 0; try < staleTries && s.readOnly[op] && stale(err); try++ {
		s.rd.fresh()
		v, err = script.Exec(ctx, s.rdb, keys, strs).ToAny()
	}
	if err != nil && !rueidis.IsRedisNil(err) {
		return nil, unavailable(op, err)
	}
	return v, nil
}

// Create implements store.Store. A create with a key makes its document
// first and stores it in one script; only when the document cannot be
// made does it ask whether the key is taken or the store full, which
// come first, as in memory. A create whose key is assigned reserves it,
// makes the document, and stores it.
func (s *Store) Create(ctx context.Context, sess, col, key string, doc func(string) ([]byte, error)) (string, error) {
	key, _, err := s.create(ctx, sess, col, key, doc, nil)
	return key, err
}

// Then is an operation of the batch script (one Options.Ops adds) that
// CreateThen runs once it stored a resource, in the same call: a create
// and what follows it make one call to Redis instead of two, and the
// operation runs exactly when the resource is stored. Its answer is a
// number above 0.
type Then struct {
	// Op names the operation.
	Op string
	// Add appends its keys and arguments to keys and args, once the
	// resource's document is made; CreateThen does not keep the bytes
	// of what it appends. Up to thenRoom keys and thenRoom arguments
	// cost no allocation.
	Add func(keys, args []string) ([]string, []string)
}

// thenRoom is the room for Then's keys and arguments that create and
// commit make with their own.
const thenRoom = 4

// CreateThen is Create that, when it stores the resource, runs then in
// the same operation and returns its answer; when Create would fail,
// then does not run and the answer is 0.
func (s *Store) CreateThen(ctx context.Context, sess, col, key string, doc func(string) ([]byte, error), then Then) (string, int64, error) {
	return s.create(ctx, sess, col, key, doc, &then)
}

// create is Create, which with then runs it as CreateThen does.
func (s *Store) create(ctx context.Context, sess, col, key string, doc func(string) ([]byte, error), then *Then) (string, int64, error) {
	k := s.keys(sess, col)
	if key != "" {
		d, derr := doc(key)
		made := "1"
		if derr != nil {
			made = "0"
		}
		keys, args := s.storeKeys(k), append(make([]string, 0, 7+thenRoom), key, strconv.Itoa(s.max), col, k.base, string(d), made)
		if then != nil && derr == nil {
			keys, args = then.Add(keys, append(args, then.Op))
		}
		v, err := s.batches.call(ctx, "create", keys, args)
		if err != nil {
			return "", 0, err
		}
		switch status, _ := v.(string); status {
		case "exists":
			return "", 0, store.ErrExists
		case "full":
			return "", 0, store.ErrFull
		case "ok":
			return key, 0, nil
		}
		if n, ok := v.(int64); ok {
			return key, n, nil // stored, and then answered n
		}
		return "", 0, derr // free and with room, but no document
	}
	for {
		v, err := s.reserve(ctx, k, key)
		if err != nil {
			return "", 0, err
		}
		r, _ := v.([]any)
		switch status, _ := r[0].(string); status {
		case "exists":
			return "", 0, store.ErrExists
		case "full":
			return "", 0, store.ErrFull
		}
		got, _ := r[1].(string)
		token, _ := r[2].(string)
		d, err := doc(got)
		if err != nil {
			// Should Redis fail to release, the reservation ends with its
			// hold; the caller gets doc's error either way, as promised.
			s.batches.call(ctx, "release", []string{k.res, s.shared.count, s.shared.held, s.shared.holds}, []string{got, token})
			return "", 0, err
		}
		keys, args := s.storeKeys(k), append(make([]string, 0, 6+thenRoom), got, token, string(d), col, k.base)
		if then != nil {
			keys, args = then.Add(keys, append(args, then.Op))
		}
		v, err = s.batches.call(ctx, "commit", keys, args)
		if err != nil {
			return "", 0, err
		}
		if n, _ := v.(int64); n >= 1 {
			if then == nil {
				n = 0
			}
			return got, n, nil // stored; with then, which answered n
		}
		// A Reset or a Fill took the reservation, or it outlived its
		// hold: start again.
	}
}

// reserve reserves key, or the next free sequence number with key "",
// for the store's hold, and counts it against the bound.
func (s *Store) reserve(ctx context.Context, k keys, key string) (any, error) {
	return s.batches.call(ctx, "reserve",
		[]string{k.docs, k.res, k.seq, s.shared.count, s.shared.token, s.shared.held, s.shared.holds},
		[]string{key, strconv.Itoa(s.max), strconv.FormatInt(s.hold.Milliseconds(), 10)})
}

// Get implements store.Store.
func (s *Store) Get(ctx context.Context, sess, col, key string) ([]byte, error) {
	v, err := s.batches.call(ctx, "get", []string{s.keys(sess, col).docs}, []string{key})
	if err != nil {
		return nil, err
	}
	d, ok := v.(string)
	if !ok {
		return nil, store.ErrNotFound
	}
	return []byte(d), nil
}

// List implements store.Store.
func (s *Store) List(ctx context.Context, sess, col string, limit int) ([][]byte, error) {
	k := s.keys(sess, col)
	v, err := s.run(ctx, "list", listScript, []string{k.docs, k.order}, limit)
	if err != nil {
		return nil, err
	}
	return docs(v), nil
}

// docs converts a script's array of documents.
func docs(v any) [][]byte {
	a, _ := v.([]any)
	if len(a) == 0 {
		return nil
	}
	out := make([][]byte, len(a))
	for i, d := range a {
		sd, _ := d.(string)
		out[i] = []byte(sd)
	}
	return out
}

// Update implements store.Store.
func (s *Store) Update(ctx context.Context, sess, col, key string, fn func([]byte) ([]byte, error)) ([]byte, error) {
	k := s.keys(sess, col)
	for {
		old, err := s.Get(ctx, sess, col, key)
		if err != nil {
			return nil, err
		}
		d, err := fn(old)
		if err != nil {
			return nil, err
		}
		v, err := s.batches.call(ctx, "replace", []string{k.docs}, []string{key, string(old), string(d)})
		if err != nil {
			return nil, err
		}
		switch n, _ := v.(int64); n {
		case -1:
			return nil, store.ErrNotFound
		case 1:
			return d, nil
		}
		// Changed since read: read again.
	}
}

// Delete implements store.Store.
func (s *Store) Delete(ctx context.Context, sess, col, key string) ([]byte, error) {
	k := s.keys(sess, col)
	v, err := s.batches.call(ctx, "delete", []string{k.docs, k.order, s.shared.count}, []string{key})
	if err != nil {
		return nil, err
	}
	d, ok := v.(string)
	if !ok {
		return nil, store.ErrNotFound
	}
	return []byte(d), nil
}

// Count implements store.Store.
func (s *Store) Count(ctx context.Context, sess, col string) (int, error) {
	docs := s.keys(sess, col).docs
	n, err := s.do(ctx, func(b rueidis.Builder) rueidis.Completed { return b.Hlen().Key(docs).Build() }).AsInt64()
	if err != nil {
		return 0, unavailable("count", err)
	}
	return int(n), nil
}

// Dump implements store.Store.
func (s *Store) Dump(ctx context.Context, sess string) ([]store.Collection, error) {
	v, err := s.run(ctx, "dump", dumpScript, []string{s.session(sess)})
	if err != nil {
		return nil, err
	}
	a, _ := v.([]any)
	var out []store.Collection
	for i := 0; i+1 < len(a); i += 2 {
		name, _ := a[i].(string)
		out = append(out, store.Collection{Name: name, Docs: docs(a[i+1])})
	}
	return out, nil
}

// Fill implements store.Store.
func (s *Store) Fill(ctx context.Context, sess, col string, items []store.Item) ([]string, error) {
	given := make(map[string]bool, len(items))
	var seq uint64
	for _, it := range items {
		if it.Key == "" {
			continue
		}
		if given[it.Key] {
			return nil, store.ErrExists
		}
		given[it.Key] = true
		if n, ok := whole(it.Key); ok && n > seq {
			seq = n
		}
	}
	k := s.keys(sess, col)
	keys := make([]string, len(items))
	args := make([]any, 0, 4+2*len(items))
	args = append(args, s.max, col, k.base, 0)
	for i, it := range items {
		key := it.Key
		for key == "" {
			seq++
			if c := strconv.FormatUint(seq, 10); !given[c] {
				key = c
			}
		}
		keys[i] = key
		args = append(args, key, it.Doc(key))
	}
	args[3] = seq
	v, err := s.run(ctx, "fill", fillScript, []string{k.docs, k.order, k.ticks, k.seq, k.res, s.shared.count, k.sess}, args...)
	if err != nil {
		return nil, err
	}
	if n, _ := v.(int64); n != 1 {
		return nil, store.ErrFull
	}
	return keys, nil
}

// whole returns the number key stands for when it is a whole number in
// canonical decimal form.
func whole(key string) (uint64, bool) {
	n, err := strconv.ParseUint(key, 10, 64)
	return n, err == nil && strconv.FormatUint(n, 10) == key
}

// Reset implements store.Store.
func (s *Store) Reset(ctx context.Context, sess string) error {
	_, err := s.run(ctx, "reset", resetScript, []string{s.session(sess), s.shared.count})
	return err
}
