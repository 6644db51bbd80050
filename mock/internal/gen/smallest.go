package gen

import (
	"fmt"
	"math"
	"slices"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// size is how big a value is: how many values (nodes) it holds, itself
// included, and the bytes of its strings. Sums saturate at math.MaxInt64,
// which stands for no finite size.
type size struct{ nodes, bytes int64 }

// unbounded is the size of a value of no finite size, and where sizes
// start before they are known.
const unbounded = math.MaxInt64

// over reports whether z does not fit budget b.
func (z size) over(b Budget) bool { return z.nodes > int64(b.Nodes) || z.bytes > b.Bytes }

func (z size) plus(o size) size { return size{addSat(z.nodes, o.nodes), addSat(z.bytes, o.bytes)} }

func (z size) times(n int64) size { return size{mulSat(z.nodes, n), mulSat(z.bytes, n)} }

func (z size) atLeast(o size) size { return size{max(z.nodes, o.nodes), max(z.bytes, o.bytes)} }

func (z size) atMost(o size) size { return size{min(z.nodes, o.nodes), min(z.bytes, o.bytes)} }

// mulSat multiplies two counts (at least 0), saturating at
// math.MaxInt64.
func mulSat(a, n int64) int64 {
	if a == 0 || n == 0 {
		return 0
	}
	if a > math.MaxInt64/n {
		return math.MaxInt64
	}
	return a * n
}

// Oversized returns a line for each schema of roots, or reached from
// them, whose smallest value is over budget b where the values it needs
// are not (the place where the budget is first crossed): a huge
// minLength, minItems or minProperties, or required properties and items
// that fan out. Each line starts with the schema's JSON pointer; lines
// are in pointer order. A schema that requires itself with no way out,
// of no finite size, is not named here: the loader's caveats say so.
//
// It also returns every schema reached whose smallest value is over b,
// those of no finite size included, for Meter.Refuse.
//
// Sizes are worked out bottom-up over the schemas reached, each once a
// round, with saturating sums, until none changes (a cycle with a way
// out takes a few rounds). GitHub's REST description reaches 36,153
// schemas and takes two rounds: 17-65 ms on a busy 2-core machine, where
// loading it took 3-6 s.
func Oversized(roots []*openapi.Schema, b Budget) ([]string, Over) {
	b = b.orDefaults()
	var graph []*openapi.Schema // children before parents
	seen := map[*openapi.Schema]bool{}
	var walk func(*openapi.Schema)
	walk = func(s *openapi.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		reached(s, walk)
		graph = append(graph, s)
	}
	for _, r := range roots {
		walk(r)
	}
	est := make(map[*openapi.Schema]size, len(graph))
	for _, s := range graph {
		est[s] = size{unbounded, unbounded}
	}
	for changed, round := true, 0; changed && round <= len(graph); round++ {
		changed = false
		for _, s := range graph {
			if z := smallest(s, est); z != est[s] {
				est[s], changed = z, true
			}
		}
	}
	var lines []string
	var over Over
	for _, s := range graph {
		z := est[s]
		if !z.over(b) {
			continue
		}
		if over == nil {
			over = Over{}
		}
		over[s] = Bytes
		if z.nodes > int64(b.Nodes) {
			over[s] = Nodes
		}
		if z == (size{unbounded, unbounded}) {
			continue
		}
		crossed := true
		needs(s, func(c *openapi.Schema) {
			if c != nil && est[c].over(b) {
				crossed = false
			}
		})
		if crossed {
			lines = append(lines, s.Where()+": "+why(s, z, b))
		}
	}
	slices.Sort(lines)
	return lines, over
}

// Over holds schemas whose smallest value is over a budget, with the part
// of it that value exceeds.
type Over map[*openapi.Schema]Kind

// why says why s's smallest value z is over budget b.
func why(s *openapi.Schema, z size, b Budget) string {
	const refused = ": answers that need it are refused"
	switch {
	case s.MinLength != nil && *s.MinLength > b.Bytes:
		return fmt.Sprintf("minLength %d is over the %d bytes of strings an answer may have%s", *s.MinLength, b.Bytes, refused)
	case s.MinItems != nil && *s.MinItems > int64(b.Nodes):
		return fmt.Sprintf("minItems %d is over the %d values an answer may have%s", *s.MinItems, b.Nodes, refused)
	case s.MinProperties != nil && *s.MinProperties > int64(b.Nodes):
		return fmt.Sprintf("minProperties %d is over the %d values an answer may have%s", *s.MinProperties, b.Nodes, refused)
	case z.nodes > int64(b.Nodes):
		return fmt.Sprintf("its required properties and items make its smallest value %s values, over the %d an answer may have%s", count(z.nodes), b.Nodes, refused)
	}
	return fmt.Sprintf("its required properties and items make its smallest value %s bytes of strings, over the %d an answer may have%s", count(z.bytes), b.Bytes, refused)
}

// count writes n, or "more than 2^63" for a saturated count.
func count(n int64) string {
	if n == math.MaxInt64 {
		return "more than 2^63"
	}
	return fmt.Sprint(n)
}

// reachable calls f once for each schema of roots, or reached from them
// (see reached) or from their anyOf branches, its children before it:
// the walk of the checks made once at load (Unmatched).
func reachable(roots []*openapi.Schema, f func(*openapi.Schema)) {
	seen := map[*openapi.Schema]bool{}
	var walk func(*openapi.Schema)
	walk = func(s *openapi.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		reached(s, walk)
		for _, a := range s.AnyOf {
			walk(a)
		}
		f(s)
	}
	for _, r := range roots {
		walk(r)
	}
}

// reached calls f with each schema s holds, whose values a value of s
// may hold or must satisfy.
func reached(s *openapi.Schema, f func(*openapi.Schema)) {
	for _, p := range s.Properties {
		f(p.Schema)
	}
	f(s.Items)
	f(s.AdditionalProperties)
	f(s.Contains)
	for _, group := range [...][]*openapi.Schema{s.PrefixItems, s.AllOf, s.AnyOf} {
		for _, c := range group {
			f(c)
		}
	}
	for _, p := range s.PatternProperties {
		f(p.Schema)
	}
}

// needs calls f with each schema the smallest value of s is made from:
// its required properties', its first minItems items', its allOf
// members and its alternatives.
func needs(s *openapi.Schema, f func(*openapi.Schema)) {
	for _, r := range s.Required {
		f(s.Property(r))
	}
	if s.MinItems != nil && *s.MinItems > 0 {
		for i, p := range s.PrefixItems {
			if int64(i) < *s.MinItems {
				f(p)
			}
		}
		if *s.MinItems > int64(len(s.PrefixItems)) {
			f(s.Items)
		}
	}
	for _, m := range s.AllOf {
		f(m)
	}
	for _, a := range s.AnyOf {
		f(a)
	}
}

// smallest returns the size of the smallest value of s, given est, the
// sizes known of the schemas it needs (nil stands for any value: one
// node).
func smallest(s *openapi.Schema, est map[*openapi.Schema]size) size {
	of := func(c *openapi.Schema) size {
		if c == nil {
			return size{1, 0}
		}
		return est[c]
	}
	z := own(s, of)
	for _, m := range s.AllOf {
		z = z.atLeast(of(m))
	}
	if len(s.AnyOf) > 0 {
		alt := size{unbounded, unbounded}
		for _, a := range s.AnyOf {
			alt = alt.atMost(of(a))
		}
		z = z.atLeast(alt)
	}
	return z
}

// own returns the size of the smallest value of s by its own keywords:
// of the least of the types it allows (or its keywords speak of).
func own(s *openapi.Schema, of func(*openapi.Schema) size) size {
	leaf := size{1, 0}
	if s.Never || s.HasConst || len(s.Enum) > 0 || s.HasExample {
		return leaf // a value written down, or none
	}
	t := typesOf(s)
	if t == tAny {
		t = spoken(s)
	}
	if t == 0 || t&(tNull|tBoolean|tInteger|tFraction) != 0 {
		return leaf
	}
	z := size{unbounded, unbounded}
	if t&tString != 0 {
		n := int64(0)
		if s.MinLength != nil {
			n = max(*s.MinLength, 0)
		}
		z = z.atMost(size{1, n})
	}
	if t&tObject != 0 {
		o := leaf
		for _, r := range s.Required {
			o = o.plus(of(s.Property(r)))
		}
		if s.MinProperties != nil && *s.MinProperties > int64(len(s.Required)) {
			o = o.plus(leaf.times(*s.MinProperties - int64(len(s.Required))))
		}
		z = z.atMost(o)
	}
	if t&tArray != 0 {
		a := leaf
		if s.MinItems != nil && *s.MinItems > 0 {
			n := *s.MinItems
			for i, p := range s.PrefixItems {
				if int64(i) < n {
					a = a.plus(of(p))
				}
			}
			if rest := n - int64(len(s.PrefixItems)); rest > 0 {
				a = a.plus(of(s.Items).times(rest))
			}
		}
		z = z.atMost(a)
	}
	return z
}
