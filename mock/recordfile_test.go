package mock

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/pipeline"
	"github.com/plantmock/plantmock/mock/internal/record"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// pathsSpec declares GET operations whose paths the old names mixed up.
const pathsSpec = `openapi: 3.1.0
info: {title: paths, version: '1'}
paths:
  /a-b: {get: {responses: {'200': {description: ok, content: {application/json: {schema: {type: object}}}}}}}
  /a/b: {get: {responses: {'200': {description: ok, content: {application/json: {schema: {type: object}}}}}}}
  /a_b: {get: {responses: {'200': {description: ok, content: {application/json: {schema: {type: object}}}}}}}
  /A/b: {get: {responses: {'200': {description: ok, content: {application/json: {schema: {type: object}}}}}}}
  /a/{b}: {get: {parameters: [{name: b, in: path, required: true, schema: {type: string}}], responses: {'200': {description: ok, content: {application/json: {schema: {type: object}}}}}}}
`

// echoPath is a real service that answers every request with its path.
func echoPath(t *testing.T) *httptest.Server {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"path":"`+r.URL.Path+`"}`)
	}))
	t.Cleanup(ts.Close)
	return ts
}

// recordedFiles lists the files of a recording folder.
func recordedFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// TestRecordPathsApart: operations whose paths differ only in "-", "/",
// "_", case or a template are recorded in files of their own, each with
// its own answer, and the recording replays each.
func TestRecordPathsApart(t *testing.T) {
	dir := t.TempDir()
	_, rec := newTestServer(t, Options{Spec: []byte(pathsSpec), Proxy: pipeline.ProxyOptions{URL: echoPath(t).URL, Record: dir}})
	paths := []string{"/a-b", "/a/b", "/a_b", "/A/b", "/a/c"}
	for _, p := range paths {
		st, body := do(t, rec, "GET", p, "")
		expect(t, "GET "+p, st, body, 200, `{"path":"`+p+`"}`)
	}
	if got := recordedFiles(t, dir); len(got) != 0 {
		t.Fatalf("files written before a snapshot: %s", got)
	}
	snapshot(t, rec, "recorded-get-_a-b.yaml recorded-get-a-b.yaml recorded-get-a-{b}.yaml recorded-get-a__b.yaml recorded-get-a~b.yaml seed-data.json")
	want := []string{"recorded-get-_a-b.yaml", "recorded-get-a-b.yaml", "recorded-get-a-{b}.yaml", "recorded-get-a__b.yaml", "recorded-get-a~b.yaml", record.SeedDataFile}
	if got := recordedFiles(t, dir); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("recorded files:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for file, p := range map[string]string{"recorded-get-a~b.yaml": "/a-b", "recorded-get-a-b.yaml": "/a/b", "recorded-get-a__b.yaml": "/a_b", "recorded-get-_a-b.yaml": "/A/b", "recorded-get-a-{b}.yaml": "/a/c"} {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		sc, err := scenario.ParseScenario(file, b)
		if err != nil {
			t.Fatal(err)
		}
		if sc.Name+".yaml" != file || len(sc.Rules) != 1 || string(jsonx.Marshal(sc.Rules[0].Respond.Body)) != `{"path":"`+p+`"}` {
			t.Errorf("%s: scenario %s, rules %s", file, sc.Name, jsonx.Marshal(sc.Rules))
		}
	}

	scs, err := scenario.LoadScenarios(os.DirFS(dir), ".")
	if err != nil {
		t.Fatal(err)
	}
	_, replay := newTestServer(t, Options{Spec: []byte(pathsSpec), Scenarios: scs, Scenario: "recorded-*"})
	for _, p := range paths {
		st, body := do(t, replay, "GET", p, "")
		expect(t, "replayed GET "+p, st, body, 200, `{"path":"`+p+`"}`)
	}
}

// TestRecordThroughPlantedLinks: symbolic links planted in the folder at
// a recording's file names, and at the name its temporary file had,
// never make it write outside the folder: the file they point at is
// unchanged, and the recording's files are regular files in the folder.
func TestRecordThroughPlantedLinks(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(outside, []byte("keep me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	planted := []string{"recorded-post-plants.yaml", "recorded-post-plants.yaml.tmp", record.SeedDataFile, record.SeedDataFile + ".tmp"}
	for _, name := range planted {
		if err := os.Symlink(outside, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	_, rec := newTestServer(t, Options{Spec: []byte(replicaSpec), Proxy: pipeline.ProxyOptions{URL: crudStore(t).URL, Record: dir}})
	st, body := do(t, rec, "POST", "/plants", `{"id":1,"name":"fern"}`, "Authorization", "Bearer t")
	expect(t, "POST /plants", st, body, 201, `{"id":1,"name":"fern"}`)
	snapshot(t, rec, "recorded-post-plants.yaml seed-data.json")

	if b, err := os.ReadFile(outside); err != nil || string(b) != "keep me\n" {
		t.Fatalf("the file outside the folder was written: %q %v", b, err)
	}
	for _, name := range []string{"recorded-post-plants.yaml", record.SeedDataFile} {
		fi, err := os.Lstat(filepath.Join(dir, name))
		if err != nil || !fi.Mode().IsRegular() {
			t.Errorf("%s is not a regular file of the folder: %v %v", name, fi, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, record.SeedDataFile)); string(b) != "{\n  \"/plants\": [\n    {\n      \"id\": 1,\n      \"name\": \"fern\"\n    }\n  ]\n}\n" {
		t.Errorf("seed data:\n%s", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "recorded-post-plants.yaml")); !strings.Contains(string(b), `"name": "fern"`) {
		t.Errorf("recorded-post-plants.yaml:\n%s", b)
	}
	// The planted temporary names are left as they were, and no
	// temporary file stays behind.
	got := recordedFiles(t, dir)
	want := []string{"recorded-post-plants.yaml", "recorded-post-plants.yaml.tmp", record.SeedDataFile, record.SeedDataFile + ".tmp"}
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("files:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRecordedNames: hostile paths give plain file names of the folder,
// every one apart from the others, and a long path a name of bounded
// length that ends in a hash; writeFile creates each inside the folder
// and nothing beside it.
func TestRecordedNames(t *testing.T) {
	long := "/" + strings.Repeat("x", 300)
	tests := []struct{ method, path, want string }{
		{"POST", "/plants", "recorded-post-plants"},
		{"GET", "/plants/{id}", "recorded-get-plants-{id}"},
		{"GET", "/users/{userId}/v1.2", "recorded-get-users-{user_id}-v1.2"},
		{"GET", "/../../etc/passwd", "recorded-get-..-..-etc-passwd"},
		{"GET", "/..", "recorded-get-.."},
		{"GET", "//abs", "recorded-get--abs"},
		{"GET", "/a\x00b", "recorded-get-a_000b"},
		{"GET", `/a\b`, "recorded-get-a_092b"},
		{"GET", "/a:b*c?", "recorded-get-a_058b_042c_063"},
		{"GET", "/caf\u00e9", "recorded-get-caf_195_169"},
		{"GET", "/a b", "recorded-get-a_032b"},
		{"GET", "/a%2Fb", "recorded-get-a_0372_fb"},
		{"GET", "/a-b", "recorded-get-a~b"},
		{"GET", "/a/b", "recorded-get-a-b"},
		{"GET", "/a_b", "recorded-get-a__b"},
		{"GET", "/A/b", "recorded-get-_a-b"},
		{"GET", "/_a/b", "recorded-get-__a-b"},
		{"GET", "/_A/b", "recorded-get-___a-b"},
		{"GET", "/a/_b", "recorded-get-a-__b"},
		{"GET", "/a_/b", "recorded-get-a__-b"},
		{"GET", long, "recorded-get-" + strings.Repeat("x", record.MaxRecordedName-len("recorded-get-")) + "-fe2918a7a0caf6fd"},
		{"GET", long + "y", ""}, // cut like the one above, yet apart by its hash
	}
	dir := filepath.Join(t.TempDir(), "rec")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, tt := range tests {
		name := record.RecordedName(tt.method, tt.path)
		if tt.want != "" && name != tt.want {
			t.Errorf("%s %q: %q, want %q", tt.method, tt.path, name, tt.want)
		}
		if other, ok := seen[name]; ok {
			t.Errorf("%s %q and %s share the name %q", tt.method, tt.path, other, name)
		}
		seen[name] = tt.method + " " + tt.path
		if len(name) > record.MaxRecordedName+17 || filepath.Base(name) != name || strings.ContainsAny(name, "/\\\x00") {
			t.Errorf("%s %q: %q is not a short plain file name", tt.method, tt.path, name)
		}
		if err := record.WriteFile(dir, name+".yaml", []byte(tt.path)); err != nil {
			t.Errorf("%s %q: %v", tt.method, tt.path, err)
		}
		if b, err := os.ReadFile(filepath.Join(dir, name+".yaml")); err != nil || string(b) != tt.path {
			t.Errorf("%s %q: read back %q %v", tt.method, tt.path, b, err)
		}
	}
	if got := recordedFiles(t, filepath.Dir(dir)); len(got) != 1 || got[0] != "rec" {
		t.Errorf("beside the folder: %s", got)
	}
	if got := recordedFiles(t, dir); len(got) != len(tests) {
		t.Errorf("%d files in the folder, want %d: %s", len(got), len(tests), got)
	}
	for _, bad := range []string{"", ".", "..", "../x", "a/b", `a\b`, "/abs", "a\x00b"} {
		if err := record.WriteFile(dir, bad, nil); err == nil {
			t.Errorf("writeFile %q: no error", bad)
		}
	}
}
