package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// releaseFlag is one -X of .goreleaser.yaml's ldflags: a variable set to
// a template field.
var releaseFlag = regexp.MustCompile(`-X (\S+)=\{\{ \.(\w+) \}\}`)

// TestReleaseVersion builds plantmock with the -X flags of
// .goreleaser.yaml, the release's version and commit put in for its
// templates, and checks that plantmock version and the health call both
// name them: a renamed variable would leave a release saying 0.1.0.
func TestReleaseVersion(t *testing.T) {
	config, err := os.ReadFile("../../.goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]string{"Version": "1.2.3", "FullCommit": "fedcba9876543210fedcba9876543210fedcba98"}
	var flags []string
	for _, m := range releaseFlag.FindAllStringSubmatch(string(config), -1) {
		v, ok := values[m[2]]
		if !ok {
			t.Fatalf(".goreleaser.yaml sets %s to {{ .%s }}, which this test does not know", m[1], m[2])
		}
		flags = append(flags, "-X", m[1]+"="+v)
	}
	if len(flags) != 4 {
		t.Fatalf(".goreleaser.yaml's -X flags: %q, want the version and the commit", flags)
	}
	bin := filepath.Join(t.TempDir(), "plantmock")
	build := exec.Command("go", "build", "-buildvcs=false", "-ldflags", strings.Join(flags, " "), "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if want := "plantmock 1.2.3 (commit fedcba987654, " + runtime.Version() + ")\n"; err != nil || string(out) != want {
		t.Errorf("plantmock version: %v %q, want %q", err, out, want)
	}

	cmd := exec.Command(bin, "--addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	m := listening.FindStringSubmatch(strings.TrimSpace(line))
	if err != nil || m == nil {
		t.Fatalf("start-up line %q: %v", line, err)
	}
	resp, err := http.Get(m[2] + "/__admin/health")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := `{"spec":"OpenAPI Plant Store 1.0.0","status":"ok","store":"memory","version":"1.2.3"}`; resp.StatusCode != 200 || string(body) != want {
		t.Errorf("health: %d %s, want 200 %s", resp.StatusCode, body, want)
	}
}
