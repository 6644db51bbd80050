package regex

import (
	"regexp"
	"testing"
)

// BenchmarkMatch compares matching an ordinary pattern through Pattern
// with Go's regexp on the pattern as written, and shows what the
// backtracking engine costs on a pattern that needs it.
func BenchmarkMatch(b *testing.B) {
	tests := []struct {
		name, pattern, input string
	}{
		{"code", `^[A-Z]{3}-\d{4}$`, "ABC-1234"},
		{"dot", `^.{1,64}$`, "Monstera deliciosa, the Swiss cheese plant"},
		{"space", `^\S+$`, "monstera-deliciosa"},
		{"lookahead", `^(?!aws:)[a-zA-Z+-=._:/]+$`, "user:team/monstera"},
	}
	for _, tt := range tests {
		p, err := Compile(tt.pattern)
		if err != nil {
			b.Fatal(err)
		}
		if re, err := regexp.Compile(tt.pattern); err == nil {
			b.Run(tt.name+"/regexp", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					re.MatchString(tt.input)
				}
			})
		}
		b.Run(tt.name+"/Pattern", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if p.Match(tt.input) == NoMatch {
					b.Fatal("no match")
				}
			}
		})
	}
}
