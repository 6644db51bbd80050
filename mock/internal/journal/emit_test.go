package journal

import (
	"context"
	"slices"
	"testing"
)

// numbered is a Recorder that numbers entries from 1.
type numbered struct{ n uint64 }

func (r *numbered) Record(context.Context, Entry) (uint64, error) { r.n++; return r.n, nil }

func TestEmitterTellsListenersInOrder(t *testing.T) {
	type answered struct {
		status int
		seq    uint64
	}
	var em Emitter[answered]
	var told []string
	em.Listen(Listener[answered]{
		Answered: func(a *answered) { a.seq = 7; told = append(told, "journal answered") },
		Attempted: func(t *Attempt) {
			t.E.Seq, _ = t.Journal.Record(context.Background(), t.E)
			told = append(told, "journal attempted")
		},
	})
	em.Listen(Listener[answered]{Answered: func(a *answered) {
		told = append(told, "second answered")
		if a.status != 201 || a.seq != 7 {
			t.Errorf("second listener got %+v, want status 201 and the seq the first set", *a)
		}
	}})
	em.Listen(Listener[answered]{Attempted: func(*Attempt) { told = append(told, "third attempted") }})

	a := em.Get()
	if *a != (answered{}) {
		t.Fatalf("Get = %+v, want a zero value", *a)
	}
	a.status = 201
	em.Emit(a)
	if *a != (answered{}) {
		t.Errorf("after Emit the value is %+v, want it zeroed for reuse", *a)
	}
	at := &Attempt{E: Entry{Direction: "outbound"}, Journal: &numbered{}}
	em.EmitAttempt(at)
	if at.E.Seq != 1 {
		t.Errorf("attempt's Seq = %d, want 1, numbered by the first listener for those after it", at.E.Seq)
	}
	want := []string{"journal answered", "second answered", "journal attempted", "third attempted"}
	if !slices.Equal(told, want) {
		t.Errorf("told %q, want %q", told, want)
	}
}
