// Package regex compiles the regular expressions of JSON Schema (pattern
// and patternProperties) as ECMA-262 reads them, and bounds what matching
// them costs. A pattern RE2 can say with the same meaning is matched by
// Go's regexp, which runs in time linear in its input; any other by
// regexp2's ECMAScript mode, a backtracking engine, within MatchTimeout
// and on inputs of at most MaxInput code points. Everything that compiles
// or matches a schema's pattern (the validator, the request fast path,
// generation) goes through here.
package regex

import (
	"errors"
	"fmt"
	"hash/maphash"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
)

// The bound of a match by the backtracking engine. A catastrophic pattern
// whose hostile strings its superset (Widen) takes (^(\w+\s?)+(?<!\s)$
// against "aaaa… ") is stopped after about MatchTimeout: the
// "superset takes" cases of BenchmarkHostileBody in package mock measure
// what one request that hits it costs: 3.3 to 3.5 ms of CPU on a busy
// 2-core machine (docs/security.md).
// regexp2 reads its deadline off a clock of ticks of 1.05 ms, so a
// timeout of 1 ms could end a match at once, before the next tick; at
// 3 ms a match gets 2.1-3.2 ms, which no ordinary match comes near.
// MaxInput keeps a match's input (which the engine copies into runes)
// small, and a linear pattern's match well inside the timeout: the
// lookbehind pattern ^[0-9A-Za-z\.\-_]*(?<!\.)$ takes 0.1 ms on 4,096
// code points.
const (
	MatchTimeout = 3 * time.Millisecond
	MaxInput     = 4096
)

// clockPeriod is how often regexp2's clock ticks while a match with a
// timeout runs. Its default, 100 ms, would let a match run 30 times
// MatchTimeout. The clock's goroutine runs only while a match with a
// deadline is live.
const clockPeriod = time.Millisecond

func init() {
	// regexp2's clock is the library's own setting, the same for every
	// use; it must be set before any match starts.
	regexp2.SetTimeoutCheckPeriod(clockPeriod)
}

// Verdict is what matching a string against a pattern found.
type Verdict uint8

// The verdicts of Match.
const (
	NoMatch Verdict = iota
	Matched
	// TooLong: the input is over MaxInput code points, and the pattern
	// needs the backtracking engine; it was not matched.
	TooLong
	// TimedOut: the match ran out of MatchTimeout.
	TimedOut
	// TooDeep: the match needed more backtracking than regexp2's stack
	// limit allows.
	TooDeep
	// Skipped: the caller did not match, an earlier string of the same
	// value having taken the time it may spend on patterns.
	Skipped
)

// Decided reports whether v says whether the string matches.
func (v Verdict) Decided() bool { return v == Matched || v == NoMatch }

// Pattern is a compiled ECMA-262 regular expression. It is safe for
// concurrent use.
type Pattern struct {
	src string
	re2 *regexp.Regexp // when RE2 means the same
	// dotted is re2 with RE2's . for ECMAScript's, for inputs without
	// \r, U+2028 and U+2029, on which they agree; nil without a . in the
	// pattern. It buys back what the class costs: ^.{1,64}$ on 44
	// characters took 560-640 ns with the class, 460 ns so, and 440 ns by
	// Go's regexp on the pattern as written (BenchmarkMatch/dot).
	dotted *regexp.Regexp
	// lo, hi bound the input's code points, with re2 (hi -1: no bound).
	lo, hi int
	bt     *regexp2.Regexp // otherwise: the backtracking engine
	// wide is a superset of bt's pattern in RE2 (Widen), or nil: a
	// string it refuses is refused without backtracking. It decides the
	// hostile strings of a catastrophic pattern, such as ^(?=a)(a+)+$
	// against "aaaa…!", in linear time: BenchmarkHostileBody's cases
	// that hit it went from 3.4 ms of CPU each (the match's bound) to
	// microseconds, and are answered as not matching, not undecided.
	wide *regexp.Regexp

	// recent remembers the inputs the backtracking engine could not
	// decide lately, by hash, so that the message of a violation can say
	// so (the validator reports only that a string did not match).
	mu     sync.Mutex // guards recent and next
	recent [16]undecided
	next   int
	seed   maphash.Seed
}

// Compile compiles src as an ECMA-262 regular expression. A pattern that
// is not valid with the u flag is read as ECMAScript reads it without
// (Annex B: \- and \_ are the characters themselves), unless it uses \p or
// \P, which without the flag mean the letters p and P, surely not what
// was meant.
func Compile(src string) (*Pattern, error) {
	p := &Pattern{src: src, hi: -1, seed: maphash.MakeSeed()}
	if t, ok := translate(src, false); ok {
		if re, err := regexp.Compile(t.re2); err == nil {
			p.re2, p.lo, p.hi = re, t.lo, t.hi
			if t.dotted != "" {
				p.dotted = regexp.MustCompile(t.dotted)
			}
			return p, nil
		}
	}
	bt, err := regexp2.Compile(src, regexp2.ECMAScript|regexp2.Unicode)
	if err == nil {
		// Widen reads src with the u flag, as bt was just compiled.
		if w, ok := Widen(src); ok {
			p.wide, _ = regexp.Compile(w)
		}
	} else if !strings.Contains(src, `\p`) && !strings.Contains(src, `\P`) {
		bt, err = regexp2.Compile(src, regexp2.ECMAScript)
	}
	if err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	bt.MatchTimeout = MatchTimeout
	p.bt = bt
	return p, nil
}

// String returns the pattern as written.
func (p *Pattern) String() string { return p.src }

// Backtracks reports whether the pattern needs the backtracking engine.
func (p *Pattern) Backtracks() bool { return p.bt != nil }

// MatchString reports whether s contains a match; a string it cannot
// decide within the bound does not match.
func (p *Pattern) MatchString(s string) bool { return p.Match(s) == Matched }

// Match reports whether s contains a match, or why it could not tell.
func (p *Pattern) Match(s string) Verdict {
	if p.re2 != nil {
		if p.hi >= 0 || p.lo > 0 {
			n := utf8.RuneCountInString(s)
			if n < p.lo || p.hi >= 0 && n > p.hi {
				return NoMatch
			}
		}
		re := p.re2
		if p.dotted != nil && !terminators(s) {
			re = p.dotted
		}
		if re.MatchString(s) {
			return Matched
		}
		return NoMatch
	}
	if p.wide != nil && !p.wide.MatchString(s) {
		return NoMatch
	}
	if len(s) > MaxInput && utf8.RuneCountInString(s) > MaxInput {
		p.remember(s, TooLong)
		return TooLong
	}
	return p.backtrack(s)
}

// backtrack matches s with the backtracking engine, within MatchTimeout
// of the CPU time the match itself spends.
//
// regexp2's deadline is on the wall clock, and read off a clock that
// lags when its goroutine waits for a CPU: on a busy machine, a garbage
// collection or another process can take a benign match of 300 ns past
// it (TestKeywords under -race saw an 8-character string against a
// backreference pattern time out). So the goroutine is held on its
// thread while it matches, and a match that times out having spent less
// than half of MatchTimeout of that thread's CPU time is run again, up
// to maxStarved of wall time: a catastrophic match is stopped once, by
// the CPU it used, not by what else the machine did. Where a thread's CPU
// time cannot be read, a timeout after half of MatchTimeout on the wall
// clock is taken as final, as regexp2 has it.
func (p *Pattern) backtrack(s string) Verdict {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0, measured := threadCPU()
	start := time.Now()
	for {
		ok, err := p.bt.MatchString(s)
		switch {
		case err == nil && ok:
			return Matched
		case err == nil:
			return NoMatch
		case errors.Is(err, regexp2.ErrBacktrackingStackLimit):
			p.remember(s, TooDeep)
			return TooDeep
		}
		wall := time.Since(start)
		spent := wall
		if cpu, ok := threadCPU(); measured && ok {
			spent = time.Duration(cpu - cpu0)
		}
		if spent >= MatchTimeout/2 || wall >= maxStarved {
			p.remember(s, TimedOut)
			return TimedOut
		}
		// The deadline came before the match had its time: match again.
	}
}

// maxStarved is how long, on the wall clock, a match that keeps timing
// out without spending its CPU time is tried again before it is given
// up as undecided: a machine that busy answers late anyway.
const maxStarved = 100 * MatchTimeout

// undecided is a string Match could not decide, by hash, and why.
type undecided struct {
	h uint64
	v Verdict
}

// terminators reports whether s has a line terminator other than \n:
// \r, U+2028 or U+2029 (E2 80 A8 and E2 80 A9 in UTF-8). It looks for
// the bytes \r and E2 first, which strings.IndexByte finds fast:
// strings.ContainsAny with the three took 200 ns on 44 characters.
func terminators(s string) bool {
	if strings.IndexByte(s, '\r') >= 0 {
		return true
	}
	if strings.IndexByte(s, 0xE2) < 0 {
		return false
	}
	return strings.Contains(s, "\u2028") || strings.Contains(s, "\u2029")
}

func (p *Pattern) remember(s string, v Verdict) {
	h := maphash.String(p.seed, s)
	p.mu.Lock()
	p.recent[p.next] = undecided{h, v}
	p.next = (p.next + 1) % len(p.recent)
	p.mu.Unlock()
}

// Undecided returns the verdict Match lately gave s when it could not
// decide it (TooLong, TimedOut or TooDeep), so that a caller that matched
// s once need not again; ok is false when it did not, or does not
// remember.
func (p *Pattern) Undecided(s string) (v Verdict, ok bool) {
	if p.bt == nil {
		return NoMatch, false
	}
	h := maphash.String(p.seed, s)
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, u := range p.recent {
		if u.h == h && u.v != NoMatch {
			return u.v, true
		}
	}
	return NoMatch, false
}

// Reason says why a string was not matched against pattern src, for a
// verdict that is not Matched.
func Reason(src string, v Verdict) string {
	switch v {
	case TooLong:
		return fmt.Sprintf("is longer than %d characters, the most the pattern %s is matched against (it needs a backtracking engine)", MaxInput, src)
	case TimedOut:
		return fmt.Sprintf("could not be matched against the pattern %s within %s", src, MatchTimeout)
	case TooDeep:
		return fmt.Sprintf("could not be matched against the pattern %s: it needs more backtracking than a match may do", src)
	case Skipped:
		return fmt.Sprintf("was not matched against the pattern %s: an earlier string of the value took the time a value may spend on patterns", src)
	}
	return "does not match the pattern " + src
}

// Approximate returns a pattern in RE2's syntax whose strings are like
// src's, for generation: exact when every string it matches, src matches
// too; otherwise lookarounds and backreferences are
// dropped and counts over 1,000 lowered, and what it makes must be
// checked against src. It fails only for what no engine reads (an
// unterminated class, say).
func Approximate(src string) (re2 string, exact bool, ok bool) {
	t, ok := translate(src, true)
	if !ok {
		return "", false, false
	}
	if t.lo > 0 || t.hi >= 0 {
		// ^A*$ with a count of code points: A{lo,hi} as far as RE2 can
		// count.
		atom := strings.TrimSuffix(strings.TrimPrefix(t.re2, "^(?:"), ")*$")
		hi := maxRE2Count
		if t.hi >= 0 {
			hi = min(t.hi, maxRE2Count)
		}
		return fmt.Sprintf("^(?:%s){%d,%d}$", atom, min(t.lo, maxRE2Count), hi), t.lo <= maxRE2Count, true
	}
	return t.re2, t.exact, true
}
