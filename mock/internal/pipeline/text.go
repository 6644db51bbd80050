package pipeline

import (
	cliptext "github.com/plantmock/plantmock/internal/clip"
)

// Clip shortens s to n bytes for quoting in messages, saying how long it
// was (clip.To).
func Clip(s string, n int) string { return cliptext.To(s, n) }
