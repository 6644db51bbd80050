package redistest_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/plantmock/plantmock/internal/redistest"
)

// TestServer checks that a Server answers on its URL until it is closed,
// and that two Servers are two processes.
func TestServer(t *testing.T) {
	ctx := context.Background()
	a, b := redistest.NewServer(t), redistest.NewServer(t)
	if a.Addr == b.Addr {
		t.Fatalf("two servers share the address %s", a.Addr)
	}
	opts, err := redis.ParseURL(a.URL(3))
	if err != nil || opts.DB != 3 || opts.Addr != a.Addr {
		t.Fatalf("URL(3) = %q: parsed %+v, %v; want database 3 at %s", a.URL(3), opts, err, a.Addr)
	}
	opts.MaxRetries = -1
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	if err := rdb.Set(ctx, "k", "v", 0).Err(); err != nil {
		t.Fatalf("SET on a: %v", err)
	}

	a.Close()
	a.Close() // again: nothing happens
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if err := rdb.Ping(ctx).Err(); err == nil {
		t.Errorf("PING on a closed server: no error, want one")
	}
}

// TestDurableServer checks that a durable server keeps what it
// acknowledged across Kill and Restart, on the same address, and that a
// killed one does not answer.
func TestDurableServer(t *testing.T) {
	ctx := context.Background()
	s := redistest.NewDurableServer(t)
	opts, err := redis.ParseURL(s.URL(0))
	if err != nil {
		t.Fatal(err)
	}
	opts.MaxRetries = -1
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	if err := rdb.Set(ctx, "k", "v", 0).Err(); err != nil {
		t.Fatalf("SET: %v", err)
	}
	s.Kill()
	pctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if err := rdb.Ping(pctx).Err(); err == nil {
		t.Fatalf("PING on a killed server: no error, want one")
	}
	s.Restart(t)
	if got, err := rdb.Get(ctx, "k").Result(); err != nil || got != "v" {
		t.Errorf("GET k after restart = %q, %v; want \"v\"", got, err)
	}
}
