package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// plantmockBinary builds the command once per test run.
func plantmockBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "plantmock-e2e")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "plantmock")
		out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
		if err != nil {
			buildErr = &buildError{out: string(out), err: err}
		}
	})
	if buildErr != nil {
		t.Fatalf("building plantmock: %v", buildErr)
	}
	return binary
}

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }

// instance is a running plantmock process.
type instance struct {
	cmd    *exec.Cmd
	url    string
	stderr *bytes.Buffer
	done   chan error
}

var listening = regexp.MustCompile(`^plantmock: serving (.+) on (http://127\.0\.0\.1:\d+)$`)

// start runs plantmock on a free port and waits for the line that says
// where it listens.
func start(t *testing.T, env []string, args ...string) (*instance, string) {
	t.Helper()
	return startIn(t, "", env, args...)
}

// startIn is start with plantmock's working directory dir ("" for the
// test's).
func startIn(t *testing.T, dir string, env []string, args ...string) (*instance, string) {
	t.Helper()
	cmd := exec.Command(plantmockBinary(t), append([]string{"--addr", "127.0.0.1:0"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	in := &instance{cmd: cmd, stderr: &bytes.Buffer{}, done: make(chan error, 1)}
	cmd.Stderr = in.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("no start-up line: %v; stderr: %s", err, in.stderr)
	}
	m := listening.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		cmd.Process.Kill()
		t.Fatalf("start-up line %q does not say where plantmock listens", line)
	}
	in.url = m[2]
	go func() { io.Copy(io.Discard, stdout); in.done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-in.done
	})
	return in, m[1]
}

// stop sends SIGTERM and returns the exit code.
func (in *instance) stop(t *testing.T) int {
	t.Helper()
	if err := in.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	return in.wait(t)
}

// wait waits up to 15s for the process to exit and returns the exit code.
func (in *instance) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-in.done:
	case <-time.After(15 * time.Second):
		t.Fatal("plantmock did not exit within 15s of SIGTERM")
	}
	in.done <- nil // for the cleanup
	return in.cmd.ProcessState.ExitCode()
}

func post(t *testing.T, url, token, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url+"/plants", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestServeAndStop runs the binary with no flags but the address: it serves
// the embedded Plant Store, remembers creates, and exits 0 on SIGTERM.
func TestServeAndStop(t *testing.T) {
	in, title := start(t, nil)
	if title != "OpenAPI Plant Store 1.0.0" {
		t.Errorf("serves %q", title)
	}
	if code, body := post(t, in.url, "abc", `{"id":1,"name":"Monstera","tag":"aroid"}`); code != 200 || body != `{"name":"Monstera","tag":"aroid"}` {
		t.Errorf("create: %d %s", code, body)
	}
	if code, body := post(t, in.url, "abc", `{"id":1,"name":"Again"}`); code != 400 || body != `{"error":40900,"message":"id 1 already exists in /plants"}` {
		t.Errorf("duplicate: %d %s", code, body)
	}
	if code := in.stop(t); code != 0 {
		t.Errorf("exit code after SIGTERM = %d, want 0; stderr: %s", code, in.stderr)
	}
}

// TestFlagsFromEnvironment checks PLANTMOCK_TOKEN (comma-separated) and
// that a flag wins over its variable.
func TestFlagsFromEnvironment(t *testing.T) {
	in, _ := start(t, []string{"PLANTMOCK_TOKEN=t1, t2", "PLANTMOCK_ADDR=127.0.0.1:1"})
	if code, body := post(t, in.url, "t3", `{"id":1,"name":"a"}`); code != 401 || body != `{"error":40102,"message":"the bearer token is not accepted"}` {
		t.Errorf("other token: %d %s", code, body)
	}
	if code, _ := post(t, in.url, "t2", `{"id":1,"name":"a"}`); code != 200 {
		t.Errorf("configured token: %d", code)
	}
	// A flag replaces its variable: only the flag's token is accepted.
	in, _ = start(t, []string{"PLANTMOCK_TOKEN=a"}, "--token", "b")
	if code, body := post(t, in.url, "a", `{"id":1,"name":"a"}`); code != 401 || body != `{"error":40102,"message":"the bearer token is not accepted"}` {
		t.Errorf("the variable's token beside --token: %d %s", code, body)
	}
	if code, _ := post(t, in.url, "b", `{"id":1,"name":"a"}`); code != 200 {
		t.Errorf("the flag's token: %d", code)
	}
}

// TestOtherSpec serves another document with --spec.
func TestOtherSpec(t *testing.T) {
	in, title := start(t, nil, "--spec", "../../examples/tasks.yaml")
	if title != "Task Board 2.1.0" {
		t.Errorf("serves %q", title)
	}
	resp, err := http.Get(in.url + "/health")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != `{"status":"ok"}` {
		t.Errorf("GET /health: %d %s", resp.StatusCode, b)
	}
}

// TestPreviousSpec serves examples/diff/new.yaml with --previous-spec
// old.yaml: a plant's name old.yaml allows and new.yaml does not is
// refused as new.yaml alone refuses it, and its journal entry's drift
// says old.yaml accepts it.
func TestPreviousSpec(t *testing.T) {
	in, _ := start(t, nil, "--spec", "../../examples/diff/new.yaml", "--previous-spec", "../../examples/diff/old.yaml")
	resp, err := http.Post(in.url+"/plants", "application/json", strings.NewReader(`{"name":"Monstera deliciosa Thai"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := `{"error":40004,"message":"request body does not match the schema: name: longer than the maximum length 20"}`; resp.StatusCode != 422 || string(b) != want {
		t.Errorf("POST /plants: %d %s, want 422 %s", resp.StatusCode, b, want)
	}
	if resp, err = http.Get(in.url + "/__admin/requests"); err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	want := `"drift":"accepted by the previous document (Greenhouse 1.0), refused by the served one: request body does not match the schema: name: longer than the maximum length 20"`
	if !strings.Contains(string(b), want) {
		t.Errorf("the journal %s lacks %s", b, want)
	}
	if code := in.stop(t); code != 0 {
		t.Fatalf("exit %d; stderr: %s", code, in.stderr)
	}
	logged := `error=40004 violations="[name: longer than the maximum length 20]" drift="accepted by the previous document (Greenhouse 1.0), refused by the served one: request body does not match the schema: name: longer than the maximum length 20"` + "\n"
	if !strings.Contains(in.stderr.String(), logged) {
		t.Errorf("the log %s lacks %s", in.stderr, logged)
	}
}

// TestUntitledDocument: a document without info is named by its file,
// where the mock names what it serves.
func TestUntitledDocument(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bare.yaml")
	if err := os.WriteFile(file, []byte("openapi: 3.1.0\npaths: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runCLICases(t, []cliCase{{name: "check", args: []string{"check", "--spec", file},
		out: "plantmock: " + file + " and scenarios first-call-fails, flaky, slow are fine\n"}})
	if _, title := start(t, nil, "--spec", file); title != file {
		t.Errorf("serving %q, want %q", title, file)
	}
}

// TestRefusals checks that bad flags and broken documents end the program
// before it listens, with exit code 2 and one line naming the problem.
func TestRefusals(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	missingRef := write("missing.yaml", "openapi: 3.1.0\ninfo: {title: x, version: '1'}\npaths:\n  /x:\n    post:\n      requestBody: {$ref: '#/components/requestBodies/Nope'}\n      responses:\n        '200': {description: ok}\n")
	notOpenAPI := write("notes.yaml", "hello: world\n")
	brokenSeed := write("seed.json", `{"/plants": [`)
	badSeed := write("bad-seed.json", `{"/plants": [{"name": 3}]}`)
	tests := []struct {
		name string
		args []string
		want string // the whole of stderr
	}{
		{"missing $ref", []string{"--spec", missingRef}, "plantmock: " + missingRef + ": OpenAPI document: #/paths/~1x/post/requestBody (line 6): $ref \"#/components/requestBodies/Nope\" points at nothing\n"},
		{"not OpenAPI", []string{"--spec", notOpenAPI}, "plantmock: " + notOpenAPI + ": OpenAPI document: not an OpenAPI document: no openapi field\n"},
		{"unreadable spec", []string{"--spec", filepath.Join(dir, "absent.yaml")}, "plantmock: cannot read --spec: open " + filepath.Join(dir, "absent.yaml") + ": no such file or directory\n"},
		{"previous document not OpenAPI", []string{"--previous-spec", notOpenAPI}, "plantmock: --previous-spec: OpenAPI document: not an OpenAPI document: no openapi field; run plantmock --help\n"},
		{"unreadable previous document", []string{"--previous-spec", filepath.Join(dir, "absent.yaml")}, "plantmock: cannot read --previous-spec: open " + filepath.Join(dir, "absent.yaml") + ": no such file or directory; run plantmock --help\n"},
		{"previous document of several", []string{"--spec", "/a=a.yaml", "--spec", "/b=b.yaml", "--previous-spec", "a.yaml"}, "plantmock: --previous-spec goes with one document, --spec FILE, not several or one at a base path; run plantmock --help\n"},
		{"unknown log format", []string{"--log-format", "xml"}, "plantmock: --log-format \"xml\": want text or json; run plantmock --help\n"},
		{"seed data that is not JSON", []string{"--seed-data", brokenSeed}, "plantmock: --seed-data " + brokenSeed + ": invalid JSON: unexpected end of input\n"},
		{"seed data that breaks the schema", []string{"--seed-data", badSeed}, "plantmock: --seed-data " + badSeed + ": /plants: seed data does not match the create schema: [0].id: required property is missing; [0].name: expected string, got number\n"},
		{"bad size", []string{"--max-body", "lots"}, "plantmock: --max-body \"lots\": want a size in bytes, or with KiB, MiB or GiB (e.g. 1048576, 512KiB, 1MiB); run plantmock --help\n"},
		{"no bound, and not a size", []string{"--journal-file-max", "-1"}, "plantmock: --journal-file-max \"-1\": want a size in bytes, or with KiB, MiB or GiB (e.g. 1048576, 512KiB, 1MiB); run plantmock --help\n"},
		{"no size", []string{"--journal-bytes", "0"}, "plantmock: --journal-bytes \"0\": want a size in bytes, or with KiB, MiB or GiB (e.g. 1048576, 512KiB, 1MiB); run plantmock --help\n"},
		{"bad token", []string{"--token", "a b"}, "plantmock: --token: \"a b\" is not a valid bearer token (RFC 6750 token68); run plantmock --help\n"},
		{"admin CORS for any origin", []string{"--admin-cors", "*"}, "plantmock: --admin-cors: \"*\" is not an origin: write it as scheme://host[:port], as browsers send it in Origin; run plantmock --help\n"},
		{"allowed host with a scheme", []string{"--allowed-host", "http://mock.internal"}, "plantmock: --allowed-host: \"http://mock.internal\" is not a host name: write a name (mock.example.com), *.domain or *, without scheme or port; run plantmock --help\n"},
		{"credentials kept neither way", []string{"--journal-credentials", "plain"}, "plantmock: --journal-credentials \"plain\": want masked or clear; run plantmock --help\n"},
		{"stray argument", []string{"later"}, "plantmock: unexpected argument \"later\"; run plantmock --help\n"},
		{"serve as a command", []string{"serve"}, "plantmock: unexpected argument \"serve\": plantmock serves with no command (plantmock [flags]); run plantmock --help\n"},
		{"a command after flags", []string{"--spec", "x.yaml", "check"}, "plantmock: unexpected argument \"check\": a command comes before its flags (plantmock check [--spec FILE] [--strict] [--scenarios DIR] [--traffic FILE]... [--workflows FILE]); run plantmock --help\n"},
		{"unknown flag", []string{"--bogus"}, "plantmock: unknown flag --bogus; run plantmock --help\n"},
		{"not a number", []string{"--seed", "abc"}, "plantmock: --seed \"abc\": want a whole number; run plantmock --help\n"},
		{"not a duration", []string{"--session-idle", "soon"}, "plantmock: --session-idle \"soon\": want a duration such as 500ms, 10s or 2m; run plantmock --help\n"},
		{"not a boolean", []string{"--cors=maybe"}, "plantmock: --cors \"maybe\": want true or false; run plantmock --help\n"},
		{"no value", []string{"--max-sessions"}, "plantmock: --max-sessions needs a value: a whole number; run plantmock --help\n"},
		{"proxy flag without --proxy", []string{"--proxy-invalid", "refuse"}, "plantmock: --proxy-invalid needs --proxy; run plantmock --help\n"},
		{"neither forward nor refuse", []string{"--proxy-invalid", "maybe"}, "plantmock: --proxy-invalid \"maybe\": want forward or refuse; run plantmock --help\n"},
		{"operation to forward without --proxy", []string{"--proxy-only", "GET /nope"}, "plantmock: --proxy-only needs --proxy; run plantmock --help\n"},
		{"redaction without --record", []string{"--proxy", "http://127.0.0.1:1", "--record-redact", "name"}, "plantmock: --record-redact needs --record; run plantmock --help\n"},
		{"store flag without --store", []string{"--store-wait", "1s"}, "plantmock: --store-wait needs --store; run plantmock --help\n"},
		{"bad address", []string{"--addr", "nowhere:x"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(plantmockBinary(t), append([]string{"--addr", "127.0.0.1:0"}, tt.args...)...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if code := cmd.ProcessState.ExitCode(); code != 2 {
				t.Errorf("exit code = %d (%v), want 2", code, err)
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout = %q, want nothing", stdout.String())
			}
			if tt.want == "" {
				if n := strings.Count(stderr.String(), "\n"); n != 1 || !strings.HasPrefix(stderr.String(), "plantmock: cannot listen on nowhere:x") {
					t.Errorf("stderr = %q, want one line about listening", stderr.String())
				}
				return
			}
			if stderr.String() != tt.want {
				t.Errorf("stderr = %q\nwant     %q", stderr.String(), tt.want)
			}
		})
	}
}

// TestScenarioFlags serves with a folder of scenarios and one active.
func TestScenarioFlags(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mine.yaml"), []byte("name: mine\nrules:\n  - when: {body: {name: Cactus}}\n    respond: {status: 400, body: {error: 1, message: 'no {{ .body.name }}'}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in, _ := start(t, nil, "--scenarios", dir, "--scenario", "mine")
	if code, body := post(t, in.url, "abc", `{"id":1,"name":"Cactus"}`); code != 400 || body != `{"error":1,"message":"no Cactus"}` {
		t.Errorf("scripted create: %d %s", code, body)
	}
	if code, body := post(t, in.url, "abc", `{"id":1,"name":"Fern"}`); code != 200 || body != `{"name":"Fern"}` {
		t.Errorf("unscripted create: %d %s", code, body)
	}
}

// TestCheck runs plantmock check on good and broken scenarios.
func TestCheck(t *testing.T) {
	bin := plantmockBinary(t)
	out, err := exec.Command(bin, "check").CombinedOutput()
	if err != nil || string(out) != "plantmock: OpenAPI Plant Store 1.0.0 and scenarios first-call-fails, first-create-fails, flaky, slow, store-busy, tag-policy are fine\n" {
		t.Errorf("check: %v %q", err, out)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.yaml"), []byte("name: a\nrules:\n  - when: {operation: GET /plants}\n  - respond: {status: 404}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.yaml"), []byte("name: b\nrules:\n  - respond: {fault: boom}\n"), 0o644)
	cmd := exec.Command(bin, "check", "--scenarios", dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Run()
	want := "plantmock: scenarios do not fit embedded Plant Store:\n" +
		dir + "/a.yaml:3: rule 1: operation \"GET /plants\" is not in the document (write it as METHOD /path/{template})\n" +
		dir + "/a.yaml:4: rule 2: status 404 is not declared for POST /plants (declared: 200, 400); set off_contract: true to send it anyway\n" +
		dir + "/b.yaml:3: rule 1: unknown fault \"boom\"; use connection_reset, empty_response, malformed_body, random_data_then_close\n"
	if code := cmd.ProcessState.ExitCode(); code != 2 || stdout.Len() != 0 || stderr.String() != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 2 and:\n%s", code, stdout.String(), stderr.String(), want)
	}
	// The same scenarios stop start-up.
	cmd = exec.Command(bin, "--addr", "127.0.0.1:0", "--scenarios", dir)
	stdout.Reset()
	stderr.Reset()
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 2 || stdout.Len() != 0 || stderr.String() != want {
		t.Errorf("serve: exit %d, stdout %q, stderr:\n%s", code, stdout.String(), stderr.String())
	}
	// Files that do not parse are listed with the problems of the others.
	os.WriteFile(filepath.Join(dir, "a.yaml"), []byte("name: a\nrules:\n  - when: {operation: POST /plants}\n    respondd: {}\n"), 0o644)
	out, _ = exec.Command(bin, "check", "--scenarios", dir).CombinedOutput()
	if want := "plantmock: scenarios do not fit embedded Plant Store:\n" + dir + "/a.yaml:4: rule 1: unknown key \"respondd\" (known: when, times, every, respond, off_contract)\n" +
		dir + "/b.yaml:3: rule 1: unknown fault \"boom\"; use connection_reset, empty_response, malformed_body, random_data_then_close\n"; string(out) != want {
		t.Errorf("unknown key: %q\nwant %q", out, want)
	}
}

// TestCheckWorkflows: check --workflows lints an Arazzo description
// against the document, a line of the description with each mistake
// and exit 2, as for scenarios that do not fit; one that fits exits 0.
func TestCheckWorkflows(t *testing.T) {
	spec, flows := "../../examples/tasks.yaml", "../../mock/verify/testdata/workflows/tasks.arazzo.yaml"
	broken := filepath.Join(t.TempDir(), "broken.arazzo.yaml")
	desc := "arazzo: 1.0.1\ninfo: {title: t, version: '1'}\nsourceDescriptions: [{name: board, url: tasks.yaml}]\nworkflows:\n" +
		"- workflowId: w\n  dependsOn: [nope]\n  steps:\n" +
		"  - stepId: s\n    operationId: getTask\n    parameters: [{name: taskId, in: body, value: $steps.x.outputs.id}]\n" +
		"    onSuccess: [{name: again, type: goto, stepId: t}]\n" +
		"  - {stepId: u, operationId: fileTask, successCriteria: [{condition: $statusCode = 200}]}\n"
	if err := os.WriteFile(broken, []byte(desc), 0o644); err != nil {
		t.Fatal(err)
	}
	runCLICases(t, []cliCase{
		{name: "fits", args: []string{"check", "--spec", spec, "--workflows", flows},
			out: "plantmock: the workflows of " + flows + " fit Task Board 2.1.0\n"},
		{name: "mistakes", args: []string{"check", "--spec", spec, "--workflows", broken}, code: 2,
			errText: "plantmock: the workflows of " + broken + " do not fit Task Board 2.1.0:\n" +
				broken + ":5: workflow w: dependsOn \"nope\": no workflow has that id\n" +
				broken + ":8: workflow w step s: parameter taskId: in \"body\": want path, query, header or cookie\n" +
				broken + ":8: workflow w step s: onSuccess again: stepId \"t\": no step of workflow w has that id\n" +
				broken + ":8: workflow w step s: $steps.x.outputs.id: no step of workflow w has id x\n" +
				broken + ":12: workflow w step u: successCriteria: $statusCode = 200: unexpected \"=\"\n" +
				broken + ":12: workflow w step u: operationId fileTask: no operation of the document has that id\n"},
		{name: "with --traffic", args: []string{"check", "--workflows", flows, "--traffic", "x.har"}, code: 2,
			errText: "plantmock check: --workflows and --traffic exclude each other; run plantmock check --help\n"},
	})
}

// TestCheckGenerationBudget: check warns, one line each, about the
// schemas no answer can be made of within the generation budget; it does
// not refuse the document.
func TestCheckGenerationBudget(t *testing.T) {
	var spec strings.Builder
	spec.WriteString("openapi: 3.1.0\ninfo: {title: Budget, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n")
	for i := range 40 {
		fmt.Fprintf(&spec, "    S%d: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/S%[2]d'}, b: {$ref: '#/components/schemas/S%[2]d'}}}\n", i, i+1)
	}
	spec.WriteString("    S40: {type: string}\n    Blob: {type: string, minLength: 1000000000}\n")
	file := filepath.Join(t.TempDir(), "budget.yaml")
	if err := os.WriteFile(file, []byte(spec.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(plantmockBinary(t), "check", "--spec", file)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	want := "plantmock: Budget 1 and scenarios first-call-fails, flaky, slow are served with these caveats (--strict refuses them):\n" +
		"plantmock: caveat: #/components/schemas/Blob: minLength 1000000000 is over the 8388608 bytes of strings an answer may have: answers that need it are refused\n" +
		"plantmock: caveat: #/components/schemas/S24: its required properties and items make its smallest value 131071 values, over the 100000 an answer may have: answers that need it are refused\n"
	if err != nil || stdout.String() != want || stderr.Len() != 0 {
		t.Errorf("check: %v, stderr %q, stdout:\n%s\nwant:\n%s", err, stderr.String(), stdout.String(), want)
	}
}

// TestCheckStrict: check lists a document's mistakes and exits 0, the
// rest being served; with --strict (or PLANTMOCK_STRICT) it refuses the
// document with exit 2.
func TestCheckStrict(t *testing.T) {
	spec := "openapi: 3.0.3\ninfo: {title: Mistaken, version: '1'}\npaths:\n  /a:\n    get:\n" +
		"      parameters: [{in: query, schema: {type: string, pattern: 12}}]\n      responses: {'204': {description: ok}}\n"
	file := filepath.Join(t.TempDir(), "mistaken.yaml")
	if err := os.WriteFile(file, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	mistake := "#/paths/~1a/get/parameters/0 (line 6): the parameter has no name: it is left out of its operation, which is served without it"
	tests := []cliCase{
		{name: "lists the mistakes", args: []string{"check", "--spec", file},
			out: "plantmock: Mistaken 1 and scenarios first-call-fails, flaky, slow are served, leaving out what these mistakes touch (--strict refuses them):\n" +
				"plantmock: mistake: " + mistake + "\n"},
		{name: "--strict refuses", args: []string{"check", "--strict", "--spec", file}, code: 2,
			errText: "plantmock: " + file + ": OpenAPI document: refused in strict mode: " + mistake + "\n"},
		{name: "PLANTMOCK_STRICT refuses", args: []string{"check", "--spec", file}, env: []string{"PLANTMOCK_STRICT=true"}, code: 2,
			errText: "plantmock: " + file + ": OpenAPI document: refused in strict mode: " + mistake + "\n"},
	}
	runCLICases(t, tests)
}

// TestCheckCaveats: check says every caveat serving would log, an
// example that does not conform to its schema among them, and does not
// call such a document fine; --strict refuses it (issue 61: GitHub's
// description was "fine" while serving it logged 50 such examples).
func TestCheckCaveats(t *testing.T) {
	spec := "openapi: 3.1.0\ninfo: {title: Caveats, version: '1'}\npaths:\n  /status:\n    get:\n      responses:\n        '200':\n" +
		"          description: ok\n          content:\n            application/json:\n" +
		"              schema: {type: object, properties: {up: {type: boolean}}}\n              example: {up: 'yes'}\n"
	file := filepath.Join(t.TempDir(), "caveats.yaml")
	if err := os.WriteFile(file, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	caveat := "GET /status: its example does not conform to its schema (up: expected boolean, got string); answers are generated instead"
	runCLICases(t, []cliCase{
		{name: "lists the caveats", args: []string{"check", "--spec", file},
			out: "plantmock: Caveats 1 and scenarios first-call-fails, flaky, slow are served with these caveats (--strict refuses them):\n" +
				"plantmock: caveat: " + caveat + "\n"},
		{name: "--strict refuses", args: []string{"check", "--strict", "--spec", file}, code: 2,
			errText: "plantmock: " + file + ": OpenAPI document: refused in strict mode: " + caveat + "\n"},
	})
}

// cliCase is a run of the binary with args and extra environment, and
// its exact exit code, standard output and standard error.
type cliCase struct {
	name         string
	args, env    []string
	code         int
	out, errText string
}

// runCLICases runs the built binary once for each case and checks it.
func runCLICases(t *testing.T, tests []cliCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(plantmockBinary(t), tt.args...)
			cmd.Env = append(os.Environ(), tt.env...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Run()
			if code := cmd.ProcessState.ExitCode(); code != tt.code || stdout.String() != tt.out || stderr.String() != tt.errText {
				t.Errorf("exit %d, stdout %q, stderr %q\nwant exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String(), tt.code, tt.out, tt.errText)
			}
		})
	}
}

// TestMaxSpec: --max-spec (and PLANTMOCK_MAX_SPEC) bounds the document
// read, and a document over it is refused with the flag named.
func TestMaxSpec(t *testing.T) {
	spec := "openapi: 3.1.0\ninfo: {title: Sized, version: '1'}\npaths: {}\n" // 60 bytes
	file := filepath.Join(t.TempDir(), "sized.yaml")
	if err := os.WriteFile(file, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	fine := "plantmock: Sized 1 and scenarios first-call-fails, flaky, slow are fine\n"
	over := "plantmock: cannot read --spec: " + file + ": file of 60 bytes is over the limit of 59 bytes (--max-spec raises the limit)\n"
	tests := []cliCase{
		{name: "the default", args: []string{"check", "--spec", file}, out: fine},
		{name: "at the limit", args: []string{"check", "--max-spec", "60", "--spec", file}, out: fine},
		{name: "over the limit", args: []string{"check", "--max-spec", "59", "--spec", file}, code: 2, errText: over},
		{name: "over the variable's limit", args: []string{"check", "--spec", file}, env: []string{"PLANTMOCK_MAX_SPEC=59"}, code: 2, errText: over},
		{name: "the flag wins", args: []string{"check", "--max-spec", "1KiB", "--spec", file}, env: []string{"PLANTMOCK_MAX_SPEC=59"}, out: fine},
		{name: "not a size", args: []string{"check", "--max-spec", "lots", "--spec", file}, code: 2,
			errText: "plantmock check: --max-spec \"lots\": want a size in bytes, or with KiB, MiB or GiB (e.g. 1048576, 512KiB, 1MiB); run plantmock check --help\n"},
	}
	runCLICases(t, tests)
}

func get(t *testing.T, url string, header ...string) (int, http.Header, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// TestAdminFlags runs the admin API on its own listener with a token, and
// the health command against it.
func TestAdminFlags(t *testing.T) {
	// Find a free port for the admin listener: the first line only names the main one.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	adminAddr := ln.Addr().String()
	ln.Close()
	dir := t.TempDir()
	seed := filepath.Join(dir, "seed.json")
	os.WriteFile(seed, []byte(`{"/plants":[{"id":5,"name":"Seeded"}]}`), 0o644)
	in, _ := start(t, nil, "--admin-addr", adminAddr, "--admin-token", "adm", "--seed-data", seed)
	if code, _, body := get(t, in.url+"/__admin/store", "Authorization", "Bearer adm"); code != 404 {
		t.Errorf("admin on the main listener: %d %s", code, body)
	}
	if code, _, body := get(t, "http://"+adminAddr+"/__admin/store", "Authorization", "Bearer adm"); code != 200 || body != `{"collections":{"/plants":[{"id":5,"name":"Seeded"}]}}` {
		t.Errorf("admin store: %d %s", code, body)
	}
	if code, _, _ := get(t, "http://"+adminAddr+"/__admin/store", "Authorization", "Bearer other"); code != 401 {
		t.Errorf("admin without its token: %d", code)
	}
	out, err := exec.Command(plantmockBinary(t), "health", "--admin-addr", adminAddr, "--admin-token", "adm").CombinedOutput()
	if err != nil || string(out) != "plantmock health: ok, OpenAPI Plant Store 1.0.0, plantmock 0.1.0\n" {
		t.Errorf("health: %v %q", err, out)
	}
	// The token given as a flag to the mock: health checks need not know it.
	cmd := exec.Command(plantmockBinary(t), "health", "--admin-addr", adminAddr)
	if out, _ := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != 0 || string(out) != "plantmock health: ok\n" {
		t.Errorf("health without the token: exit %d %q", cmd.ProcessState.ExitCode(), out)
	}
	cmd = exec.Command(plantmockBinary(t), "report", "--admin-addr", adminAddr)
	if out, _ := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != 1 || string(out) != "plantmock report: the mock wants its admin token: give it with --admin-token or PLANTMOCK_ADMIN_TOKEN\n" {
		t.Errorf("report without the token: exit %d %q", cmd.ProcessState.ExitCode(), out)
	}
	cmd = exec.Command(plantmockBinary(t), "report", "--admin-addr", adminAddr, "--admin-token", "other")
	if out, _ := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != 1 || string(out) != "plantmock report: the mock refused the admin token given (--admin-token or PLANTMOCK_ADMIN_TOKEN): it is not the one the mock has\n" {
		t.Errorf("report with another token: exit %d %q", cmd.ProcessState.ExitCode(), out)
	}
	cmd = exec.Command(plantmockBinary(t), "report", "--addr", strings.TrimPrefix(in.url, "http://"))
	if out, _ := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != 1 || string(out) != "plantmock report: the mock does not serve its admin API there: it runs with --admin=false, or with --admin-addr (give that address with --admin-addr)\n" {
		t.Errorf("report on the listener without the admin API: exit %d %q", cmd.ProcessState.ExitCode(), out)
	}
	if code := in.stop(t); code != 0 {
		t.Errorf("exit %d", code)
	}
	cmd = exec.Command(plantmockBinary(t), "health", "--addr", adminAddr)
	if out, _ := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != 1 || string(out) != "plantmock health: nothing listens on "+adminAddr+": is the mock running there? (--addr or PLANTMOCK_ADDR says where)\n" {
		t.Errorf("health of a stopped mock: exit %d %q", cmd.ProcessState.ExitCode(), out)
	}
}

// TestRequestLogs checks the JSON request log and that tokens stay out of it.
func TestRequestLogs(t *testing.T) {
	in, _ := start(t, nil, "--log-format", "json", "--token", "s3cret")
	post(t, in.url, "s3cret", `{"id":1,"name":"Fern"}`)
	post(t, in.url, "s3cret", `{"id":"x","name":"Fern"}`)
	if code := in.stop(t); code != 0 {
		t.Fatalf("exit %d", code)
	}
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(in.stderr.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line is not JSON: %q", l)
		}
		if m["msg"] == "request" {
			delete(m, "time")
			delete(m, "duration")
			lines = append(lines, m)
		}
	}
	want := `[map[level:INFO method:POST msg:request path:/plants status:200] map[error:40004 level:INFO method:POST msg:request path:/plants status:400 violations:[id: expected integer, got string]]]`
	if fmt.Sprint(lines) != want {
		t.Errorf("request log:\n%v\nwant\n%s", lines, want)
	}
	if strings.Contains(in.stderr.String(), "s3cret") {
		t.Error("the token is in the log")
	}
}

// TestAdminBrowserFlags: --admin-cors lets a page of that origin call the
// admin API, others are refused; --allowed-host and PLANTMOCK_ALLOWED_HOST
// (comma-separated) add the names the admin API answers calls to.
func TestAdminBrowserFlags(t *testing.T) {
	in, _ := start(t, []string{"PLANTMOCK_ALLOWED_HOST=mock.internal,*.corp.example"}, "--admin-cors", "http://localhost:3000")
	for _, c := range []struct {
		host, origin string
		status       int
		allowOrigin  string
	}{
		{"", "http://localhost:3000", 200, "http://localhost:3000"},
		{"", "http://localhost:3001", 403, ""},
		{"mock.internal:4010", "", 200, ""},
		{"ci.corp.example", "", 200, ""},
		{"other.example", "", 403, ""},
	} {
		req, _ := http.NewRequest("GET", in.url+"/__admin/requests", nil)
		if c.host != "" {
			req.Host = c.host
		}
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status || resp.Header.Get("Access-Control-Allow-Origin") != c.allowOrigin {
			t.Errorf("Host %q Origin %q: %d, Access-Control-Allow-Origin %q; want %d, %q", c.host, c.origin,
				resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"), c.status, c.allowOrigin)
		}
	}
}

// TestCORSAndAdminOff checks a browser preflight, and --admin=false.
func TestCORSAndAdminOff(t *testing.T) {
	in, _ := start(t, nil, "--admin=false")
	req, _ := http.NewRequest("OPTIONS", in.url+"/plants", nil)
	req.Header.Set("Origin", "http://localhost:3000")
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Headers", "authorization, content-type")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 204 || resp.Header.Get("Access-Control-Allow-Origin") != "http://localhost:3000" ||
		resp.Header.Get("Access-Control-Allow-Methods") != "POST" || resp.Header.Get("Access-Control-Allow-Headers") != "authorization, content-type" {
		t.Errorf("preflight: %d %v", resp.StatusCode, resp.Header)
	}
	if code, _, _ := get(t, in.url+"/__admin/store"); code != 404 {
		t.Errorf("admin with --admin=false: %d", code)
	}
	// The health command, which the container image runs, still passes.
	out, err := exec.Command(plantmockBinary(t), "health", "--addr", strings.TrimPrefix(in.url, "http://")).CombinedOutput()
	if err != nil || string(out) != "plantmock health: ok, OpenAPI Plant Store 1.0.0, plantmock 0.1.0\n" {
		t.Errorf("health with --admin=false: %v %q", err, out)
	}
}

// TestHugeFiles checks that a 1 GiB document or seed file is refused
// without being read.
func TestHugeFiles(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.json")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	for _, tt := range []struct{ flag, want string }{
		{"--spec", "plantmock: cannot read --spec: " + huge + ": file of 1073741824 bytes is over the limit of 134217728 bytes (--max-spec raises the limit)\n"},
		{"--seed-data", "plantmock: cannot read --seed-data: " + huge + ": file of 1073741824 bytes is over the limit of 67108864 bytes\n"},
	} {
		cmd := exec.Command(plantmockBinary(t), "--addr", "127.0.0.1:0", tt.flag, huge)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		cmd.Run()
		if cmd.ProcessState.ExitCode() != 2 || stderr.String() != tt.want {
			t.Errorf("%s: exit %d, stderr %q", tt.flag, cmd.ProcessState.ExitCode(), stderr.String())
		}
	}
}
