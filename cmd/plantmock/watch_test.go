package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plantmock/plantmock"
)

// answerScenario answers creates of a plant named probe with a 400
// carrying msg.
func answerScenario(msg string) string {
	return fmt.Sprintf("name: answer\nrules:\n  - when: {operation: POST /plants, body: {name: probe}}\n    respond: {status: 400, body: {error: 1, message: %q}}\n", msg)
}

// eventually polls f until it returns "" or 10 s pass, then fails with
// its last word.
func eventually(t *testing.T, what string, f func() string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		why := f()
		if why == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 10s: %s", what, why)
		}
		time.Sleep(20 * time.Millisecond) // polling with a deadline
	}
}

// TestWatch edits a scenario file while a client creates plants: the
// answers switch without a restart and no plant is lost; a broken edit
// leaves the previous scenario serving and the reload status says why,
// until a good edit replaces it.
func TestWatch(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "openapi.yaml")
	scenarios := filepath.Join(dir, "scenarios")
	answer := filepath.Join(scenarios, "answer.yaml")
	if err := os.WriteFile(spec, []byte(plantmock.OpenAPI), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(scenarios, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(content string) {
		t.Helper()
		// As editors do: a new file renamed over the old one.
		tmp := answer + ".tmp"
		if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, answer); err != nil {
			t.Fatal(err)
		}
	}
	write(answerScenario("v1"))
	in, _ := start(t, nil, "--watch", "--spec", spec, "--scenarios", scenarios, "--scenario", "answer")
	probe := func() string {
		_, body := post(t, in.url, "t", `{"id":0,"name":"probe"}`)
		return body
	}
	if got := probe(); got != `{"error":1,"message":"v1"}` {
		t.Fatalf("before: %s", got)
	}

	// A client creating plants all along.
	var created atomic.Int64
	var failed atomic.Value
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for id := 1; ; id++ {
			select {
			case <-stop:
				return
			default:
			}
			if code, body := post(t, in.url, "t", fmt.Sprintf(`{"id":%d,"name":"plant"}`, id)); code != 200 {
				failed.Store(fmt.Sprintf("create %d: %d %s", id, code, body))
				return
			}
			created.Add(1)
		}
	}()

	write(answerScenario("v2"))
	eventually(t, "v2 served", func() string {
		if got := probe(); got != `{"error":1,"message":"v2"}` {
			return got
		}
		return ""
	})

	write("name: answer\nrules: [\n") // not YAML
	eventually(t, "the broken edit reported", func() string {
		_, _, body := get(t, in.url+"/__admin/reload")
		if !strings.Contains(body, `"problem":"`+answer) {
			return body
		}
		return ""
	})
	if got := probe(); got != `{"error":1,"message":"v2"}` {
		t.Errorf("after a broken edit: %s", got)
	}

	write(answerScenario("v3"))
	eventually(t, "v3 served", func() string {
		if got := probe(); got != `{"error":1,"message":"v3"}` {
			return got
		}
		return ""
	})
	close(stop)
	wg.Wait()
	if f := failed.Load(); f != nil {
		t.Errorf("the client: %v", f)
	}
	_, _, body := get(t, in.url+"/__admin/reload")
	if !strings.HasPrefix(body, `{"reloads":2,"time":"`) || strings.Contains(body, "problem") {
		t.Errorf("reload status: %s", body)
	}
	_, _, store := get(t, in.url+"/__admin/store")
	if n := int64(strings.Count(store, `"name":"plant"`)); n != created.Load() || n == 0 {
		t.Errorf("%d plants stored, %d created", n, created.Load())
	}
	if code := in.stop(t); code != 0 {
		t.Errorf("exit %d", code)
	}
	// The log, once the process has written it all.
	if !strings.Contains(in.stderr.String(), `msg="reload failed: still serving the previous version"`) || !strings.Contains(in.stderr.String(), `msg=reloaded`) {
		t.Errorf("log: %s", in.stderr)
	}

	cmd := exec.Command(plantmockBinary(t), "--addr", "127.0.0.1:0", "--watch")
	out, _ := cmd.CombinedOutput()
	if want := "plantmock: --watch needs --spec, --scenarios or --seed-data: the embedded document does not change\n"; cmd.ProcessState.ExitCode() != 2 || string(out) != want {
		t.Errorf("--watch alone: exit %d %q", cmd.ProcessState.ExitCode(), out)
	}
}

// TestWatchSpecAndSeed edits the document and then the seed data under
// --watch: the stricter document checks creates at once and lists the
// stored plants that no longer fit; the new seed data fills /plants
// again.
func TestWatchSpecAndSeed(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "openapi.yaml")
	seed := filepath.Join(dir, "seed.json")
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(name+".tmp", []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(name+".tmp", name); err != nil {
			t.Fatal(err)
		}
	}
	write(spec, plantmock.OpenAPI)
	write(seed, `{"/plants":[{"id":1,"name":"Fern"}]}`)
	in, _ := start(t, nil, "--watch", "--spec", spec, "--seed-data", seed)
	if code, body := post(t, in.url, "t", `{"id":2,"name":"Ivy"}`); code != 200 {
		t.Fatalf("create: %d %s", code, body)
	}

	stricter := strings.Replace(plantmock.OpenAPI, "      required:\n        - name\n      type: object", "      required:\n        - name\n        - tag\n      type: object", 1)
	if stricter == plantmock.OpenAPI {
		t.Fatal("the Plant schema's required list was not found")
	}
	write(spec, stricter)
	eventually(t, "misfits listed", func() string {
		_, _, body := get(t, in.url+"/__admin/reload")
		if !strings.HasSuffix(body, `"misfits":["/plants: id 1: tag: required property is missing","/plants: id 2: tag: required property is missing"]}`) {
			return body
		}
		return ""
	})
	if code, body := post(t, in.url, "t", `{"id":3,"name":"Moss"}`); code != 400 || body != `{"error":40004,"message":"request body does not match the schema: tag: required property is missing"}` {
		t.Errorf("a create without tag: %d %s", code, body)
	}

	write(seed, `{"/plants":[{"id":7,"name":"Palm","tag":"tree"}]}`)
	eventually(t, "the seed data's reload", func() string {
		_, _, body := get(t, in.url+"/__admin/reload")
		if !strings.HasPrefix(body, `{"reloads":2,`) || strings.Contains(body, "misfits") || strings.Contains(body, "problem") {
			return body
		}
		return ""
	})
	if _, _, body := get(t, in.url+"/__admin/store"); body != `{"collections":{"/plants":[{"id":7,"name":"Palm","tag":"tree"}]}}` {
		t.Errorf("the store after the seed data changed: %s", body)
	}
}

// TestWatchSeveralSpecs: with --spec repeated, saving one document's
// file reloads it alone; the other keeps serving what it stored.
func TestWatchSeveralSpecs(t *testing.T) {
	dir := t.TempDir()
	tasks, hooks := filepath.Join(dir, "tasks.yaml"), filepath.Join(dir, "hooks.yaml")
	for f, src := range map[string]string{tasks: "../../examples/tasks.yaml", hooks: "../../examples/webhooks.yaml"} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in, _ := start(t, nil, "--watch", "--spec", "/tasks="+tasks, "--spec", "/hooks="+hooks)
	req, _ := http.NewRequest("POST", in.url+"/tasks/notes", strings.NewReader(`{"text":"water"}`))
	req.Header.Set("X-API-Key", "k")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	b, _ := os.ReadFile(hooks)
	tmp := hooks + ".tmp"
	if err := os.WriteFile(tmp, []byte(strings.Replace(string(b), "version: 1.0.0", "version: 1.0.1", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, hooks); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the hooks document reloaded alone", func() string {
		resp, err := http.Get(in.url + "/__admin/reload")
		if err != nil {
			return err.Error()
		}
		defer resp.Body.Close()
		var st struct {
			Reloads int
			Read    []string
		}
		if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
			return err.Error()
		}
		if st.Reloads != 1 || strings.Join(st.Read, ",") != "hooks" {
			return fmt.Sprintf("reloads %d, read %q", st.Reloads, st.Read)
		}
		return ""
	})
	resp, err = http.Get(in.url + "/__admin/health")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `"spec":"Task Board 2.1.0, Plants with webhooks 1.0.1"`) {
		t.Errorf("health after the reload: %s", body)
	}
	req, _ = http.NewRequest("GET", in.url+"/tasks/notes/1", nil)
	req.Header.Set("X-API-Key", "k")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != `{"noteId":1,"text":"water"}` {
		t.Errorf("the note after the reload: %d %s", resp.StatusCode, body)
	}
}
