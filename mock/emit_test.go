package mock

import (
	"bytes"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/session"
)

// TestOneAfterAnswerPath: an answered request and the webhook it sends
// reach the same listeners, in order: the journal numbers both, the
// observer and the log see both, the webhook's trigger is the request's
// entry, and only the request counts in the contract report. Without a
// journal, the others still hear both, unnumbered.
func TestOneAfterAnswerPath(t *testing.T) {
	for _, c := range []struct {
		name          string
		journal       int
		inSeq, outSeq uint64
		kept          int
	}{
		{"with a journal", 0, 1, 2, 2},
		{"without a journal", -1, 0, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			sub := newSubscriber(t, always(500))
			var mu sync.Mutex // guards observed
			var observed []journal.Entry
			var logs bytes.Buffer
			var logMu sync.Mutex
			s, ts := newTestServer(t, Options{Spec: webhookSpec(t), Journal: JournalOptions{Size: c.journal}, Webhooks: WebhookOptions{Retries: -1, Subscribers: map[string]session.Subscriber{"/plant/webhook": {URL: sub.URL}}}, LogRequests: true,
				Observe: func(e journal.Entry) {
					mu.Lock()
					defer mu.Unlock()
					observed = append(observed, e)
				},
				Logger: slog.New(slog.NewTextHandler(lockedWriter{&logs, &logMu}, nil))})
			st, body := do(t, ts, "POST", "/plants", `{"id":1,"name":"fern"}`, "Authorization", "Bearer abc")
			expect(t, "create", st, body, 200, `{"name":"fern"}`)
			sub.next(t)
			var es []journal.Entry
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) { // polling with a deadline
				mu.Lock()
				es = append([]journal.Entry(nil), observed...)
				mu.Unlock()
				if len(es) >= 2 || time.Now().After(deadline) {
					break
				}
			}
			type seen struct {
				seq, trigger    uint64
				direction, op   string
				status, attempt int
				violations      int
			}
			var got []seen
			for _, e := range es {
				got = append(got, seen{e.Seq, e.Trigger, e.Direction, e.Operation, e.Status, e.Attempt, len(e.Violations)})
			}
			want := []seen{
				{c.inSeq, 0, "", "POST /plants", 200, 0, 0},
				{c.outSeq, c.inSeq, "outbound", "webhook /plant/webhook", 500, 1, 1},
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("observed %+v\nwant %+v", got, want)
			}
			if n := len(s.Journal()); n != c.kept {
				t.Errorf("the journal keeps %d entries, want %d", n, c.kept)
			}
			r := s.Contract()
			if len(r.Operations) != 1 || r.Operations[0].Operation != "POST /plants" || r.Operations[0].Exchanges != 1 || len(r.Operations[0].Violations) != 0 {
				t.Errorf("contract report %+v, want POST /plants once, clean", r.Operations)
			}
			logMu.Lock()
			text := logs.String()
			logMu.Unlock()
			for _, line := range []string{
				`msg=request method=POST path=/plants status=200`,
				`level=WARN msg=outbound webhook="webhook /plant/webhook" method=POST url=` + sub.URL + ` attempt=1`,
			} {
				if !strings.Contains(text, line) {
					t.Errorf("the log has no %q:\n%s", line, text)
				}
			}
		})
	}
}
