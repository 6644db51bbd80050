package clip

import (
	"strings"
	"testing"
)

func TestTo(t *testing.T) {
	tests := []struct {
		name, s string
		n       int
		want    string
	}{
		{"short", "12345", 5, "12345"},
		{"a long number", "1" + strings.Repeat("0", 100_000), 10, "1000000000...(100001 bytes)"},
		{"cut back to a whole character", "aé" + strings.Repeat("x", 10), 2, "a...(13 bytes)"},
		{"empty cut", "ééé", 1, "...(6 bytes)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := To(tt.s, tt.n); got != tt.want {
				t.Errorf("To(%.20q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
			}
		})
	}
}
