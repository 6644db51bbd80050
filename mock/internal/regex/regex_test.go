package regex

import (
	"regexp"
	"strings"
	"testing"

	"github.com/dlclark/regexp2/v2"
)

// engine names which engine a pattern compiles to.
type engine uint8

const (
	re2 engine = iota + 1
	backtracking
	refused
)

func engineOf(p *Pattern, err error) engine {
	switch {
	case err != nil:
		return refused
	case p.Backtracks():
		return backtracking
	}
	return re2
}

// patternCase is a pattern, the engine it must compile to, and strings
// ECMAScript matches and strings it does not.
type patternCase struct {
	name, pattern string
	engine        engine
	match         []string
	nomatch       []string
}

// runPatternCases compiles each case's pattern and checks its engine and
// its verdict on each string.
func runPatternCases(t *testing.T, tests []patternCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Compile(tt.pattern)
			if got := engineOf(p, err); got != tt.engine {
				t.Fatalf("engine %d, want %d (err %v)", got, tt.engine, err)
			}
			for _, s := range tt.match {
				if v := p.Match(s); v != Matched {
					t.Errorf("%.40q: verdict %d, want a match", s, v)
				}
				if p.wide != nil && !p.wide.MatchString(s) {
					t.Errorf("%.40q: the wider pattern %s refuses it", s, p.wide)
				}
			}
			for _, s := range tt.nomatch {
				if v := p.Match(s); v != NoMatch {
					t.Errorf("%.40q: verdict %d, want no match", s, v)
				}
			}
		})
	}
}

// TestPatternsOfPublicDescriptions holds patterns taken from public API
// descriptions, each with strings ECMAScript matches and strings it does
// not.
func TestPatternsOfPublicDescriptions(t *testing.T) {
	long := func(c string, n int) string { return strings.Repeat(c, n) }
	tests := []patternCase{
		{"negative lookahead", `^(?!aws:)[a-zA-Z+-=._:/]+$`, backtracking,
			[]string{"user:team/a", "AWS:x"}, []string{"aws:reserved", "white space"}},
		{"negative lookbehind", `^[0-9A-Za-z\.\-_]*(?<!\.)$`, backtracking,
			[]string{"a.b-c_1", ""}, []string{"trailing.", "no space"}},
		{"lookaheads around a hostname", `(?=^.{3,63}$)(?!^(\d+\.)+\d+$)(^(([a-z0-9]|[a-z0-9][a-z0-9\-]*[a-z0-9])\.)*([a-z0-9]|[a-z0-9][a-z0-9\-]*[a-z0-9])$)`, backtracking,
			[]string{"my-bucket.example", "abc"}, []string{"10.0.0.1", "ab", "Upper.case", long("a", 64)}},
		{"backreference in a lookahead", `^(?!.*?(.)\1{3})[-_!@#$a-zA-Z0-9]*$`, backtracking,
			[]string{"aaab-ok", "P@ss_w0rd"}, []string{"aaaab", "pass word"}},
		{"\\u escapes, unanchored", `[\u0009\u000A\u000D\u0020-\u00FF]*`, re2,
			// A star unanchored matches the empty string in any input.
			[]string{"tab\there", "ā"}, nil},
		{"\\u escapes, anchored", `^[\u0009\u000A\u000D\u0020-\u00FF]*$`, re2,
			[]string{"tab\there\r\n", "ÿ"}, []string{"ā", "\v"}},
		{"\\u escapes in groups", `^arn:aws:iam::\d{12}:user(?:(\u002F)|(\u002F[\u0021-\u007E]+\u002F))[\w+=,.@-]+$`, re2,
			[]string{"arn:aws:iam::123456789012:user/alice", "arn:aws:iam::123456789012:user/path/to/bob@x.io"},
			[]string{"arn:aws:iam::12345:user/alice", "arn:aws:iam::123456789012:user/al ice"}},
		{"a count over 1,000 of any character", `^.{0,262144}$`, re2,
			[]string{"", "abc", long("é", 262144)}, []string{long("a", 262145), "line\nbreak", "carriage\rreturn", "a\u2028b"}},
		{"a count over 1,000 of a class", `^[a-zA-Z0-9]{0,4096}$`, re2,
			[]string{"abc123", long("z", 4096)}, []string{"abc-", long("z", 4097)}},
		{"a count over 1,000 unanchored", `\S{1,8192}`, re2,
			[]string{" a ", long("x", 9000)}, []string{"", "   ", "\u00a0\u3000\ufeff"}},
		{"a class of another dialect", `\p{Print}+`, refused, nil, nil},
		{"an unterminated class", `^[a-z`, refused, nil, nil},
		{"an unterminated lookbehind", `(?<=a`, refused, nil, nil},
	}
	runPatternCases(t, tests)
}

// TestECMAScriptMeaning holds the constructs RE2 and ECMAScript read
// differently, on either engine.
func TestECMAScriptMeaning(t *testing.T) {
	tests := []patternCase{
		{"\\s is Unicode white space", `^\s+$`, re2, []string{"\v\u00a0\u2003\ufeff \t"}, []string{"x", "\u200b"}},
		{"\\S excludes it", `^\S$`, re2, []string{"x", "\u200b"}, []string{"\u00a0", "\v"}},
		{"\\s in a class", `^[\s\d]+$`, re2, []string{"1\u3000 2"}, []string{"1a"}},
		{"\\S in a class", `^[\S]+$`, backtracking, []string{"ab"}, []string{"a b", "a\u00a0b"}},
		{". excludes line terminators", `^a.b$`, re2, []string{"a-b", "a😀b", "a€b"}, []string{"a\nb", "a\rb", "a\u2029b", "a\u2028b"}},
		{"$ is the end of the input", `^abc$`, re2, []string{"abc"}, []string{"abc\n"}},
		{"\\d is ASCII", `^\d+$`, re2, []string{"0123"}, []string{"٣"}},
		{"\\w is ASCII", `^\w+$`, re2, []string{"a_1"}, []string{"é"}},
		{"\\b in a class is backspace", `^[\b]$`, re2, []string{"\b"}, []string{"b"}},
		{"\\u{...} with the u flag", `^\u{1F600}$`, re2, []string{"😀"}, []string{"u"}},
		{"a surrogate pair", `^\uD83D\uDE00$`, backtracking, []string{"😀"}, []string{"\ufffd"}},
		{"\\cJ", `^\cJ$`, re2, []string{"\n"}, []string{"cJ"}},
		{"a Unicode property", `^\p{L}+$`, backtracking, []string{"héllo"}, []string{"h3llo"}},
		{"\\- outside a class, as without the u flag", `^a\-b$`, re2, []string{"a-b"}, []string{"a\\-b"}},
		// The backtracking engine reads a few of .NET's constructs as .NET
		// does, where ECMAScript would refuse them.
		{"\\A, as .NET reads it", `\Ax`, backtracking, []string{"xy"}, []string{"yx"}},
		{"(?i), as .NET reads it", `^(?i)abc$`, backtracking, []string{"ABC"}, []string{"abd"}},
		{"[[:alpha:]] is a class of [:alph and a ]", `^[[:alpha:]]$`, backtracking, []string{"a]", ":]"}, []string{"b]", "a"}},
		{"[^] is anything", `^[^]$`, re2, []string{"\n"}, []string{""}},
		{"a named group", `^(?<year>\d{4})-\k<year>$`, backtracking, []string{"2024-2024"}, []string{"2024-2025"}},
		{"a brace that is not a count", `^a{,5}$`, backtracking, []string{"a{,5}"}, []string{"aaaaa"}},
	}
	runPatternCases(t, tests)
}

// TestBound holds catastrophic patterns against hostile inputs. A string
// the pattern's superset refuses is decided at once; one it takes is
// matched within the bound, and when the bound or the input's length
// leaves it undecided, the pattern remembers which.
func TestBound(t *testing.T) {
	// ^(a+)+$ alone is RE2's, in linear time; the lookahead takes it to
	// the backtracking engine.
	if p, err := Compile(`^(a+)+$`); err != nil || p.Backtracks() || p.Match(strings.Repeat("a", 5000)+"!") != NoMatch {
		t.Fatalf("^(a+)+$ is not RE2's: %v", err)
	}
	// Words with one space between them, and none at the end: the
	// lookbehind fails only once the words have been split every way.
	const words = `^(\w+\s?)+(?<!\s)$`
	tests := []struct {
		name, pattern string
		input         string
		want          Verdict
		why           string
	}{
		{"benign", `^(?=a)(a+)+$`, strings.Repeat("a", 40), Matched, ""},
		{"short", `^(?=a)(a+)+$`, "aa!", NoMatch, ""},
		{"refused by the superset", `^(?=a)(a+)+$`, strings.Repeat("a", 40) + "!", NoMatch, ""},
		{"long, refused by the superset", `^(?=a)(a+)+$`, strings.Repeat("a", MaxInput) + "!", NoMatch, ""},
		{"words", words, "a few words", Matched, ""},
		{"catastrophic", words, strings.Repeat("a", 40) + " ", TimedOut, "could not be matched against the pattern " + words + " within 3ms"},
		{"too long", words, strings.Repeat("a", MaxInput) + " ", TooLong, "is longer than 4096 characters, the most the pattern " + words + " is matched against (it needs a backtracking engine)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Compile(tt.pattern)
			if err != nil || !p.Backtracks() || p.wide == nil {
				t.Fatalf("compile: %v, backtracks %v, superset %v", err, p != nil && p.Backtracks(), p != nil && p.wide != nil)
			}
			if v := p.Match(tt.input); v != tt.want {
				t.Fatalf("verdict %d, want %d", v, tt.want)
			}
			v, ok := p.Undecided(tt.input)
			if why := Reason(p.String(), v); ok != (tt.why != "") || ok && why != tt.why {
				t.Fatalf("Undecided: %q (%v), want %q", why, ok, tt.why)
			}
		})
	}
}

// TestWiden holds the superset written for patterns RE2 cannot read, and
// the patterns it cannot widen.
func TestWiden(t *testing.T) {
	tests := []struct {
		pattern, want string
		ok            bool
	}{
		{`^(?=a)(a+)+$`, `^(a+)+$`, true},
		{`^(?!aws:)[a-z]+(?<!\.)$`, `^[a-z]+$`, true},
		{`^(?<y>\d{4})-\k<y>$`, `^(?<y>\d{4})-` + anyString + `$`, true},
		{`^(a)\1{2}$`, `^(a)` + anyString + `{2}$`, true},
		{`^x{2000}$`, `^x{1000,}$`, true},
		{`^(ab){3,5000}$`, `^(ab){3,}$`, true},
		{`^\p{L}+$`, "", false},
		{`^[\S]+$`, "", false},
		{`\Ax`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			got, ok := Widen(tt.pattern)
			if ok != tt.ok || got != tt.want {
				t.Fatalf("Widen: %q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
			if _, err := regexp.Compile(got); ok && err != nil {
				t.Fatalf("RE2 refuses it: %v", err)
			}
		})
	}
}

// TestApproximate holds what generation is given for patterns RE2 cannot
// read.
func TestApproximate(t *testing.T) {
	tests := []struct {
		pattern, want string
		exact         bool
	}{
		{`^(?!aws:)[a-z]+$`, `^[a-z]+$`, false},
		{`^[0-9A-Za-z\.\-_]*(?<!\.)$`, `^[0-9A-Za-z\.\-_]*$`, false},
		{`^(?!.*?(.)\1{3})[a-z]*$`, `^[a-z]*$`, false},
		{`^.{0,262144}$`, `^(?:` + dotClass + `){0,1000}$`, true},
		{`^x{2000}$`, `^(?:x){1000,1000}$`, false},
		{`^(ab){0,5000}$`, `^(ab){0,1000}$`, true},
		{`^\u0041\p{L}$`, `^\x{41}[\p{L}]$`, false},
		{`^a[\S]+:[\d]{3}$`, `^a[\S]+:[\d]{3}$`, false},
		{`^[a-z\S]$`, `^[a-z\S]$`, false},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			got, exact, ok := Approximate(tt.pattern)
			if !ok || got != tt.want || exact != tt.exact {
				t.Fatalf("Approximate: %q, exact %v, ok %v; want %q, exact %v", got, exact, ok, tt.want, tt.exact)
			}
			if _, err := regexp.Compile(got); err != nil {
				t.Fatalf("RE2 refuses it: %v", err)
			}
		})
	}
}

// TestWidenKeepsMatches: every string of up to five characters from a
// small alphabet that the backtracking engine matches, the superset
// matches too; and each superset refuses some string, so that it is no
// pattern of anything.
func TestWidenKeepsMatches(t *testing.T) {
	patterns := []string{
		`^(?=a)(a+)+$`,
		`^(\w+\s?)+(?<!\s)$`,
		`^(?!ab)[a-b!]+(?<!!)$`,
		`^(a|b)\1$`,
		`^(?<x>[ab])1\k<x>$`,
		`(?<=a)b{2}`,
		`^a{2,2000}(?=!)`,
		`^(?:(?!aa)[ab])*$`,
	}
	const alphabet = "ab 1!"
	strs := []string{""}
	for n, from := 0, 0; n < 5; n++ {
		to := len(strs)
		for _, s := range strs[from:to] {
			for _, c := range alphabet {
				strs = append(strs, s+string(c))
			}
		}
		from = to
	}
	for _, src := range patterns {
		t.Run(src, func(t *testing.T) {
			p, err := Compile(src)
			if err != nil || p.bt == nil || p.wide == nil {
				t.Fatalf("compile: %v, backtracks %v, superset %v", err, p != nil && p.bt != nil, p != nil && p.wide != nil)
			}
			// The oracle: the same engine without a timeout, which a
			// loaded machine could otherwise reach on a benign match.
			oracle := regexp2.MustCompile(src, regexp2.ECMAScript|regexp2.Unicode)
			refused := 0
			for _, s := range strs {
				matched, err := oracle.MatchString(s)
				if err != nil {
					t.Fatalf("%q: %v", s, err)
				}
				if wide := p.wide.MatchString(s); matched && !wide {
					t.Errorf("%q: matched, but the superset %s refuses it", s, p.wide)
				} else if !wide {
					refused++
				}
				if v := p.Match(s); (v == Matched) != matched {
					t.Errorf("%q: verdict %d, the backtracking engine says %v", s, v, matched)
				}
			}
			if refused == 0 {
				t.Errorf("the superset %s refuses none of %d strings", p.wide, len(strs))
			}
		})
	}
}
