package redisstore

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/plantmock/plantmock/internal/redistest"
	"github.com/plantmock/plantmock/mock/internal/store"
)

// TestHoldEnds checks that the reservation of a process that stopped
// between reserving and storing is given up once its hold ends: its room
// and its key are free again.
func TestHoldEnds(t *testing.T) {
	ctx := context.Background()
	srv := redistest.NewServer(t)
	s := NewTestStore(t, srv, "p:", 1)
	// Long enough that the two checks made while it lasts come before
	// its end on a loaded machine (at 100 ms they once came after).
	s.hold = time.Second

	// The stopped process: a reservation of "a" and nothing after.
	k := s.keys("", "/plants")
	if _, err := s.reserve(ctx, k, "a"); err != nil {
		t.Fatalf("reserve: %v", err)
	}
	if _, err := s.Create(ctx, "", "/plants", "a", fixed(`{"v":1}`)); !errors.Is(err, store.ErrExists) {
		t.Errorf("Create of the reserved key: got error %v, want %v", err, store.ErrExists)
	}
	if _, err := s.Create(ctx, "", "/pets", "b", fixed(`{"v":1}`)); !errors.Is(err, store.ErrFull) {
		t.Errorf("Create beyond the reservation: got error %v, want %v", err, store.ErrFull)
	}

	deadline := time.Now().Add(10 * s.hold)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		_, err := s.Create(ctx, "", "/plants", "a", fixed(`{"v":2}`))
		if err == nil {
			break
		}
		if !errors.Is(err, store.ErrExists) || time.Now().After(deadline) {
			t.Fatalf("Create of the reserved key after its hold: got error %v, want none", err)
		}
		<-tick.C
	}
	if got, err := s.Get(ctx, "", "/plants", "a"); err != nil || string(got) != `{"v":2}` {
		t.Errorf(`Get = %s, %v; want {"v":2}, no error`, got, err)
	}
	if _, err := s.Create(ctx, "", "/pets", "b", fixed(`{"v":1}`)); !errors.Is(err, store.ErrFull) {
		t.Errorf("Create beyond the bound: got error %v, want %v (the reservation counts no more)", err, store.ErrFull)
	}
	if n, err := s.rdb.Do(ctx, s.rdb.B().Get().Key("p:count").Build()).AsInt64(); err != nil || n != 1 {
		t.Errorf("count = %d, %v; want 1", n, err)
	}
}

// TestHoldEndsDuringDoc checks that a create whose hold ended while its
// document was being made, and was given up by another create, starts
// again instead of storing.
func TestHoldEndsDuringDoc(t *testing.T) {
	ctx := context.Background()
	srv := redistest.NewServer(t)
	s := NewTestStore(t, srv, "p:", 2)
	s.hold = 50 * time.Millisecond

	var keys []string
	key, err := s.Create(ctx, "", "/plants", "", func(key string) ([]byte, error) {
		keys = append(keys, key)
		if len(keys) == 1 {
			time.Sleep(2 * s.hold) // the hold ends: what is under test
			if _, err := s.Create(ctx, "", "/pets", "p", fixed(`{}`)); err != nil {
				t.Errorf("the other create: %v", err)
			}
		}
		return []byte(`{"id":"` + key + `"}`), nil
	})
	if err != nil || key != "1" {
		t.Fatalf(`Create = %q, %v; want "1", no error`, key, err)
	}
	if len(keys) != 2 {
		t.Errorf("the document function got keys %q, want two calls", keys)
	}
	if n, err := s.rdb.Do(ctx, s.rdb.B().Get().Key("p:count").Build()).AsInt64(); err != nil || n != 2 {
		t.Errorf("count = %d, %v; want 2", n, err)
	}
	if _, err := s.Create(ctx, "", "/pets", "q", fixed(`{}`)); !errors.Is(err, store.ErrFull) {
		t.Errorf("Create beyond the bound: got error %v, want %v", err, store.ErrFull)
	}
}

func fixed(d string) func(string) ([]byte, error) {
	return func(string) ([]byte, error) { return []byte(d), nil }
}
