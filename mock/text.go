package mock

import (
	"strconv"

	cliptext "github.com/plantmock/plantmock/internal/clip"
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
