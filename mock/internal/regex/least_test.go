package regex

import "testing"

// TestLeast holds what Least tells of a pattern: the fewest code points
// a match has, and whether no string matches it because of where its
// anchors stand.
func TestLeast(t *testing.T) {
	tests := []struct {
		name, src string
		shortest  int
		none      bool
	}{
		{"a uuid", `[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}`, 36, false},
		{"anchored, optional parts", `^a(bc)?d*$`, 1, false},
		{"an alternative", `^(abc|de)$`, 2, false},
		{"a count over RE2's", `^x{2000}$`, 1000, false},
		{"a lookahead, dropped", `^(?=abc)a$`, 1, false},
		{"$ before what it requires", `=\{3,\}$\{1,4096\}`, 13, true},
		{"^ after what it requires", `ab^c`, 3, true},
		{"every alternative stopped", `a$b|c^d`, 2, true},
		{"one alternative free", `a$b|cd`, 2, false},
		{"$ before what may be empty", `a$b*`, 1, false},
		{"$ inside a repeated group", `(a$b)+`, 2, true},
		{"$ inside an optional group", `(a$b)?c`, 1, false},
		{"escaped anchors", `a\$b\^c`, 5, false},
		{"anchors at the ends", `^abc$`, 3, false},
		{"multiline-free $ at the end of a group", `(ab$)`, 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shortest, none, ok := Least(tt.src, 5000)
			if !ok || shortest != tt.shortest || none != tt.none {
				t.Errorf("Least(%q) = %d, %v, %v; want %d, %v, true", tt.src, shortest, none, ok, tt.shortest, tt.none)
			}
		})
	}
	if _, _, ok := Least(`[a-`, 10); ok {
		t.Errorf("Least of an unterminated class is ok, want not")
	}
	if n, _, _ := Least(`a{100}`, 10); n != 10 {
		t.Errorf("Least(a{100}, 10) = %d, want the cap 10", n)
	}
}
