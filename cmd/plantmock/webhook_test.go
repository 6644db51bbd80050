package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestWebhookFlags: --webhook (here from PLANTMOCK_WEBHOOK) subscribes a
// URL to a webhook, --webhook-token gives its credential; at SIGTERM, a
// delivery under way is dropped once --shutdown-timeout is over, and the
// log says so. Malformed flags fail at start with exit 2.
func TestWebhookFlags(t *testing.T) {
	got := make(chan *http.Request, 4)
	bodies := make(chan string, 4)
	release := make(chan struct{})
	sub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- r
		bodies <- string(b)
		if r.URL.Path == "/hang" {
			<-release
		}
	}))
	t.Cleanup(sub.Close)
	t.Cleanup(func() { close(release) })
	spec := "../../examples/webhooks.yaml"

	in, _ := start(t, []string{"PLANTMOCK_WEBHOOK=/plant/webhook=" + sub.URL + "/in"}, "--spec", spec, "--webhook-token", "/plant/webhook=s3cret")
	if code, body := post(t, in.url, "abc", `{"id":1,"name":"Fern"}`); code != 200 || body != `{"name":"Fern"}` {
		t.Fatalf("create: %d %s", code, body)
	}
	select {
	case r := <-got:
		if b := <-bodies; r.URL.Path != "/in" || b != `{"id":1,"name":"Fern"}` || r.Header.Get("Authorization") != "Bearer s3cret" {
			t.Errorf("delivery: %s %s %q", r.URL.Path, b, r.Header.Get("Authorization"))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no delivery within 10s")
	}

	in, _ = start(t, nil, "--spec", spec, "--webhook", "/plant/webhook="+sub.URL+"/hang", "--shutdown-timeout", "100ms", "--webhook-timeout", "1h")
	post(t, in.url, "abc", `{"id":2,"name":"Ivy"}`)
	select {
	case <-got:
		<-bodies
	case <-time.After(10 * time.Second):
		t.Fatal("no delivery within 10s")
	}
	if code := in.stop(t); code != 0 {
		t.Errorf("exit code %d; stderr: %s", code, in.stderr)
	}
	if !strings.Contains(in.stderr.String(), `msg="shutdown: webhook deliveries dropped" dropped=1`) {
		t.Errorf("stderr: %s", in.stderr)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--webhook", "nope=http://127.0.0.1:1/"}, `plantmock: --webhook: "nope" is not a webhook of the document (declared: /plant/webhook); run plantmock --help` + "\n"},
		{[]string{"--webhook", "/plant/webhook"}, `plantmock: --webhook "/plant/webhook": write it as NAME=URL; run plantmock --help` + "\n"},
		{[]string{"--webhook", "/plant/webhook=ftp://x"}, `plantmock: --webhook: /plant/webhook: "ftp://x" is not an absolute http or https URL; run plantmock --help` + "\n"},
		{[]string{"--webhook-token", "secret"}, "plantmock: --webhook-token: write it as NAME=TOKEN; run plantmock --help\n"},
		{[]string{"--webhook-token", "/plant/webhook=t"}, "plantmock: --webhook-token /plant/webhook: no --webhook /plant/webhook=URL to send it with; run plantmock --help\n"},
		{[]string{"--webhook-allow", "http://x/"}, `plantmock: --webhook-allow: "http://x/" is not a host, host:port, *.domain, loopback or *; run plantmock --help` + "\n"},
	} {
		cmd := exec.Command(plantmockBinary(t), append([]string{"--addr", "127.0.0.1:0", "--spec", spec}, c.args...)...)
		out, _ := cmd.CombinedOutput()
		if cmd.ProcessState.ExitCode() != 2 || string(out) != c.want {
			t.Errorf("%v: exit %d %q\nwant exit 2 %q", c.args, cmd.ProcessState.ExitCode(), out, c.want)
		}
	}
}
