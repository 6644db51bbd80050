// Command oasdiffsuite holds plantmock diff to oasdiff's own test data:
// every data/checker/X_base.yaml and X_revision.yaml pair of oasdiff,
// pinned on the Go module proxy, is given to oasdiff breaking --fail-on
// ERR and to plantmock diff (built from this tree), and the two verdicts
// "breaks clients or not" are compared.
//
//	go run ./internal/oasdiffsuite
//
// A pair where they disagree must be listed, with both verdicts and its
// reason, in the table of the section of docs/diff.md that
// exceptionsHeading names: the decided disagreements. It exits 1 on a
// disagreement not listed, or a listed pair whose verdicts are no longer
// the ones listed (they agree now, or either changed), 2 when it cannot
// run. Pairs one tool cannot load are counted apart.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/plantmock/plantmock/internal/peersuite"
)

const (
	module            = "github.com/oasdiff/oasdiff@v1.39.0"
	docs              = "docs/diff.md"
	exceptionsHeading = "### Where plantmock answers differently from oasdiff"
)

func main() {
	code, err := run()
	if err != nil {
		fmt.Fprintln(os.Stderr, "oasdiffsuite:", err)
		os.Exit(2)
	}
	os.Exit(code)
}

func run() (int, error) {
	exceptions, err := readExceptions(docs)
	if err != nil {
		return 0, err
	}
	work, err := os.MkdirTemp("", "oasdiffsuite")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(work)
	dir, err := peersuite.Download(module)
	if err != nil {
		return 0, err
	}
	src := filepath.Join(work, "oasdiff")
	if err := os.CopyFS(src, os.DirFS(dir)); err != nil {
		return 0, err
	}
	oasdiff := filepath.Join(work, "oasdiff-bin")
	build := exec.Command("go", "build", "-o", oasdiff, ".")
	build.Dir = src
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("building oasdiff: %v\n%s", err, out)
	}
	plantmock := filepath.Join(work, "plantmock")
	if out, err := exec.Command("go", "build", "-o", plantmock, "./cmd/plantmock").CombinedOutput(); err != nil {
		return 0, fmt.Errorf("building plantmock: %v\n%s", err, out)
	}
	bases, err := filepath.Glob(filepath.Join(dir, "data", "checker", "*_base.yaml"))
	if err != nil {
		return 0, err
	}
	sort.Strings(bases)
	agree, notLoaded := 0, 0
	var unlisted, stale []string
	reasons := map[string]int{}
	seen := map[string]bool{}
	for _, base := range bases {
		name := strings.TrimSuffix(filepath.Base(base), "_base.yaml")
		rev := strings.TrimSuffix(base, "_base.yaml") + "_revision.yaml"
		if _, err := os.Stat(rev); err != nil {
			continue
		}
		seen[name] = true
		oOut, oBreaks, oErr := verdict(oasdiff, []string{"breaking", base, rev, "--fail-on", "ERR"})
		pOut, pBreaks, pErr := verdict(plantmock, []string{"diff", base, rev})
		if oErr != nil || pErr != nil {
			notLoaded++
			fmt.Printf("not loaded %s: oasdiff %v, plantmock %v\n", name, oErr, pErr)
			continue
		}
		d, listed := exceptions[name]
		if listed && (d.oasdiff != oBreaks || d.plantmock != pBreaks) {
			stale = append(stale, fmt.Sprintf("%s is listed as oasdiff %s, plantmock %s; now oasdiff %s, plantmock %s",
				name, words(d.oasdiff), words(d.plantmock), words(oBreaks), words(pBreaks)))
		}
		if oBreaks == pBreaks {
			agree++
			continue
		}
		if listed {
			reasons[d.kind()]++
			continue
		}
		unlisted = append(unlisted, name)
		fmt.Printf("\n== %s (NOT LISTED): oasdiff %s, plantmock %s\n-- oasdiff:\n%s-- plantmock:\n%s", name, words(oBreaks), words(pBreaks), oOut, pOut)
	}
	for name := range exceptions {
		if !seen[name] {
			stale = append(stale, name+" is listed but oasdiff has no such pair")
		}
	}
	sort.Strings(stale)
	disagree := len(seen) - agree - notLoaded
	fmt.Printf("\n%d pairs of %s/data/checker, base to revision: %d agree, %d disagree (%d not listed in %s), %d not loaded\n",
		len(seen), module, agree, disagree, len(unlisted), docs, notLoaded)
	kinds := make([]string, 0, len(reasons))
	for k := range reasons {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		fmt.Printf("decided: %d %s\n", reasons[k], k)
	}
	for _, s := range stale {
		fmt.Printf("stale: %s\n", s)
	}
	if len(unlisted) > 0 || len(stale) > 0 {
		return 1, nil
	}
	return 0, nil
}

// verdict runs a tool: exit 0 is "does not break clients", exit 1
// "breaks clients", anything else a document the tool cannot load.
func verdict(bin string, args []string) (string, bool, error) {
	out, err := exec.Command(bin, args...).CombinedOutput()
	if err == nil {
		return string(out), false, nil
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 {
		return string(out), true, nil
	}
	return string(out), false, fmt.Errorf("%v: %s", err, firstLine(string(out)))
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// words is a verdict as the exceptions table writes it.
func words(breaks bool) string {
	if breaks {
		return "breaks clients"
	}
	return "no break"
}

// decision is a row of the exceptions table: the two verdicts it
// expects, and why they differ.
type decision struct {
	oasdiff, plantmock bool
	why                string
}

// kind is what the summary counts the decision under: the words before
// the first colon of its reason ("plantmock right", "policy",
// "pending").
func (d decision) kind() string {
	k, _, _ := strings.Cut(d.why, ":")
	return k
}

// exceptionRow is a row of the exceptions table: the pair in backticks,
// oasdiff's verdict, plantmock's and the reason.
var exceptionRow = regexp.MustCompile("^\\| `([A-Za-z0-9_-]+)` \\| (breaks clients|no break) \\| (breaks clients|no break) \\| (.+) \\|$")

// readExceptions reads the decisions listed in docs' exceptions section;
// no section yet means none. A row of the table that is not a decision
// is an error.
func readExceptions(path string) (map[string]decision, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseExceptions(string(data))
}

// parseExceptions reads the decisions of the exceptions section of doc.
func parseExceptions(doc string) (map[string]decision, error) {
	out := map[string]decision{}
	section, ok := peersuite.Section(doc, exceptionsHeading)
	if !ok {
		return out, nil
	}
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		m := exceptionRow.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("%s: a row of %q is not | `pair` | oasdiff's verdict | plantmock's | why |: %s", docs, exceptionsHeading, line)
		}
		if m[2] == m[3] {
			return nil, fmt.Errorf("%s: %s is listed with the same verdict twice", docs, m[1])
		}
		if _, dup := out[m[1]]; dup {
			return nil, fmt.Errorf("%s: %s is listed twice", docs, m[1])
		}
		out[m[1]] = decision{oasdiff: m[2] == "breaks clients", plantmock: m[3] == "breaks clients", why: m[4]}
	}
	return out, nil
}
