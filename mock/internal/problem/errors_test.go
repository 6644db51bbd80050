package problem

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// TestProblemText: a refusal's message lists its violations after it, in
// one allocation however many there are.
func TestProblemText(t *testing.T) {
	p := &Problem{Message: "request body does not match the schema", Violations: []openapi.Violation{
		{Path: "id", Reason: "expected integer, got string"},
		{Path: "name", Reason: "expected string, got number"},
		{Reason: "a reason for the whole body"},
	}}
	const want = "request body does not match the schema: id: expected integer, got string; name: expected string, got number; body: a reason for the whole body"
	if got := p.Text(); got != want {
		t.Fatalf("text() = %q\nwant     %q", got, want)
	}
	if n := testing.AllocsPerRun(100, func() { _ = p.Text() }); n != 1 {
		t.Errorf("text() took %v allocations, want 1", n)
	}
	if got := (&Problem{Message: "no violations"}).Text(); got != "no violations" {
		t.Errorf("text() = %q, want %q", got, "no violations")
	}
}

// TestErrorCodesListed checks that ErrorCodes lists every Code constant,
// so that error schemas are checked against each.
func TestErrorCodesListed(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "problem.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if ok {
			if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "Code" {
				for _, name := range vs.Names {
					declared = append(declared, name.Name)
				}
			}
		}
		return true
	})
	if len(declared) == 0 {
		t.Fatal("no Code constants found in problem.go")
	}
	if len(declared) != len(ErrorCodes) {
		t.Errorf("problem.go declares %d codes, ErrorCodes lists %d", len(declared), len(ErrorCodes))
	}
	for i, c := range ErrorCodes {
		if slices.Index(ErrorCodes, c) != i {
			t.Errorf("ErrorCodes lists %d twice", c)
		}
		if len(CodeWords[c]) == 0 {
			t.Errorf("CodeWords has no words for %d", c)
		}
	}
}
