package problem

import "strconv"

// MaxQuotedViolations is how many violations a message, an error body or
// a log line quotes; the rest are counted.
const MaxQuotedViolations = 20

// MoreViolations says how many of n violations were not quoted, when
// quoted were; unchecked, that there were others not looked for.
func MoreViolations(n, quoted int, unchecked bool) string {
	if unchecked {
		return "and more than " + strconv.Itoa(n-quoted) + " more"
	}
	return "and " + strconv.Itoa(n-quoted) + " more"
}
