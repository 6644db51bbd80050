package redisstore_test

import (
	"context"
	"errors"
	"testing"

	"github.com/plantmock/plantmock/internal/redistest"
	"github.com/plantmock/plantmock/mock/internal/store"
	"github.com/plantmock/plantmock/mock/internal/store/redisstore"
)

// TestExpectActive checks that a create under ExpectActive stores its
// resource only while the session's active scenario is the one expected,
// with a key given or assigned, and otherwise stores nothing and says
// which scenario is active.
func TestExpectActive(t *testing.T) {
	ctx := context.Background()
	s := redisstore.NewTestStore(t, redistest.NewServer(t), "p:", 10)
	create := func(sess, key string, name string, set bool) (string, error) {
		t.Helper()
		return s.Create(redisstore.ExpectActive(ctx, name, set), sess, "/plants", key, constant(`{"v":1}`))
	}
	wantStale := func(what string, err error, active string, set bool) {
		t.Helper()
		var se *redisstore.StaleError
		if !errors.As(err, &se) || se.Active != active || se.Set != set {
			t.Errorf("%s: error %v, want a StaleError with Active %q, Set %v", what, err, active, set)
		}
	}

	// None set: expected as none set.
	if key, err := create("", "a", "", false); key != "a" || err != nil {
		t.Errorf("create with none set, none expected: %q, %v", key, err)
	}
	if err := s.SetActive(ctx, "", "slow"); err != nil {
		t.Fatal(err)
	}
	_, err := create("", "b", "", false)
	wantStale("create with slow set, none expected", err, "slow", true)
	_, err = create("", "", "other", true)
	wantStale("assigned create with slow set, other expected", err, "slow", true)
	if key, err := create("", "c", "slow", true); key != "c" || err != nil {
		t.Errorf("create with slow set and expected: %q, %v", key, err)
	}
	if key, err := create("", "", "slow", true); key != "1" || err != nil {
		t.Errorf("assigned create with slow set and expected: %q, %v; want key 1", key, err)
	}
	if err := s.SetActive(ctx, "", ""); err != nil {
		t.Fatal(err)
	}
	_, err = create("", "d", "slow", true)
	wantStale("create with none active, slow expected", err, "", true)
	// Another session's scenario is not this one's.
	if key, err := create("s2", "a", "", false); key != "a" || err != nil {
		t.Errorf("create in another session, none expected: %q, %v", key, err)
	}

	for _, key := range []string{"b", "d", "2"} {
		if _, err := s.Get(ctx, "", "/plants", key); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Get %s after a stale create: %v, want %v", key, err, store.ErrNotFound)
		}
	}
	if n, err := s.Count(ctx, "", "/plants"); n != 3 || err != nil {
		t.Errorf("Count = %d, %v; want 3 (a, c, 1)", n, err)
	}
	// The bound counts nothing for the stale creates: 4 of 10 are used.
	for i := range 6 {
		if _, err := s.Create(ctx, "", "/pets", "", constant(`{}`)); err != nil {
			t.Fatalf("create %d of the 6 left: %v", i+1, err)
		}
	}
	if _, err := s.Create(ctx, "", "/pets", "", constant(`{}`)); !errors.Is(err, store.ErrFull) {
		t.Errorf("create beyond the bound: %v, want %v", err, store.ErrFull)
	}
}
