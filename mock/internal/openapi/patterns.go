package openapi

import (
	"fmt"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/plantmock/plantmock/mock/internal/regex"
)

// patterns are a document's regular expressions (pattern and
// patternProperties), compiled as ECMA-262 by package regex, each once:
// the validator of responses and that of requests, and the library's
// check that a pattern is a regex, share them. The fast path matches the
// same compiled patterns, taken from the compiled schemas.
//
// A match by the backtracking engine is bounded (regex.MatchTimeout); so
// is one value's validation, which stops matching such patterns after the
// first string it could not decide: a body of a thousand hostile strings
// costs one bound, not a thousand. The fast path keeps that count in its
// explainer; the library's validator, which gives a pattern nothing but
// the string, is run one value at a time (turn) when the document has a
// pattern of the backtracking engine, and the count is kept here.
type patterns struct {
	mu sync.Mutex // guards m
	m  map[string]compiledPattern

	// backtracking is whether any pattern of the document needs the
	// backtracking engine; set at load, read only after.
	backtracking bool

	// turn is held by a validation by the library when backtracking.
	// The few documents with such patterns have their values validated
	// by the library one at a time (most bodies take the fast path,
	// which needs no turn); the others never take it.
	turn sync.Mutex
	// spent and undecided are the validation under way's: whether a
	// string could not be decided, and why each string was not.
	spent     bool                           // guarded by turn
	undecided map[undecidedKey]regex.Verdict // guarded by turn
}

type compiledPattern struct {
	p   *regex.Pattern
	err error
}

type undecidedKey struct{ pattern, s string }

// compile returns src compiled, compiling it on first use.
func (ps *patterns) compile(src string) (*regex.Pattern, error) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if c, ok := ps.m[src]; ok {
		return c.p, c.err
	}
	p, err := regex.Compile(src)
	if ps.m == nil {
		ps.m = map[string]compiledPattern{}
	}
	ps.m[src] = compiledPattern{p, err}
	return p, err
}

// engine is the regexp engine the JSON Schema library compiles with.
func (ps *patterns) engine(src string) (jsonschema.Regexp, error) {
	p, err := ps.compile(src)
	if err != nil {
		return nil, err
	}
	return &bounded{p: p, ps: ps}, nil
}

// scan compiles every pattern of the document, as the string value of a
// key pattern or a key of patternProperties anywhere in it (more than
// the schemas' patterns, never fewer), and notes whether any needs the
// backtracking engine.
func (ps *patterns) scan(root *node) {
	stack := []*node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == nil {
			continue
		}
		if n.kind == objectNode {
			if p := n.get("pattern"); p != nil && p.kind == stringNode {
				ps.note(p.str)
			}
			if pp := n.get("patternProperties"); pp.isObject() {
				for _, k := range pp.keys {
					ps.note(k)
				}
			}
		}
		stack = append(stack, n.vals...)
	}
}

func (ps *patterns) note(src string) {
	if p, err := ps.compile(src); err == nil && p.Backtracks() {
		ps.backtracking = true
	}
}

// validate runs the library's validation of v against cs, and words its
// errors, in the document's turn when it has patterns of the
// backtracking engine.
func (ps *patterns) validate(cs *jsonschema.Schema, v, tv any, locs *locationCache) []Violation {
	if ps.backtracking {
		ps.turn.Lock()
		defer func() {
			// Dropped, not cleared: a hostile body may have filled it
			// with thousands of strings, which need not stay.
			ps.spent, ps.undecided = false, nil
			ps.turn.Unlock()
		}()
	}
	err := cs.Validate(tv)
	if err == nil {
		return nil
	}
	return violationsOf(err, locs, ps, v)
}

// bounded is a pattern as the library's validator matches it.
type bounded struct {
	p  *regex.Pattern
	ps *patterns
}

func (b *bounded) String() string { return b.p.String() }

// MatchString matches s, within the bound of one validation: called by
// the library in the document's turn when the pattern backtracks.
func (b *bounded) MatchString(s string) bool {
	if !b.p.Backtracks() {
		return b.p.MatchString(s)
	}
	ps := b.ps
	v := regex.Skipped
	if !ps.spent {
		v = b.p.Match(s)
	}
	if !v.Decided() {
		ps.spent = true
		if ps.undecided == nil {
			ps.undecided = map[undecidedKey]regex.Verdict{}
		}
		ps.undecided[undecidedKey{b.p.String(), s}] = v
	}
	return v == regex.Matched
}

// patternOf returns the pattern the library compiled, for the fast path.
func patternOf(r jsonschema.Regexp) *regex.Pattern {
	if b, ok := r.(*bounded); ok {
		return b.p
	}
	return nil
}

// reason says why the string k.Got broke the pattern k.Want: it did not
// match, or, in the validation under way, it could not be decided within
// the bound.
func (ps *patterns) reason(k *kind.Pattern) string {
	if ps != nil && ps.backtracking {
		if v, ok := ps.undecided[undecidedKey{k.Want, k.Got}]; ok {
			return fmt.Sprintf("%q %s", clipped(k.Got), regex.Reason(k.Want, v))
		}
	}
	return fmt.Sprintf("%q %s", clipped(k.Got), regex.Reason(k.Want, regex.NoMatch))
}

// checkPattern reports whether src, the pattern or (key) a
// patternProperties name at ptr, compiles; when it does not, it is a
// mistake of the document, and the schema is read without it. No engine
// reads it, so no string can be judged by it: leaving it out accepts what
// the document's author may have meant to refuse, and refuses nothing
// valid.
func (c *compiler) checkPattern(src, ptr string, n *node, key bool) bool {
	if _, err := c.l.patterns.compile(src); err != nil {
		what, left := "pattern:", "the keyword is left out of the schema"
		if key {
			what, left = "patternProperties key", "the entry is left out of the schema"
		}
		c.mistake("pattern "+clipped(src), at(ptr, n),
			fmt.Sprintf("%s %q is not an ECMA-262 regular expression (%s): %s", what, clipped(src), err, left))
		return false
	}
	return true
}

// literalPattern reports whether src, the pattern of the schema at ptr,
// has ^ right after a slash, as a JavaScript regular expression literal
// written into it does (/^[a-z0-9._]+$/ in PeerTube's description,
// .*/^[\d]{12}$/.* and arn:...:placement-group/^.{1,255}$ in AWS's). As a
// pattern it matches no string, since ^ cannot follow a character, so
// every value would be refused and none could be made: a mistake of the
// document, and the schema is read without it, as one that is no regular
// expression.
func (c *compiler) literalPattern(src, ptr, kptr string, n *node) bool {
	if !slashCaret(src) {
		return false
	}
	c.mistake("pattern "+clipped(src), at(kptr, n),
		fmt.Sprintf("pattern: %q has ^ right after a /, as a JavaScript regular expression literal written into it: no string matches it, and the keyword is left out of the schema", clipped(src)))
	c.forget(ptr, "pattern")
	return true
}

// hopelessPattern reports whether no string satisfies src, the pattern
// of the schema n at ptr, beside n's own maxLength: no string matches it
// (IoT Wireless's =\{3,\}$\{1,4096\}, its braces escaped, where $
// comes before characters it requires), or every match is longer than
// maxLength (AppRunner's ServiceId, a 36-character uuid pattern with
// maxLength 32). Every value would be refused and none could be made, so
// every answer that holds one would break its schema: a mistake of the
// document, and the schema is read without the pattern, its lengths
// kept.
func (c *compiler) hopelessPattern(n *node, src, ptr, kptr string, v *node) bool {
	shortest, none, ok := regex.Least(src, regex.MaxInput+1)
	if !ok {
		return false
	}
	why := ""
	if most, has := n.get("maxLength").integer(); none {
		why = "no string matches it ($, the end of the string, comes before characters it requires, or ^, the start, after them)"
	} else if has && int64(shortest) > most {
		why = fmt.Sprintf("no string it matches is at most maxLength %d characters long (the shortest is %d)", most, shortest)
	}
	if why == "" {
		return false
	}
	c.mistake("pattern "+clipped(src), at(kptr, v), fmt.Sprintf("pattern: %q: %s: the keyword is left out of the schema", clipped(src), why))
	c.forget(ptr, "pattern")
	return true
}

// slashCaret reports whether a pattern without alternatives has, outside
// a class, a slash (or an escaped one) followed by ^: a pattern no string
// matches.
func slashCaret(src string) bool {
	if strings.ContainsRune(src, '|') {
		return false
	}
	inClass := false
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\\':
			if !inClass && i+2 < len(src) && src[i+1] == '/' && src[i+2] == '^' {
				return true
			}
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		case c == '/' && i+1 < len(src) && src[i+1] == '^':
			return true
		}
	}
	return false
}
