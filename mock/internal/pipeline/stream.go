package pipeline

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// defaultItems is how many items a stream has when nothing says: no
// rule, no Prefer, no example.
const defaultItems = 3

// streamPlan is how one streamed answer goes: which items, how often,
// and how it ends. streamOf settles it.
type streamPlan struct {
	count    int           // the items of the whole stream
	from     int           // the first item this answer sends, from 1
	interval time.Duration // waited before each item but the first
	drop     int           // items after which the connection breaks; 0 never
	done     bool          // the stream ends with the end marker, data: [DONE]
	given    []any         // the values of the first items: the rule's templates, or the example's items
	rule     *scenario.StreamScript
}

// streams reports whether the answer a settled is sent as a stream:
// its media type streams, and the answer is the operation's usual one
// or a body for a status. A stream is made of items, not of the store's
// resources: an operation that would create, list or read answers in
// such a media type with a stream, and stores nothing.
func streams(x *exchange, a decision) bool {
	return (a.kind == behave || a.kind == sendBody) && x.Media().Streams()
}

// streamOf settles a stream: a Prefer header's stream preferences over
// the rule's stream, over the example's items, over defaultItems. Where
// events are numbered, a Last-Event-ID of one of them resumes after it;
// of the last, nothing is left to send (from is past count).
// The end marker ends it where Prefer's stream-done or the rule's done
// says so, else where the example, written as the stream's text, ends
// with it.
func (s *Engine) streamOf(x *exchange, a decision) (streamPlan, *problem.Problem) {
	sp := streamPlan{from: 1}
	if a.rule != nil && a.rule.Stream != nil {
		st := a.rule.Stream
		sp.rule, sp.given, sp.count, sp.interval, sp.drop, sp.done = st, st.Items, st.Count, st.Interval, st.Drop, st.Done
	} else {
		var p *problem.Problem
		if sp.given, sp.done, p = s.ExampleItems(&x.Turn, a.example); p != nil {
			return sp, p
		}
	}
	if sp.count == 0 {
		sp.count = len(sp.given)
		if sp.count == 0 {
			sp.count = defaultItems
		}
	}
	pf := x.Prefer
	if pf.Items != 0 {
		sp.count = int(pf.Items)
	}
	if pf.Interval != 0 {
		sp.interval = time.Duration(pf.Interval) * time.Millisecond
	}
	if pf.Drop != 0 {
		sp.drop = int(pf.Drop)
	}
	if pf.HasDone {
		sp.done = pf.Done
	}
	if sp.numbered(x) {
		if n, err := strconv.Atoi(x.R.Header.Get("Last-Event-ID")); err == nil && n >= 0 && n <= sp.count {
			sp.from = n + 1
		}
	}
	return sp, nil
}

// numbered reports whether the stream numbers its events.
func (sp *streamPlan) numbered(x *exchange) bool {
	return x.Prefer.IDs || sp.rule != nil && sp.rule.IDs
}

// giveStream sends a streamed answer: the first item is made before the
// status, so that an answer that cannot be made is refused as any other;
// then each item is written and flushed as it is made, after the
// interval, in one buffer reused, so that a stream of any length holds
// one item. It ends when the items do, with the rule's error item if it
// has one, then the end marker if the plan has it; or breaks the
// connection after the items the plan drops it after, or stops when the
// client goes.
func (s *Engine) giveStream(x *exchange, a decision, data map[string]any, faker func() *gofakeit.Faker) *problem.Problem {
	sp, p := s.streamOf(x, a)
	if p != nil {
		return p
	}
	if sp.from > sp.count {
		// A reconnect after the last numbered event: 204 No Content
		// tells an EventSource to stop reconnecting, where an empty
		// 200 would have it come back for ever.
		x.Note("the client has the stream's last event, %d: 204 No Content ends its reconnecting", sp.count)
		x.W.WriteHeader(http.StatusNoContent)
		return nil
	}
	items := s.Items(&x.Turn)
	items.IDs = sp.numbered(x)
	items.Lax = a.rule != nil && a.rule.OffContract
	item := func(buf []byte, n int) ([]byte, *problem.Problem) {
		v, given := any(nil), n <= len(sp.given)
		if given {
			v = sp.given[n-1]
			if sp.rule != nil {
				var err error
				if v, err = sp.rule.RenderItem(v, n, data, faker); err != nil {
					return buf, ruleFailure(a.rule, "stream item "+strconv.Itoa(n), err)
				}
			}
		}
		return items.Append(buf, n, v, given)
	}
	var buf []byte
	if sp.from <= sp.count {
		if buf, p = item(buf, sp.from); p != nil {
			return p
		}
	}
	rc := http.NewResponseController(&x.W)
	s.streamHeader(x, a.status, rc)
	sent := 0
	defer func() { x.Note("streamed %d of %d items, from item %d", sent, sp.count, sp.from) }()
	for n := sp.from; n <= sp.count; n++ {
		if n > sp.from {
			if !pause(x, sp.interval) {
				return nil // the client is gone
			}
			if buf, p = item(buf[:0], n); p != nil {
				x.Note("the stream ends after item %d: %s", n-1, p.Message)
				return nil // the status is sent: the stream ends early
			}
		}
		rc.SetWriteDeadline(time.Now().Add(s.Timeouts.Write))
		if _, err := x.W.Write(buf); err != nil {
			return nil
		}
		if err := rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return nil // the client is gone; a writer that cannot flush sends when it can
		}
		s.tellItem(x, n, sp.count, buf)
		if sent++; sp.drop > 0 && sent == sp.drop && n < sp.count {
			// Where the next item would come, as a real stream breaks;
			// sooner, a client's network stack may take the items and
			// the break as one read, and drop the items with it.
			if !pause(x, sp.interval) {
				return nil
			}
			x.Note("the connection was dropped after %d items, as scripted", sent)
			panic(http.ErrAbortHandler) // the response ends without its end: a dropped connection
		}
	}
	if sp.rule != nil && sp.rule.HasError {
		v, err := sp.rule.RenderItem(sp.rule.Error, 0, data, faker)
		if err != nil {
			x.Note("the stream's error item cannot be made: %v", err)
			return nil
		}
		items.IDs = false // a client resuming after it would go back to the start
		if buf, p = items.Append(buf[:0], sp.count+1, v, true); p != nil {
			x.Note("the stream's error item is not sent: %s", p.Message)
			return nil
		}
		if _, err := x.W.Write(buf); err != nil {
			return nil
		}
		s.tellItem(x, sp.count+1, sp.count, buf)
	}
	if sp.done {
		x.W.Write(items.AppendEnd(buf[:0]))
	}
	return nil
}

// tellItem tells the item listener of item n of a stream of of items,
// sent as text.
func (s *Engine) tellItem(x *exchange, n, of int, text []byte) {
	if s.Live == nil || !s.Live.Listening() {
		return
	}
	it := journal.Item{Time: x.start, Method: x.R.Method, Path: x.R.URL.Path, Session: x.Sess.Name,
		Document: x.Sv.Name, Operation: x.Plan.Op.Name, N: n, Of: of, Text: string(text[:min(len(text), journal.MaxItemText)])}
	s.Live.PublishItem(it)
}

// streamHeader sends a stream's status and header: its media type, the
// operation's required headers, and no caching. The body that follows
// is written from a buffer reused for each item, which the recorder
// copies.
func (s *Engine) streamHeader(x *exchange, status int, rc *http.ResponseController) {
	if status == x.Plan.Success {
		s.setHeaders(x)
	}
	setContentType(x)
	x.W.Header().Set("Cache-Control", "no-cache")
	x.W.copies = true
	x.W.WriteHeader(status)
	rc.Flush()
}

// pause waits d; it reports false when the client goes first.
func pause(x *exchange, d time.Duration) bool {
	if d <= 0 {
		return x.R.Context().Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-x.R.Context().Done():
		return false
	}
}
