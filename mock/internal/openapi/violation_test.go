package openapi

import (
	"strings"
	"testing"
)

// TestViolationString: String names the body as a whole "body", Len is
// its length, and Build writes the same.
func TestViolationString(t *testing.T) {
	for _, tt := range []struct {
		v    Violation
		want string
	}{
		{Violation{Path: "id", Reason: "expected integer, but got string"}, "id: expected integer, but got string"},
		{Violation{Path: "tags[2]", Reason: "string too long"}, "tags[2]: string too long"},
		{Violation{Reason: "expected object, but got array"}, "body: expected object, but got array"},
		{Violation{Path: "ünïcode", Reason: "é"}, "ünïcode: é"},
	} {
		if got := tt.v.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
		if n := tt.v.Len(); n != len(tt.want) {
			t.Errorf("%q: Len() = %d, want %d", tt.want, n, len(tt.want))
		}
		var b strings.Builder
		b.WriteString("x ")
		tt.v.Build(&b)
		if got := b.String(); got != "x "+tt.want {
			t.Errorf("Build wrote %q, want %q", got, "x "+tt.want)
		}
	}
}

// TestViolationWithin: a violation is within a property when its path
// is the property's, or goes into it by a member or an index; a path
// that only starts with the same letters is not.
func TestViolationWithin(t *testing.T) {
	for _, tt := range []struct {
		path string
		want bool
	}{
		{"members", true},
		{"members[0].$ref", true},
		{"members.count", true},
		{"membership", false},
		{"", false},
		{"name", false},
	} {
		if got := (Violation{Path: tt.path}).Within("members"); got != tt.want {
			t.Errorf("Violation{Path: %q}.Within(members) = %v, want %v", tt.path, got, tt.want)
		}
	}
}
