package pipeline

import (
	"strconv"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/problem"
)

// preference is what a Prefer header (RFC 7240) asks of the mock, in the
// words Prism uses: code=400, example=name, dynamic=true, seed=7.
//
// Its flags come last: after seed, they take 40 bytes where between the
// other fields they took 48, which held the exchange at 512 bytes.
type preference struct {
	code    int
	example string
	seed    uint64
	dynamic bool
	hasSeed bool
}

// usual reports whether the preference leaves the answer as it would be:
// no other status, no example, no generated body. A seed alone still
// seeds what the usual answer generates.
func (p preference) usual(success int) bool {
	return (p.code == 0 || p.code == success) && p.example == "" && !p.dynamic
}

// parsePrefer reads the preferences plantmock knows; others are ignored,
// as RFC 7240 asks.
func parsePrefer(values []string) (preference, *problem.Problem) {
	var p preference
	for _, line := range values {
		for _, item := range strings.Split(line, ",") {
			pref, _, _ := strings.Cut(item, ";")
			k, v, _ := strings.Cut(strings.TrimSpace(pref), "=")
			v = strings.Trim(strings.TrimSpace(v), `"`)
			switch strings.ToLower(strings.TrimSpace(k)) {
			case "code":
				n, err := strconv.Atoi(v)
				if err != nil || n < 100 || n > 599 {
					return p, problem.Invalid(problem.CodePrefer, problem.ClassRequest, "Prefer: code=%s is not an HTTP status", Clip(v, 20))
				}
				p.code = n
			case "example":
				p.example = v
			case "dynamic":
				p.dynamic = strings.EqualFold(v, "true")
			case "seed":
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					return p, problem.Invalid(problem.CodePrefer, problem.ClassRequest, "Prefer: seed=%s is not an integer", Clip(v, 20))
				}
				p.seed, p.hasSeed = uint64(n), true
			}
		}
	}
	return p, nil
}
