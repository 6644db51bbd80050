package redisstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/plantmock/plantmock/internal/redistest"
	"github.com/plantmock/plantmock/mock/internal/store/redisstore"
)

// TestReadAfterRestart: two replicas share a durable Redis; one creates
// an item, Redis restarts, and the other's first reads (a batched Get, a
// List and a Dump, scripts rueidis does not retry) find the item on a
// fresh connection, rather than failing on the one Redis closed.
func TestReadAfterRestart(t *testing.T) {
	ctx := context.Background()
	srv := redistest.NewDurableServer(t)
	open := func(name string) *redisstore.Store {
		s, err := redisstore.New(ctx, redisstore.Options{URL: srv.URL(0), Prefix: "restart:", Max: 10, Timeout: 5 * time.Second})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	a, b := open("a"), open("b")
	if _, err := a.Create(ctx, "", "/plants", "fern", constant(`{"name":"fern"}`)); err != nil {
		t.Fatalf("Create: %v", err)
	}
	if _, err := b.Get(ctx, "", "/plants", "fern"); err != nil { // b's connection is up
		t.Fatalf("Get before the restart: %v", err)
	}
	srv.Restart(t)
	for _, read := range []struct {
		name string
		do   func() (string, error)
	}{
		{"Get", func() (string, error) {
			d, err := b.Get(ctx, "", "/plants", "fern")
			return string(d), err
		}},
		{"List", func() (string, error) {
			ds, err := b.List(ctx, "", "/plants", -1)
			if len(ds) != 1 {
				return "", err
			}
			return string(ds[0]), err
		}},
	} {
		if got, err := read.do(); err != nil || got != `{"name":"fern"}` {
			t.Errorf(`%s after the restart = %s, %v; want {"name":"fern"}`, read.name, got, err)
		}
	}
	if _, err := b.Dump(ctx, ""); err != nil {
		t.Errorf("Dump after the restart: %v", err)
	}
}
