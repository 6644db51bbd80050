// Command oasdiffsuite holds plantmock diff to oasdiff's own test data:
// every data/checker/X_base.yaml and X_revision.yaml pair of oasdiff,
// pinned on the Go module proxy, is given to oasdiff breaking --fail-on
// ERR and to plantmock diff (built from this tree), and the two verdicts
// "breaks clients or not" are compared.
//
//	go run ./internal/oasdiffsuite
//
// A pair where they disagree must be listed, with its reason, in the
// section of docs/diff.md that exceptionsHeading names. It exits 1 on a
// disagreement not listed or a listed pair that now agrees, 2 when it
// cannot run. Pairs one tool cannot load are counted apart.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
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
	dir, err := download(module)
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
		if oBreaks == pBreaks {
			agree++
			if exceptions[name] {
				stale = append(stale, name)
			}
			continue
		}
		mark := "listed"
		if !exceptions[name] {
			mark = "NOT LISTED"
			unlisted = append(unlisted, name)
		}
		fmt.Printf("\n== %s (%s): oasdiff breaks clients %v, plantmock %v\n-- oasdiff:\n%s-- plantmock:\n%s", name, mark, oBreaks, pBreaks, oOut, pOut)
	}
	for name := range exceptions {
		if !seen[name] {
			stale = append(stale, name)
		}
	}
	sort.Strings(stale)
	disagree := len(seen) - agree - notLoaded
	fmt.Printf("\n%d pairs of %s/data/checker, base to revision: %d agree, %d disagree (%d not listed in %s), %d not loaded\n",
		len(seen), module, agree, disagree, len(unlisted), docs, notLoaded)
	for _, s := range stale {
		fmt.Printf("stale: %s is listed but the two agree (or no such pair)\n", s)
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

// download fetches a module from the module proxy into the module cache
// and returns its directory.
func download(module string) (string, error) {
	out, err := exec.Command("go", "mod", "download", "-json", module).Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %w", module, err)
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		return "", fmt.Errorf("go mod download %s: no directory (%v %s)", module, err, info.Error)
	}
	return info.Dir, nil
}

// exceptionRow is a row of the exceptions table: its first cell names
// the pair, in backticks.
var exceptionRow = regexp.MustCompile("^\\| `([A-Za-z0-9_-]+)` \\|")

// readExceptions reads the pairs listed in docs' exceptions section; no
// section yet means no exceptions.
func readExceptions(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	_, section, ok := strings.Cut(string(data), "\n"+exceptionsHeading+"\n")
	if !ok {
		return out, nil
	}
	if end := strings.Index(section, "\n#"); end >= 0 {
		section = section[:end]
	}
	for _, line := range strings.Split(section, "\n") {
		if m := exceptionRow.FindStringSubmatch(line); m != nil {
			out[m[1]] = true
		}
	}
	return out, nil
}
