package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	rec := t.TempDir()
	recording, _ := start(t, nil, "--proxy", up.URL, "--record", rec, "--record-redact", "tag")
	if code, body := post(t, recording.url, "secret-token", `{"id":1,"name":"Fern"}`); code != 200 || body != `{"name":"from the real store"}` {
		t.Errorf("recorded create: %d %s", code, body)
	}
	if entries, _ := os.ReadDir(rec); len(entries) != 0 {
		t.Errorf("the recording wrote %d files before it stopped", len(entries))
	}
	// Stopping the mock writes the recording; the answer held no
	// resource, yet seed-data.json is there for the replay's flag.
	if code := recording.stop(t); code != 0 {
		t.Errorf("recording mock: exit %d; stderr: %s", code, recording.stderr)
	}
	cmd := exec.Command(plantmockBinary(t), "check", "--scenarios", rec)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "recorded-post-plants") {
		t.Errorf("check of the recording: %v %s", err, out)
	}
	if b, _ := os.ReadFile(filepath.Join(rec, "recorded-post-plants.yaml")); strings.Contains(string(b), "secret-token") || !strings.Contains(string(b), "from the real store") {
		t.Errorf("recording:\n%s", b)
	}
	replay, _ := start(t, nil, "--scenarios", rec, "--scenario", "recorded-*", "--seed-data", filepath.Join(rec, "seed-data.json"))
	if code, body := post(t, replay.url, "t", `{"id":1,"name":"Fern"}`); code != 200 || body != `{"name":"from the real store"}` {
		t.Errorf("replayed create: %d %s", code, body)
	}
	mocked, _ := start(t, []string{"PLANTMOCK_PROXY=" + up.URL, "PLANTMOCK_MOCK_ONLY=POST /plants"})
	if code, body := post(t, mocked.url, "t", `{"id":1,"name":"Fern"}`); code != 200 || body != `{"name":"Fern"}` {
		t.Errorf("mock-only create: %d %s", code, body)
	}
	// The contract report of the proxying mock: one exchange, clean.
	addr := strings.TrimPrefix(in.url, "http://")
	cmd = exec.Command(plantmockBinary(t), "report", "--addr", addr)
	if out, err := cmd.Output(); err != nil || string(out) != "POST /plants: 1 exchange(s), 0 kind(s) of violation\n" {
		t.Errorf("report: %v %q", err, out)
	}
	post(t, in.url, "t", `{"id":"2","name":"Fern"}`)
	cmd = exec.Command(plantmockBinary(t), "report", "--addr", addr)
	if out, _ := cmd.Output(); cmd.ProcessState.ExitCode() != 1 || string(out) != "POST /plants: 2 exchange(s), 1 kind(s) of violation\n"+
		"  request x1: id: expected integer, got string (e.g. POST /plants -> 200)\n" {
		t.Errorf("report after a bad request: exit %d %q", cmd.ProcessState.ExitCode(), out)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--proxy", "ftp://x"}, "plantmock: --proxy: \"ftp://x\" is not an http:// or https:// URL; run plantmock --help\n"},
		{[]string{"--proxy", up.URL, "--proxy-invalid", "drop"}, "plantmock: --proxy-invalid \"drop\": want forward or refuse; run plantmock --help\n"},
		{[]string{"--record", t.TempDir()}, "plantmock: --record needs --proxy; run plantmock --help\n"},
		{[]string{"--proxy", up.URL, "--mock-only", "GET /x"}, "plantmock: --mock-only: operation \"GET /x\" is not in the document (write it as METHOD /path/{template}); run plantmock --help\n"},
		{[]string{"--proxy", up.URL, "--mock-only", "GET /plants/{id}", "--proxy-only", "POST /plants"}, "plantmock: --mock-only: not with proxy-only: give one or the other; run plantmock --help\n"},
	} {
		cmd := exec.Command(plantmockBinary(t), append([]string{"--addr", "127.0.0.1:0"}, c.args...)...)
		if out, _ := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != 2 || string(out) != c.want {
			t.Errorf("%v: exit %d %q; want exit 2 %q", c.args, cmd.ProcessState.ExitCode(), out, c.want)
		}
	}
}

// TestCheckTraffic: check --traffic judges recorded traffic, in one
// file or several of any format, and exits 1 when it breaks the
// document, 0 when it does not, 2 when a file is not recorded traffic.
func TestCheckTraffic(t *testing.T) {
	dir := t.TempDir()
	entry := func(id, status, body string) string {
		return `{"request": {"method": "POST", "url": "http://localhost:4010/plants", "headers": [{"name": "Authorization", "value": "Bearer t"}], ` +
			`"postData": {"mimeType": "application/json", "text": "{\"id\":` + id + `,\"name\":\"a\"}"}}, ` +
			`"response": {"status": ` + status + `, "headers": [], "content": {"mimeType": "application/json", "text": "` + body + `"}}}`
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	har := func(name string, entries ...string) string {
		return write(name, `{"log": {"entries": [`+strings.Join(entries, ",")+`]}}`)
	}
	clean := har("clean.har", entry("1", "200", `{\"name\":\"a\"}`))
	broken := har("broken.har", entry("1", "200", `{\"name\":\"a\"}`), entry("2", "200", `{\"tag\":\"a\"}`))
	// The journal as GET /__admin/requests gives it, its token masked.
	journal := write("requests.json", `{"requests": [{"seq": 3, "method": "POST", "path": "/plants", "headers": {"Authorization": ["Bearer ****en-1"], "Content-Type": ["application/json"]}, `+
		`"body": {"id": "7", "name": "a"}, "status": 400, "response": {"error": 40001, "message": "bad"}, "code": 40001}]}`)
	for _, c := range []struct {
		files []string
		code  int
		want  string
	}{
		{[]string{clean}, 0, "POST /plants: 1 exchange(s), 0 kind(s) of violation\ntraffic: 1 exchange(s) judged, none breaking the document\n"},
		{[]string{broken}, 1, "POST /plants: 2 exchange(s), 1 kind(s) of violation\n  response x1: name: required property is missing (e.g. POST /plants -> 200)\n" +
			"traffic: 2 exchange(s) judged, 1 breaking the document:\n  " + broken + ": entry 2: POST /plants -> 200\n" +
			"    response name: required property is missing (#/components/schemas/Plant/required)\n"},
		{[]string{clean, journal}, 1, "POST /plants: 2 exchange(s), 1 kind(s) of violation\n  request x1: id: expected integer, got string (e.g. POST /plants -> 400)\n" +
			"traffic: 2 exchange(s) judged, 1 breaking the document:\n  " + journal + ": seq 3: POST /plants -> 400\n" +
			"    request id: expected integer, got string (#/components/schemas/NewPlant/allOf/1/properties/id/type)\n"},
	} {
		args := []string{"check"}
		for _, f := range c.files {
			args = append(args, "--traffic", f)
		}
		cmd := exec.Command(plantmockBinary(t), args...)
		if out, _ := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != c.code || string(out) != c.want {
			t.Errorf("%v: exit %d %q; want exit %d %q", args, cmd.ProcessState.ExitCode(), out, c.code, c.want)
		}
	}
	notTraffic := write("x.har", `[]`)
	cmd := exec.Command(plantmockBinary(t), "check", "--traffic", clean, "--traffic", notTraffic)
	want := "plantmock check: cannot read --traffic: " + notTraffic + ": not recorded traffic (a HAR 1.2 archive, the journal of GET /__admin/requests, or a scenario file or folder of --record): not a JSON object\n"
	if out, _ := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != 2 || string(out) != want {
		t.Errorf("check --traffic of no traffic: exit %d %q\nwant %q", cmd.ProcessState.ExitCode(), out, want)
	}
}

// TestRecordThenReplay runs the two commands of docs/service.md: a recording
// through the proxy, then the replay with its scenarios and seed data,
// without the real service; also when the real service's answers carry
// no identifier, so that the seed data holds no resource.
func TestRecordThenReplay(t *testing.T) {
	tests := []struct {
		name   string
		answer string // the real service's answer to the create
		store  string // the replay's store: the seed data
	}{
		{"an answer with its id", `{"id":7,"name":"from the real store"}`, `{"collections":{"/plants":[{"id":7,"name":"from the real store"}]}}`},
		{"an answer without an id", `{"name":"from the real store"}`, `{"collections":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, tt.answer)
			}))
			defer up.Close()
			rec := t.TempDir()
			recording, _ := start(t, nil, "--proxy", up.URL, "--record", rec+"/", "--record-redact", "password")
			if code, body := post(t, recording.url, "t", `{"id":7,"name":"Fern"}`); code != 200 || body != tt.answer {
				t.Errorf("recorded create: %d %s", code, body)
			}
			if code := recording.stop(t); code != 0 {
				t.Errorf("the recording mock: exit %d", code)
			}
			up.Close()
			replay, _ := start(t, nil, "--scenarios", rec+"/", "--scenario", "recorded-*", "--seed-data", filepath.Join(rec, "seed-data.json"))
			if code, body := post(t, replay.url, "t", `{"id":7,"name":"Fern"}`); code != 200 || body != tt.answer {
				t.Errorf("replayed create: %d %s", code, body)
			}
			if code, _, body := get(t, replay.url+"/__admin/store"); code != 200 || body != tt.store {
				t.Errorf("the seed data: %d %s, want %s", code, body, tt.store)
			}
		})
	}
}
