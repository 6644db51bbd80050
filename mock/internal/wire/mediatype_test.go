package wire

import "testing"

func TestMatchContentType(t *testing.T) {
	tests := []struct {
		allowed, got string
		want         bool
	}{
		{"image/png", "image/png", true},
		{"image/png", "IMAGE/PNG", true},
		{"image/png, image/jpeg", "image/jpeg", true},
		{"image/png,image/jpeg", "image/gif", false},
		{"image/*", "image/webp", true},
		{"image/*", "text/plain", false},
		{"*/*", "application/x-anything", true},
		{"application/xml; charset=utf-8", "application/xml", true},
		{"application/xml", "application/xml; charset=latin1", true},
		{`text/plain; x="a,b", image/png`, "image/png", true},
		{`text/plain; x="a,b\"c", image/png`, "image/png", true},
		{"image/png", "", false},
		{"image/png", "image", false},
		{"image/png", "image/", false},
		{"", "image/png", false},
		{"image/png, ", "image/png", true},
	}
	for _, tt := range tests {
		if got := MatchContentType(tt.allowed, tt.got); got != tt.want {
			t.Errorf("MatchContentType(%q, %q) = %v, want %v", tt.allowed, tt.got, got, tt.want)
		}
	}
}
