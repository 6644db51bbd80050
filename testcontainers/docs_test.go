package plantmock_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goBlock is the Go example of docs/testcontainers.md: a whole test file.
var goBlock = regexp.MustCompile("(?s)\n```go\n(.*?)\n```\n")

// TestDocExample runs the Go example of docs/testcontainers.md as a
// user's module would: its test file in a module that requires this one
// (replaced by this checkout, with its go.sum, and no network), with the
// repository's openapi.yaml and scenario beside it, against the image
// the tests use instead of the released one.
func TestDocExample(t *testing.T) {
	requireRuntime(t)
	page, err := os.ReadFile("../docs/testcontainers.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := goBlock.FindAllStringSubmatch(string(page), -1)
	if len(blocks) != 1 {
		t.Fatalf("docs/testcontainers.md has %d ```go blocks, not 1", len(blocks))
	}
	const released = `"ghcr.io/plantmock/plantmock:latest"`
	example := blocks[0][1] + "\n"
	if !strings.Contains(example, released) {
		t.Fatalf("the example does not start %s", released)
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile("go.sum")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string]string{
		"example_test.go": strings.Replace(example, released, `"`+image()+`"`, 1),
		"go.mod": "module example.com/docexample\n\ngo 1.26.8\n\n" +
			"require github.com/plantmock/plantmock/testcontainers v0.0.0\n\n" +
			"replace github.com/plantmock/plantmock/testcontainers => " + root + "\n",
		"go.sum": string(sum),
	}
	for _, f := range []string{"openapi.yaml", "scenarios/first-create-fails.yaml"} {
		b, err := os.ReadFile("../" + f)
		if err != nil {
			t.Fatal(err)
		}
		files[f] = string(b)
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "test", "-count=1", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("the Go example of docs/testcontainers.md fails (%v):\n%s", err, out)
	}
}
