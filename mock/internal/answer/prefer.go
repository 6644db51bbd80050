package answer

import (
	"strconv"
	"strings"

	cliptext "github.com/plantmock/plantmock/internal/clip"

	"github.com/plantmock/plantmock/mock/internal/problem"
)

// Preference is what a Prefer header (RFC 7240) asks of the mock, in the
// words Prism uses: code=400, example=name, dynamic=true, seed=7.
//
// Its flags come last: after seed, they take 40 bytes where between the
// other fields they took 48, which held the exchange at 512 bytes.
type Preference struct {
	Code    int
	Example string
	seed    uint64
	Dynamic bool
	hasSeed bool
}

// Usual reports whether the preference leaves the answer as it would be:
// no other status, no example, no generated body. A seed alone still
// seeds what the usual answer generates.
func (p Preference) Usual(success int) bool {
	return (p.Code == 0 || p.Code == success) && p.Example == "" && !p.Dynamic
}

// ParsePrefer reads the preferences plantmock knows; others are ignored,
// as RFC 7240 asks.
func ParsePrefer(values []string) (Preference, *problem.Problem) {
	var p Preference
	for _, line := range values {
		for _, item := range strings.Split(line, ",") {
			pref, _, _ := strings.Cut(item, ";")
			k, v, _ := strings.Cut(strings.TrimSpace(pref), "=")
			v = strings.Trim(strings.TrimSpace(v), `"`)
			switch strings.ToLower(strings.TrimSpace(k)) {
			case "code":
				n, err := strconv.Atoi(v)
				if err != nil || n < 100 || n > 599 {
					return p, problem.Invalid(problem.CodePrefer, problem.ClassRequest, "Prefer: code=%s is not an HTTP status", cliptext.To(v, 20))
				}
				p.Code = n
			case "example":
				p.Example = v
			case "dynamic":
				p.Dynamic = strings.EqualFold(v, "true")
			case "seed":
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					return p, problem.Invalid(problem.CodePrefer, problem.ClassRequest, "Prefer: seed=%s is not an integer", cliptext.To(v, 20))
				}
				p.seed, p.hasSeed = uint64(n), true
			}
		}
	}
	return p, nil
}
