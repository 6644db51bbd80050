package gen

import (
	"fmt"
	"slices"

	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/regex"
)

// unmatchedTries is how many seeds Unmatched makes a value with before it
// says none matches.
const unmatchedTries = 5

// Unmatched returns a line for each string schema of roots, or reached
// from them, whose pattern no string could be made for: one that RE2
// cannot say (a lookaround or a backreference that generation does not
// satisfy by construction), no valid example, and no value of
// unmatchedTries seeds that the validator accepts. Answers that need such
// a value carry the closest made, as they would without the line; it says
// so once, at load. Lines are in pointer order. A pattern the loader can
// tell no valid string matches (one longer than its maxLength, one whose
// $ comes before what it requires) is a mistake of the document, left
// out of its schema before this looks (see openapi's hopelessPattern).
//
// Only patterns of the backtracking engine, and those with an anchor or
// word boundary inside that making ignores, are tried, and few documents
// have them: GitHub's REST description has none.
func Unmatched(roots []*openapi.Schema) []string {
	var lines []string
	reachable(roots, func(s *openapi.Schema) {
		if s.Pattern == "" || len(s.Types) > 0 && !slices.Contains(s.Types, "string") {
			return
		}
		re, exact, perr := parseRegexp(s.Pattern)
		if p, err := regex.Compile(s.Pattern); err != nil || perr == nil && !p.Backtracks() && exact && certain(re) {
			// RE2's, made by construction; or ignored, with a caveat of
			// the loader. One with an anchor or word boundary inside is
			// tried.
			return
		}
		if _, ok := s.GoodExample(); ok {
			return
		}
		for seed := uint64(1); seed <= unmatchedTries; seed++ {
			if len(s.Validate(Value(s, Faker(seed, 0)))) == 0 {
				return
			}
		}
		lines = append(lines, fmt.Sprintf("%s: no string matching the pattern %s could be made (%d tries): an answer that needs one carries the closest string made; an example in the schema would be used", s.Where(), s.Pattern, unmatchedTries))
	})
	slices.Sort(lines)
	return lines
}
