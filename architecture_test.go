package plantmock

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/plantmock/plantmock"

// diagram is the package diagram of docs/architecture.md: each node's
// package and layer (1 at the top), and its arrows.
type diagram struct {
	pkg    map[string]string // node id -> package path inside the module ("" for the root)
	layer  map[string]int    // node id -> layer
	arrows map[[2]string]bool
}

var (
	subgraphLine = regexp.MustCompile(`^\s*subgraph\s+\S+`)
	nodeLine     = regexp.MustCompile(`^\s*(\w+)\["([^"]*)"\]\s*$`)
	arrowLine    = regexp.MustCompile(`^\s*(\w+)\s*-->\s*(\w+)\s*$`)
)

// readDiagram reads the first mermaid block of the page.
func readDiagram(t *testing.T, page string) diagram {
	t.Helper()
	_, rest, ok := strings.Cut(page, "```mermaid\n")
	block, _, closed := strings.Cut(rest, "```")
	if !ok || !closed {
		t.Fatal("docs/architecture.md has no mermaid block")
	}
	d := diagram{pkg: map[string]string{}, layer: map[string]int{}, arrows: map[[2]string]bool{}}
	layer := 0
	for _, l := range strings.Split(block, "\n") {
		switch {
		case subgraphLine.MatchString(l):
			layer++
		case nodeLine.MatchString(l):
			m := nodeLine.FindStringSubmatch(l)
			p := m[2]
			if strings.HasPrefix(p, "(module root") {
				p = ""
			}
			d.pkg[m[1]], d.layer[m[1]] = p, layer
		case arrowLine.MatchString(l):
			m := arrowLine.FindStringSubmatch(l)
			d.arrows[[2]string{m[1], m[2]}] = true
		}
	}
	return d
}

// imports returns each package of the module with its direct imports of
// the module's packages (paths inside the module; "" is the root).
func imports(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	inside := func(p string) (string, bool) {
		if p == module {
			return "", true
		}
		rel, ok := strings.CutPrefix(p, module+"/")
		return rel, ok
	}
	m := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(l)
		p, _ := inside(f[0])
		m[p] = []string{}
		for _, imp := range f[1:] {
			if rel, ok := inside(imp); ok {
				m[p] = append(m[p], rel)
			}
		}
	}
	return m
}

// shipped returns the packages of the module that the binary and
// mocktest are built from.
func shipped(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "./cmd/plantmock", "./mock/mocktest").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	var ps []string
	for _, p := range strings.Fields(string(out)) {
		if p == module {
			ps = append(ps, "")
		} else if rel, ok := strings.CutPrefix(p, module+"/"); ok {
			ps = append(ps, rel)
		}
	}
	return ps
}

// TestArchitecture checks docs/architecture.md's diagram against the
// code: every package the binary and mocktest are built from is in it,
// its arrows are exactly the imports between its packages, and every
// arrow points to a lower layer.
func TestArchitecture(t *testing.T) {
	page, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	d := readDiagram(t, string(page))
	if len(d.pkg) == 0 || len(d.arrows) == 0 {
		t.Fatal("the diagram has no packages or no arrows")
	}
	id := map[string]string{} // package -> node id
	for n, p := range d.pkg {
		id[p] = n
	}
	for _, p := range shipped(t) {
		if _, ok := id[p]; !ok {
			t.Errorf("the diagram lacks %q, which the binary or mocktest is built from", p)
		}
	}
	imp := imports(t)
	for n, p := range d.pkg {
		deps, ok := imp[p]
		if !ok {
			t.Errorf("the diagram names %q, which is not a package of the module", p)
			continue
		}
		for _, dep := range deps {
			if to, drawn := id[dep]; drawn && !d.arrows[[2]string{n, to}] {
				t.Errorf("%q imports %q: the diagram has no arrow %s --> %s", p, dep, n, to)
			}
		}
	}
	for a := range d.arrows {
		from, to := a[0], a[1]
		if _, ok := d.pkg[from]; !ok {
			t.Errorf("arrow %s --> %s: no node %s", from, to, from)
			continue
		}
		if _, ok := d.pkg[to]; !ok {
			t.Errorf("arrow %s --> %s: no node %s", from, to, to)
			continue
		}
		if !slices.Contains(imp[d.pkg[from]], d.pkg[to]) {
			t.Errorf("arrow %s --> %s: %q does not import %q", from, to, d.pkg[from], d.pkg[to])
		}
		if d.layer[to] <= d.layer[from] {
			t.Errorf("arrow %s --> %s does not point down: layer %d to layer %d", from, to, d.layer[from], d.layer[to])
		}
	}
}

// listeners are the packages that are told of the exchanges the
// pipeline answers, or serve what those exchanges left: they see an
// event.Answered and the state, never the exchange.
var listeners = []string{
	"mock/internal/event", "mock/internal/journal", "mock/internal/record", "mock/internal/metrics",
	"mock/internal/webhook", "mock/internal/mcp", "mock/internal/admin",
}

// TestListenersDoNotSeeThePipeline: no listener imports the pipeline,
// directly or through another package, so none can reach an exchange
// while it is answered.
func TestListenersDoNotSeeThePipeline(t *testing.T) {
	imp := imports(t)
	for _, l := range listeners {
		if _, ok := imp[l]; !ok {
			t.Errorf("%s is not a package of the module", l)
			continue
		}
		seen := map[string]string{l: ""} // package -> the one that imported it
		for next := []string{l}; len(next) > 0; {
			p := next[0]
			next = next[1:]
			for _, dep := range imp[p] {
				if _, ok := seen[dep]; !ok {
					seen[dep] = p
					next = append(next, dep)
				}
			}
		}
		if by, ok := seen["mock/internal/pipeline"]; ok {
			t.Errorf("%s reaches mock/internal/pipeline (imported by %s): a listener sees an event.Answered, not the exchange", l, by)
		}
	}
}

// recipePath is a file or folder of the repository named in backquotes,
// or a test file at its root.
var recipePath = regexp.MustCompile("`((?:mock|docs|cmd|internal)/[A-Za-z0-9_./-]+|[a-z_]+_test\\.go)`")

// TestRecipesNameFiles checks that every file and folder the recipes of
// docs/architecture.md ("Where a change goes") name is in the
// repository, and that each recipe names at least one, and a test file
// among them: a recipe that names a file that moved sends its reader
// nowhere, and one without a test file leaves its tests to a guess.
func TestRecipesNameFiles(t *testing.T) {
	page, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	_, recipes, ok := strings.Cut(string(page), "## Where a change goes")
	if !ok {
		t.Fatal(`docs/architecture.md has no "Where a change goes" section`)
	}
	recipes, _, _ = strings.Cut(recipes, "\n## ")
	n := 0
	for _, r := range strings.Split(recipes, "\n- ")[1:] {
		name, _, _ := strings.Cut(strings.TrimPrefix(r, "**"), "**")
		paths := recipePath.FindAllStringSubmatch(r, -1)
		if len(paths) == 0 {
			t.Errorf("recipe %s names no file", name)
		}
		tests := 0
		for _, p := range paths {
			if _, err := os.Stat(p[1]); err != nil {
				t.Errorf("recipe %s names %s, which is not in the repository", name, p[1])
			}
			if strings.HasSuffix(p[1], "_test.go") {
				tests++
			}
		}
		if len(paths) > 0 && tests == 0 {
			t.Errorf("recipe %s names no test file: say where its tests go", name)
		}
		n++
	}
	if n < 11 {
		t.Errorf("read %d recipes, want the 11 or more of the page", n)
	}
}

// TestFacadeStaysSmall holds the package mock to what it is, the facade:
// at most 2,500 lines of non-test code and 30 methods on Server.
func TestFacadeStaysSmall(t *testing.T) {
	lines, methods := 0, 0
	walkGo(t, "mock", func(_ *token.FileSet, path string, src []byte, f *ast.File) {
		if filepath.Dir(path) != "mock" {
			return
		}
		lines += strings.Count(string(src), "\n")
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || len(fn.Recv.List) != 1 {
				continue
			}
			if star, ok := fn.Recv.List[0].Type.(*ast.StarExpr); ok {
				if id, ok := star.X.(*ast.Ident); ok && id.Name == "Server" {
					methods++
				}
			}
		}
	})
	t.Logf("package mock: %d lines of non-test code, %d methods of Server", lines, methods)
	if lines > 2500 {
		t.Errorf("package mock has %d lines of non-test code, over 2,500: move a concept to a package of its own", lines)
	}
	if methods > 30 {
		t.Errorf("Server has %d methods, over 30", methods)
	}
	if lines < 500 || methods < 10 {
		t.Errorf("counted %d lines and %d methods of Server: the walk missed the facade", lines, methods)
	}
}

// maxFuncLines is the longest a non-test function may be, from its func
// line to its closing brace.
const maxFuncLines = 100

// TestNoLongFunctions holds every non-test function of the repository's
// Go code (cmd, internal, mock, scenarios, and the testcontainers module
// beside them) to maxFuncLines, so that a reader can hold each. A data
// table, a function that only returns one composite literal, is exempt.
func TestNoLongFunctions(t *testing.T) {
	funcs := 0
	walkGo(t, ".", func(fset *token.FileSet, _ string, _ []byte, f *ast.File) {
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			funcs++
			start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
			if n := end.Line - start.Line + 1; n > maxFuncLines && !isTable(fn) {
				t.Errorf("%s: %s is %d lines, over %d; split it by meaning", start, fn.Name.Name, n, maxFuncLines)
			}
		}
	})
	t.Logf("%d non-test functions measured", funcs)
	if funcs < 1000 {
		t.Errorf("measured %d functions: the walk missed most of the code", funcs)
	}
}

// TestFacadeTestsUseItsAPI: the facade's tests (mock/*_test.go) test
// it through what its users have, never reaching into its engine (the
// Server's field e): what they need is an option, a method or an admin
// call, or the test belongs beside the package it tests.
func TestFacadeTestsUseItsAPI(t *testing.T) {
	files, err := filepath.Glob("mock/*_test.go")
	if err != nil || len(files) < 10 {
		t.Fatalf("the facade's tests: %v %v", files, err)
	}
	fset := token.NewFileSet()
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "e" {
				t.Errorf("%s: reaches into the facade's engine (.e): test it through the facade's API", fset.Position(sel.Pos()))
			}
			return true
		})
	}
}

// isTable reports whether fn is a data table: its body only returns one
// composite literal.
func isTable(fn *ast.FuncDecl) bool {
	if len(fn.Body.List) != 1 {
		return false
	}
	r, ok := fn.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(r.Results) != 1 {
		return false
	}
	_, ok = r.Results[0].(*ast.CompositeLit)
	return ok
}

// walkGo parses each non-test .go file under dir, skipping what the go
// tool skips (testdata, and directories whose names start with . or _),
// and hands it to visit with its source and the file set of its
// positions.
func walkGo(t *testing.T, dir string, visit func(fset *token.FileSet, path string, src []byte, f *ast.File)) {
	t.Helper()
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != dir && (n == "testdata" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, src, 0)
		if err != nil {
			return err
		}
		visit(fset, path, src, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
