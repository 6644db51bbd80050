package wire

import "testing"

func TestUnescape(t *testing.T) {
	tests := []struct {
		in        string
		plus      bool
		want, bad string
	}{
		{"abc", true, "abc", ""},
		{"a%20b", false, "a b", ""},
		{"a+b", true, "a b", ""},
		{"a+b", false, "a+b", ""},
		{"%2b%2B", true, "++", ""},
		{"%e2%82%ac", false, "€", ""},
		{"%", false, "", "%"},
		{"a%2", false, "", "%2"},
		{"%zz%20", false, "", "%zz"},
		{"%2g", false, "", "%2g"},
	}
	for _, tt := range tests {
		got, bad := unescape(tt.in, tt.plus)
		if got != tt.want || bad != tt.bad {
			t.Errorf("unescape(%q, %v) = %q, %q, want %q, %q", tt.in, tt.plus, got, bad, tt.want, tt.bad)
		}
	}
}
