package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"testing"
)

// TestProxyFlags: --proxy forwards to the real service and passes its
// answer on; a proxy URL or mode the mock cannot use ends it with one
// line and exit 2.
func TestProxyFlags(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"name":"from the real store"}`)
	}))
	defer up.Close()
	in, _ := start(t, nil, "--proxy", up.URL, "--proxy-invalid", "forward")
	if code, body := post(t, in.url, "t", `{"id":1,"name":"Fern"}`); code != 200 || body != `{"name":"from the real store"}` {
		t.Errorf("proxied create: %d %s", code, body)
	}
	mocked, _ := start(t, []string{"PLANTMOCK_PROXY=" + up.URL, "PLANTMOCK_MOCK_ONLY=POST /plants"})
	if code, body := post(t, mocked.url, "t", `{"id":1,"name":"Fern"}`); code != 200 || body != `{"name":"Fern"}` {
		t.Errorf("mock-only create: %d %s", code, body)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--proxy", "ftp://x"}, "plantmock: --proxy \"ftp://x\" is not an http:// or https:// URL\n"},
		{[]string{"--proxy", up.URL, "--proxy-invalid", "drop"}, "plantmock: --proxy-invalid must be forward or refuse, not \"drop\"\n"},
		{[]string{"--proxy", up.URL, "--mock-only", "GET /x"}, "plantmock: --mock-only: operation \"GET /x\" is not in the document (write it as METHOD /path/{template})\n"},
	} {
		cmd := exec.Command(plantmockBinary(t), append([]string{"--addr", "127.0.0.1:0"}, c.args...)...)
		if out, _ := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != 2 || string(out) != c.want {
			t.Errorf("%v: exit %d %q; want exit 2 %q", c.args, cmd.ProcessState.ExitCode(), out, c.want)
		}
	}
}
