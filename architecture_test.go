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

// recipePath is a file or folder of the repository named in backquotes.
var recipePath = regexp.MustCompile("`((?:mock|docs|cmd|internal)/[A-Za-z0-9_./-]+)`")

// TestRecipesNameFiles checks that every file and folder the recipes of
// docs/architecture.md ("Where a change goes") name is in the
// repository, and that each recipe names at least one: a recipe that
// names a file that moved sends its reader nowhere.
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
		name, _, _ := strings.Cut(r, "**:")
		paths := recipePath.FindAllStringSubmatch(r, -1)
		if len(paths) == 0 {
			t.Errorf("recipe %s names no file", strings.TrimPrefix(name, "**"))
		}
		for _, p := range paths {
			if _, err := os.Stat(p[1]); err != nil {
				t.Errorf("recipe %s names %s, which is not in the repository", strings.TrimPrefix(name, "**"), p[1])
			}
		}
		n++
	}
	if n < 9 {
		t.Errorf("read %d recipes, want the 9 or more of the page", n)
	}
}

// TestFacadeStaysSmall holds the package mock to what it is, the facade:
// at most 2,500 lines of non-test code and 30 methods on Server. And no
// non-test function of mock/ and its packages is over 100 lines, data
// tables aside (a function that is one composite literal), so that a
// reader can hold each.
func TestFacadeStaysSmall(t *testing.T) {
	fset := token.NewFileSet()
	lines, methods := 0, 0
	err := filepath.WalkDir("mock", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, src, 0)
		if err != nil {
			return err
		}
		facade := filepath.Dir(path) == "mock"
		if facade {
			lines += strings.Count(string(src), "\n")
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			if facade && fn.Recv != nil && len(fn.Recv.List) == 1 {
				if star, ok := fn.Recv.List[0].Type.(*ast.StarExpr); ok {
					if id, ok := star.X.(*ast.Ident); ok && id.Name == "Server" {
						methods++
					}
				}
			}
			n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			table := false
			if len(fn.Body.List) == 1 {
				if r, ok := fn.Body.List[0].(*ast.ReturnStmt); ok && len(r.Results) == 1 {
					_, table = r.Results[0].(*ast.CompositeLit)
				}
			}
			if n > 100 && !table {
				t.Errorf("%s: %s is %d lines; split it by meaning", fset.Position(fn.Pos()), fn.Name.Name, n)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
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
