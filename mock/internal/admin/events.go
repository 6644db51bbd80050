package admin

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plantmock/plantmock/mock/internal/journal"
)

// Events hands every journal entry of this process, as it is recorded, to
// the streams of GET /__admin/events (the dashboard's live journal). With
// no stream open it costs an atomic load per entry. Its zero value is
// ready to use.
type Events struct {
	n      atomic.Int32 // open streams
	mu     sync.Mutex   // guards subs and closed
	subs   map[*eventSub]struct{}
	closed bool
}

// event is one event of a stream: its name ("entry" or "reload") and
// what its data is made of.
type event struct {
	name string
	v    any
}

// eventSub is one open stream: entries and reload statuses wait in ch;
// lost counts those a slow reader missed.
type eventSub struct {
	ch   chan event
	lost atomic.Int64
	done chan struct{} // closed when the mock shuts down
}

// eventBuffer is how many entries a stream may be behind before it loses
// some (and is told how many).
const eventBuffer = 1024

// eventPing is how often an idle stream gets a comment, so that proxies
// and browsers keep it open.
const eventPing = 15 * time.Second

// Publish tells the streams of an entry of the journal.
func (ev *Events) Publish(e journal.Entry) {
	if ev.n.Load() == 0 {
		return // before e becomes an any, which would put it on the heap
	}
	ev.send(event{"entry", e})
}

// PublishItem tells the streams of an item of a streamed answer as it
// is sent, before the answer's entry.
func (ev *Events) PublishItem(it journal.Item) {
	if ev.n.Load() == 0 {
		return
	}
	ev.send(event{"item", it})
}

// Listening reports whether a stream is open: whether an item is worth
// making into an Item.
func (ev *Events) Listening() bool { return ev.n.Load() > 0 }

// PublishReload tells the streams how a reload went: status is what
// GET /__admin/reload answers.
func (ev *Events) PublishReload(status any) { ev.send(event{"reload", status}) }

func (ev *Events) send(e event) {
	if ev.n.Load() == 0 {
		return
	}
	ev.mu.Lock()
	defer ev.mu.Unlock()
	for sub := range ev.subs {
		select {
		case sub.ch <- e:
		default:
			sub.lost.Add(1)
		}
	}
}

func (ev *Events) subscribe() *eventSub {
	sub := &eventSub{ch: make(chan event, eventBuffer), done: make(chan struct{})}
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if ev.subs == nil {
		ev.subs = map[*eventSub]struct{}{}
	}
	if ev.closed {
		close(sub.done)
		return sub
	}
	ev.subs[sub] = struct{}{}
	ev.n.Add(1)
	return sub
}

func (ev *Events) unsubscribe(sub *eventSub) {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if _, ok := ev.subs[sub]; ok {
		delete(ev.subs, sub)
		ev.n.Add(-1)
	}
}

// Close ends every stream, at shutdown: a stream never finishes on its
// own, and the server waits for its handlers.
func (ev *Events) Close() {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if ev.closed {
		return
	}
	ev.closed = true
	for sub := range ev.subs {
		close(sub.done)
	}
}

// adminEvents streams journal entries as Server-Sent Events: "entry"
// events whose data is an entry as GET /__admin/requests gives it (of
// every session: see its session field), "item" events as a streamed
// answer sends each item, before its entry (journal.Item), "reload"
// events with the
// reload status after every reload attempt (see Reload), and "lost"
// events saying how many a slow reader missed. Entries recorded before
// the stream opened are not sent: read them from /__admin/requests.
func (ev *Events) serve(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	rc.SetWriteDeadline(time.Time{}) // the server's write timeout is for answers, not streams
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // nginx: pass events on as they come
	w.WriteHeader(http.StatusOK)
	sub := ev.subscribe()
	defer ev.unsubscribe(sub)
	fmt.Fprint(w, "retry: 2000\n\n")
	if rc.Flush() != nil {
		return
	}
	ping := time.NewTicker(eventPing)
	defer ping.Stop()
	for {
		select {
		case e := <-sub.ch:
			if n := sub.lost.Swap(0); n > 0 {
				fmt.Fprintf(w, "event: lost\ndata: {\"entries\":%d}\n\n", n)
			}
			writeEvent(w, e)
			// Write what else is waiting before flushing: one write for a
			// burst.
			for more := len(sub.ch); more > 0; more-- {
				writeEvent(w, <-sub.ch)
			}
		case <-ping.C:
			fmt.Fprint(w, ": ping\n\n")
		case <-r.Context().Done():
			return
		case <-sub.done:
			return
		}
		if rc.Flush() != nil {
			return
		}
	}
}

// writeEvent writes an entry or a reload status as an event.
func writeEvent(w io.Writer, e event) {
	b, err := json.Marshal(e.v)
	if err != nil {
		return
	}
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.name, b)
}
