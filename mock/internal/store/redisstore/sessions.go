package redisstore

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/redis/rueidis"
)

// What a session holds besides its resources is its caller's: the keys
// Options.Session names, and the operations Options.Ops adds, run with
// Call, Do and Run. Store keeps the sessions' lives: Touch notes their
// use, bounds their number, and deletes those keys when they expire.

// ErrTooManySessions is returned by Touch for a new session beyond the
// bound.
var ErrTooManySessions = errors.New("redisstore: too many sessions")

// Touch notes that session sess (not the default session "") was used at
// now, making it if it is new and create is set, and returns what it
// found; a new session not made is New in it. keys are the session's
// keys Options.Session names, SessionBase(sess) and each suffix, in
// their order. A session unused for longer than idle has expired: those
// keys are gone, and Touch lists it in Expired, for the caller to Reset
// its resources; the session itself starts afresh. Expired sessions are
// looked for when a new session would take the number of sessions beyond
// max. The keys live as long as the session is used: they expire after
// idle, and up to a sixteenth of it more.
func (s *Store) Touch(ctx context.Context, sess string, keys []string, now time.Time, idle time.Duration, max int, create bool) (Touched, error) {
	made := "0"
	if create {
		made = "1"
	}
	v, err := s.batches.call(ctx, "touch", append(append(make([]string, 0, 1+len(keys)), s.shared.sessions), keys...),
		append(append(make([]string, 0, 8+len(s.sessKeys.Suffixes)), sess, strconv.FormatInt(now.UnixMilli(), 10),
			strconv.FormatInt(idle.Milliseconds(), 10), strconv.Itoa(max), s.prefix, made, s.clock, s.read), s.sessKeys.Suffixes...))
	if err != nil {
		return Touched{}, err
	}
	a, _ := v.([]any)
	if len(a) < 2 {
		return Touched{}, ErrTooManySessions
	}
	var t Touched
	t.New = a[0] == "new"
	t.Value, t.ValueSet = a[1].(string)
	for _, n := range a[2:] {
		name, _ := n.(string)
		t.Expired = append(t.Expired, name)
	}
	return t, nil
}

// Touched is what Touch found of a session.
type Touched struct {
	// Value and ValueSet are the value of the session's key that
	// SessionKeys.Read names, read by the same call; ValueSet is false
	// when the key does not exist.
	Value    string
	ValueSet bool
	// New is set when the session was not alive and Touch was not to
	// make it: nothing was made.
	New bool
	// Expired lists the sessions that expired, this one included when it
	// had.
	Expired []string
}

// Call runs the operation op of the batch script (one Options.Ops adds)
// with keys and args, batched with the other calls of requests (see
// batcher), and returns its answer: nil, int64, string or []any. Its
// errors wrap ErrUnavailable.
func (s *Store) Call(ctx context.Context, op string, keys, args []string) (any, error) {
	return s.batches.call(ctx, op, keys, args)
}

// Started is a call Start handed to Redis, its answer to come.
type Started struct {
	b   *batcher
	c   *call
	err error // why it was not handed over
}

// Start hands a call to Redis as Call does, without waiting for its
// answer: calls started one after another reach Redis in that order,
// each before any call Start or Call hands over, from any goroutine,
// after Start returned (Do and Run do not queue: they may go first).
// Wait gives the answer.
func (s *Store) Start(ctx context.Context, op string, keys, args []string) Started {
	c, err := s.batches.start(ctx, op, keys, args)
	return Started{b: s.batches, c: c, err: err}
}

// Wait returns the answer of the started call, as Call would have.
func (st Started) Wait(ctx context.Context) (any, error) {
	if st.err != nil {
		return nil, st.err
	}
	return st.b.wait(ctx, st.c)
}

// Do sends one command, its name and arguments, within the store's
// deadline; op names it in errors, which wrap ErrUnavailable.
func (s *Store) Do(ctx context.Context, op string, cmd ...string) Reply {
	return Reply{op: op, r: s.do(ctx, func(b rueidis.Builder) rueidis.Completed { return b.Arbitrary(cmd...).Build() })}
}

// Reply is the answer of Do.
type Reply struct {
	op string
	r  rueidis.RedisResult
}

// Err returns the command's error.
func (r Reply) Err() error {
	if err := r.r.Error(); err != nil {
		return unavailable(r.op, err)
	}
	return nil
}

// StrMap returns the answer of a command that answers a map, such as
// HGETALL.
func (r Reply) StrMap() (map[string]string, error) {
	m, err := r.r.AsStrMap()
	if err != nil {
		return nil, unavailable(r.op, err)
	}
	return m, nil
}

// Script is a Lua script for Run.
type Script struct{ lua *rueidis.Lua }

// NewScript returns the script of src.
func NewScript(src string) *Script { return &Script{lua: rueidis.NewLuaScript(src)} }

// Run runs a script within the store's deadline; op names it in errors,
// which wrap ErrUnavailable. A script's nil answer is a nil value; its
// numbers are int64, its strings string, its arrays []any. An argument
// is a string, []byte, int, int64 or uint64.
func (s *Store) Run(ctx context.Context, op string, script *Script, keys []string, args ...any) (any, error) {
	return s.run(ctx, op, script.lua, keys, args...)
}

// Ping reports whether Redis answers, within the store's deadline.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.ping(ctx); err != nil {
		return unavailable("ping", err)
	}
	return nil
}

func (s *Store) ping(ctx context.Context) error {
	return s.do(ctx, func(b rueidis.Builder) rueidis.Completed { return b.Ping().Build() }).Error()
}
