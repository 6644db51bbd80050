package redistest_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/rueidis"

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
	opts, err := rueidis.ParseURL(a.URL(3))
	if err != nil || opts.SelectDB != 3 || opts.InitAddress[0] != a.Addr {
		t.Fatalf("URL(3) = %q: parsed %+v, %v; want database 3 at %s", a.URL(3), opts, err, a.Addr)
	}
	c := a.Client(t)
	if err := c.Do(ctx, c.B().Set().Key("k").Value("v").Build()).Error(); err != nil {
		t.Fatalf("SET on a: %v", err)
	}

	a.Close()
	a.Close() // again: nothing happens
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if err := c.Do(ctx, c.B().Ping().Build()).Error(); err == nil {
		t.Errorf("PING on a closed server: no error, want one")
	}
}

// TestDurableServer checks that a durable server keeps what it
// acknowledged across Kill and Restart, on the same address, and that a
// killed one does not answer.
func TestDurableServer(t *testing.T) {
	ctx := context.Background()
	s := redistest.NewDurableServer(t)
	c := s.Client(t)
	if err := c.Do(ctx, c.B().Set().Key("k").Value("v").Build()).Error(); err != nil {
		t.Fatalf("SET: %v", err)
	}
	s.Kill()
	pctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if err := c.Do(pctx, c.B().Ping().Build()).Error(); err == nil {
		t.Fatalf("PING on a killed server: no error, want one")
	}
	s.Restart(t)
	if got, err := c.Do(ctx, c.B().Get().Key("k").Build()).ToString(); err != nil || got != "v" {
		t.Errorf("GET k after restart = %q, %v; want \"v\"", got, err)
	}
}
