package main

import (
	"bytes"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
)

// TestPreferFlag runs the binary with a default preference, from the
// flag (repeated) and from its variable: a create without Prefer gets a
// generated plant, the same for the same seed, and one whose own Prefer
// says dynamic=false is stored. A bad value is refused at start, in one
// line naming the flag, with exit 2.
func TestPreferFlag(t *testing.T) {
	generated := `{"name":"curios tax","tag":"also"}`
	for _, tt := range []struct {
		name string
		env  []string
		args []string
	}{
		{"the flag, repeated", nil, []string{"--prefer", "dynamic=true", "--prefer", "seed=7"}},
		{"the variable, with commas", []string{"PLANTMOCK_PREFER=dynamic=true, seed=7"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in, _ := start(t, tt.env, tt.args...)
			if code, body := preferPost(t, in.url, ""); code != 200 || body != generated {
				t.Errorf("without Prefer: %d %s; want 200 %s", code, body, generated)
			}
			if code, body := preferPost(t, in.url, "dynamic=false"); code != 200 || body != `{"name":"Fern"}` {
				t.Errorf("Prefer: dynamic=false: %d %s; want the plant stored", code, body)
			}
			if code, body := preferPost(t, in.url, "dynamic=false"); code != 400 || body != `{"error":40900,"message":"id 1 already exists in /plants"}` {
				t.Errorf("again: %d %s; want the duplicate refused, as the first was stored", code, body)
			}
			if code := in.stop(t); code != 0 {
				t.Errorf("exit %d; stderr: %s", code, in.stderr)
			}
		})
	}
	t.Run("refused at start", func(t *testing.T) {
		cmd := exec.Command(plantmockBinary(t), "--addr", "127.0.0.1:0", "--prefer", "code=abc")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		want := "plantmock: --prefer: code=abc is not an HTTP status; run plantmock --help\n"
		if code := cmd.ProcessState.ExitCode(); code != 2 || stdout.String() != "" || stderr.String() != want {
			t.Errorf("exit %d (%v), stdout %q, stderr %q; want exit 2 and %q", code, err, stdout.String(), stderr.String(), want)
		}
	})
}

// preferPost creates plant 1 with a Prefer header (none for "").
func preferPost(t *testing.T, url, prefer string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url+"/plants", strings.NewReader(`{"id":1,"name":"Fern"}`))
	req.Header.Set("Authorization", "Bearer any-token")
	req.Header.Set("Content-Type", "application/json")
	if prefer != "" {
		req.Header.Set("Prefer", prefer)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
