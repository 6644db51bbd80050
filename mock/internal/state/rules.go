package state

import "strconv"

// RuleSet is the rules a session counts together: those of one
// document's scenarios loaded at once. A session counts each document's
// rules apart, and keeps counting them whatever other documents'
// requests come in between. Rules of another set of the same document
// (scenarios loaded again) count afresh, in memory; in Redis, where
// replicas share the counters, rules count by document and name.
type RuleSet struct {
	doc string // the document whose rules these are; "" for a mock of one
	n   int
}

// NewRuleSet returns an empty set of the rules of document doc ("" for
// a mock of one document).
func NewRuleSet(doc string) *RuleSet { return &RuleSet{doc: doc} }

// Add adds a rule to the set and returns it: name names it in the set,
// and it answers every every-th match (0 or 1: every match). Rules are
// added before any is counted.
func (rs *RuleSet) Add(name string, every int64) Rule {
	r := Rule{set: rs, id: rs.n, name: ofDocument(rs.doc, name), every: every}
	rs.n++
	return r
}

// Rule is one rule of a RuleSet, as a session counts it.
type Rule struct {
	set   *RuleSet
	id    int    // its index in set
	name  string // its name in the set, after its document's (ofDocument)
	every int64
}

// ofDocument is name, of something kept per document in a session, as
// Redis keys it: alone for the document "" (a mock of one, as before
// documents were kept apart), else after "d", the length of the
// document's name and the name, as the store keys a document's
// resources ("d5:tasks:"), so that two documents' names never meet.
func ofDocument(doc, name string) string {
	if doc == "" {
		return name
	}
	return "d" + strconv.Itoa(len(doc)) + ":" + doc + ":" + name
}
