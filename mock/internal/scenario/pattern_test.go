package scenario

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestMatchPatternNumbers checks that a scenario's number matches a
// request's by value, read from digits and exponents.
func TestMatchPatternNumbers(t *testing.T) {
	big := "1" + strings.Repeat("0", 1000)
	tests := []struct {
		pat, v string
		want   bool
	}{
		{"1", "1.0", true},
		{"1", "2", false},
		{"1e100000", "10e99999", true},
		{"1e100000", "1e100001", false},
		{"-2.5", "-25e-1", true},
		{big, big, true}, // beyond the caps: as written
		{big, big + "0", false},
	}
	for _, tt := range tests {
		if got := MatchPattern(json.Number(tt.pat), json.Number(tt.v)); got != tt.want {
			t.Errorf("matchPattern(%.20s, %.20s) = %v, want %v", tt.pat, tt.v, got, tt.want)
		}
	}
}
