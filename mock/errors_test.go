package mock

import (
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// TestProblemText: a refusal's message lists its violations after it, in
// one allocation however many there are.
func TestProblemText(t *testing.T) {
	p := &problem{message: "request body does not match the schema", violations: []openapi.Violation{
		{Path: "id", Reason: "expected integer, got string"},
		{Path: "name", Reason: "expected string, got number"},
		{Reason: "a reason for the whole body"},
	}}
	const want = "request body does not match the schema: id: expected integer, got string; name: expected string, got number; body: a reason for the whole body"
	if got := p.text(); got != want {
		t.Fatalf("text() = %q\nwant     %q", got, want)
	}
	if n := testing.AllocsPerRun(100, func() { _ = p.text() }); n != 1 {
		t.Errorf("text() took %v allocations, want 1", n)
	}
	if got := (&problem{message: "no violations"}).text(); got != "no violations" {
		t.Errorf("text() = %q, want %q", got, "no violations")
	}
}
