package state_test

import (
	"context"
	"testing"
	"time"

	"github.com/plantmock/plantmock/internal/redistest"
	"github.com/plantmock/plantmock/mock/internal/state"
	"github.com/plantmock/plantmock/mock/internal/state/statetest"
)

// TestRedis runs the suite against a redis-server, each subtest under a
// prefix of its own.
func TestRedis(t *testing.T) {
	srv := redistest.NewServer(t)
	statetest.Run(t, func(t *testing.T, opts state.Options[statetest.Entry]) state.Backend[statetest.Entry] {
		opts.URL, opts.Prefix, opts.Timeout = srv.URL(0), t.Name()+":", 5*time.Second
		b, err := state.Open(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := b.Default().(state.CreateJournaler[statetest.Entry]); !ok {
			t.Error("the Redis backend's sessions store and journal a create in one call")
		}
		return b
	})
}
