package mock

import (
	"strconv"

	cliptext "github.com/plantmock/plantmock/internal/clip"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// clip shortens s to n bytes for quoting in messages, saying how long it
// was (clip.To).
func clip(s string, n int) string { return cliptext.To(s, n) }

// maxQuotedViolations is how many violations a message, an error body or
// a log line quotes; the rest are counted.
const maxQuotedViolations = 20

// moreViolations says how many of n violations were not quoted, when
// quoted were; unchecked, that there were others not looked for.
func moreViolations(n, quoted int, unchecked bool) string {
	if unchecked {
		return "and more than " + strconv.Itoa(n-quoted) + " more"
	}
	return "and " + strconv.Itoa(n-quoted) + " more"
}

// squash returns s lower case with only its letters and digits, for
// comparing names: "URL_NOT_FOUND" and "urlNotFound" are both
// "urlnotfound", "page_size" and "page-size" "pagesize".
func squash(s string) string { return openapi.Squash(s) }
