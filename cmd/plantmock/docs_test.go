package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A docExample is a shell example of the docs marked runnable: the line
//
//	<!-- example: plantmock ARGS -->
//
// then a ```sh block, run against a mock started with ARGS, then a
// fenced block of what it prints.
type docExample struct {
	file    string
	line    int      // of the marker
	args    []string // the mock's arguments
	command string
	output  string
}

func (e docExample) String() string { return fmt.Sprintf("%s:%d", e.file, e.line) }

var exampleMarker = regexp.MustCompile(`^<!-- example: plantmock(.*?) -->$`)

// docExamples reads the runnable examples of a Markdown file. A marker
// not followed by a command block and an output block is an error.
func docExamples(file string, text string) ([]docExample, error) {
	var out []docExample
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		m := exampleMarker.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		e := docExample{file: file, line: i + 1, args: strings.Fields(m[1])}
		var ok bool
		if e.command, i, ok = fencedBlock(lines, i+1, "```sh"); !ok {
			return nil, fmt.Errorf("%s: the marker is not followed by a ```sh block", e)
		}
		if e.output, i, ok = fencedBlock(lines, i+1, "```"); !ok {
			return nil, fmt.Errorf("%s: the command is not followed by a ``` block of its output", e)
		}
		out = append(out, e)
	}
	return out, nil
}

// fencedBlock reads the fenced block that opens at lines[at] with open;
// it returns its text and the index of its closing line.
func fencedBlock(lines []string, at int, open string) (string, int, bool) {
	if at >= len(lines) || lines[at] != open {
		return "", at, false
	}
	for j := at + 1; j < len(lines); j++ {
		if lines[j] == "```" {
			return strings.Join(lines[at+1:j], "\n") + "\n", j, true
		}
	}
	return "", at, false
}

// dateLine matches the Date header of an answer, which differs on every
// run.
var dateLine = regexp.MustCompile(`(?m)^Date: .*$`)

// normalize makes an example's output comparable: line ends as on the
// page, one at the end (curl prints none after a body), and any Date
// header the same.
func normalize(s string) string {
	s = strings.TrimRight(strings.ReplaceAll(s, "\r\n", "\n"), "\n") + "\n"
	return dateLine.ReplaceAllString(s, "Date: (any)")
}

// runExample starts a mock as the example says, runs its command against
// it, both from the repository's root (where the docs' file names start),
// with the built plantmock first on PATH, and returns what the command
// printed, the mock's address written as the page writes it
// (127.0.0.1:4010).
func runExample(t *testing.T, e docExample) string {
	t.Helper()
	in, _ := startIn(t, "../..", nil, e.args...)
	addr := strings.TrimPrefix(in.url, "http://")
	cmd := strings.NewReplacer("127.0.0.1:4010", addr, "localhost:4010", addr).Replace(e.command)
	c := exec.Command("bash", "-o", "pipefail", "-c", cmd)
	c.Dir = "../.."
	c.Env = append(os.Environ(), "PATH="+filepath.Dir(plantmockBinary(t))+string(os.PathListSeparator)+os.Getenv("PATH"))
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		t.Fatalf("%s: %v; stderr: %s", e, err, stderr.String())
	}
	if code := in.stop(t); code != 0 {
		t.Errorf("%s: the mock exited %d; stderr: %s", e, code, in.stderr)
	}
	return strings.ReplaceAll(string(out), addr, "127.0.0.1:4010")
}

// docFiles are the files whose examples run: the README and docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"../../README.md"}, files...)
}

// TestDocExamples runs every example of the README and docs/ marked
// runnable, against a mock started as its marker says, and compares what
// it prints with the output shown after it.
func TestDocExamples(t *testing.T) {
	var all []docExample
	for _, f := range docFiles(t) {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		es, err := docExamples(strings.TrimPrefix(f, "../../"), string(text))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, es...)
	}
	if len(all) == 0 {
		t.Fatal("no runnable examples found: the markers are gone")
	}
	for _, e := range all {
		t.Run(e.String(), func(t *testing.T) {
			got := normalize(runExample(t, e))
			if want := normalize(e.output); got != want {
				t.Errorf("%s prints\n%s\nthe page shows\n%s", e, got, want)
			}
		})
	}
}

// TestDocExampleWrongOutput checks that the comparison catches a shown
// output edited to something wrong: the README's first example, with one
// character of its body changed.
func TestDocExampleWrongOutput(t *testing.T) {
	text, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	es, err := docExamples("README.md", string(text))
	if err != nil || len(es) == 0 {
		t.Fatalf("the README has no runnable example: %v", err)
	}
	e := es[0]
	got := normalize(runExample(t, e))
	if got != normalize(e.output) {
		t.Fatalf("%s does not print what the page shows", e)
	}
	wrong := strings.Replace(e.output, `"`, `'`, 1)
	if wrong == e.output || normalize(wrong) == got {
		t.Errorf("an edited output still matches: %q", wrong)
	}
}

// TestDocExamplesParse checks how markers are read, and that a marker
// without its blocks is an error rather than an example skipped.
func TestDocExamplesParse(t *testing.T) {
	page := "text\n<!-- example: plantmock --token a -->\n```sh\ncurl -s x\n```\n```\n{}\n```\n"
	es, err := docExamples("p.md", page)
	if err != nil || len(es) != 1 || es[0].line != 2 || strings.Join(es[0].args, " ") != "--token a" || es[0].command != "curl -s x\n" || es[0].output != "{}\n" {
		t.Errorf("read %+v, %v", es, err)
	}
	for name, bad := range map[string]string{
		"no command":  "<!-- example: plantmock -->\ntext\n",
		"no output":   "<!-- example: plantmock -->\n```sh\ncurl x\n```\ntext\n",
		"not closed":  "<!-- example: plantmock -->\n```sh\ncurl x\n",
		"output open": "<!-- example: plantmock -->\n```sh\ncurl x\n```\n```\n{}\n",
	} {
		if _, err := docExamples("p.md", bad); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// normalize leaves everything but line ends and the Date header alone.
	if got := normalize("HTTP/1.1 200 OK\r\nDate: Fri, 27 Nov 2026 04:28:06 GMT\r\n\r\n{}"); got != "HTTP/1.1 200 OK\nDate: (any)\n\n{}\n" {
		t.Errorf("normalize: %q", got)
	}
}
