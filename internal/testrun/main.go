// Command testrun runs the tests as go test does, and then says which
// tests were skipped and why, which go test shows only with -v: the
// tests of the Redis store without redis-server, the dashboard's without
// Chromium, the JSON Schema Test Suite's without a copy of the suite.
//
//	go run ./internal/testrun                 go test -race ./...
//	go run ./internal/testrun ./mock -run X   go test ./mock -run X
//
// With no arguments it runs `go test -race ./...`; arguments replace
// `-race ./...`. It prints each package's result line and the output of
// each failed test, as go test does, then "skipped: none" or each reason
// a test gave for skipping (which says how to run it) with the tests that
// gave it. It exits with go test's exit code.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

func main() {
	args := os.Args[1:]
	if len(args) == 0 {
		args = []string{"-race", "./..."}
	}
	os.Exit(run(args))
}

// run runs go test -json with args and reports on its events.
func run(args []string) int {
	cmd := exec.Command("go", append([]string{"test", "-json"}, args...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testrun:", err)
		return 2
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testrun:", err)
		return 2
	}
	module, _ := exec.Command("go", "list", "-m").Output()
	r := newReport(os.Stdout, strings.TrimSpace(string(module)))
	readErr := r.read(out)
	err = cmd.Wait()
	r.summary()
	if readErr != nil {
		fmt.Fprintln(os.Stderr, "testrun: reading go test's output:", readErr)
		return 2
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "testrun:", err)
		return 2
	}
	return 0
}
