package regex

import "regexp/syntax"

// Least says what every string a pattern matches needs, as far as its
// likeness (Approximate) tells: the fewest code points a match has
// (capped at most), and whether no string matches it at all. Both hold
// for the pattern itself, since its likeness only drops what narrows it
// (lookarounds, backreferences) and lowers no count to zero: a likeness
// that needs n code points, or matches nothing, means the pattern does
// too. ok is false for a pattern no engine reads.
func Least(src string, most int) (shortest int, none bool, ok bool) {
	re2, _, ok := Approximate(src)
	if !ok {
		return 0, false, false
	}
	re, err := syntax.Parse(re2, syntax.Perl)
	if err != nil {
		return 0, false, false
	}
	return Shortest(re, most), Matchless(re), true
}

// Shortest returns the length in code points of the shortest string re
// matches, capped at most.
func Shortest(re *syntax.Regexp, most int) int {
	switch re.Op {
	case syntax.OpLiteral:
		return min(len(re.Rune), most)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return Shortest(re.Sub[0], most)
	case syntax.OpRepeat:
		return min(re.Min*Shortest(re.Sub[0], most), most)
	case syntax.OpConcat:
		n := 0
		for _, s := range re.Sub {
			n = min(n+Shortest(s, most), most)
		}
		return n
	case syntax.OpAlternate:
		n := most
		for _, s := range re.Sub {
			n = min(n, Shortest(s, most))
		}
		return n
	}
	return 0
}

// Matchless reports whether re matches no string because of where its
// anchors stand: in every alternative, $ (the end of the input) comes
// before something that takes a character, or ^ after one. IoT
// Wireless's =\{3,\}$\{1,4096\} (its braces escaped) is one. Anchors
// within groups are not looked into: a pattern it cannot tell of is not
// matchless.
func Matchless(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpNoMatch:
		return true
	case syntax.OpCapture, syntax.OpPlus:
		return Matchless(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min > 0 && Matchless(re.Sub[0])
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			if !Matchless(s) {
				return false
			}
		}
		return true
	case syntax.OpConcat:
		before := 0 // code points needed before the sub looked at
		for _, s := range re.Sub {
			if Matchless(s) || s.Op == syntax.OpBeginText && before > 0 {
				return true
			}
			before += Shortest(s, 1)
		}
		after := 0
		for i := len(re.Sub) - 1; i >= 0; i-- {
			if re.Sub[i].Op == syntax.OpEndText && after > 0 {
				return true
			}
			after += Shortest(re.Sub[i], 1)
		}
	}
	return false
}
