package answer

import (
	"strconv"
	"strings"
	"time"

	cliptext "github.com/plantmock/plantmock/internal/clip"

	"github.com/plantmock/plantmock/mock/internal/problem"
)

// Preference is what a Prefer header (RFC 7240) asks of the mock, in the
// words Prism uses: code=400, example=name, dynamic=true, seed=7.
//
// The stream-items, stream-interval, stream-drop, stream-ids and
// stream-done preferences script a streamed answer as a rule's
// respond.stream does (see Stream).
//
// Its small fields come last, in 16 bits where that holds them: the
// preference takes 40 bytes, which holds the exchange at 512.
type Preference struct {
	Example string
	seed    uint64
	// Interval is stream-interval, in milliseconds.
	Interval uint32
	Code     int16
	// Items and Drop are stream-items and stream-drop.
	Items   uint16
	Drop    uint16
	Dynamic bool
	hasSeed bool
	// IDs is stream-ids=true.
	IDs bool
	// Done is stream-done=true: the stream ends with the end marker,
	// data: [DONE]; HasDone says stream-done was given, true or false.
	Done, HasDone bool
}

// MaxPreferInterval is the longest stream-interval a Prefer header may
// ask for, as a rule's delay.
const MaxPreferInterval = 5 * time.Minute

// Usual reports whether the preference leaves the answer as it would be:
// no other status, no example, no generated body. A seed alone still
// seeds what the usual answer generates.
func (p Preference) Usual(success int) bool {
	return (p.Code == 0 || int(p.Code) == success) && p.Example == "" && !p.Dynamic
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
			if known := preferenceNamed(strings.ToLower(strings.TrimSpace(k))); known != nil {
				if pb := known.set(&p, v); pb != nil {
					return p, pb
				}
			}
		}
	}
	return p, nil
}

// preference is one preference plantmock reads: its name, and how its
// value sets a Preference.
type preference struct {
	name string
	set  func(p *Preference, v string) *problem.Problem
}

// preferenceNamed returns the preference of a lower-case name, or nil.
func preferenceNamed(name string) *preference {
	for i := range preferences {
		if preferences[i].name == name {
			return &preferences[i]
		}
	}
	return nil
}

// preferences are the preferences plantmock reads, the one list that
// ParsePrefer and ParsePreferDefault (which refuses other names) go by.
var preferences = []preference{
	{"code", func(p *Preference, v string) *problem.Problem {
		n, err := strconv.Atoi(v)
		if err != nil || n < 100 || n > 599 {
			return problem.Invalid(problem.CodePrefer, problem.ClassRequest, "Prefer: code=%s is not an HTTP status", cliptext.To(v, 20))
		}
		p.Code = int16(n)
		return nil
	}},
	{"example", func(p *Preference, v string) *problem.Problem { p.Example = v; return nil }},
	{"dynamic", func(p *Preference, v string) *problem.Problem { p.Dynamic = strings.EqualFold(v, "true"); return nil }},
	{"seed", func(p *Preference, v string) *problem.Problem {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return problem.Invalid(problem.CodePrefer, problem.ClassRequest, "Prefer: seed=%s is not an integer", cliptext.To(v, 20))
		}
		p.seed, p.hasSeed = uint64(n), true
		return nil
	}},
	// 0 items is no stream: stream-items counts from 1, and
	// stream-drop=0 drops nothing.
	{"stream-items", func(p *Preference, v string) *problem.Problem { return count(&p.Items, "stream-items", v, 1) }},
	{"stream-interval", func(p *Preference, v string) *problem.Problem {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || d > MaxPreferInterval {
			return problem.Invalid(problem.CodePrefer, problem.ClassRequest, "Prefer: stream-interval=%s is not a duration from 0 to %s (200ms, 1s)", cliptext.To(v, 20), MaxPreferInterval)
		}
		p.Interval = uint32(d / time.Millisecond)
		return nil
	}},
	{"stream-drop", func(p *Preference, v string) *problem.Problem { return count(&p.Drop, "stream-drop", v, 0) }},
	{"stream-ids", func(p *Preference, v string) *problem.Problem { p.IDs = strings.EqualFold(v, "true"); return nil }},
	{"stream-done", func(p *Preference, v string) *problem.Problem {
		p.Done, p.HasDone = strings.EqualFold(v, "true"), true
		return nil
	}},
}

// count sets *dst to the count v gives, refused below least or over 65535.
func count(dst *uint16, name, v string, least uint64) *problem.Problem {
	n, err := strconv.ParseUint(v, 10, 16)
	if err != nil || n < least {
		return problem.Invalid(problem.CodePrefer, problem.ClassRequest, "Prefer: %s=%s is not a count from %d to 65535", name, cliptext.To(v, 20), least)
	}
	*dst = uint16(n)
	return nil
}
