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
	refusal := "cannot read --spec: " + empty + ": an empty file, not a document (leave --spec out for the embedded Plant Store)"
	tests := []struct {
		name string
		args []string
		want string // the whole of stderr
	}{
		{"serve", []string{"--addr", "127.0.0.1:0", "--spec", empty}, "plantmock: " + refusal + "\n"},
		{"serve two documents", []string{"--addr", "127.0.0.1:0", "--spec", "/a=" + empty, "--spec", "/b=" + empty}, "plantmock: " + refusal + "\n"},
		{"check", []string{"check", "--spec", empty}, "plantmock: " + refusal + "\n"},
		{"check --strict", []string{"check", "--strict", "--spec", empty}, "plantmock: " + refusal + "\n"},
		{"mcp", []string{"mcp", "--addr", "127.0.0.1:0", "--spec", empty}, "plantmock: " + refusal + "\n"},
		{"verify", []string{"verify", "--target", "http://127.0.0.1:1", "--spec", empty}, "plantmock verify: " + refusal + "; run plantmock verify --help\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The deadline only keeps a mock that serves from stalling the
			// run.
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, plantmockBinary(t), tt.args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Run()
			if ctx.Err() != nil {
				t.Fatalf("plantmock %v did not exit: it serves the empty file", tt.args)
			}
			if code := cmd.ProcessState.ExitCode(); code != 2 || stdout.Len() != 0 || stderr.String() != tt.want {
				t.Errorf("exit %d, stdout %q, stderr %q\nwant exit 2, stderr %q", code, stdout.String(), stderr.String(), tt.want)
			}
		})
	}
}
