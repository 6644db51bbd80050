package journal

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// ViolationsHeader carries, on an answer the mock proxied, how many ways
// the exchange broke the document and the first of them: "2; response
// status: 418 is not declared by POST /plants".
const ViolationsHeader = "X-Mock-Violations"

// ContractReport summarises, per operation, the exchanges a mock has seen
// and the ways they broke the document: on the request's side (the
// client's) and, with a proxy, on the answer's (the real service's).
type ContractReport struct {
	Operations []OperationReport `json:"operations"`
	// Traffic lists the exchanges of recorded traffic that broke the
	// document, where the report is of judging it; nil otherwise.
	Traffic *Traffic `json:"traffic,omitempty"`
}

// OperationReport is one operation's part of a ContractReport. Operation
// is "" for requests that matched no operation. Unlisted counts the
// violations left out of Violations: those of an exchange past the 100
// its journal entry keeps, and those of kinds past the first 1,000.
type OperationReport struct {
	// Document names the operation's document where the mock serves
	// several; empty where it serves one.
	Document   string            `json:"document,omitempty"`
	Operation  string            `json:"operation"`
	Exchanges  int               `json:"exchanges"`
	Violations []ViolationReport `json:"violations"`
	Unlisted   int               `json:"unlisted,omitempty"`
}

// ViolationReport is one way exchanges broke the document, how often,
// and the first exchange that did.
type ViolationReport struct {
	Direction string  `json:"direction"` // "request" or "response"
	Path      string  `json:"path"`
	Reason    string  `json:"reason"`
	Count     int     `json:"count"`
	Example   Example `json:"example"`
}

// Example names an exchange: its method, path and status.
type Example struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Status int    `json:"status"`
}

// Clean reports whether no exchange broke the document on side
// direction ("request" or "response"; "" for either). Unlisted
// violations, whose side is not kept, count against either.
func (r *ContractReport) Clean(direction string) bool {
	for _, o := range r.Operations {
		for _, v := range o.Violations {
			if direction == "" || v.Direction == direction {
				return false
			}
		}
		if o.Unlisted > 0 {
			return false // of either side: unlisted, its side is not known
		}
	}
	return true
}

// Text writes the report for people: an operation a line, its violations
// indented under it.
func (r *ContractReport) Text() string {
	var b strings.Builder
	if len(r.Operations) == 0 {
		b.WriteString("no exchanges seen\n")
	}
	for _, o := range r.Operations {
		name := o.Operation
		if name == "" {
			name = "(no operation)"
		}
		if o.Document != "" {
			name = o.Document + ": " + name
		}
		fmt.Fprintf(&b, "%s: %d exchange(s), %d kind(s) of violation\n", name, o.Exchanges, len(o.Violations))
		for _, v := range o.Violations {
			what := Violation{Path: v.Path, Reason: v.Reason}.String()
			if v.Path == v.Direction { // the response as a whole
				what = v.Reason
			}
			fmt.Fprintf(&b, "  %s x%d: %s (e.g. %s %s -> %d)\n", v.Direction, v.Count, what, v.Example.Method, v.Example.Path, v.Example.Status)
		}
		if o.Unlisted > 0 {
			fmt.Fprintf(&b, "  and %d more, not listed\n", o.Unlisted)
		}
	}
	if r.Traffic != nil {
		r.Traffic.text(&b)
	}
	return b.String()
}

// Contract gathers the violations of the exchanges a Server records, in
// this process; each plan counts its exchanges.
type Contract struct {
	unmatched atomic.Int64 // exchanges that matched no operation, of no document or the one
	mu        sync.Mutex   // guards ops and unmatchedIn
	ops       map[opKey]*opTally
	// unmatchedIn counts, where the mock serves several documents, the
	// exchanges of each that matched no operation.
	unmatchedIn map[string]int64
}

// opKey names an operation of a document ("" where there is one).
type opKey struct{ doc, op string }

// maxContractKinds is how many kinds of violation the report lists for
// one operation. Each is kept for the life of the process, and a path
// with an index or a property name in it is a kind of its own: without
// a bound, bodies of ever new property names would grow it without end.
const maxContractKinds = 1000

type opTally struct {
	violations map[Violation]*ViolationReport // by direction, path and reason
	order      []Violation                    // first seen first
	unlisted   int
}

// Add counts one exchange of an operation, in seen (nil: no operation
// matched), and the ways it broke the document: vs, the first of e's
// (see Entry.violationCount).
func (c *Contract) Add(e *Entry, seen *atomic.Int64, vs []Violation) {
	switch {
	case seen != nil:
		seen.Add(1)
	case e.Document == "":
		c.unmatched.Add(1)
	default:
		c.mu.Lock()
		if c.unmatchedIn == nil {
			c.unmatchedIn = map[string]int64{}
		}
		c.unmatchedIn[e.Document]++
		c.mu.Unlock()
	}
	if len(vs) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ops == nil {
		c.ops = map[opKey]*opTally{}
	}
	k := opKey{e.Document, e.Operation}
	t := c.ops[k]
	if t == nil {
		t = &opTally{violations: map[Violation]*ViolationReport{}}
		c.ops[k] = t
	}
	t.unlisted += max(e.ViolationCount()-len(vs), 0)
	for _, v := range vs {
		if v.Direction == "" {
			v.Direction = "request" // refused by the mock
		}
		if r := t.violations[v]; r != nil {
			r.Count++
			continue
		}
		if len(t.order) == maxContractKinds {
			t.unlisted++
			continue
		}
		t.violations[v] = &ViolationReport{Direction: v.Direction, Path: v.Path, Reason: v.Reason, Count: 1,
			Example: Example{Method: e.Method, Path: e.Path, Status: e.Status}}
		t.order = append(t.order, v)
	}
}

// OpCount is how many exchanges an operation of a document ("" where
// the mock serves one) has had.
type OpCount struct {
	Document string
	Name     string
	N        int64
}

// Report returns the report of what c gathered of documents docs (the
// one "" where the mock serves one), with the exchanges each of their
// operations had: operations sorted by document and name, violations in
// the order first seen. The exchanges of a document that matched no
// operation come first, as the operation "".
func (c *Contract) Report(docs []string, ops []OpCount) *ContractReport {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := &ContractReport{Operations: []OperationReport{}}
	add := func(doc, name string, n int64) {
		o := OperationReport{Document: doc, Operation: name, Exchanges: int(n), Violations: []ViolationReport{}}
		if t := c.ops[opKey{doc, name}]; t != nil {
			for _, v := range t.order {
				o.Violations = append(o.Violations, *t.violations[v])
			}
			o.Unlisted = t.unlisted
		}
		r.Operations = append(r.Operations, o)
	}
	for _, doc := range docs {
		n := c.unmatchedIn[doc]
		if doc == "" {
			n = c.unmatched.Load()
		}
		if n > 0 {
			add(doc, "", n)
		}
	}
	for _, o := range ops {
		if o.N > 0 {
			add(o.Document, o.Name, o.N)
		}
	}
	sort.Slice(r.Operations, func(i, j int) bool {
		a, b := r.Operations[i], r.Operations[j]
		return a.Document < b.Document || a.Document == b.Document && a.Operation < b.Operation
	})
	return r
}
