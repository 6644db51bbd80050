package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestEmptySpecRefused: a --spec file of 0 bytes is refused with one
// line and exit code 2 by every command that reads one. It used to
// serve, check and verify the embedded Plant Store, as an empty
// Options.Spec still does for Go users (issue 61).
func TestEmptySpecRefused(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.yaml")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	refused := "cannot read --spec: " + empty + ": an empty file, not a document (leave --spec out for the embedded Plant Store)"
	tests := []refusal{
		{name: "serve", args: []string{"--addr", "127.0.0.1:0", "--spec", empty}, want: "plantmock: " + refused + "\n"},
		{name: "serve two documents", args: []string{"--addr", "127.0.0.1:0", "--spec", "/a=" + empty, "--spec", "/b=" + empty}, want: "plantmock: " + refused + "\n"},
		{name: "check", args: []string{"check", "--spec", empty}, want: "plantmock: " + refused + "\n"},
		{name: "check --strict", args: []string{"check", "--strict", "--spec", empty}, want: "plantmock: " + refused + "\n"},
		{name: "mcp", args: []string{"mcp", "--addr", "127.0.0.1:0", "--spec", empty}, want: "plantmock: " + refused + "\n"},
		{name: "verify", args: []string{"verify", "--target", "http://127.0.0.1:1", "--spec", empty}, want: "plantmock verify: " + refused + "; run plantmock verify --help\n"},
	}
	runRefusals(t, tests)
}

// refusal is a run of the binary that must exit 2 at once, printing
// nothing on stdout and want, the whole of stderr.
type refusal struct {
	name string
	args []string
	want string
	env  []string // besides the test's own environment
}

// runRefusals runs each refusal; one that serves instead is stopped
// after a minute and fails.
func runRefusals(t *testing.T, tests []refusal) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The deadline only keeps a mock that serves from stalling the
			// run.
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, plantmockBinary(t), tt.args...)
			cmd.Env = append(os.Environ(), tt.env...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Run()
			if ctx.Err() != nil {
				t.Fatalf("plantmock %v did not exit: it serves", tt.args)
			}
			if code := cmd.ProcessState.ExitCode(); code != 2 || stdout.Len() != 0 || stderr.String() != tt.want {
				t.Errorf("exit %d, stdout %q, stderr %q\nwant exit 2, stderr %q", code, stdout.String(), stderr.String(), tt.want)
			}
		})
	}
}
