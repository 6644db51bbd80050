package record_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/record"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// scenarioOf reads and parses the scenario of a recording's folder.
func scenarioOf(tb testing.TB, dir, name string) *scenario.Scenario {
	tb.Helper()
	sc, err := scenario.ParseScenario(name+".yaml", []byte(readFile(tb, dir, name+".yaml")))
	if err != nil {
		tb.Fatal(err)
	}
	if sc.Name != name {
		tb.Errorf("%s.yaml holds the scenario %q", name, sc.Name)
	}
	return sc
}

// rules returns the rules of a scenario of a recording's folder, in
// JSON.
func rules(tb testing.TB, dir, name string) string {
	tb.Helper()
	b, err := json.Marshal(scenarioOf(tb, dir, name).Rules)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

// sameFiles fails the test unless dir holds exactly the files of
// testdata/session, byte for byte, each of mode 0644: what the recording
// writes of session, as it always wrote it.
func sameFiles(tb testing.TB, dir string) {
	tb.Helper()
	want, err := os.ReadDir("testdata/session")
	if err != nil {
		tb.Fatal(err)
	}
	var names []string
	for _, w := range want {
		names = append(names, w.Name())
		b, err := os.ReadFile(filepath.Join("testdata/session", w.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, w.Name()))
		if err != nil || !bytes.Equal(got, b) {
			tb.Errorf("%s: %v\n%s\nwant\n%s", w.Name(), err, got, b)
		}
		if fi, err := os.Stat(filepath.Join(dir, w.Name())); err != nil || fi.Mode().Perm() != 0o644 {
			tb.Errorf("%s: mode %v %v, want 0644", w.Name(), fi, err)
		}
	}
	if got := files(tb, dir); got != strings.Join(names, " ") {
		tb.Errorf("files %s, want %s", got, names)
	}
}

// folderState is every file of a folder: its name, then its mode, size,
// modification time and content.
func folderState(tb testing.TB, dir string) string {
	tb.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s %v %d %v %q", e.Name(), fi.Mode(), fi.Size(), fi.ModTime().UnixNano(), readFile(tb, dir, e.Name())))
	}
	return strings.Join(out, "\n")
}

// TestSnapshot: exchanges write nothing in the folder, not even once
// files are there; a snapshot writes the files the recording always
// wrote, byte for byte, then only those whose operation was recorded
// again, whole, and none when nothing was.
func TestSnapshot(t *testing.T) {
	r, dir := newRecording(t)
	tell(t, r, session...)
	if got := files(t, dir); got != "" {
		t.Fatalf("files written before a snapshot: %s", got)
	}
	if got, want := r.Status(), (record.RecordStatus{Folder: dir, Exchanges: 6, Pending: 6, Bytes: sessionBytes, Bound: 64 << 20}); got != want {
		t.Errorf("status %+v, want %+v", got, want)
	}
	snapshot(t, r, "recorded-get-plants-{id}.yaml recorded-get-plants.yaml recorded-post-plants.yaml seed-data.json")
	sameFiles(t, dir)
	if got, want := r.Status(), (record.RecordStatus{Folder: dir, Exchanges: 6, Bytes: sessionBytes, Bound: 64 << 20}); got != want {
		t.Errorf("status after the snapshot %+v, want %+v", got, want)
	}

	before := folderState(t, dir)
	read := exchange{op: "GET /plants/{id}", vals: []string{"1"}, status: 200, resp: `{"id":1,"name":"fern"}`}
	tell(t, r, read, read)
	if after := folderState(t, dir); after != before {
		t.Fatalf("exchanges changed the folder:\n%v\nwas\n%v", after, before)
	}
	// Each read weighs 256, X-Trace (7+3+2) and its body (22).
	if got, want := r.Status(), (record.RecordStatus{Folder: dir, Exchanges: 8, Pending: 2, Bytes: sessionBytes + 2*290, Bound: 64 << 20}); got != want {
		t.Errorf("status %+v, want %+v", got, want)
	}
	snapshot(t, r, "recorded-get-plants-{id}.yaml")
	snapshot(t, r, "")
	want := `[{"when":{"operation":"GET /plants/{id}","params":{"id":"2"}},"respond":{"status":200,"headers":{"X-Trace":"t-1"},"body":{"id":2,"name":"ivy"}}},` +
		`{"when":{"operation":"GET /plants/{id}","params":{"id":"9"}},"respond":{"status":404,"headers":{"X-Trace":"t-1"},"body":{"error":404,"message":"no plant 9"}}},` +
		`{"when":{"operation":"GET /plants/{id}","params":{"id":"1"}},"times":1,"respond":{"status":200,"headers":{"X-Trace":"t-1"},"body":{"id":1,"name":"fern"}}},` +
		`{"when":{"operation":"GET /plants/{id}","params":{"id":"1"}},"respond":{"status":200,"headers":{"X-Trace":"t-1"},"body":{"id":1,"name":"fern"}}}]`
	if got := rules(t, dir, "recorded-get-plants-{id}"); got != want {
		t.Errorf("GET /plants/{id} after the second snapshot:\n%s\nwant\n%s", got, want)
	}
	for _, name := range []string{"recorded-get-plants.yaml", "recorded-post-plants.yaml", record.SeedDataFile} {
		if b, _ := os.ReadFile(filepath.Join("testdata/session", name)); readFile(t, dir, name) != string(b) {
			t.Errorf("%s changed though nothing new was recorded for it", name)
		}
	}
}

// TestSnapshotSeedData: answers without resources still give a
// seed-data.json, "{}", which --seed-data takes; a snapshot writes none
// over an earlier recording's when it saw none, and writes it again when
// a resource is new or changed, in the order first seen.
func TestSnapshotSeedData(t *testing.T) {
	r, dir := newRecording(t)
	tell(t, r, exchange{op: "GET /plants", status: 200, resp: `[{"name":"no id"},7]`})
	snapshot(t, r, "recorded-get-plants.yaml seed-data.json")
	if got := readFile(t, dir, record.SeedDataFile); got != "{}\n" {
		t.Fatalf("seed data %q", got)
	}

	earlier := "{\n  \"/plants\": []\n}\n"
	if err := os.WriteFile(filepath.Join(dir, record.SeedDataFile), []byte(earlier), 0o644); err != nil {
		t.Fatal(err)
	}
	tell(t, r, exchange{op: "GET /plants/{id}", vals: []string{"9"}, status: 404, resp: `{"error":404,"message":"no plant 9"}`})
	snapshot(t, r, "recorded-get-plants-{id}.yaml")
	if got := readFile(t, dir, record.SeedDataFile); got != earlier {
		t.Errorf("seed data after a snapshot that saw no resource: %q", got)
	}

	tell(t, r, exchange{op: "GET /plants", status: 200, resp: `[{"id":2,"name":"ivy"},{"id":1,"name":"fern"}]`})
	snapshot(t, r, "recorded-get-plants.yaml seed-data.json")
	tell(t, r, exchange{op: "GET /plants/{id}", vals: []string{"1"}, status: 200, resp: `{"id":1,"name":"fern"}`})
	snapshot(t, r, "recorded-get-plants-{id}.yaml") // seen alike: the seed data stays
	tell(t, r, exchange{op: "GET /plants/{id}", vals: []string{"2"}, status: 200, resp: `{"id":2,"name":"ivy 2"}`})
	snapshot(t, r, "recorded-get-plants-{id}.yaml seed-data.json")
	want := "{\n  \"/plants\": [\n    {\n      \"id\": 2,\n      \"name\": \"ivy 2\"\n    },\n    {\n      \"id\": 1,\n      \"name\": \"fern\"\n    }\n  ]\n}\n"
	if got := readFile(t, dir, record.SeedDataFile); got != want {
		t.Errorf("seed data:\n%s\nwant\n%s", got, want)
	}
}

// TestSnapshotRetries: a snapshot that cannot write a file says so,
// writes the others, and writes it the next time.
func TestSnapshotRetries(t *testing.T) {
	r, dir := newRecording(t)
	tell(t, r, session...)
	for _, name := range []string{"recorded-post-plants.yaml", record.SeedDataFile} {
		if err := os.MkdirAll(filepath.Join(dir, name, "x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	written, err := r.Snapshot()
	if got := strings.Join(written, " "); got != "recorded-get-plants-{id}.yaml recorded-get-plants.yaml" {
		t.Errorf("written %s", got)
	}
	wantErr := fmt.Sprintf("record: rename %[1]s/.recorded-post-plants.yaml.*.tmp %[1]s/recorded-post-plants.yaml: file exists\n"+
		"record: rename %[1]s/.seed-data.json.*.tmp %[1]s/seed-data.json: file exists", dir)
	if err == nil || !matches(wantErr, err.Error()) {
		t.Errorf("error %v, want %s", err, wantErr)
	}
	if got := files(t, dir); got != "recorded-get-plants-{id}.yaml recorded-get-plants.yaml recorded-post-plants.yaml seed-data.json" {
		t.Errorf("files after a failed snapshot: %s", got)
	}
	for _, name := range []string{"recorded-post-plants.yaml", record.SeedDataFile} {
		if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	snapshot(t, r, "recorded-post-plants.yaml seed-data.json")
	sameFiles(t, dir)
}

// matches reports whether s is pattern, each * in it standing for any
// run of characters without a slash.
func matches(pattern, s string) bool {
	ok, err := filepath.Match(pattern, s)
	return ok && err == nil
}
