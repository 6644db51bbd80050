package jsonx

import (
	"encoding/json"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"
)

func TestDecodeErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{``, "body is empty"},
		{`  `, "body is empty"},
		{`{"a":`, "invalid JSON: unexpected end of input"},
		{`{"a":1}{}`, "invalid JSON: unexpected data after the value at offset 7"},
		{`{"a":tru}`, "invalid JSON at offset 8: invalid character '}' in literal true (expecting 'e')"},
		{"\"\xc3\x28\"", "body is not valid UTF-8"},
		{strings.Repeat("[", 20000), "invalid JSON: nested deeper than 10000 levels"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			_, err := Decode([]byte(tt.in))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("Decode(%.20q) = %v, want %q", tt.in, err, tt.want)
			}
		})
	}
}

func TestRoundTrip(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"b":1,"a":[true,false,null,"x"]}`, `{"a":[true,false,null,"x"],"b":1}`},
		{`{"id":9223372036854775807,"f":1.50,"e":1E3}`, `{"e":1E3,"f":1.50,"id":9223372036854775807}`},
		{`{"id":1,"id":2}`, `{"id":2}`},
		{`"<tag> & \u2028 \u0001 \" \\ é"`, "\"<tag> & \\u2028 \\u0001 \\\" \\\\ é\""},
	}
	for _, tt := range tests {
		v, err := Decode([]byte(tt.in))
		if err != nil {
			t.Fatalf("Decode(%s): %v", tt.in, err)
		}
		if got := string(Marshal(v)); got != tt.want {
			t.Errorf("Marshal(Decode(%s)) = %s, want %s", tt.in, got, tt.want)
		}
		var back any
		if err := json.Unmarshal(Marshal(v), &back); err != nil {
			t.Errorf("output of %s is not JSON: %v", tt.in, err)
		}
	}
}

func TestAppendStringInvalidUTF8(t *testing.T) {
	if got := string(AppendString(nil, "a\xffb")); got != `"a\ufffdb"` {
		t.Errorf("got %s", got)
	}
}

func TestIsNumber(t *testing.T) {
	tests := map[string]bool{
		"0": true, "-0": true, "10": true, "1.5": true, "1e5": true, "1E+5": true, "-1.25e-10": true,
		"": false, "-": false, "01": false, "1.": false, ".5": false, "1e": false, "1e+": false, "+1": false,
		"0x1": false, "1_000": false, " 1": false, "1 ": false, "NaN": false, "Infinity": false, "--1": false,
	}
	for s, want := range tests {
		if got := IsNumber(s); got != want {
			t.Errorf("IsNumber(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestAppendSortsKeys: objects of every size up to past smallObject are
// written with their keys in sort.Strings order, whichever order the map
// gives them in.
func TestAppendSortsKeys(t *testing.T) {
	pool := []string{"", "a", "aa", "ab", "b", "B", "é", "e", "\u2028", "z", "id", "name", "tag", "Z", "a b", "0", "10", "9"}
	rnd := rand.New(rand.NewPCG(3, 4))
	for n := 0; n <= len(pool); n++ {
		for range 50 {
			m := map[string]any{}
			for _, i := range rnd.Perm(len(pool))[:n] {
				m[pool[i]] = json.Number(strconv.Itoa(i))
			}
			keys := make([]string, 0, n)
			for k := range m {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			want := []byte{'{'}
			for i, k := range keys {
				if i > 0 {
					want = append(want, ',')
				}
				want = append(AppendString(want, k), ':')
				want = Append(want, m[k])
			}
			want = append(want, '}')
			if got := Marshal(m); string(got) != string(want) {
				t.Fatalf("%d members: got %s, want %s", n, got, want)
			}
		}
	}
}

func BenchmarkAppendObject(b *testing.B) {
	v, err := Decode([]byte(`{"id":7,"name":"Monstera","tag":"aroid"}`))
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		buf = Append(buf[:0], v)
	}
}
