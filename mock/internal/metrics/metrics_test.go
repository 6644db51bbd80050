package metrics

import (
	"log/slog"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/event"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// shared is the State of a shared store: it gives no sizes.
type shared struct{}

func (shared) Sizes() (entries, resources int64, ok bool) { return 0, 0, false }

// exchanges are answered exchanges of one operation as the listener is
// told of them: a create, a refused one with a violation, a scripted one.
func exchanges() []*event.Answered {
	pl := &answer.Plan{Op: &openapi.Operation{Name: "POST /plants"}}
	return []*event.Answered{
		{Plan: pl, E: journal.Entry{Operation: "POST /plants", Status: 200, Duration: 40 * time.Microsecond}},
		{Plan: pl, Problem: &problem.Problem{Code: problem.CodeSchema},
			E: journal.Entry{Operation: "POST /plants", Status: 400, Code: problem.CodeSchema, Duration: 30 * time.Microsecond,
				Violations: []journal.Violation{{Path: "id", Reason: "expected integer, got string"}}}},
		{Plan: pl, E: journal.Entry{Operation: "POST /plants", Status: 503, Scenario: "busy", Rule: 1, Duration: time.Millisecond}},
	}
}

// TestAnsweredAllocatesNothing: once an operation has answered with a
// status (and error code, and rule) before, counting another exchange
// allocates nothing.
func TestAnsweredAllocatesNothing(t *testing.T) {
	m := New(slog.New(slog.DiscardHandler), shared{})
	xs := exchanges()
	for _, a := range xs {
		m.answered(a) // the first of each resolves its series
	}
	for _, a := range xs {
		if n := testing.AllocsPerRun(100, func() { m.answered(a) }); n != 0 {
			t.Errorf("status %d: %v allocations an exchange, want 0", a.E.Status, n)
		}
	}
}

// BenchmarkAnswered is the listener's cost an exchange, from as many
// goroutines as -cpu says: what the metrics add to a request.
func BenchmarkAnswered(b *testing.B) {
	m := New(slog.New(slog.DiscardHandler), shared{})
	xs := exchanges()
	for _, a := range xs {
		m.answered(a)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			m.answered(xs[i%len(xs)])
			i++
		}
	})
}
