package main

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestCallbackToAdminAddr: the binary with --admin-addr refuses a
// callback aimed at its admin API's reset, and keeps what it stored.
func TestCallbackToAdminAddr(t *testing.T) {
	cmd := exec.Command(plantmockBinary(t), "--addr", "127.0.0.1:0", "--admin-addr", "127.0.0.1:0",
		"--spec", "../../examples/callbacks.yaml", "--webhook-retries", "0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	r := bufio.NewReader(stdout)
	var lines [2]string
	for i := range lines {
		if lines[i], err = r.ReadString('\n'); err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			close(done)
			t.Fatalf("start-up line %d: %v; stderr: %s", i+1, err, stderr.String())
		}
	}
	go func() { io.Copy(io.Discard, r); cmd.Wait(); close(done) }()
	api := regexp.MustCompile(`on (http://127\.0\.0\.1:\d+)\n$`).FindStringSubmatch(lines[0])
	admin := regexp.MustCompile(`^plantmock: admin API on (http://127\.0\.0\.1:\d+)/__admin/\n$`).FindStringSubmatch(lines[1])
	if api == nil || admin == nil {
		t.Fatalf("start-up lines %q", lines)
	}

	create := func() (int, string) {
		resp, err := http.Post(api[1]+"/plants", "application/json",
			strings.NewReader(`{"id":1,"name":"kept","callbackUrl":"`+admin[1]+`/__admin/reset"}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := create(); code != 201 || body != `{"id":1,"name":"kept"}` {
		t.Fatalf("create: %d %s", code, body)
	}
	want := `"error":"refused: address ` + strings.TrimPrefix(admin[1], "http://") + ` is the mock's own admin listener (` + strings.TrimPrefix(admin[1], "http://") + `): nothing the mock sends goes there"`
	var found string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) { // polling with a deadline
		resp, err := http.Post(admin[1]+"/__admin/requests/find", "application/json", strings.NewReader(`{"operation":"callback onPlant"}`))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if found = string(b); strings.Contains(found, `"attempt":1`) {
			break
		}
	}
	if !strings.Contains(found, want) {
		t.Errorf("the callback's journal entry: %s\nwant it to hold %s", found, want)
	}
	// The plant is still stored: creating it again conflicts (error
	// 40900, as the 400 the document declares).
	if code, body := create(); code != 400 || body != `{"error":40900,"message":"id 1 already exists in /plants"}` {
		t.Errorf("second create: %d %s\nwant 400 {\"error\":40900,...}: the store was reset", code, body)
	}
}
