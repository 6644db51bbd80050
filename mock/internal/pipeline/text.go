package pipeline

import (
	cliptext "github.com/plantmock/plantmock/internal/clip"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Clip shortens s to n bytes for quoting in messages, saying how long it
// was (clip.To).
func Clip(s string, n int) string { return cliptext.To(s, n) }

// squash returns s lower case with only its letters and digits, for
// comparing names: "URL_NOT_FOUND" and "urlNotFound" are both
// "urlnotfound", "page_size" and "page-size" "pagesize".
func squash(s string) string { return openapi.Squash(s) }
