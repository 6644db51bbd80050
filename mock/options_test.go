package mock

import (
	"testing"
	"time"
)

// TestDefaultsAsDocumented: the defaults the delivery package owns are
// the values their comments in options.go give.
func TestDefaultsAsDocumented(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want time.Duration
	}{
		{"DefaultWebhookTimeout", DefaultWebhookTimeout, 10 * time.Second},
		{"DefaultWebhookBackoff", DefaultWebhookBackoff, 250 * time.Millisecond},
		{"DefaultWebhookQueue", DefaultWebhookQueue, 1000},
		{"DefaultGenerationTime", DefaultGenerationTime, time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.got != c.want {
				t.Errorf("%s = %v, its comment says %v", c.name, c.got, c.want)
			}
		})
	}
}
