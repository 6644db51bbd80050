package verify

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

// fakeClock is a clock whose time moves only when told to, or by
// Sleep, which records how long it was asked to wait.
type fakeClock struct {
	now   time.Time
	slept []time.Duration
}

func (c *fakeClock) Now() time.Time { return c.now }

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	c.slept = append(c.slept, d)
	c.now = c.now.Add(d)
	return nil
}

// TestPacer checks the waits a pacer asks for: none for the first
// request, then what is left of the interval since the one before
// started, none after a request slower than the interval, and none at
// all without a rate.
func TestPacer(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name string
		rate float64
		work []time.Duration // how long each request takes before the next waits
		want []time.Duration // the waits asked for
	}{
		{"no rate", 0, []time.Duration{0, 0, 0}, nil},
		{"back to back", 4, []time.Duration{0, 0, 0, 0}, []time.Duration{250 * ms, 250 * ms, 250 * ms}},
		{"slow answers", 4, []time.Duration{0, 100 * ms, 300 * ms, 0}, []time.Duration{150 * ms, 250 * ms}},
		{"per minute", 30.0 / 60, []time.Duration{0, time.Second}, []time.Duration{time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
			p := newPacer(tt.rate, c)
			for _, w := range tt.work {
				c.now = c.now.Add(w)
				if err := p.wait(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			if !slices.Equal(c.slept, tt.want) {
				t.Errorf("waited %v, want %v", c.slept, tt.want)
			}
		})
	}
}

// TestPacerBudget: a wait cut short by the run's budget returns the
// budget's cause, ErrDuration.
func TestPacerBudget(t *testing.T) {
	p := newPacer(1, wallClock{})
	if err := p.wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(ErrDuration)
	if err := p.wait(ctx); !errors.Is(err, ErrDuration) {
		t.Errorf("wait: %v, want %v", err, ErrDuration)
	}
}
