package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json's TestEvent, and
// the build events go test writes among them).
type event struct {
	Action     string
	Package    string
	ImportPath string // of build-output events
	Test       string
	Output     string
}

// report reads the events of go test -json and writes what go test
// writes without -v: each package's result line, build errors, and the
// whole output of each failed test; then each skipped test, grouped by
// the reason it gave.
type report struct {
	w       io.Writer
	module  string              // the module's path, left out of package names
	running map[string][]string // a running test's output lines, by package and test
	skipped map[string][]string // skipped tests ("pkg TestX"), by reason
}

func newReport(w io.Writer, module string) *report {
	return &report{w: w, module: module, running: map[string][]string{}, skipped: map[string][]string{}}
}

// read consumes events until r ends. A line that is not an event is
// passed through as it is.
func (r *report) read(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			fmt.Fprintln(r.w, sc.Text())
			continue
		}
		r.event(e)
	}
	return sc.Err()
}

func (r *report) event(e event) {
	key := e.Package + " " + e.Test
	switch {
	case e.Action == "build-output":
		fmt.Fprint(r.w, e.Output)
	case e.Test == "" && e.Action == "output":
		// The package's own lines: its ok/FAIL line, panics outside a
		// test; "PASS" and "FAIL" alone repeat what its line says.
		if e.Output != "PASS\n" && e.Output != "FAIL\n" {
			fmt.Fprint(r.w, e.Output)
		}
	case e.Test == "" && e.Action == "fail":
		// A test binary that died leaves its running tests unended:
		// their output says why.
		var left []string
		for k := range r.running {
			if strings.HasPrefix(k, e.Package+" ") {
				left = append(left, k)
			}
		}
		sort.Strings(left)
		for _, k := range left {
			fmt.Fprint(r.w, strings.Join(r.running[k], ""))
			delete(r.running, k)
		}
	case e.Test == "":
	case e.Action == "output":
		// Without -v, go test shows a failed test's lines without its
		// "=== RUN", "=== PAUSE" and "=== CONT" lines.
		if !strings.HasPrefix(e.Output, "=== ") {
			r.running[key] = append(r.running[key], e.Output)
		}
	case e.Action == "fail":
		fmt.Fprint(r.w, strings.Join(r.running[key], ""))
		delete(r.running, key)
	case e.Action == "skip":
		why := skipReason(r.running[key])
		pkg := e.Package
		if rest, ok := strings.CutPrefix(pkg, r.module+"/"); ok && r.module != "" {
			pkg = "./" + rest
		}
		r.skipped[why] = append(r.skipped[why], e.Test+" ("+pkg+")")
		delete(r.running, key)
	case e.Action == "pass":
		delete(r.running, key)
	}
}

// skipReason is what a skipped test logged last before its
// "--- SKIP" line, without the file and line: the reason t.Skip gave.
func skipReason(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "--- SKIP") {
			continue
		}
		if _, after, ok := strings.Cut(l, ": "); ok && strings.Contains(l[:len(l)-len(after)], ".go:") {
			return after
		}
		return l
	}
	return "no reason given"
}

// summary writes the skipped tests, grouped by reason, and returns how
// many there were.
func (r *report) summary() int {
	reasons := make([]string, 0, len(r.skipped))
	n := 0
	for why, tests := range r.skipped {
		reasons = append(reasons, why)
		n += len(tests)
	}
	if n == 0 {
		fmt.Fprintln(r.w, "skipped: none")
		return 0
	}
	sort.Strings(reasons)
	fmt.Fprintf(r.w, "skipped: %d %s, by the reason each gave:\n", n, plural(n, "test"))
	for _, why := range reasons {
		tests := r.skipped[why]
		sort.Strings(tests)
		shown := tests
		if len(shown) > 3 {
			shown = shown[:3]
		}
		more := ""
		if len(tests) > len(shown) {
			more = fmt.Sprintf(" and %d more", len(tests)-len(shown))
		}
		fmt.Fprintf(r.w, "  %s: %s%s\n", why, strings.Join(shown, ", "), more)
	}
	return n
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
