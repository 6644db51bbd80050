package state

// RuleSet is the rules a session counts together: those of the
// scenarios loaded at once. Rules of another set count afresh, in
// memory; in Redis, where replicas share the counters, rules count by
// name.
type RuleSet struct{ n int }

// NewRuleSet returns an empty set.
func NewRuleSet() *RuleSet { return new(RuleSet) }

// Add adds a rule to the set and returns it: name names it in the set,
// and it answers every every-th match (0 or 1: every match). Rules are
// added before any is counted.
func (rs *RuleSet) Add(name string, every int64) Rule {
	r := Rule{set: rs, id: rs.n, name: name, every: every}
	rs.n++
	return r
}

// Rule is one rule of a RuleSet, as a session counts it.
type Rule struct {
	set   *RuleSet
	id    int // its index in set
	name  string
	every int64
}
