package mock

import (
	"strings"
	"testing"
)

// TestContractBounded: the contract report lists at most 1,000 kinds of
// violation for an operation, and of each exchange the 100 its journal
// entry keeps; it counts the others as unlisted, so that bodies of ever
// new property names cannot grow it without end.
func TestContractBounded(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(hostileSpec)})
	for i := range 11 { // 1,100 kinds, 100 each
		st, body := do(t, ts, "POST", "/things", undeclaredKeys(100*i, 100), "Content-Type", "application/json")
		if st != 422 {
			t.Fatalf("request %d: %d %s", i, st, body)
		}
	}
	// 250 more: 100 counted (seen before), 150 past the journal's cut.
	if st, body := do(t, ts, "POST", "/things", undeclaredKeys(0, 250), "Content-Type", "application/json"); st != 422 {
		t.Fatalf("last request: %d %s", st, body)
	}
	r := s.Contract()
	if len(r.Operations) != 1 {
		t.Fatalf("operations: %+v", r.Operations)
	}
	o := r.Operations[0]
	if o.Operation != "POST /things" || o.Exchanges != 12 || len(o.Violations) != 1000 || o.Unlisted != 100+150 {
		t.Errorf("report of %s: %d exchanges, %d kinds listed, %d unlisted; want POST /things, 12, 1000, 250",
			o.Operation, o.Exchanges, len(o.Violations), o.Unlisted)
	}
	if v := o.Violations[0]; v.Path != "k0000" || v.Count != 2 {
		t.Errorf("first kind: %+v; want k0000 seen twice", v)
	}
	if v := o.Violations[999]; v.Path != "k0999" || v.Count != 1 {
		t.Errorf("last kind: %+v; want k0999 seen once", v)
	}
	if text := r.Text(); !strings.HasSuffix(text, "  and 250 more, not listed\n") {
		t.Errorf("text ends %q; want it to count the unlisted", text[max(len(text)-120, 0):])
	}
	for _, side := range []string{"", "request", "response"} {
		if r.Clean(side) {
			t.Errorf("Clean(%q): true; want false", side)
		}
	}
}
