package regex

import (
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A pattern is read as ECMA-262 reads it with the u flag (code points,
// as JSON Schema's test suite and ajv read it), and handed to Go's RE2 when
// translate can write it in RE2's syntax with the same meaning. What it
// decided, construct by construct:
//
//   - Literals, escaped punctuation, classes and ranges, groups (?:) and
//     (?<name>), alternation, * + ? {n} {n,} {n,m} (lazy or not, which
//     does not change whether a string matches) mean the same in both.
//   - ^ and $ without the m flag are the start and end of the input in
//     both: neither lets $ match before a final newline.
//   - \d \w \b \B are ASCII in both ([0-9], [0-9A-Za-z_]).
//   - \s is not: RE2's is [\t\n\f\r ], ECMAScript's adds \v, U+00A0,
//     U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000 and
//     U+FEFF. It is written out as that class; \S inside a class, which a
//     class cannot say, goes to the backtracking engine.
//   - . is not: RE2's excludes \n only, ECMAScript's \n, \r, U+2028 and
//     U+2029. It is written out as the class.
//   - \uXXXX, \u{X} and \cX are written as RE2's \x{X}; a surrogate
//     (\uD83D\uDE00, a pair) goes to the backtracking engine.
//   - Repetition counts over 1,000, which RE2 refuses: a whole pattern
//     that is one character's class repeated (^.{0,262144}$,
//     ^[a-zA-Z0-9]{0,4096}$) is RE2's ^A*$ and a count of the input's code
//     points; unanchored at an end (\S{1,8192}), the upper count cannot
//     change whether a string matches, and A{n} is the same. Any other
//     goes to the backtracking engine.
//   - Lookarounds, backreferences, \p{...} (whose names differ between
//     the two), and any escape or group RE2 reads differently (\A, \z,
//     \Q, (?i), (?P<), [[:alpha:]]) go to the backtracking engine, whose
//     ECMAScript mode reads them as ECMAScript does (or refuses them).

// sClass is ECMAScript's \s (WhiteSpace and LineTerminator), as the
// ranges of an RE2 class.
const sClass = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// dotClass is ECMAScript's . without the s flag, as an RE2 class.
const dotClass = `[^\n\r\x{2028}\x{2029}]`

// maxRE2Count is the largest repetition count RE2 accepts.
const maxRE2Count = 1000

// translation is a pattern written in RE2's syntax.
type translation struct {
	re2 string
	// exact is false when the RE2 pattern is only like the original (for
	// generation): lookarounds and backreferences dropped, lower counts
	// over 1,000 lowered. Upper counts lowered keep it exact in the sense
	// generation needs: every string it matches, the original matches.
	exact bool
	// lo, hi bound the input's code points when the pattern was one
	// class repeated, anchored at both ends (hi -1: no bound).
	lo, hi int
	// dotted is re2 with RE2's own . (any character but \n) for
	// ECMAScript's, for inputs without \r, U+2028 and U+2029, where the
	// two agree; "" when the pattern has no . outside a class.
	dotted string
}

// translate writes src in RE2's syntax. With approx false, ok is false
// when some construct cannot be written with the same meaning; with
// approx true, such constructs are dropped or lowered and the result is
// marked inexact, for generation.
func translate(src string, approx bool) (translation, bool) {
	if t, ok := repeatedClass(src); ok {
		return t, true
	}
	w := writer{src: src, approx: approx, exact: true}
	if !w.run() {
		return translation{}, false
	}
	t := translation{re2: w.out.String(), exact: w.exact, lo: 0, hi: -1}
	if w.dots {
		d := writer{src: src, approx: approx, exact: true, anyDot: true}
		d.run()
		t.dotted = d.out.String()
	}
	return t, true
}

// Widen writes in RE2's syntax a pattern that matches every string src
// matches, as ECMA-262 reads src with the u flag, and maybe more:
// lookarounds are dropped, a backreference matches any string, and a
// count over RE2's 1,000 becomes at least 1,000 (or its own lower count)
// with no most. ok is false for any other construct RE2 cannot say with
// the same meaning. A string it does not match, src does not match
// either, which RE2 tells in time linear in the string.
func Widen(src string) (re2 string, ok bool) {
	w := writer{src: src, wide: true, exact: true}
	if !w.run() {
		return "", false
	}
	return w.out.String(), true
}

// repeatedClass translates a pattern that is a single character's class
// repeated with counts over RE2's limit, optionally anchored.
func repeatedClass(src string) (translation, bool) {
	body := src
	start := strings.HasPrefix(body, "^")
	if start {
		body = body[1:]
	}
	end := strings.HasSuffix(body, "$") && !escapedAt(body, len(body)-1)
	if end {
		body = body[:len(body)-1]
	}
	i := strings.LastIndexByte(body, '{')
	if i <= 0 || !strings.HasSuffix(body, "}") && !strings.HasSuffix(body, "}?") {
		return translation{}, false
	}
	q := strings.TrimSuffix(body[i:], "?")
	lo, hi, ok := counts(q)
	if !ok || lo <= maxRE2Count && hi <= maxRE2Count {
		return translation{}, false
	}
	w := writer{src: body[:i], exact: true}
	if !w.run() {
		return translation{}, false
	}
	atom := w.out.String()
	if w.dots {
		atom = "."
	}
	re, err := syntax.Parse(atom, syntax.Perl)
	if err != nil {
		return translation{}, false
	}
	switch {
	case re.Op == syntax.OpLiteral && len(re.Rune) == 1, re.Op == syntax.OpCharClass,
		re.Op == syntax.OpAnyChar, re.Op == syntax.OpAnyCharNotNL:
	default:
		return translation{}, false
	}
	if start && end {
		if atom == "." {
			return translation{re2: `^(?:` + dotClass + `)*$`, dotted: `^(?:.)*$`, exact: true, lo: lo, hi: hi}, true
		}
		return translation{re2: `^(?:` + atom + `)*$`, exact: true, lo: lo, hi: hi}, true
	}
	if atom == "." {
		atom = dotClass
	}
	if lo > maxRE2Count {
		return translation{}, false
	}
	// A run of at least lo at the anchored end, or anywhere, is all a
	// search needs.
	out := "(?:" + atom + "){" + strconv.Itoa(lo) + "}"
	if start {
		out = "^" + out
	}
	if end {
		out += "$"
	}
	return translation{re2: out, exact: true, lo: 0, hi: -1}, true
}

// escapedAt reports whether the byte at i of s is escaped by a backslash.
func escapedAt(s string, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// counts parses a quantifier {n}, {n,} or {n,m}; hi is -1 for none.
func counts(q string) (lo, hi int, ok bool) {
	if len(q) < 3 || q[0] != '{' || q[len(q)-1] != '}' {
		return 0, 0, false
	}
	a, b, comma := strings.Cut(q[1:len(q)-1], ",")
	lo, ok = number(a)
	if !ok {
		return 0, 0, false
	}
	if !comma {
		return lo, lo, true
	}
	if b == "" {
		return lo, -1, true
	}
	hi, ok = number(b)
	if !ok || hi < lo {
		return 0, 0, false
	}
	return lo, hi, true
}

// number parses a count of decimal digits, refusing ones past a million
// million (no string is that long).
func number(s string) (int, bool) {
	if s == "" || len(s) > 12 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// writer translates a pattern construct by construct.
type writer struct {
	src    string
	i      int
	out    strings.Builder
	approx bool
	// wide writes a superset of the pattern (see Widen): lookarounds
	// dropped, backreferences as any string, counts over 1,000 widened.
	wide  bool
	exact bool
	// dots is set when a . was written; anyDot writes RE2's . for it.
	dots, anyDot bool
}

// bail gives up on a construct: a failure, or in approx mode an
// inexact result; it reports whether to go on.
func (w *writer) bail() bool {
	w.exact = false
	return w.approx
}

// widen gives up on a construct that a superset can drop or widen: in
// approx mode as bail does, and in wide mode; it reports whether to go
// on.
func (w *writer) widen() bool {
	w.exact = false
	return w.approx || w.wide
}

// anyString is what wide mode writes for a backreference: any string.
const anyString = `(?:[\x00-\x{10FFFF}]*)`

func (w *writer) run() bool {
	for w.i < len(w.src) {
		if !w.step() {
			return false
		}
	}
	return true
}

// next returns the rune at w.i and moves past it.
func (w *writer) next() rune {
	r, n := utf8.DecodeRuneInString(w.src[w.i:])
	w.i += n
	return r
}

func (w *writer) peek(s string) bool { return strings.HasPrefix(w.src[w.i:], s) }

// step translates one construct outside a class.
func (w *writer) step() bool {
	r := w.next()
	switch r {
	case '\\':
		return w.escape(false)
	case '.':
		w.dots = true
		if w.anyDot {
			w.out.WriteByte('.')
		} else {
			w.out.WriteString(dotClass)
		}
	case '[':
		return w.class()
	case '(':
		return w.group()
	case '{':
		return w.quantifier()
	case '}', ']':
		if !w.bail() {
			return false
		}
		w.out.WriteString(`\` + string(r))
	default:
		w.out.WriteRune(r)
	}
	return true
}

// group translates the opening of a group.
func (w *writer) group() bool {
	switch {
	case !w.peek("?"):
		w.out.WriteByte('(')
	case w.peek("?:"):
		w.i += 2
		w.out.WriteString("(?:")
	case w.peek("?=") || w.peek("?!") || w.peek("?<=") || w.peek("?<!"):
		if !w.widen() {
			return false
		}
		w.skipGroup()
	case w.peek("?<"):
		w.out.WriteString("(")
	default:
		return w.bail() && w.skipGroup()
	}
	return true
}

// skipGroup moves past the rest of the group whose ( was just read, and
// the quantifier after it, writing nothing: a lookaround dropped.
func (w *writer) skipGroup() bool {
	depth, inClass := 1, false
	for w.i < len(w.src) && depth > 0 {
		switch w.next() {
		case '\\':
			if w.i < len(w.src) {
				w.next()
			}
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '(':
			if !inClass {
				depth++
			}
		case ')':
			if !inClass {
				depth--
			}
		}
	}
	for w.i < len(w.src) && strings.ContainsRune("*+?", rune(w.src[w.i])) {
		w.i++
	}
	if w.peek("{") {
		if j := strings.IndexByte(w.src[w.i:], '}'); j > 0 {
			if _, _, ok := counts(w.src[w.i : w.i+j+1]); ok {
				w.i += j + 1
			}
		}
	}
	return true
}

// quantifier translates a { that was just read: a count, or (a literal
// brace in ECMAScript without the u flag) not.
func (w *writer) quantifier() bool {
	j := strings.IndexByte(w.src[w.i:], '}')
	if j < 0 {
		if !w.bail() {
			return false
		}
		w.out.WriteString(`\{`)
		return true
	}
	q := w.src[w.i-1 : w.i+j+1]
	lo, hi, ok := counts(q)
	if !ok {
		if !w.bail() {
			return false
		}
		w.out.WriteString(`\{`)
		return true
	}
	w.i += j + 1
	if lo > maxRE2Count || hi > maxRE2Count {
		if w.wide {
			// A superset: at most 1,000 at least, and no most.
			w.exact = false
			q = "{" + strconv.Itoa(min(lo, maxRE2Count)) + ",}"
			w.out.WriteString(q)
			return true
		}
		// Lowering the upper count keeps the strings made a subset of
		// the pattern's; lowering the lower one does not.
		if !w.approx {
			return false
		}
		w.exact = w.exact && lo <= maxRE2Count
		lo, hi = min(lo, maxRE2Count), min(hi, maxRE2Count)
		q = "{" + strconv.Itoa(lo) + "," + strconv.Itoa(hi) + "}"
		if hi < 0 {
			q = "{" + strconv.Itoa(lo) + ",}"
		}
	}
	w.out.WriteString(q)
	return true
}

// class translates a class whose [ was just read.
func (w *writer) class() bool {
	switch {
	case w.peek("]"):
		// [] matches nothing.
		w.i++
		w.out.WriteString(`[^\x00-\x{10FFFF}]`)
		return true
	case w.peek("^]"):
		// [^] matches anything.
		w.i += 2
		w.out.WriteString(`[\x00-\x{10FFFF}]`)
		return true
	}
	w.out.WriteByte('[')
	if w.peek("^") {
		w.i++
		w.out.WriteByte('^')
	}
	for w.i < len(w.src) {
		r := w.next()
		switch r {
		case ']':
			w.out.WriteByte(']')
			return true
		case '\\':
			if !w.escape(true) {
				return false
			}
		case '[':
			w.out.WriteString(`\[`)
		default:
			w.out.WriteRune(r)
		}
	}
	return false // unterminated: no engine reads it
}

// escape translates an escape whose \ was just read, in a class or not.
func (w *writer) escape(inClass bool) bool {
	if w.i >= len(w.src) {
		return false
	}
	r := w.next()
	switch {
	case strings.ContainsRune("dDwWtnrfv", r):
		w.out.WriteString(`\` + string(r))
	case r == 'b' || r == 'B':
		switch {
		case !inClass:
			w.out.WriteString(`\` + string(r))
		case r == 'b':
			w.out.WriteString(`\x08`) // backspace, in a class
		default:
			return w.bail()
		}
	case r == 's' || r == 'S':
		return w.space(r == 'S', inClass)
	case r == '0' && (w.i >= len(w.src) || w.src[w.i] < '0' || w.src[w.i] > '9'):
		w.out.WriteString(`\x00`)
	case r >= '0' && r <= '9':
		// A backreference (or a legacy octal escape).
		return w.backreference(inClass, false)
	case r == 'x':
		return w.hex(2, 'x')
	case r == 'u':
		return w.unicode()
	case r == 'c':
		return w.control()
	case r == 'p' || r == 'P':
		return w.property(r, inClass)
	case r == 'k':
		return w.backreference(inClass, true)
	case r < utf8.RuneSelf && !isLetter(byte(r)) && !(r >= '0' && r <= '9'):
		// Escaped punctuation is the character itself.
		w.out.WriteString(`\` + string(r))
	default:
		// \A, \z, \Q, \pL and the like: RE2 reads them its own way.
		return w.bail() && w.literal(r)
	}
	return true
}

// space translates \s, or \S when negated, after its letter was read:
// ECMAScript's white space, which is more than RE2's.
func (w *writer) space(negated, inClass bool) bool {
	switch {
	case !negated && inClass:
		w.out.WriteString(sClass)
	case !negated:
		w.out.WriteString("[" + sClass + "]")
	case inClass:
		// RE2 cannot take the complement of sClass inside a class;
		// its own \S (not ASCII white space) is alike, for the
		// likeness: a string made from it is checked against the
		// pattern. Left out, [\S]+ was [] and made nothing.
		if !w.bail() {
			return false
		}
		w.out.WriteString(`\S`)
	default:
		w.out.WriteString("[^" + sClass + "]")
	}
	return true
}

// backreference translates a backreference after its first digit was
// read, or a named one (\k<name>) after its k: dropped, or in wide mode
// any string. A digit may also start a legacy octal escape, which is
// taken the same way.
func (w *writer) backreference(inClass, named bool) bool {
	if inClass && w.wide || !w.widen() {
		return false
	}
	if named {
		if w.peek("<") {
			if end := strings.IndexByte(w.src[w.i:], '>'); end > 0 {
				w.i += end + 1
			}
		}
	} else {
		for w.i < len(w.src) && w.src[w.i] >= '0' && w.src[w.i] <= '9' {
			w.i++
		}
	}
	if w.wide {
		w.out.WriteString(anyString)
	}
	return true
}

// control translates \cX after the c was read: the control character of
// the letter X, or without a letter the c itself, for approximations.
func (w *writer) control() bool {
	if w.i < len(w.src) && isLetter(w.src[w.i]) {
		c := w.src[w.i] % 32
		w.i++
		w.out.WriteString(`\x{` + strconv.FormatInt(int64(c), 16) + `}`)
		return true
	}
	return w.bail() && w.literal('c')
}

// property translates \p{...} or \P{...} after the letter r was read,
// for approximations only: their names differ between ECMAScript and
// RE2.
func (w *writer) property(r rune, inClass bool) bool {
	if !w.bail() {
		return false
	}
	// For generation: the property, if RE2 knows its name, else
	// letters.
	end := strings.IndexByte(w.src[w.i:], '}')
	if !w.peek("{") || end < 0 {
		return w.literal(r)
	}
	prop := `\` + string(r) + w.src[w.i:w.i+end+1]
	w.i += end + 1
	if _, err := syntax.Parse(prop, syntax.Perl); err == nil {
		if inClass {
			w.out.WriteString(prop)
		} else {
			w.out.WriteString("[" + prop + "]")
		}
	} else if inClass {
		w.out.WriteString(`a-z`)
	} else {
		w.out.WriteString(`[a-z]`)
	}
	return true
}

// literal writes r as itself, for approximations.
func (w *writer) literal(r rune) bool {
	w.out.WriteString(regexpQuote(r))
	return true
}

// hex translates \xHH (n digits) after its letter was read.
func (w *writer) hex(n int, letter rune) bool {
	if w.i+n > len(w.src) {
		return w.bail() && w.literal(letter)
	}
	v, err := strconv.ParseUint(w.src[w.i:w.i+n], 16, 32)
	if err != nil {
		return w.bail() && w.literal(letter)
	}
	w.i += n
	w.out.WriteString(`\x{` + strconv.FormatUint(v, 16) + `}`)
	return true
}

// unicode translates \uXXXX or \u{X...} after the u was read.
func (w *writer) unicode() bool {
	if w.peek("{") {
		end := strings.IndexByte(w.src[w.i:], '}')
		if end < 2 {
			return w.bail() && w.literal('u')
		}
		v, err := strconv.ParseUint(w.src[w.i+1:w.i+end], 16, 32)
		if err != nil || v > utf8.MaxRune || v >= 0xD800 && v <= 0xDFFF {
			return w.bail() && w.literal('u')
		}
		w.i += end + 1
		w.out.WriteString(`\x{` + strconv.FormatUint(v, 16) + `}`)
		return true
	}
	if w.i+4 > len(w.src) {
		return w.bail() && w.literal('u')
	}
	v, err := strconv.ParseUint(w.src[w.i:w.i+4], 16, 32)
	if err != nil {
		return w.bail() && w.literal('u')
	}
	if v >= 0xD800 && v <= 0xDFFF {
		// Half of a surrogate pair: ECMAScript joins the two.
		w.i += 4
		if !w.bail() {
			return false
		}
		if v < 0xDC00 && w.peek(`\u`) {
			w.i += 6
		}
		w.out.WriteString(`\x{1f600}`)
		return true
	}
	w.i += 4
	w.out.WriteString(`\x{` + strconv.FormatUint(v, 16) + `}`)
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// regexpQuote writes r so that RE2 reads it as itself.
func regexpQuote(r rune) string {
	if r < utf8.RuneSelf && strings.ContainsRune(`\.+*?()|[]{}^$`, r) {
		return `\` + string(r)
	}
	return string(r)
}

// Containing returns what the lookaheads at the start of src ask a string
// to contain somewhere ((?=.*\d): a digit), each in RE2's syntax, for
// generation, which Approximate leaves without them: a password's
// ^(?=.*\d)(?=.*[A-Z]).{8,}$ is made as .{8,} with a digit and a capital
// written over its end.
func Containing(src string) []string {
	var out []string
	i := 0
	if strings.HasPrefix(src, "^") {
		i = 1
	}
	for strings.HasPrefix(src[i:], "(?=") {
		w := writer{src: src, i: i + 1}
		w.skipGroup()
		if w.src[w.i-1] != ')' {
			break
		}
		body := strings.TrimPrefix(src[i+len("(?="):w.i-1], "^")
		i = w.i
		rest, ok := strings.CutPrefix(body, ".*")
		if !ok {
			continue
		}
		rest = strings.TrimPrefix(rest, "?")
		if t, ok := translate(rest, true); ok && rest != "" {
			out = append(out, t.re2)
		}
	}
	return out
}
