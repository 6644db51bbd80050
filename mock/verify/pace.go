package verify

import (
	"context"
	"time"
)

// clock is the time a pacer reads and waits on.
type clock interface {
	Now() time.Time
	// Sleep waits for d, or until ctx is done: then it returns ctx's
	// cause.
	Sleep(ctx context.Context, d time.Duration) error
}

// wallClock is the real time.
type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

func (wallClock) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return nil
	}
}

// pacer spaces a run's requests evenly, at most rate a second: each
// waits until one interval has passed since the one before started, so
// no burst follows a slow answer. A zero pacer does not wait.
type pacer struct {
	every time.Duration // the interval; 0 for none
	clock clock
	next  time.Time // when the next request may start; zero for at once
}

// newPacer paces rate requests a second on c; rate 0 paces nothing.
func newPacer(rate float64, c clock) *pacer {
	p := &pacer{clock: c}
	if rate > 0 {
		p.every = time.Duration(float64(time.Second) / rate)
	}
	return p
}

// wait returns when the next request may start, or ctx's cause when it
// is done first.
func (p *pacer) wait(ctx context.Context) error {
	if p.every <= 0 {
		return nil
	}
	now := p.clock.Now()
	if p.next.After(now) {
		if err := p.clock.Sleep(ctx, p.next.Sub(now)); err != nil {
			return err
		}
		now = p.next
	}
	p.next = now.Add(p.every)
	return nil
}
