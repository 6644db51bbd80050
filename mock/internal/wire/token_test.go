package wire

import (
	"strings"
	"testing"
)

func TestIsTchar(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			c < 128 && strings.IndexByte("!#$%&'*+-.^_`|~", byte(c)) >= 0
		if got := IsTchar(byte(c)); got != want {
			t.Errorf("IsTchar(%q) = %v, want %v", byte(c), got, want)
		}
	}
}

func TestIsToken(t *testing.T) {
	for s, want := range map[string]bool{"GET": true, "LINK": true, "x-custom!": true, "": false, "GE T": false, "GET/1": false, "ünï": false} {
		if got := IsToken(s); got != want {
			t.Errorf("IsToken(%q) = %v, want %v", s, got, want)
		}
	}
}
