package gen

import (
	"errors"
	"regexp/syntax"
	"unicode/utf8"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/mock/internal/regex"
)

// maxRegexRunes bounds the strings made from a pattern.
const maxRegexRunes = 4096

// parseRegexp parses a pattern for making strings: as package regex
// writes it in RE2's syntax. exact is false when that is only like the
// pattern (its lookarounds and backreferences dropped, say): what is made
// from it must then be checked against the pattern.
func parseRegexp(pattern string) (re *syntax.Regexp, exact bool, err error) {
	src, exact, ok := regex.Approximate(pattern)
	if !ok {
		return nil, false, errors.New("no engine reads the pattern")
	}
	re, err = syntax.Parse(src, syntax.Perl)
	return re, exact, err
}

// certain reports whether every string matching makes from re matches
// re: true unless re has assertions that making ignores (word
// boundaries, or anchors anywhere but at its start and end).
func certain(re *syntax.Regexp) bool {
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	for i, s := range subs {
		switch s.Op {
		case syntax.OpBeginLine, syntax.OpBeginText:
			if i != 0 {
				return false
			}
			continue
		case syntax.OpEndLine, syntax.OpEndText:
			if i != len(subs)-1 {
				return false
			}
			continue
		}
		if !plain(s) {
			return false
		}
	}
	return true
}

// plain reports whether re has no assertions.
func plain(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpNoMatch:
		return false
	}
	for _, s := range re.Sub {
		if !plain(s) {
			return false
		}
	}
	return true
}

// anchors reports whether re is anchored at its start and at its end;
// where it is not, a string that contains a match matches.
func anchors(re *syntax.Regexp) (start, end bool) {
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat && len(re.Sub) > 0 {
		subs = re.Sub
	}
	switch subs[0].Op {
	case syntax.OpBeginLine, syntax.OpBeginText:
		start = true
	}
	switch subs[len(subs)-1].Op {
	case syntax.OpEndLine, syntax.OpEndText:
		end = true
	}
	return start, end
}

// matching makes a string that matches re, of minLen to maxLen runes
// (maxLen -1: any) where it can: repetitions are a few on the first try,
// as few as can be on the second, and as many as reach minLen on the
// third; a pattern not anchored at an end is padded there with letters to
// reach minLen.
func (g *gen) matching(re *syntax.Regexp, minLen, maxLen int64, try int) string {
	m := regexMaker{f: g.f, mode: try % 3, need: int(minLen), most: int(maxLen)}
	m.emit(re)
	out := string(m.out)
	n := int64(len(m.out))
	if n < minLen {
		start, end := anchors(re)
		switch {
		case !end:
			out += g.f.LetterN(uint(minLen - n))
		case !start:
			out = g.f.LetterN(uint(minLen-n)) + out
		}
	}
	return out
}

// regexMaker writes a string that matches a regular expression.
type regexMaker struct {
	f    *gofakeit.Faker
	mode int // 0 few repetitions, 1 fewest, 2 many
	need int // the length wanted at least
	most int // the length wanted at most; -1 any
	out  []rune
}

func (m *regexMaker) emit(re *syntax.Regexp) {
	if len(m.out) > maxRegexRunes {
		return
	}
	switch re.Op {
	case syntax.OpLiteral:
		m.out = append(m.out, re.Rune...)
	case syntax.OpCharClass:
		m.out = append(m.out, m.pickRune(re.Rune))
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		m.out = append(m.out, rune('a'+m.f.Number(0, 25)))
	case syntax.OpCapture:
		m.emit(re.Sub[0])
	case syntax.OpStar:
		m.repeat(re.Sub[0], 0, -1)
	case syntax.OpPlus:
		m.repeat(re.Sub[0], 1, -1)
	case syntax.OpQuest:
		m.repeat(re.Sub[0], 0, 1)
	case syntax.OpRepeat:
		m.repeat(re.Sub[0], re.Min, re.Max)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			m.emit(s)
		}
	case syntax.OpAlternate:
		if m.mode == 1 {
			m.emit(shortestOf(re.Sub))
			return
		}
		m.emit(re.Sub[m.f.Number(0, len(re.Sub)-1)])
	}
	// Empty matches and assertions write nothing.
}

// repeat writes sub between lo and hi times (hi -1: no bound): a few
// more than lo, lo, or as many as reach the length wanted; never so
// many that they pass the length wanted at most, where lo allows.
func (m *regexMaker) repeat(sub *syntax.Regexp, lo, hi int) {
	n := lo
	if m.mode != 1 {
		n += m.f.Number(0, 2)
	}
	each := max(1, shortest(sub))
	for i := 0; hi < 0 || i < hi; i++ {
		if len(m.out) > maxRegexRunes {
			return
		}
		if i >= lo {
			if m.most >= 0 && len(m.out)+each > m.most {
				return
			}
			if i >= n && (m.mode != 2 || len(m.out) >= m.need) {
				return
			}
		}
		m.emit(sub)
	}
}

// shortestOf returns the alternative of the shortest strings.
func shortestOf(subs []*syntax.Regexp) *syntax.Regexp {
	best := subs[0]
	for _, s := range subs[1:] {
		if shortest(s) < shortest(best) {
			best = s
		}
	}
	return best
}

// shortest returns the length of the shortest string re matches (at most
// maxRegexRunes).
func shortest(re *syntax.Regexp) int { return regex.Shortest(re, maxRegexRunes) }

// preferred are the runes a class is drawn from first, where it has them:
// lower-case letters, then digits and upper-case letters, then printable
// ASCII.
var preferred = [][2]rune{{'a', 'z'}, {'0', '9'}, {'A', 'Z'}, {'!', '~'}}

// pickRune returns a rune of the class given as range pairs.
func (m *regexMaker) pickRune(ranges []rune) rune {
	if len(ranges) == 0 {
		return 'x'
	}
	for _, p := range preferred {
		n := 0
		for i := 0; i+1 < len(ranges); i += 2 {
			lo, hi := max(ranges[i], p[0]), min(ranges[i+1], p[1])
			if lo <= hi {
				n += int(hi-lo) + 1
			}
		}
		if n == 0 {
			continue
		}
		k := m.f.Number(0, n-1)
		for i := 0; i+1 < len(ranges); i += 2 {
			lo, hi := max(ranges[i], p[0]), min(ranges[i+1], p[1])
			if lo > hi {
				continue
			}
			if k <= int(hi-lo) {
				return lo + rune(k)
			}
			k -= int(hi-lo) + 1
		}
	}
	r := ranges[0]
	if !utf8.ValidRune(r) {
		return 'x'
	}
	return r
}
