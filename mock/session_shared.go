package mock

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/plantmock/plantmock/mock/internal/store/redisstore"
)

// sharedState is the state of a session kept in Redis beside its
// resources (see redisstore.Store's Touch, Hit, Active and Append), so
// that the replicas of a mock share journal, rule counters and active
// scenario.
type sharedState struct {
	sm   *sessions
	name string
	// seen is the session's active scenario as the call that noted the
	// session's use read it as the request began, or as the request set
	// it since; nil for the default session, whose active scenario is
	// read when asked for. A named session's sharedState belongs to one
	// request.
	seen *seenActive
}

// seenActive is a session's active scenario as Redis holds it: set is
// false when none was set (the initial one is active), name is "" when
// none is active.
type seenActive struct {
	name string
	set  bool
}

// recordBufs holds the buffers of stored entries: Append and
// CreateRecorded copy a record before they return.
var recordBufs = sync.Pool{New: func() any { return new([]byte) }}

func (st *sharedState) record(ctx context.Context, e Entry) (uint64, error) {
	if st.sm.journalSize < 0 {
		return 0, nil
	}
	buf := recordBufs.Get().(*[]byte)
	*buf = appendStored((*buf)[:0], &e)
	seq, err := st.sm.shared.Append(ctx, st.name, st.sm.journalKeep(), *buf, entrySize(&e))
	recordBufs.Put(buf)
	return seq, err
}

// create stores a create's resource in the session with its journal
// entry, which entry makes once doc has made the document, in one call
// (see redisstore.CreateRecorded); it returns the key and the entry's
// Seq, 0 when nothing was stored.
func (st *sharedState) create(ctx context.Context, col, want string, doc func(string) ([]byte, error), entry func() Entry) (string, uint64, error) {
	buf := recordBufs.Get().(*[]byte)
	defer recordBufs.Put(buf)
	return st.sm.shared.CreateRecorded(ctx, st.name, col, want, doc, redisstore.JournalRecord{
		Keep: st.sm.journalKeep(),
		Data: func() ([]byte, int) {
			e := entry()
			*buf = appendStored((*buf)[:0], &e)
			return *buf, entrySize(&e)
		},
	})
}

func (st *sharedState) entries(ctx context.Context) ([]Entry, error) {
	if st.sm.journalSize < 0 {
		return nil, nil
	}
	recs, err := st.sm.shared.Journal(ctx, st.name, st.sm.journalKeep().Size)
	if err != nil {
		return nil, err
	}
	out := make([]Entry, len(recs))
	for i, r := range recs {
		if err := json.Unmarshal(r.Data, (*storedEntry)(&out[i])); err != nil {
			return nil, fmt.Errorf("journal record %d does not decode: %w", r.Seq, err)
		}
		out[i].Seq = r.Seq
	}
	return out, nil
}

func (st *sharedState) resetJournal(ctx context.Context) error {
	return st.sm.shared.ResetJournal(ctx, st.name)
}

func (st *sharedState) hit(ctx context.Context, rl *rule) (int64, error) {
	return st.sm.shared.Hit(ctx, st.name, rl.name, rl.every)
}

func (st *sharedState) resetRules(ctx context.Context) error {
	return st.sm.shared.ResetRules(ctx, st.name)
}

func (st *sharedState) active(ctx context.Context, set *scenarioSet) (*scenario, error) {
	if st.seen != nil {
		return st.seen.in(set) // no second round trip
	}
	name, ok, err := st.sm.shared.Active(ctx, st.name)
	if err != nil {
		return nil, err
	}
	return seenActive{name, ok}.in(set)
}

// in returns the scenario of set that an active scenario seen in Redis
// stands for.
func (sa seenActive) in(set *scenarioSet) (*scenario, error) {
	switch {
	case !sa.set:
		return set.initial, nil
	case sa.name == "":
		return nil, nil
	}
	sc := set.named(sa.name)
	if sc == nil {
		return nil, invalid(CodeScenario, classRequest, "the active scenario %q, set through another replica, is not loaded in this one; give every replica the same scenarios", clip(sa.name, 60))
	}
	return sc, nil
}

func (st *sharedState) activate(ctx context.Context, sc *scenario) error {
	name := ""
	if sc != nil {
		name = sc.name
	}
	if err := st.sm.shared.SetActive(ctx, st.name, name); err != nil {
		return err
	}
	if st.seen != nil {
		st.seen = &seenActive{name, true}
	}
	return nil
}

func (st *sharedState) subscribers(ctx context.Context) (map[string]Subscriber, error) {
	raw, err := st.sm.shared.Subscribers(ctx, st.name)
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

func (st *sharedState) subscribe(ctx context.Context, name string, sub Subscriber) error {
	data, err := json.Marshal(sub)
	if err != nil {
		return err
	}
	return st.sm.shared.Subscribe(ctx, st.name, name, data)
}
