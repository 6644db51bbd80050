package wire

import "testing"

func TestContentMode(t *testing.T) {
	tests := []struct {
		mediaType string
		want      mode
	}{
		{"application/json", modeJSON},
		{"Application/JSON; charset=utf-8", modeJSON},
		{"application/problem+json", modeJSON},
		{"application/json-seq", modeRaw},
		{"text/plain", modeText},
		{" text/plain ; charset=us-ascii", modeText},
		{"text/csv", modeRaw},
		{"application/octet-stream", modeRaw},
		{"", modeRaw},
	}
	for _, tt := range tests {
		if got := contentMode(tt.mediaType); got != tt.want {
			t.Errorf("contentMode(%q) = %v, want %v", tt.mediaType, got, tt.want)
		}
	}
}

func TestParseStyle(t *testing.T) {
	for i, name := range styleNames {
		if st, ok := parseStyle(name); !ok || st != style(i) {
			t.Errorf("parseStyle(%q) = %v, %v", name, st, ok)
		}
	}
	if _, ok := parseStyle("Form"); ok {
		t.Error("styles are case-sensitive")
	}
}
