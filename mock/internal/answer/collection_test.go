package answer_test

import (
	"context"
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/answer"
)

// FuzzKeyOfNumber holds keyOf's shortcut for integers written as
// strconv.FormatInt writes them, and its reading of other JSON numbers
// from their digits, to the long way: parse, then format (integers of
// under 400 digits; any other number is its own key).
func FuzzKeyOfNumber(f *testing.F) {
	for _, s := range []string{"0", "-0", "7", "-7", "007", "-007", "1e3", "1.0", "1.5", "+5", "", "-", "--1",
		"123456789012345678", "-123456789012345678", "1234567890123456789", "9223372036854775807",
		"9223372036854775808", "-9223372036854775808", "-9223372036854775809", "1_000", "0x10", "1e100", "-12.5e1", "1e399", "1e400", "1.0e-0", "-0.0e7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := s
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			want = strconv.FormatInt(n, 10)
		} else if jsonx.IsNumber(s) {
			if e := strings.IndexAny(s, "eE"); e >= 0 && len(strings.TrimLeft(s[e+1:], "+-0")) > 4 {
				return // too large an exponent for big.Rat to be the oracle
			}
			if r, ok := new(big.Rat).SetString(s); ok && r.IsInt() && len(r.Num().String()) < 400 {
				want = r.Num().String()
			}
		}
		if got := answer.KeyOf(json.Number(s)); got != want {
			t.Errorf("keyOf(%q) = %q, want %q", s, got, want)
		}
	})
}

// TestResources leaves the records of deletions out of a store's dump:
// a deleted item of a collection without a create is remembered beside
// the collection, which shows only what it holds.
func TestResources(t *testing.T) {
	m := newMock(t, readOnlySpec)
	m.do("GET", "/things/1", "")
	m.do("GET", "/things/2", "")
	m.do("DELETE", "/things/1", "")
	dump, err := m.a.Store.Dump(context.Background(), "")
	if err != nil || len(dump) != 2 {
		t.Fatalf("Dump = %v, %v; want /things and its deletions", dump, err)
	}
	got := answer.Resources(dump)
	if len(got) != 1 || got[0].Name != "/things" || len(got[0].Docs) != 1 || string(got[0].Docs[0]) != `{"label":"lamp","thingId":2}` {
		t.Errorf("Resources = %q, want /things holding thing 2", got)
	}
}
