package redisstore

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// batcher sends the calls that requests make on their way (read the
// active scenario, create, get, count a rule, note a session, write a
// journal record...) to Redis together: one script call carries every
// call that arrived while the previous one was out, so that a busy mock
// makes one round trip for many requests instead of one for each call of
// each, and each request still waits for its own answer. The calls of a
// batch run one after another in batchScript, each as atomic as when it
// ran alone; one that fails in Redis fails alone.
//
// One batch at a time is out: calls that arrive meanwhile wait for the
// next, so batches grow with the load.
type batcher struct {
	s    *Store
	reqs chan *call
	quit chan struct{}
}

// call is one operation of batchScript waiting for its answer.
type call struct {
	op       string    // the name of the operation in batchScript
	keys     []string  // its keys
	args     []string  // its arguments
	deadline time.Time // when its caller stops waiting
	v        any       // its answer: nil, int64, string or []any
	err      error
	done     chan struct{}
}

// maxBatch bounds the calls of one script call.
const maxBatch = 256

func newBatcher(s *Store) *batcher {
	b := &batcher{s: s, reqs: make(chan *call, maxBatch), quit: make(chan struct{})}
	go b.run()
	return b
}

// call hands an operation to the writer and waits until Redis answered
// it, the store's deadline passed, ctx ended or the store was closed: a
// call waits no longer than the deadline from its start, also behind a
// batch that is out (the batch it goes in ends by its deadline; see
// write). When it does not wait for the answer, the operation may still
// run.
func (b *batcher) call(ctx context.Context, op string, keys, args []string) (any, error) {
	c, err := b.start(ctx, op, keys, args)
	if err != nil {
		return nil, err
	}
	return b.wait(ctx, c)
}

// start hands an operation to the writer, waiting within the store's
// deadline for room: calls handed over one after another reach Redis in
// that order, each before any call handed over after start returned.
func (b *batcher) start(ctx context.Context, op string, keys, args []string) (*call, error) {
	c := &call{op: op, keys: keys, args: args, deadline: time.Now().Add(b.s.timeout), done: make(chan struct{})}
	select {
	case <-b.quit:
		return nil, unavailable(op, errClosed)
	case b.reqs <- c:
		return c, nil
	default:
	}
	// As many calls wait as a batch holds: wait for room, within the
	// deadline.
	t := time.NewTimer(time.Until(c.deadline))
	defer t.Stop()
	select {
	case b.reqs <- c:
		return c, nil
	case <-t.C:
		return nil, unavailable(op, context.DeadlineExceeded)
	case <-ctx.Done():
		return nil, unavailable(op, ctx.Err())
	case <-b.quit:
		return nil, unavailable(op, errClosed)
	}
}

// wait returns the answer of a call start handed over, once Redis gave
// it, the store's deadline passed, ctx ended or the store was closed.
func (b *batcher) wait(ctx context.Context, c *call) (any, error) {
	select {
	case <-c.done:
		return c.v, c.err
	case <-ctx.Done():
		return nil, unavailable(c.op, ctx.Err())
	case <-b.quit:
		return nil, unavailable(c.op, errClosed)
	}
}

// run writes batches until the store is closed.
func (b *batcher) run() {
	batch := make([]*call, 0, maxBatch)
	var keys, args []string
	for {
		select {
		case c := <-b.reqs:
			batch = append(batch[:0], c)
		case <-b.quit:
			return
		}
	more:
		for len(batch) < maxBatch {
			select {
			case c := <-b.reqs:
				batch = append(batch, c)
			default:
				break more
			}
		}
		keys, args = b.write(batch, keys[:0], args[:0])
		clear(batch)
	}
}

// write runs a batch in one script call and gives each call its answer
// or the error. The script call has the earliest deadline of the batch's
// calls; calls whose deadline passed while they waited fail without it.
// It returns keys and args, emptied, for the next batch.
func (b *batcher) write(batch []*call, keys, args []string) ([]string, []string) {
	now := time.Now()
	var deadline time.Time
	live := batch[:0]
	for _, c := range batch {
		if !now.Before(c.deadline) {
			c.err = unavailable(c.op, context.DeadlineExceeded)
			close(c.done)
			continue
		}
		if deadline.IsZero() || c.deadline.Before(deadline) {
			deadline = c.deadline
		}
		live = append(live, c)
	}
	batch = live
	if len(batch) == 0 {
		return keys, args
	}
	var again []*call
	keys, args, again = b.exec(batch, deadline, keys, args, true)
	for try := 1; len(again) > 0; try++ {
		// A stale connection failed them: the reads go again, until
		// one goes out on a fresh connection (see staleTries); the
		// writes may have run, and failed.
		b.s.rd.fresh()
		keys, args, again = b.exec(again, deadline, keys, args, try < staleTries)
	}
	return keys, args
}

// exec runs the calls of batch in one script call, by deadline, and
// gives each call its answer or the error, but, where retry is set and
// a stale connection failed the call (see stale), the reads, which it
// returns unanswered to be sent again. It returns keys and args,
// emptied, for the next batch.
func (b *batcher) exec(batch []*call, deadline time.Time, keys, args []string, retry bool) ([]string, []string, []*call) {
	for _, c := range batch {
		keys = append(keys, c.keys...)
		args = append(args, c.op, strconv.Itoa(len(c.keys)), strconv.Itoa(len(c.args)))
		args = append(args, c.args...)
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	v, err := b.s.batch.Exec(ctx, b.s.rdb, keys, args).ToAny()
	cancel()
	vs, _ := v.([]any)
	if err == nil && len(vs) != len(batch) {
		err = fmt.Errorf("%d answers for %d calls", len(vs), len(batch))
	}
	retry = retry && stale(err)
	var again []*call
	for i, c := range batch {
		if retry && b.s.readOnly[c.op] {
			again = append(again, c)
			continue
		}
		if err != nil {
			c.err = unavailable(c.op, err)
		} else if opErr, failed := vs[i].(error); failed {
			c.err = unavailable(c.op, opErr) // this call alone failed
		} else {
			c.v = vs[i]
		}
		close(c.done)
	}
	clear(keys)
	clear(args)
	return keys[:0], args[:0], again
}

// close stops the writer; calls after it fail.
func (b *batcher) close() { close(b.quit) }
