package journal

import (
	"fmt"
	"strings"
)

// Traffic is what judging recorded traffic against a document found,
// exchange by exchange: how many were judged, and each that broke the
// document (its request refused, or its answer one the document does not
// allow), in the order recorded, with its violations and the rules they
// break. The contract report tallies the same violations by operation.
//
// Every broken exchange is listed, as what reads a Traffic may need each
// (diff weighs every exchange OLD accepted against NEW's): the traffic
// is a file given, offline, and the list grows with it, at most
// MaxJournalViolations violations an exchange.
type Traffic struct {
	Exchanges int      `json:"exchanges"`
	Broken    []Judged `json:"broken"`
}

// Judged is one recorded exchange that broke the document.
type Judged struct {
	// Source says where it was recorded: "plants.har: entry 3",
	// "requests.json: seq 12", "recorded-post-plants.yaml: rule 2".
	Source string `json:"source"`
	Method string `json:"method"`
	Path   string `json:"path"`
	Status int    `json:"status"` // 0 when no answer was recorded
	// Operation is the operation the request matched; empty when none.
	Operation string `json:"operation,omitempty"`
	// Document names the operation's document where several are judged
	// against; empty where there is one.
	Document string `json:"document,omitempty"`
	// Violations are the ways it broke the document, the request's
	// first (each with its Direction), at most MaxJournalViolations.
	Violations []Violation `json:"violations"`
}

// Add counts a judged exchange, and lists it when it broke the document.
func (t *Traffic) Add(j Judged) {
	t.Exchanges++
	if len(j.Violations) == 0 {
		return
	}
	if len(j.Violations) > MaxJournalViolations {
		j.Violations = j.Violations[:MaxJournalViolations]
	}
	t.Broken = append(t.Broken, j)
}

// text writes the exchanges for people: a line for each that broke the
// document, its violations indented under it, each with the rule it
// breaks where the document has one.
func (t *Traffic) text(b *strings.Builder) {
	n := len(t.Broken)
	if n == 0 {
		fmt.Fprintf(b, "traffic: %d exchange(s) judged, none breaking the document\n", t.Exchanges)
		return
	}
	fmt.Fprintf(b, "traffic: %d exchange(s) judged, %d breaking the document:\n", t.Exchanges, n)
	for _, j := range t.Broken {
		status := "no answer"
		if j.Status != 0 {
			status = fmt.Sprint(j.Status)
		}
		fmt.Fprintf(b, "  %s: %s %s -> %s\n", j.Source, j.Method, j.Path, status)
		for _, v := range j.Violations {
			if v.Schema != "" {
				fmt.Fprintf(b, "    %s (%s)\n", v, v.Schema)
			} else {
				fmt.Fprintf(b, "    %s\n", v)
			}
		}
	}
}
