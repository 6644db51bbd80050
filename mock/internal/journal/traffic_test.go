package journal

import (
	"fmt"
	"testing"
)

// TestTrafficListsEvery: every broken exchange is listed, however many,
// in the order added, each with at most MaxJournalViolations violations;
// one that broke nothing is counted only.
func TestTrafficListsEvery(t *testing.T) {
	var tr Traffic
	many := make([]Violation, MaxJournalViolations+3)
	for i := range many {
		many[i] = Violation{Path: fmt.Sprint("p", i), Reason: "wrong"}
	}
	for i := range 2500 {
		if i%5 == 0 {
			tr.Add(Judged{Source: fmt.Sprint("s", i)})
			continue
		}
		tr.Add(Judged{Source: fmt.Sprint("s", i), Violations: many})
	}
	if tr.Exchanges != 2500 || len(tr.Broken) != 2000 {
		t.Fatalf("%d exchanges, %d listed; want 2500, 2000", tr.Exchanges, len(tr.Broken))
	}
	if first, last := tr.Broken[0], tr.Broken[1999]; first.Source != "s1" || last.Source != "s2499" || len(last.Violations) != MaxJournalViolations {
		t.Errorf("first %s, last %s with %d violations; want s1, s2499 with %d", first.Source, last.Source, len(last.Violations), MaxJournalViolations)
	}
}
