package plantmock

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// readmeLines bounds the README: it is for users, and the reference is
// in docs/.
const readmeLines = 400

// pages are the Markdown pages whose links are checked.
func pages(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"README.md", "CONTRIBUTING.md", "CHANGELOG.md", "scenarios/README.md"}, docs...)
}

var (
	linkText = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading  = regexp.MustCompile(`^#{1,6} +(.+?) *$`)
)

// A line is a line of a page, with its number (from 1).
type line struct {
	n    int
	text string
}

// outsideFences returns the lines of a page that are not in fenced
// blocks.
func outsideFences(page string) []line {
	var out []line
	fenced := false
	for i, l := range strings.Split(page, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			out = append(out, line{i + 1, l})
		}
	}
	return out
}

// anchors returns the anchors of a page's headings as GitHub makes them:
// lower case, punctuation left out, spaces made dashes, "-1", "-2" after
// a repeated one.
func anchors(page string) map[string]bool {
	seen := map[string]int{}
	out := map[string]bool{}
	for _, l := range outsideFences(page) {
		m := heading.FindStringSubmatch(l.text)
		if m == nil {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if k := seen[a]; k > 0 {
			out[fmt.Sprintf("%s-%d", a, k)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// TestDocLinks checks every link of the README, CONTRIBUTING.md, the
// changelog and docs/ that stays in the repository: the file or folder it
// names is there, and so is the heading its #anchor names.
func TestDocLinks(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, p := range pages(t) {
		for _, l := range outsideFences(read(p)) {
			for _, m := range linkText.FindAllStringSubmatch(l.text, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				file, anchor, _ := strings.Cut(target, "#")
				path := p
				if file != "" {
					path = filepath.Join(filepath.Dir(p), file)
					if _, err := os.Stat(path); err != nil {
						t.Errorf("%s:%d: %s names nothing in the repository", p, l.n, target)
						continue
					}
				}
				if anchor != "" && strings.HasSuffix(path, ".md") && !anchors(read(path))[anchor] {
					t.Errorf("%s:%d: %s names no heading of %s", p, l.n, target, path)
				}
			}
		}
	}
}

// newcomer is the order of the README's first sections: the order a
// newcomer acts in.
var newcomer = []string{"Install", "Quick start", "Mock your own API", "Capabilities"}

// TestReadme checks the README's size, the order of its sections, and
// its table of contents: a "**Contents:**" line that links each of its
// sections, in their order.
func TestReadme(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	if n := strings.Count(page, "\n"); n >= readmeLines {
		t.Errorf("README.md has %d lines; keep it under %d and move reference into docs/", n, readmeLines)
	}
	var sections []string
	for _, l := range strings.Split(page, "\n") {
		if s, ok := strings.CutPrefix(l, "## "); ok {
			sections = append(sections, s)
		}
	}
	if len(sections) < len(newcomer) || !slices.Equal(sections[:len(newcomer)], newcomer) {
		t.Errorf("the README's sections are %q; the first should be %q", sections, newcomer)
	}
	_, toc, found := strings.Cut(page, "**Contents:**")
	if !found {
		t.Fatal("README.md has no **Contents:** line")
	}
	toc, _, _ = strings.Cut(toc, "\n\n")
	listed := regexp.MustCompile(`\[([^\]]+)\]\(#([^)]+)\)`).FindAllStringSubmatch(toc, -1)
	var got []string
	for _, m := range listed {
		got = append(got, m[1])
	}
	if strings.Join(got, " · ") != strings.Join(sections, " · ") {
		t.Errorf("the contents list %q; the sections are %q", got, sections)
	}
}

// goMarker marks a Go block of the docs that is a whole test file, which
// TestDocGoExamples runs as a user's module would.
const goMarker = "<!-- example: go test -->"

// TestDocGoExamples runs each Go block of the docs marked with goMarker
// as the test file of a package of its own, in a module that requires
// this one (replaced by this checkout, with its go.sum, and no network).
func TestDocGoExamples(t *testing.T) {
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile("go.sum")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for _, p := range pages(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		for i, l := range lines {
			if l != goMarker {
				continue
			}
			if i+1 >= len(lines) || lines[i+1] != "```go" {
				t.Fatalf("%s:%d: the marker is not followed by a ```go block", p, i+1)
			}
			end := slices.Index(lines[i+2:], "```")
			if end < 0 {
				t.Fatalf("%s:%d: the ```go block is not closed", p, i+2)
			}
			n++
			write(fmt.Sprintf("e%d/example_test.go", n), fmt.Sprintf("// %s:%d\n", p, i+1)+strings.Join(lines[i+2:i+2+end], "\n")+"\n")
		}
	}
	if n == 0 {
		t.Fatal("no Go block of the docs is marked " + goMarker)
	}
	write("go.mod", "module example.com/docexamples\n\ngo 1.26.8\n\nrequire "+module+" v0.0.0\n\nreplace "+module+" => "+root+"\n")
	write("go.sum", string(sum))
	cmd := exec.Command("go", "test", "-count=1", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("the Go examples of the docs fail (%v):\n%s", err, out)
	}
}
