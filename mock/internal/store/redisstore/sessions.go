package redisstore

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/redis/rueidis"
)

// What a session holds besides its resources: its rule counters, its
// active scenario and its journal. Store keeps them beside the resources
// so that replicas sharing a Redis share them too.

// ErrTooManySessions is returned by Touch for a new session beyond the
// bound.
var ErrTooManySessions = errors.New("redisstore: too many sessions")

// Touch notes that session sess (not the default session "") was used at
// now, making it if it is new and create is set, and returns what it
// found; a new session not made is New in it. A session unused
// for longer than idle has expired: its rule counters, active scenario and
// journal are gone, and Touch lists it in Expired, for the caller to Reset
// its resources; the session itself starts afresh. Expired sessions are
// looked for when a new session would take the number of sessions beyond
// max. Rule counters, active scenario and journal live as long as the
// session is used: their keys expire after idle, and up to a sixteenth
// of it more.
func (s *Store) Touch(ctx context.Context, sess string, now time.Time, idle time.Duration, max int, create bool) (Touched, error) {
	k := s.state(sess)
	made := "0"
	if create {
		made = "1"
	}
	v, err := s.batches.call(ctx, "touch", []string{s.shared.sessions, k.rules, k.active, k.journal, k.seq, k.hooks, k.jbytes},
		[]string{sess, strconv.FormatInt(now.UnixMilli(), 10), strconv.FormatInt(idle.Milliseconds(), 10), strconv.Itoa(max), s.prefix, made})
	if err != nil {
		return Touched{}, err
	}
	a, _ := v.([]any)
	if len(a) < 2 {
		return Touched{}, ErrTooManySessions
	}
	var t Touched
	t.New = a[0] == "new"
	t.Active, t.ActiveSet = a[1].(string)
	for _, n := range a[2:] {
		name, _ := n.(string)
		t.Expired = append(t.Expired, name)
	}
	return t, nil
}

// Touched is what Touch found of a session.
type Touched struct {
	// Active and ActiveSet are what Active would have returned: the
	// session's active scenario, read by the same call.
	Active    string
	ActiveSet bool
	// New is set when the session was not alive and Touch was not to
	// make it: nothing was made.
	New bool
	// Expired lists the sessions that expired, this one included when it
	// had.
	Expired []string
}

// Hit counts a match of the rule named rule in a session and returns how
// many times the rule has answered there, this time included; 0 when
// the rule answers only every every-th match and this is not one.
func (s *Store) Hit(ctx context.Context, sess, rule string, every int64) (int64, error) {
	k := s.state(sess)
	v, err := s.batches.call(ctx, "hit", []string{k.rules, k.seq}, []string{rule, strconv.FormatInt(every, 10)})
	if err != nil {
		return 0, err
	}
	n, _ := v.(int64)
	return n, nil
}

// Active returns the name of a session's active scenario: ok is false
// when none was set, and name is "" when none is active.
func (s *Store) Active(ctx context.Context, sess string) (name string, ok bool, err error) {
	v, err := s.batches.call(ctx, "active", []string{s.state(sess).active}, nil)
	if err != nil {
		return "", false, err
	}
	name, ok = v.(string)
	return name, ok, nil
}

// SetActive sets the name of a session's active scenario; "" for none.
func (s *Store) SetActive(ctx context.Context, sess, name string) error {
	k := s.state(sess)
	_, err := s.batches.call(ctx, "activate", []string{k.active, k.seq}, []string{name})
	return err
}

// Subscribers returns what Subscribe stored for a session, by name.
func (s *Store) Subscribers(ctx context.Context, sess string) (map[string][]byte, error) {
	key := s.state(sess).hooks
	m, err := s.do(ctx, func(b rueidis.Builder) rueidis.Completed { return b.Hgetall().Key(key).Build() }).AsStrMap()
	if err != nil {
		return nil, unavailable("webhook subscribers", err)
	}
	out := make(map[string][]byte, len(m))
	for k, v := range m {
		out[k] = []byte(v)
	}
	return out, nil
}

// Subscribe stores a session's subscriber of the webhook called name.
// Subscribers live as long as the session's other state.
func (s *Store) Subscribe(ctx context.Context, sess, name string, data []byte) error {
	k := s.state(sess)
	_, err := s.batches.call(ctx, "subscribe", []string{k.hooks, k.seq}, []string{name, string(data)})
	return err
}

// Record is one journal record: its sequence number in the session and
// the data given to Append.
type Record struct {
	Seq  uint64
	Data []byte
}

// Keep bounds a session's journal: it keeps at least the newest Size
// records (see Journal), and drops its oldest records while their
// weights add up to more than Bytes, keeping the newest whatever its
// weight; Bytes 0 sets no bound.
type Keep struct {
	Size  int
	Bytes int64
}

// Append adds a record of the given weight to a session's journal,
// which keep bounds, and returns its sequence number: 1 for the first
// record after the journal was made or reset. It returns once Redis has
// the record, and does not keep data.
func (s *Store) Append(ctx context.Context, sess string, keep Keep, data []byte, weight int) (uint64, error) {
	k := s.state(sess)
	v, err := s.batches.call(ctx, "append", []string{k.journal, k.seq, k.jbytes}, keep.args(data, weight))
	if err != nil {
		return 0, err
	}
	n, _ := v.(int64)
	return uint64(n), nil
}

// args are the arguments of append.
func (keep Keep) args(data []byte, weight int) []string {
	return []string{strconv.Itoa(keep.Size), string(data), strconv.FormatInt(keep.Bytes, 10), strconv.Itoa(weight)}
}

// Journal returns the newest size records of a session's journal,
// oldest first.
func (s *Store) Journal(ctx context.Context, sess string, size int) ([]Record, error) {
	key := s.state(sess).journal
	msgs, err := s.do(ctx, func(b rueidis.Builder) rueidis.Completed {
		return b.Xrevrange().Key(key).End("+").Start("-").Count(int64(size)).Build()
	}).AsXRange()
	if err != nil {
		return nil, unavailable("journal", err)
	}
	out := make([]Record, len(msgs))
	for i, m := range msgs {
		n, _ := strconv.ParseUint(m.FieldValues["s"], 10, 64)
		out[len(msgs)-1-i] = Record{Seq: n, Data: []byte(m.FieldValues["d"])}
	}
	return out, nil
}

// ResetJournal empties a session's journal and restarts its sequence.
// The journal number is set back to 0 in place, not deleted, so that it
// keeps the session's TTL, which a record appended before the session's
// next Touch then inherits.
func (s *Store) ResetJournal(ctx context.Context, sess string) error {
	k := s.state(sess)
	_, err := s.run(ctx, "reset journal", resetJournalScript, []string{k.journal, k.seq, k.jbytes})
	return err
}

// ResetRules restarts a session's rule counters.
func (s *Store) ResetRules(ctx context.Context, sess string) error {
	return s.del(ctx, "reset rules", s.state(sess).rules)
}

func (s *Store) del(ctx context.Context, op string, keys ...string) error {
	if err := s.do(ctx, func(b rueidis.Builder) rueidis.Completed { return b.Del().Key(keys...).Build() }).Error(); err != nil {
		return unavailable(op, err)
	}
	return nil
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
