package webhook

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/deliver"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/session"
)

// loaded is a document of the repository's examples/ and the plans
// answer works out for it.
func loaded(t *testing.T, name string) (*openapi.Document, answer.Plans) {
	t.Helper()
	b, err := os.ReadFile("../../../examples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi.Load(b)
	if err != nil {
		t.Fatal(err)
	}
	plans, _, err := answer.BuildPlans(doc, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return doc, plans
}

// planOf returns the plan of the operation named name.
func planOf(t *testing.T, plans answer.Plans, name string) *answer.Plan {
	t.Helper()
	for op, pl := range plans {
		if op.Name == name {
			return pl
		}
	}
	t.Fatalf("no operation %s", name)
	return nil
}

// host is the Host of a sender under test: one document, the
// subscribers each session set, and the attempts it is told of, each
// numbered by its session's journal.
type host struct {
	doc   Doc
	mu    sync.Mutex
	subs  map[string]map[string]session.Subscriber // by session, then webhook
	told  chan journal.Entry
	faked atomic.Uint64
}

func (h *host) Document(string) Doc  { return h.doc }
func (h *host) Declaring(string) Doc { return h.doc }

func (h *host) Subscribers(_ context.Context, sess string) (map[string]session.Subscriber, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.subs[sess], nil
}

func (h *host) subscribe(sess, name string, sub session.Subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs[sess] == nil {
		h.subs[sess] = map[string]session.Subscriber{}
	}
	h.subs[sess][name] = sub
}

func (h *host) Attempted(t *journal.Attempt) {
	e := t.E
	e.Seq, _ = t.Journal.Record(context.Background(), e)
	h.told <- e
}

func (h *host) Faker() *gofakeit.Faker { return gen.Faker(1, h.faked.Add(1)) }

// next returns the next attempt the host is told of, failing the test
// when none comes within a generous deadline.
func (h *host) next(t *testing.T) journal.Entry {
	t.Helper()
	select {
	case e := <-h.told:
		return e
	case <-time.After(10 * time.Second):
		t.Fatal("no attempt within 10s")
		return journal.Entry{}
	}
}

// numbered is a session's journal: it numbers what it records.
type numbered struct{ n atomic.Uint64 }

func (j *numbered) Record(context.Context, journal.Entry) (uint64, error) { return j.n.Add(1), nil }

// logs is a log the test reads while the sender writes it.
type logs struct {
	mu      sync.Mutex
	b       bytes.Buffer
	written chan struct{} // has a value after a write
}

func (l *logs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case l.written <- struct{}{}:
	default:
	}
	return l.b.Write(p)
}

// wait returns once the log holds want, failing the test when it does
// not within a generous deadline.
func (l *logs) wait(t *testing.T, want string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for !strings.Contains(l.String(), want) {
		select {
		case <-l.written:
		case <-deadline:
			t.Fatalf("log after 10s:\n%s\nwant %s", l, want)
		}
	}
}

func (l *logs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// newSender returns a sender of the example document name's webhooks
// with the default subscribers subs and options o, its host and its log.
// Its deliveries are given up when the test ends.
func newSender(t *testing.T, name string, subs map[string]session.Subscriber, o Options) (*Sender, *host, *logs) {
	t.Helper()
	doc, plans := loaded(t, name)
	set, err := NewSet(doc, plans, subs, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := &host{doc: Doc{Name: "plants", Hooks: set, Secrets: journal.NewSecrets(doc)},
		subs: map[string]map[string]session.Subscriber{}, told: make(chan journal.Entry, 64)}
	l := &logs{written: make(chan struct{}, 1)}
	s := NewSender(h, Config{Options: o, Version: "test", Log: slog.New(slog.NewTextHandler(l, nil)), Listeners: &deliver.Listeners{}})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		s.CloseDeliveries(ctx)
	})
	return s, h, l
}

// received is a request a subscriber got.
type received struct {
	method, path, query string
	header              http.Header
	body                string
}

// subscriber is a receiver on a loopback listener, closed when the test
// ends: it hands each request to got and answers the n-th (from 1) with
// status(n).
func subscriber(t *testing.T, status func(n int) int) (*httptest.Server, chan received) {
	t.Helper()
	got := make(chan received, 64)
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- received{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), string(body)}
		w.WriteHeader(status(int(n.Add(1))))
	}))
	t.Cleanup(srv.Close)
	return srv, got
}

// nextReceived returns the next request of got within a generous
// deadline.
func nextReceived(t *testing.T, got chan received) received {
	t.Helper()
	select {
	case r := <-got:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("the subscriber got nothing within 10s")
		return received{}
	}
}
