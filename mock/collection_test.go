package mock

import (
	"encoding/json"
	"math/big"
	"strconv"
	"testing"
)

// FuzzKeyOfNumber holds keyOf's shortcut for integers written as
// strconv.FormatInt writes them to the long way: parse, then format.
func FuzzKeyOfNumber(f *testing.F) {
	for _, s := range []string{"0", "-0", "7", "-7", "007", "-007", "1e3", "1.0", "1.5", "+5", "", "-", "--1",
		"123456789012345678", "-123456789012345678", "1234567890123456789", "9223372036854775807",
		"9223372036854775808", "-9223372036854775808", "-9223372036854775809", "1_000", "0x10"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := s
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			want = strconv.FormatInt(n, 10)
		} else if r, ok := new(big.Rat).SetString(s); ok && r.IsInt() && len(s) < 400 {
			want = r.Num().String()
		}
		if got := keyOf(json.Number(s)); got != want {
			t.Errorf("keyOf(%q) = %q, want %q", s, got, want)
		}
	})
}
