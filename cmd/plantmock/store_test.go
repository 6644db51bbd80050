package main

import (
	"bufio"
	"os/exec"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/internal/redistest"
)

// TestStoreFlags: with --store the state is in Redis, where a second
// process sees it; start-up against a Redis that does not answer fails
// with one line and exit 2, or waits for it with --store-wait; the health
// command says why the mock is unhealthy.
func TestStoreFlags(t *testing.T) {
	srv := redistest.NewServer(t)
	url := srv.URL(0)
	a, title := start(t, nil, "--store", url)
	b, _ := start(t, []string{"PLANTMOCK_STORE=" + url})
	// c has an admin token given as a flag, which its health check may not know.
	c, _ := start(t, nil, "--store", url, "--admin-token", "adm")
	if title != "OpenAPI Plant Store 1.0.0" {
		t.Errorf("title %q", title)
	}
	if code, body := post(t, a.url, "t", `{"id":1,"name":"Fern"}`); code != 200 {
		t.Fatalf("create on a: %d %s", code, body)
	}
	if code, _, body := get(t, b.url+"/__admin/store"); code != 200 || body != `{"collections":{"/plants":[{"id":1,"name":"Fern"}]}}` {
		t.Errorf("the store seen by b: %d %s", code, body)
	}
	addr := strings.TrimPrefix(b.url, "http://")
	if out, err := exec.Command(plantmockBinary(t), "health", "--addr", addr).CombinedOutput(); err != nil || string(out) != "plantmock health: ok, OpenAPI Plant Store 1.0.0, plantmock 0.1.0\n" {
		t.Errorf("health: %v %q", err, out)
	}

	srv.Kill()
	refused := "dial tcp " + srv.Addr + ": connect: connection refused"
	cmd := exec.Command(plantmockBinary(t), "health", "--addr", addr)
	// The first call after the kill may find the connection closed (EOF).
	if out, _ := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != 1 || strings.Replace(string(out), "EOF", refused, 1) != "plantmock health: unhealthy: store: unavailable: ping: "+refused+"\n" {
		t.Errorf("health with Redis down: exit %d %q", cmd.ProcessState.ExitCode(), out)
	}
	cAddr := strings.TrimPrefix(c.url, "http://")
	cmd = exec.Command(plantmockBinary(t), "health", "--addr", cAddr)
	if out, _ := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != 1 || string(out) != "plantmock health: unhealthy: the mock says \"unhealthy\" (the admin token shows why)\n" {
		t.Errorf("health without the admin token, Redis down: exit %d %q", cmd.ProcessState.ExitCode(), out)
	}
	cmd = exec.Command(plantmockBinary(t), "health", "--addr", cAddr)
	cmd.Env = append(cmd.Environ(), "PLANTMOCK_ADMIN_TOKEN=adm")
	if out, _ := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != 1 || strings.Replace(string(out), "EOF", refused, 1) != "plantmock health: unhealthy: store: unavailable: ping: "+refused+"\n" {
		t.Errorf("health with the admin token, Redis down: exit %d %q", cmd.ProcessState.ExitCode(), out)
	}
	cmd = exec.Command(plantmockBinary(t), "--addr", "127.0.0.1:0", "--store", "redis://user:hunter2@"+srv.Addr+"/0")
	out, _ := cmd.CombinedOutput()
	if want := "plantmock: --store redis://user:xxxxx@" + srv.Addr + "/0: store: unavailable: ping " + srv.Addr + ": " + refused + "\n"; cmd.ProcessState.ExitCode() != 2 || string(out) != want {
		t.Errorf("start with Redis down: exit %d %q\nwant exit 2 %q", cmd.ProcessState.ExitCode(), out, want)
	}

	// --store-wait: the mock says it waits, and serves once Redis is back.
	cmd = exec.Command(plantmockBinary(t), "--addr", "127.0.0.1:0", "--store", url, "--store-wait", "1m")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	line, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil || !strings.Contains(line, `msg="waiting for the store"`) || !strings.Contains(line, refused) {
		t.Fatalf("first log line %q, %v; want one that says it waits for the store", line, err)
	}
	srv.Restart(t)
	line, err = bufio.NewReader(stdout).ReadString('\n')
	m := listening.FindStringSubmatch(strings.TrimSpace(line))
	if err != nil || m == nil {
		t.Fatalf("start-up line %q, %v", line, err)
	}
	if code, _, body := get(t, m[2]+"/__admin/store"); code != 200 || body != `{"collections":{}}` {
		t.Errorf("the store after Redis came back without a disk: %d %s", code, body)
	}
}
