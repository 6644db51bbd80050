//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plantmock/plantmock"
)

// TestNamedPipesRefused: a named pipe given as the document, the seed
// data, the scenario folder or a scenario file is refused at once with
// one line naming it and exit code 2, by serve and by check; reading it
// would wait for a writer that never comes.
func TestNamedPipesRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	scenarios := filepath.Join(dir, "scenarios")
	if err := os.Mkdir(scenarios, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(scenarios, "a.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string // the whole of stderr
	}{
		{"check --spec", []string{"check", "--spec", fifo}, "plantmock: cannot read --spec: " + fifo + ": not a regular file but a named pipe\n"},
		{"check --scenarios", []string{"check", "--scenarios", fifo}, "plantmock: cannot read --scenarios: " + fifo + ": not a regular file but a named pipe\n"},
		{"check a scenario file", []string{"check", "--scenarios", scenarios}, "plantmock: scenarios do not fit embedded Plant Store:\n" + scenarios + "/a.yaml: not a regular file but a named pipe\n"},
		{"check --traffic", []string{"check", "--traffic", fifo}, "plantmock check: cannot read --traffic: " + fifo + ": not a regular file but a named pipe\n"},
		{"--spec", []string{"--addr", "127.0.0.1:0", "--spec", fifo}, "plantmock: cannot read --spec: " + fifo + ": not a regular file but a named pipe\n"},
		{"--seed-data", []string{"--addr", "127.0.0.1:0", "--seed-data", fifo}, "plantmock: cannot read --seed-data: " + fifo + ": not a regular file but a named pipe\n"},
		{"--spec a device", []string{"--addr", "127.0.0.1:0", "--spec", os.DevNull}, "plantmock: cannot read --spec: " + os.DevNull + ": not a regular file but a character device\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The deadline only keeps a hang from stalling the run.
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, plantmockBinary(t), tt.args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Run()
			if ctx.Err() != nil {
				t.Fatalf("plantmock %s did not exit: it waits on the named pipe", strings.Join(tt.args, " "))
			}
			if code := cmd.ProcessState.ExitCode(); code != 2 || stdout.Len() != 0 || stderr.String() != tt.want {
				t.Errorf("exit %d, stdout %q, stderr %q\nwant exit 2, stderr %q", code, stdout.String(), stderr.String(), tt.want)
			}
		})
	}
}

// TestWatchNamedPipe: under --watch, a named pipe put in place of the
// document is reported in one log line and in the reload status, the
// previous document still serving; when a regular file comes back, it
// is reloaded.
func TestWatchNamedPipe(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "openapi.yaml")
	if err := os.WriteFile(spec, []byte(plantmock.OpenAPI), 0o644); err != nil {
		t.Fatal(err)
	}
	in, _ := start(t, nil, "--watch", "--spec", spec)
	if err := os.Remove(spec); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(spec, 0o644); err != nil {
		t.Fatal(err)
	}
	problem := `"problem":"cannot read --spec: ` + spec + `: not a regular file but a named pipe"`
	eventually(t, "the named pipe reported", func() string {
		if _, _, body := get(t, in.url+"/__admin/reload"); !strings.Contains(body, problem) {
			return body
		}
		return ""
	})
	if code, body := post(t, in.url, "t", `{"id":1,"name":"Fern"}`); code != 200 || body != `{"name":"Fern"}` {
		t.Errorf("a create while the named pipe is there: %d %s", code, body)
	}

	// A regular file again.
	tmp := filepath.Join(dir, "new.yaml")
	if err := os.WriteFile(tmp, []byte(plantmock.OpenAPI), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, spec); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the regular file reloaded", func() string {
		if _, _, body := get(t, in.url+"/__admin/reload"); strings.Contains(body, "problem") || !strings.Contains(body, `"reloads":1`) {
			return body
		}
		return ""
	})
	if code := in.stop(t); code != 0 {
		t.Errorf("exit %d", code)
	}
	if n := strings.Count(in.stderr.String(), "not a regular file"); n != 1 {
		t.Errorf("%d log lines name the named pipe, want 1:\n%s", n, in.stderr)
	}
}
