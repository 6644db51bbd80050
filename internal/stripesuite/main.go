// Command stripesuite runs stripe-go's own test suite against plantmock
// serving Stripe's published description, as a user standing plantmock
// in for stripe-mock would, and fails on any test that fails but the
// exceptions docs/answers.md lists, each with its reason.
//
//	go run ./internal/stripesuite
//
// Both come from the Go module proxy, pinned: stripe-go (its tests
// expect stripe-mock) and stripe-mock, whose module embeds the
// description of the same API version (spec3.json, as Stripe publishes
// it). plantmock is built from this tree and started on a free loopback
// port with --prefer dynamic=true,seed=1, nothing else: the seed makes
// each run's generated answers, and so its result, the same. The
// suite's harness asks for HTTPS with HTTP/2 and a Stripe-Mock-Version
// header on its first request, which no document declares: a TLS front
// started here gives both and passes everything else through unchanged.
//
// It prints each package's result, the output of every failed test, the
// listed exceptions that failed and those that passed, and a summary
// line. It exits 1 when a test not listed fails or a package does not
// build, 2 when it cannot run.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/plantmock/plantmock/internal/peersuite"
)

const (
	// sdk is stripe-go at the version whose API version (2025-11-17.clover)
	// is that of the description below.
	sdk = "github.com/stripe/stripe-go/v84@v84.0.0"
	// description is the module that embeds Stripe's description of that
	// API version, at embedded/openapi/spec3.json.
	description = "github.com/stripe/stripe-mock@v0.199.0"
	// docs lists the exceptions, in the section that names exceptionsHeading.
	docs              = "docs/answers.md"
	exceptionsHeading = "### Standing in for Stripe's mock"
)

func main() {
	code, err := run()
	if err != nil {
		fmt.Fprintln(os.Stderr, "stripesuite:", err)
		os.Exit(2)
	}
	os.Exit(code)
}

func run() (int, error) {
	exceptions, err := readExceptions(docs)
	if err != nil {
		return 0, err
	}
	work, err := os.MkdirTemp("", "stripesuite")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(work)

	sdkDir, err := peersuite.Download(sdk)
	if err != nil {
		return 0, err
	}
	descDir, err := peersuite.Download(description)
	if err != nil {
		return 0, err
	}
	suite := filepath.Join(work, "stripe-go")
	if err := os.CopyFS(suite, os.DirFS(sdkDir)); err != nil {
		return 0, fmt.Errorf("copying %s: %w", sdk, err)
	}

	bin := filepath.Join(work, "plantmock")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/plantmock").CombinedOutput(); err != nil {
		return 0, fmt.Errorf("building plantmock: %v\n%s", err, out)
	}
	mock, err := start(bin, filepath.Join(descDir, "embedded", "openapi", "spec3.json"), filepath.Join(work, "plantmock.log"))
	if err != nil {
		return 0, err
	}
	defer mock.stop()

	front := httptest.NewUnstartedServer(frontOf(mock.url))
	front.EnableHTTP2 = true
	front.StartTLS()
	defer front.Close()
	port := front.URL[strings.LastIndexByte(front.URL, ':')+1:]
	fmt.Printf("stripe-go's suite (%s) against plantmock serving %s/embedded/openapi/spec3.json on %s, through %s\n", sdk, description, mock.url, front.URL)

	cmd := exec.Command("go", "test", "-json", "-count=1", "./...")
	cmd.Dir = suite
	cmd.Env = append(os.Environ(), "STRIPE_MOCK_PORT="+port, "GOFLAGS=-mod=mod")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	r := newReport(os.Stdout, exceptions)
	readErr := r.read(out)
	waitErr := cmd.Wait()
	if readErr != nil {
		return 0, fmt.Errorf("reading go test's output: %w", readErr)
	}
	var exit *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exit) {
		return 0, waitErr
	}
	code := r.summary()
	if code != 0 {
		if log, err := os.ReadFile(mock.log); err == nil {
			fmt.Printf("\nplantmock's log, its last lines:\n%s\n", tail(log, 40))
		}
	}
	return code, nil
}

// mockProcess is a plantmock this command started.
type mockProcess struct {
	cmd  *exec.Cmd
	url  string
	log  string
	done chan struct{}
}

// start serves spec with plantmock on a free loopback port and waits for
// its start-up line, which gives the address.
func start(bin, spec, log string) (*mockProcess, error) {
	logFile, err := os.Create(log)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "--spec", spec, "--addr", "127.0.0.1:0", "--prefer", "dynamic=true,seed=1", "--max-body", "16MiB")
	cmd.Stderr = logFile
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		logFile.Close()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, err
	}
	m := &mockProcess{cmd: cmd, log: log, done: make(chan struct{})}
	lines := bufio.NewScanner(stdout)
	if lines.Scan() {
		if _, after, ok := strings.Cut(lines.Text(), " on "); ok && strings.HasPrefix(after, "http://") {
			m.url = after
		}
	}
	go func() {
		io.Copy(io.Discard, stdout)
		cmd.Wait()
		logFile.Close()
		close(m.done)
	}()
	if m.url == "" {
		m.stop()
		got, _ := os.ReadFile(log)
		return nil, fmt.Errorf("plantmock did not start: %q\n%s", lines.Text(), got)
	}
	return m, nil
}

// stop ends the process and waits for it.
func (m *mockProcess) stop() {
	m.cmd.Process.Signal(os.Interrupt)
	select {
	case <-m.done:
	case <-time.After(10 * time.Second):
		m.cmd.Process.Kill()
		<-m.done
	}
}

// frontOf passes every request to the mock at target and adds the header
// by which the suite's harness knows a stripe-mock ("master" passes its
// version check).
func frontOf(target string) http.Handler {
	u, _ := url.Parse(target)
	p := httputil.NewSingleHostReverseProxy(u)
	p.ModifyResponse = func(r *http.Response) error {
		r.Header.Set("Stripe-Mock-Version", "master")
		return nil
	}
	return p
}

// exceptionRow is a row of the exceptions table: | `TestName` | why |.
var exceptionRow = regexp.MustCompile("^\\| `(Test[A-Za-z0-9_]+)` \\|")

// readExceptions returns the tests the section of docs under
// exceptionsHeading lists, which may fail.
func readExceptions(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	section, ok := peersuite.Section(string(data), exceptionsHeading)
	if !ok {
		return nil, fmt.Errorf("%s has no section %q", path, exceptionsHeading)
	}
	out := map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		if m := exceptionRow.FindStringSubmatch(line); m != nil {
			out[m[1]] = true
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: the section %q lists no test", path, exceptionsHeading)
	}
	return out, nil
}

// event is one line of go test -json.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// report gathers go test's events.
type report struct {
	w          io.Writer
	exceptions map[string]bool
	output     map[string]*bytes.Buffer // by package and test
	failed     []string                 // tests not listed that failed, as package.Test
	excused    []string                 // listed tests that failed
	passedExc  []string                 // listed tests that passed
	broken     []string                 // packages that failed outside any test (a build failure)
	pkgFailed  map[string]bool          // packages with a failed test
	tests      int
}

func newReport(w io.Writer, exceptions map[string]bool) *report {
	return &report{w: w, exceptions: exceptions, output: map[string]*bytes.Buffer{}, pkgFailed: map[string]bool{}}
}

// read reads go test's events until its output ends.
func (r *report) read(in io.Reader) error {
	dec := json.NewDecoder(in)
	for {
		var e event
		if err := dec.Decode(&e); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		key := e.Package + "." + e.Test
		switch e.Action {
		case "output":
			b := r.output[key]
			if b == nil {
				b = &bytes.Buffer{}
				r.output[key] = b
			}
			b.WriteString(e.Output)
			if e.Test == "" && (strings.HasPrefix(e.Output, "ok ") || strings.HasPrefix(e.Output, "FAIL\t") || strings.HasPrefix(e.Output, "?")) {
				fmt.Fprint(r.w, e.Output)
			}
		case "pass":
			if e.Test != "" && !strings.Contains(e.Test, "/") {
				r.tests++
				if r.exceptions[e.Test] {
					r.passedExc = append(r.passedExc, e.Test)
				}
			}
		case "fail":
			switch {
			case e.Test == "":
				if !r.pkgFailed[e.Package] {
					r.broken = append(r.broken, e.Package)
				}
			case strings.Contains(e.Test, "/"):
			default:
				r.tests++
				r.pkgFailed[e.Package] = true
				if r.exceptions[e.Test] {
					r.excused = append(r.excused, e.Test)
					continue
				}
				r.failed = append(r.failed, key)
			}
		}
	}
}

// summary prints what failed and returns the exit code.
func (r *report) summary() int {
	for _, key := range r.failed {
		fmt.Fprintf(r.w, "\n--- %s failed:\n%s", key, r.output[key])
	}
	for _, pkg := range r.broken {
		fmt.Fprintf(r.w, "\n--- package %s failed outside its tests:\n%s", pkg, r.output[pkg+"."])
	}
	slices.Sort(r.excused)
	slices.Sort(r.passedExc)
	fmt.Fprintf(r.w, "\nlisted in %s and failed: %s\n", docs, orNone(r.excused))
	fmt.Fprintf(r.w, "listed in %s and passed: %s\n", docs, orNone(r.passedExc))
	fmt.Fprintf(r.w, "%d tests: %d failed that are not listed, %d packages failed outside their tests\n", r.tests, len(r.failed), len(r.broken))
	if len(r.failed) > 0 || len(r.broken) > 0 || r.tests == 0 {
		return 1
	}
	return 0
}

func orNone(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, ", ")
}

// tail returns the last n lines of b.
func tail(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
