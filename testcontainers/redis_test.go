package plantmock_test

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/testcontainers/testcontainers-go"

	plantmock "github.com/plantmock/plantmock/testcontainers"
)

// startRedis starts a redis-server for the test on a free port of every
// interface (a container reaches it at the default network's gateway),
// with a password of its own, and stops it when the test ends. It skips
// the test where redis-server is not installed, or fails it under CI.
func startRedis(t *testing.T) (port, password string) {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("redis-server is not installed")
		}
		t.Skip("redis-server is not installed")
	}
	ln, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	port = strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	b := make([]byte, 16)
	rand.Read(b)
	password = hex.EncodeToString(b)
	cmd := exec.Command(bin, "--port", port, "--bind", "0.0.0.0", "--save", "", "--appendonly", "no", "--requirepass", password)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "Ready to accept connections") {
			go func() {
				for sc.Scan() {
				}
			}()
			return port, password
		}
	}
	t.Fatalf("redis-server on port %s ended before it was ready", port)
	return "", ""
}

// TestRunWithRedis: two containers started WithRedis on one Redis share
// their state: a task one creates, the other reads, and the health call
// says the store is Redis.
func TestRunWithRedis(t *testing.T) {
	requireRuntime(t)
	port, password := startRedis(t)
	ctx := t.Context()
	p, err := testcontainers.ProviderDefault.GetProvider()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	gateway, err := p.(*testcontainers.DockerProvider).GetGatewayIP(ctx)
	if err != nil {
		t.Fatal(err)
	}
	url := "redis://:" + password + "@" + net.JoinHostPort(gateway, port) + "/0"
	var bases []string
	for range 2 {
		ctr, err := plantmock.Run(ctx, image(), plantmock.WithDocument("../examples/tasks.yaml"), plantmock.WithRedis(url))
		testcontainers.CleanupContainer(t, ctr)
		if err != nil {
			t.Fatal(err)
		}
		base, err := ctr.BaseURL(ctx)
		if err != nil {
			t.Fatal(err)
		}
		bases = append(bases, base)
	}
	status, body := call(t, "GET", bases[0]+"/__admin/health", "")
	if status != 200 || !strings.Contains(body, `"store":"redis"`) {
		t.Fatalf("health: %d %s", status, body)
	}
	status, body = call(t, "POST", bases[0]+"/tasks", `{"taskId":"water","title":"Water the fern"}`)
	expect(t, "POST /tasks on the first", status, body, 201, `{"done":false,"taskId":"water","title":"Water the fern"}`)
	status, body = call(t, "GET", bases[1]+"/tasks/water", "")
	expect(t, "GET /tasks/water on the second", status, body, 200, `{"done":false,"taskId":"water","title":"Water the fern"}`)
}
