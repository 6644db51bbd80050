package gen

import (
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/mock/internal/regex"
)

// str makes a string: from the pattern of w's parts, else of the
// format, else realistic for the property name, within the lengths (in
// runes); try counts the attempts for the same want.
func (g *gen) str(w *want, fa *facts, name string, try int) string {
	sp := fa.lengths
	if fa.pattern {
		return g.patterned(w, fa.format, sp)
	}
	var v string
	if fa.format != "" {
		v = byFormat(fa.format, g.f)
	}
	if v == "" {
		v = byName(name, g.f)
	}
	switch {
	case fa.format != "" || try == 0:
	case try%2 == 1:
		// Tried again (a schema the string must not match, say): long,
		// then short.
		sp.min = max(sp.min, 12)
		if sp.max >= 0 {
			sp.min = min(sp.min, sp.max)
		}
	default:
		sp.max = max(sp.min, 1)
	}
	return g.fit(v, fa.format, sp)
}

// fit pads or cuts v to the lengths of sp, in runes, as the padding
// of its format says (see padding).
func (g *gen) fit(v, format string, sp span) string {
	if sp.min == 0 && sp.max < 0 {
		return v
	}
	var pd padding
	if format != "" {
		pd = paddingOf(format)
	}
	n := int64(utf8.RuneCountInString(v))
	if n < sp.min {
		v = pd.pad(v, g.f.LetterN(uint(sp.min-n)))
	}
	if sp.max >= 0 && n > sp.max {
		v = pd.cut(v, sp.max)
	}
	return v
}

// patterned makes a string that matches the pattern of every part that
// has one: made from each pattern in turn, within the lengths, and
// checked against the parts unless it is sure to match. A string not
// known to match (no try did, or no checks were left) sets g.unmatched.
func (g *gen) patterned(w *want, format string, sp span) string {
	var patterns []string
	for p := range w.parts {
		if p.Pattern != "" {
			patterns = append(patterns, p.Pattern)
		}
	}
	sure := len(patterns) == 1 && format == ""
	tries := 6
	if sure {
		tries = 12 // no check to pay for
	}
	if format != "" && g.checks > 0 {
		// A value of the format, where it matches the patterns too (a date
		// and \d{4}-\d{2}-\d{2}): made from the pattern, it would seldom be
		// of the format.
		if v := g.fit(byFormat(format, g.f), format, sp); v != "" && g.matchesAll(w, v) {
			return v
		}
	}
	var v string
	for try := 0; try < tries; try++ {
		re, exact, err := parseRegexp(patterns[try%len(patterns)])
		if err != nil {
			return g.fit(byName("", g.f), format, sp)
		}
		v = g.matching(re, sp.min, sp.max, try)
		if sure && exact && certain(re) {
			if n := int64(utf8.RuneCountInString(v)); n >= sp.min && (sp.max < 0 || n <= sp.max) {
				return v
			}
			continue
		}
		if g.checks <= 0 {
			g.unmatched = true // not checked: not sure
			return v
		}
		if g.matchesAll(w, v) {
			return v
		}
		if start, _ := anchors(re); !start && format != "" && g.checks > 0 {
			// A pattern free at its start, beside a format that the
			// match is not (PeerTube's magnetUri, a uri containing
			// /magnet:\?xt=...): a value of the format in front.
			if c := byFormat(format, g.f) + v; g.matchesAll(w, c) {
				return c
			}
		}
		if !exact {
			if c := g.containing(patterns[try%len(patterns)], v); c != v && g.checks > 0 && g.matchesAll(w, c) {
				return c
			}
		}
	}
	g.unmatched = true // no try matched
	return v
}

// containing writes over the end of v a string of what each lookahead
// at the start of pattern asks for somewhere (regex.Containing), or
// appends them to a v too short: a password's ^(?=.*\d)(?=.*[A-Z]).{8,}$
// made as "abcdefgh" becomes "abcdef7Q".
func (g *gen) containing(pattern, v string) string {
	var want []rune
	for _, src := range regex.Containing(pattern) {
		re, err := syntax.Parse(src, syntax.Perl)
		if err != nil {
			continue
		}
		want = append(want, []rune(g.matching(re, 0, -1, 1))...)
	}
	if len(want) == 0 {
		return v
	}
	rs := []rune(v)
	if len(rs) < len(want) {
		return v + string(want)
	}
	copy(rs[len(rs)-len(want):], want)
	return string(rs)
}

// matchesAll reports whether string v satisfies every part of w with a
// pattern or a format, by the validator.
func (g *gen) matchesAll(w *want, v string) bool {
	g.checks--
	for p := range w.parts {
		if (p.Pattern != "" || p.Format != "") && len(p.Validate(v)) > 0 {
			return false
		}
	}
	return true
}

func byName(name string, f *gofakeit.Faker) string {
	n := strings.ToLower(name)
	switch {
	case n == "email" || strings.HasSuffix(n, "email"):
		return f.Email()
	case n == "username" || n == "login":
		return f.Username()
	case n == "firstname" || n == "first_name":
		return f.FirstName()
	case n == "lastname" || n == "last_name":
		return f.LastName()
	case n == "name" || n == "title":
		return f.AdjectiveDescriptive() + " " + f.Noun()
	case n == "id" || strings.HasSuffix(n, "id") && len(n) > 2:
		return f.UUID()
	case strings.Contains(n, "url") || strings.Contains(n, "href") || strings.Contains(n, "link"):
		return f.URL()
	case strings.Contains(n, "phone"):
		return f.Phone()
	case n == "city":
		return f.City()
	case n == "country":
		return f.Country()
	case strings.Contains(n, "color") || strings.Contains(n, "colour"):
		return f.Color()
	case n == "message" || n == "description" || n == "detail" || n == "summary" || n == "comment":
		return f.Sentence(6)
	}
	return f.Word()
}
