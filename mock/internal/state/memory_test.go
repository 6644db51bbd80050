package state_test

import (
	"context"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/state"
	"github.com/plantmock/plantmock/mock/internal/state/statetest"
)

func TestMemory(t *testing.T) {
	statetest.Run(t, func(t *testing.T, opts state.Options[statetest.Entry]) state.Backend[statetest.Entry] {
		b, err := state.Open(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		return b
	})
}

// TestMemoryRuleSets: in memory, the rules of another set (scenarios
// loaded again) count afresh.
func TestMemoryRuleSets(t *testing.T) {
	b, _ := state.Open(context.Background(), state.Options[statetest.Entry]{JournalSize: 10, MaxSessions: 1, Codec: statetest.Codec{}})
	ctx := context.Background()
	old, fresh := state.NewRuleSet(""), state.NewRuleSet("")
	r, again := old.Add("rule", 0), fresh.Add("rule", 0)
	for _, c := range []struct {
		r    *state.Rule
		want int64
	}{{&r, 1}, {&r, 2}, {&again, 1}, {&again, 2}} {
		if n, err := b.Default().Hit(ctx, c.r); n != c.want || err != nil {
			t.Errorf("hit: %d %v, want %d", n, err, c.want)
		}
	}
}
