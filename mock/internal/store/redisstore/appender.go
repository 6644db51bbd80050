package redisstore

import (
	"context"
	"fmt"
)

// appender writes journal records in groups: one script call carries
// every record that arrived while the previous call was out, so that a
// busy mock makes one call to Redis for many requests, each of which
// still waits until its record is stored.
type appender struct {
	s    *Store
	reqs chan *appendReq
	quit chan struct{}
}

// appendReq is one record waiting to be written.
type appendReq struct {
	keys sessionKeys
	size int
	data []byte
	seq  uint64
	err  error
	done chan struct{}
}

// maxGroup bounds the records of one script call.
const maxGroup = 256

func newAppender(s *Store) *appender {
	a := &appender{s: s, reqs: make(chan *appendReq, maxGroup), quit: make(chan struct{})}
	go a.run()
	return a
}

// append hands a record to the writer and waits until it is stored, ctx
// ends or the store is closed.
func (a *appender) append(ctx context.Context, k sessionKeys, size int, data []byte) (uint64, error) {
	r := &appendReq{keys: k, size: size, data: data, done: make(chan struct{})}
	select {
	case <-a.quit:
		return 0, unavailable("journal", errClosed)
	default:
	}
	select {
	case a.reqs <- r:
	case <-ctx.Done():
		return 0, unavailable("journal", ctx.Err())
	case <-a.quit:
		return 0, unavailable("journal", errClosed)
	}
	select {
	case <-r.done:
		return r.seq, r.err
	case <-ctx.Done():
		return 0, unavailable("journal", ctx.Err()) // the record may yet be stored
	case <-a.quit:
		return 0, unavailable("journal", errClosed)
	}
}

// run writes groups of records until the store is closed.
func (a *appender) run() {
	group := make([]*appendReq, 0, maxGroup)
	for {
		select {
		case r := <-a.reqs:
			group = append(group[:0], r)
		case <-a.quit:
			return
		}
	more:
		for len(group) < maxGroup {
			select {
			case r := <-a.reqs:
				group = append(group, r)
			default:
				break more
			}
		}
		a.write(group)
	}
}

// write stores a group of records in one script call and tells each
// caller its sequence number or the error.
func (a *appender) write(group []*appendReq) {
	keys := make([]string, 0, 2*len(group))
	args := make([]any, 0, 2*len(group))
	for _, r := range group {
		keys = append(keys, r.keys.journal, r.keys.seq)
		args = append(args, r.size, r.data)
	}
	v, err := a.s.run(context.Background(), "journal", appendScript, keys, args...)
	seqs, _ := v.([]any)
	if err == nil && len(seqs) != len(group) {
		err = unavailable("journal", fmt.Errorf("%d sequence numbers for %d records", len(seqs), len(group)))
	}
	for i, r := range group {
		if err != nil {
			r.err = err
		} else {
			n, _ := seqs[i].(int64)
			r.seq = uint64(n)
		}
		close(r.done)
	}
}

// close stops the writer; appends after it fail.
func (a *appender) close() { close(a.quit) }
