package gen

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// The default budget of one answer. Measured by generating every
// response schema of the Plant Store, of the documents under
// examples/ and of GitHub's REST description (@octokit/openapi
// 23.0.2, 2,914 JSON responses, five seeds each): the largest answer
// took 3,730 values and 12 KB of strings, the slowest 103 ms on a busy
// 2-core machine (the Plant Store's and the test documents' at most 11
// values). The defaults leave room for answers 25 times bigger and 10
// times slower, yet end a hostile one within a second and a few tens of
// megabytes.
const (
	// DefaultNodes bounds the values made for one answer: every scalar,
	// array, object and property value counts one.
	DefaultNodes = 100_000
	// DefaultBytes bounds the bytes of the strings made for one answer.
	DefaultBytes = 8 << 20
	// DefaultTime bounds how long making one answer may take.
	DefaultTime = time.Second
)

// tickMask sets how often a Meter looks at the clock and the context:
// every 64 values, which costs a few nanoseconds per value and ends a
// generation within a few microseconds of its deadline.
const tickMask = 63

// Budget bounds the generation of one answer. A zero field takes its
// default (DefaultNodes, DefaultBytes, DefaultTime).
type Budget struct {
	Nodes int
	Bytes int64
	Time  time.Duration
}

// orDefaults returns b with its zero fields set to the defaults.
func (b Budget) orDefaults() Budget {
	if b.Nodes <= 0 {
		b.Nodes = DefaultNodes
	}
	if b.Bytes <= 0 {
		b.Bytes = DefaultBytes
	}
	if b.Time <= 0 {
		b.Time = DefaultTime
	}
	return b
}

// Meter is what is left of a Budget for one answer, across every value
// made for it; it also ends generation once its context is done (the
// client went). Its first error is kept: once spent, every generation
// with it ends at once. A Meter is not safe for concurrent use.
type Meter struct {
	ctx      context.Context
	budget   Budget
	nodes    int
	bytes    int64
	deadline time.Time
	root     *openapi.Schema // the schema of the value being made
	over     Over            // schemas known to be over the budget
	err      error
}

// Refuse makes m refuse at once, before making anything, the values of
// the schemas of over (see Oversized).
func (m *Meter) Refuse(over Over) { m.over = over }

// NewMeter returns a Meter for one answer with budget b, bound to ctx.
// Its time counts from now.
func NewMeter(ctx context.Context, b Budget) Meter {
	var m Meter
	m.init(ctx, b)
	return m
}

func (m *Meter) init(ctx context.Context, b Budget) {
	b = b.orDefaults()
	*m = Meter{ctx: ctx, budget: b, nodes: b.Nodes, bytes: b.Bytes, deadline: time.Now().Add(b.Time)}
}

// Err returns why generation with m ended early: an *ExceededError, or
// nil while the budget lasts.
func (m *Meter) Err() error { return m.err }

// Need reports an *ExceededError, and keeps it, when n more values for s
// (the items of an array of s, say) do not fit what is left; it spends
// nothing.
func (m *Meter) Need(s *openapi.Schema, n int64) error {
	if m.err == nil && n > int64(m.nodes) {
		m.exceed(s, Nodes)
	}
	return m.err
}

// node spends one value, made for s; it reports false, and spends
// nothing more, once the budget is spent or the context done.
func (m *Meter) node(s *openapi.Schema) bool {
	if m.err != nil {
		return false
	}
	if m.nodes <= 0 {
		m.exceed(s, Nodes)
		return false
	}
	m.nodes--
	if m.nodes&tickMask == 0 {
		return m.tick(s)
	}
	return true
}

// leanShare is the share of the value budget past which optional
// properties are left out: an answer is then made of what its schema
// requires. Generating every response of GitHub's description took at
// most 3,730 values, so real answers never come near a tenth of the
// default budget; a schema of optional properties that fan out (ten
// schemas of ten optional properties of the next) comes to it at once,
// and gets a valid answer of about that size instead of a refusal that
// cost 380 ms and 65 MB.
const leanShare = 10

// lean reports whether more than 1/leanShare of the value budget is
// spent.
func (m *Meter) lean() bool { return m.nodes < m.budget.Nodes-m.budget.Nodes/leanShare }

// afford reports whether n bytes of strings for s are left to spend,
// before a string of that size is made; when they are not, the budget
// is spent.
func (m *Meter) afford(s *openapi.Schema, n int64) bool {
	if m.err != nil {
		return false
	}
	if n > m.bytes {
		m.exceed(s, Bytes)
		return false
	}
	return true
}

// spend spends n bytes of strings made for s; it reports false when they
// were not there to spend.
func (m *Meter) spend(s *openapi.Schema, n int64) bool {
	if !m.afford(s, n) {
		return false
	}
	m.bytes -= n
	return true
}

// tick looks at the clock and the context.
func (m *Meter) tick(s *openapi.Schema) bool {
	if err := m.ctx.Err(); err != nil {
		m.err = &ExceededError{Schema: m.where(m.root, s), At: m.where(s, m.root), Err: err}
		return false
	}
	if time.Now().After(m.deadline) {
		m.exceed(s, Time)
		return false
	}
	return true
}

// exceed notes that the budget of kind k ran out making s.
func (m *Meter) exceed(s *openapi.Schema, k Kind) {
	m.err = &ExceededError{Schema: m.where(m.root, s), At: m.where(s, m.root), Kind: k, Budget: m.budget}
}

// where names s by its place in the document, else (s nil: any value, or
// no value under way) or.
func (m *Meter) where(s, or *openapi.Schema) string {
	if s == nil {
		s = or
	}
	if s == nil {
		return "#"
	}
	return s.Where()
}

// Kind names which part of a Budget ran out.
type Kind uint8

// The parts of a Budget.
const (
	Nodes Kind = iota + 1
	Bytes
	Time
)

// ExceededError reports a generation ended early: its budget ran out, or
// its context was done (Err).
type ExceededError struct {
	Schema string // the schema of the value being made, as a JSON pointer
	At     string // the schema being made when it ended
	Kind   Kind   // the part of Budget that ran out; 0 when Err is set
	Budget Budget
	Err    error // the context's error
}

// Error says what ran out, for which schema and where.
func (e *ExceededError) Error() string {
	var what string
	switch e.Kind {
	case Nodes:
		what = fmt.Sprintf("more than %d values", e.Budget.Nodes)
	case Bytes:
		what = fmt.Sprintf("more than %d bytes of strings", e.Budget.Bytes)
	case Time:
		what = fmt.Sprintf("more than %s", e.Budget.Time)
	default:
		return fmt.Sprintf("the value of %s was left unmade%s: %v", e.Schema, e.at(), e.Err)
	}
	return fmt.Sprintf("the value of %s takes %s, over the budget of an answer%s", e.Schema, what, e.at())
}

// at says where generation ended, when that is not the schema itself.
func (e *ExceededError) at() string {
	if e.At == e.Schema {
		return ""
	}
	return " (it ended at " + e.At + ")"
}

// Unwrap returns the context's error, if that ended it.
func (e *ExceededError) Unwrap() error { return e.Err }

// addSat adds two counts (at least 0), saturating at math.MaxInt64.
func addSat(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
