package mock

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/pipeline"
	"github.com/plantmock/plantmock/mock/internal/record"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// formatSession is one small session through a recording proxy of
// crudStore: creates (one repeated, told apart by a header), a list, a
// read and a miss.
var formatSession = []struct{ method, path, body, variant string }{
	{"POST", "/plants", `{"id":1,"name":"fern"}`, "a"},
	{"POST", "/plants", `{"id":1,"name":"fern"}`, "a"},
	{"POST", "/plants", `{"id":2,"name":"ivy"}`, "b"},
	{"GET", "/plants", "", ""},
	{"GET", "/plants/2", "", ""},
	{"GET", "/plants/9", "", ""},
}

// runSession sends formatSession to a recording mock at base, and checks
// the real service's answers came back.
func runSession(t *testing.T, base string) {
	t.Helper()
	client := &http.Client{}
	defer client.CloseIdleConnections()
	var got []string
	for _, c := range formatSession {
		req, _ := http.NewRequest(c.method, base+c.path, strings.NewReader(c.body))
		req.Header.Set("Authorization", "Bearer tok-9")
		if c.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		if c.variant != "" {
			req.Header.Set("X-Variant", c.variant)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got = append(got, fmt.Sprint(resp.StatusCode, " ", string(b)))
	}
	want := []string{`201 {"id":1,"name":"fern"}`, `409 {"error":409,"message":"plant 1 exists"}`, `201 {"id":2,"name":"ivy"}`,
		`200 [{"id":1,"name":"fern"},{"id":2,"name":"ivy"}]`, `200 {"id":2,"name":"ivy"}`, `404 {"error":404,"message":"no plant 9"}`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("through the proxy:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// folderState is every file of a folder: its name, then its mode, size,
// modification time and content.
func folderState(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		out[e.Name()] = fmt.Sprintf("%v %d %v %q", fi.Mode(), fi.Size(), fi.ModTime().UnixNano(), b)
	}
	return out
}

// sameFiles fails the test unless dir holds exactly the files of
// testdata/record: what the recording wrote of formatSession when it
// rewrote its files after every exchange, byte for byte.
func sameFiles(t *testing.T, dir string) {
	t.Helper()
	want, err := os.ReadDir("testdata/record")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, w := range want {
		names = append(names, w.Name())
		b, _ := os.ReadFile(filepath.Join("testdata/record", w.Name()))
		got, err := os.ReadFile(filepath.Join(dir, w.Name()))
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("%s: %v\n%s\nwant\n%s", w.Name(), err, got, b)
		}
		if fi, err := os.Stat(filepath.Join(dir, w.Name())); err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v %v, want 0644", w.Name(), fi, err)
		}
	}
	if got := recordedFiles(t, dir); strings.Join(got, " ") != strings.Join(names, " ") {
		t.Errorf("files %s, want %s", got, names)
	}
}

// TestRecordWritesOnSnapshot: requests write nothing in the folder, not
// even once files are there; a snapshot writes the files the recording
// always wrote, byte for byte, then only those whose operation was
// recorded again.
func TestRecordWritesOnSnapshot(t *testing.T) {
	dir := t.TempDir()
	_, ts := newTestServer(t, Options{Spec: []byte(replicaSpec), Proxy: pipeline.ProxyOptions{URL: crudStore(t).URL, Record: dir}})
	doc := adminDoc(t)
	runSession(t, ts.URL)
	if got := recordedFiles(t, dir); len(got) != 0 {
		t.Fatalf("files written during requests: %s", got)
	}
	callAdmin(t, ts, doc, adminCall{name: "status before", method: "GET", path: "/__admin/record", status: 200,
		want: `{"folder":"` + dir + `","exchanges":6,"pending":6,"dropped":0,"bytes":1895,"bound":67108864}`})
	snapshot(t, ts, "recorded-get-plants-{id}.yaml recorded-get-plants.yaml recorded-post-plants.yaml seed-data.json")
	sameFiles(t, dir)

	before := folderState(t, dir)
	do(t, ts, "GET", "/plants/1", "", "Authorization", "Bearer tok-9")
	do(t, ts, "GET", "/plants/1", "", "Authorization", "Bearer tok-9")
	if after := folderState(t, dir); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("requests changed the folder:\n%v\nwas\n%v", after, before)
	}
	callAdmin(t, ts, doc, adminCall{name: "status after", method: "GET", path: "/__admin/record", status: 200,
		want: `{"folder":"` + dir + `","exchanges":8,"pending":2,"dropped":0,"bytes":2475,"bound":67108864}`})
	snapshot(t, ts, "recorded-get-plants-{id}.yaml")
	snapshot(t, ts, "")
	b, _ := os.ReadFile(filepath.Join(dir, "recorded-get-plants-{id}.yaml"))
	sc, err := scenario.ParseScenario("recorded-get-plants-{id}.yaml", b)
	if err != nil || len(sc.Rules) != 4 {
		t.Fatalf("GET /plants/{id} after the second snapshot: %v\n%s", err, b)
	}
	if got := fmt.Sprint(sc.Rules[2].When.Params, sc.Rules[2].Times, sc.Rules[3].When.Params, sc.Rules[3].Times); got != "map[id:1] 1 map[id:1] 0" {
		t.Errorf("the new rules: %s", got)
	}
}

// TestRecordWrittenAtShutdown: the end of Serve, and Close, write what
// was recorded; neither writes before.
func TestRecordWrittenAtShutdown(t *testing.T) {
	tests := []struct {
		name string
		stop func(t *testing.T, s *Server, cancel context.CancelFunc, served func() error)
	}{
		{"Serve ends", func(t *testing.T, s *Server, cancel context.CancelFunc, served func() error) {
			cancel()
			if err := served(); err != nil {
				t.Errorf("Serve: %v", err)
			}
		}},
		{"Close", func(t *testing.T, s *Server, cancel context.CancelFunc, served func() error) {
			if err := s.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := New(Options{Spec: []byte(replicaSpec), Proxy: pipeline.ProxyOptions{URL: crudStore(t).URL, Record: dir}})
			if err != nil {
				t.Fatal(err)
			}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- s.Serve(ctx, ln) }()
			served := sync.OnceValue(func() error { return <-done })
			runSession(t, "http://"+ln.Addr().String())
			if got := recordedFiles(t, dir); len(got) != 0 {
				t.Fatalf("files written before shutdown: %s", got)
			}
			tt.stop(t, s, cancel, served)
			sameFiles(t, dir)
			cancel()
			served()
		})
	}
}

// TestRecordFileWholeOrOld: a write that breaks off in the middle, as a
// dying process's would, leaves the file as it was and no temporary file;
// the temporary file a killed process leaves is not read as a scenario;
// a snapshot that cannot write a file says so and writes it next time.
func TestRecordFileWholeOrOld(t *testing.T) {
	dir := t.TempDir()
	name := "recorded-post-plants.yaml"
	if err := record.WriteFile(dir, name, []byte("old whole\n")); err != nil {
		t.Fatal(err)
	}
	broke := errors.New("disk gone")
	err := record.WriteFileFrom(dir, name, func(w io.Writer) error {
		io.WriteString(w, `{"name": "recorded-post-pl`)
		return broke
	})
	if !errors.Is(err, broke) {
		t.Errorf("writeFileFrom: %v, want %v", err, broke)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != "old whole\n" {
		t.Errorf("%s after a broken write: %q", name, b)
	}
	if got := recordedFiles(t, dir); strings.Join(got, " ") != name {
		t.Errorf("files after a broken write: %s", got)
	}

	// What a process killed before its rename leaves: the folder still
	// loads, without it.
	if err := os.WriteFile(filepath.Join(dir, "."+name+".123.tmp"), []byte(`{"name": "recorded-post-pl`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, ts := newTestServer(t, Options{Spec: []byte(replicaSpec), Proxy: pipeline.ProxyOptions{URL: crudStore(t).URL, Record: dir}})
	do(t, ts, "POST", "/plants", `{"id":1,"name":"fern"}`, "Authorization", "Bearer tok-9")
	// A folder in the way of the file: the snapshot fails, and says so.
	if err := os.Remove(filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, name, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	callAdmin(t, ts, adminDoc(t), adminCall{name: "snapshot blocked", method: "POST", path: "/__admin/record/snapshot", status: 500,
		contains: `{"error":50000,"message":"the recording was not written whole: record: rename `})
	if got := recordedFiles(t, dir); strings.Join(got, " ") != "."+name+".123.tmp "+name+" seed-data.json" {
		t.Errorf("files after a failed snapshot: %s", got)
	}
	if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
	snapshot(t, ts, name)
	scs, err := scenario.LoadScenarios(os.DirFS(dir), ".")
	if err != nil || len(scs) != 1 || scs[0].Name != "recorded-post-plants" || len(scs[0].Rules) != 1 {
		t.Errorf("the folder loads as %v %v", scs, err)
	}
}

// TestRecordConcurrent: 32 proxied requests at once all get the real
// service's answer, and the recording keeps each one.
func TestRecordConcurrent(t *testing.T) {
	const n = 32
	dir := t.TempDir()
	_, ts := newTestServer(t, Options{Spec: []byte(replicaSpec), Proxy: pipeline.ProxyOptions{URL: crudStore(t).URL, Record: dir}})
	type answer struct {
		status int
		body   string
	}
	got := make([]answer, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := fmt.Sprintf(`{"id":%d,"name":"p%d"}`, i+1, i+1)
			req, _ := http.NewRequest("POST", ts.URL+"/plants", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			resp, err := ts.Client().Do(req)
			if err != nil {
				got[i] = answer{0, err.Error()}
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			got[i] = answer{resp.StatusCode, string(b)}
		}()
	}
	wg.Wait()
	for i, a := range got {
		if want := fmt.Sprintf(`{"id":%d,"name":"p%d"}`, i+1, i+1); a.status != 201 || a.body != want {
			t.Errorf("request %d: %d %s, want 201 %s", i, a.status, a.body, want)
		}
	}
	snapshot(t, ts, "recorded-post-plants.yaml seed-data.json")
	b, _ := os.ReadFile(filepath.Join(dir, "recorded-post-plants.yaml"))
	sc, err := scenario.ParseScenario("recorded-post-plants.yaml", b)
	if err != nil || len(sc.Rules) != n {
		t.Fatalf("%d rules, want %d: %v", len(sc.Rules), n, err)
	}
	seed, _ := os.ReadFile(filepath.Join(dir, record.SeedDataFile))
	if _, err := New(Options{Spec: []byte(replicaSpec), SeedData: seed}); err != nil || strings.Count(string(seed), `"name"`) != n {
		t.Errorf("seed data of %d resources, want %d: %v", strings.Count(string(seed), `"name"`), n, err)
	}
}

// TestRecordBound: past its bound the recording keeps nothing more, the
// requests are proxied all the same, and it says so: once in the log, and
// in a count.
func TestRecordBound(t *testing.T) {
	dir := t.TempDir()
	var logs bytes.Buffer
	s, ts := newTestServer(t, Options{Spec: []byte(replicaSpec), Proxy: pipeline.ProxyOptions{URL: crudStore(t).URL, Record: dir},
		Logger: slog.New(slog.NewTextHandler(&syncWriter{w: &logs}, nil))})
	miss := func() {
		t.Helper()
		st, body := do(t, ts, "GET", "/plants/9", "", "Authorization", "Bearer tok-9")
		expect(t, "GET /plants/9", st, body, 404, `{"error":404,"message":"no plant 9"}`)
	}
	miss()
	st := s.recording.Status()
	s.recording.Mu.Lock()
	s.recording.Bound = 2*st.Bytes + st.Bytes/2 // room for one more such exchange
	s.recording.Mu.Unlock()
	for range 3 {
		miss()
	}
	callAdmin(t, ts, adminDoc(t), adminCall{name: "status", method: "GET", path: "/__admin/record", status: 200,
		want: fmt.Sprintf(`{"folder":"%s","exchanges":2,"pending":2,"dropped":2,"bytes":%d,"bound":%d}`, dir, 2*st.Bytes, 2*st.Bytes+st.Bytes/2)})
	if n := strings.Count(logs.String(), "the recording is full"); n != 1 {
		t.Errorf("%d log lines say the recording is full, want 1:\n%s", n, logs.String())
	}
	snapshot(t, ts, "recorded-get-plants-{id}.yaml seed-data.json")
	b, _ := os.ReadFile(filepath.Join(dir, "recorded-get-plants-{id}.yaml"))
	if sc, err := scenario.ParseScenario("x.yaml", b); err != nil || len(sc.Rules) != 2 {
		t.Errorf("rules of the recording: %v\n%s", err, b)
	}
}

// TestRecordSeedWithoutResources: answers without identifiers still give
// a seed-data.json, "{}", that the replay's --seed-data takes; a
// snapshot writes none over an earlier recording's when it saw none.
func TestRecordSeedWithoutResources(t *testing.T) {
	dir := t.TempDir()
	_, ts := newTestServer(t, Options{Spec: []byte(pathsSpec), Proxy: pipeline.ProxyOptions{URL: echoPath(t).URL, Record: dir}})
	do(t, ts, "GET", "/a-b", "")
	snapshot(t, ts, "recorded-get-a~b.yaml seed-data.json")
	b, err := os.ReadFile(filepath.Join(dir, record.SeedDataFile))
	if err != nil || string(b) != "{}\n" {
		t.Fatalf("seed data: %q %v", b, err)
	}
	if _, err := New(Options{Spec: []byte(pathsSpec), SeedData: b}); err != nil {
		t.Errorf("the replay does not take the seed data: %v", err)
	}

	earlier := "{\n  \"/plants\": []\n}\n"
	if err := os.WriteFile(filepath.Join(dir, record.SeedDataFile), []byte(earlier), 0o644); err != nil {
		t.Fatal(err)
	}
	do(t, ts, "GET", "/a/b", "")
	snapshot(t, ts, "recorded-get-a-b.yaml")
	if b, _ := os.ReadFile(filepath.Join(dir, record.SeedDataFile)); string(b) != earlier {
		t.Errorf("seed data after a snapshot that saw no resource: %q", b)
	}
}

// TestRecordAdminCalls: the recording's admin calls without a recording,
// and behind the admin token.
func TestRecordAdminCalls(t *testing.T) {
	doc := adminDoc(t)
	_, plain := newTestServer(t, Options{})
	_, guarded := newTestServer(t, Options{Spec: []byte(replicaSpec), Proxy: pipeline.ProxyOptions{URL: crudStore(t).URL, Record: t.TempDir()}, Admin: AdminOptions{Token: "adm"}})
	notRecording := `{"error":40400,"message":"the mock is not recording: start it with --proxy URL --record DIR"}`
	refused := `{"error":40102,"message":"the admin API needs \"Authorization: Bearer <admin token>\""}`
	tests := []struct {
		ts *httptest.Server
		c  adminCall
	}{
		{plain, adminCall{name: "status without a recording", method: "GET", path: "/__admin/record", status: 404, want: notRecording}},
		{plain, adminCall{name: "snapshot without a recording", method: "POST", path: "/__admin/record/snapshot", status: 404, want: notRecording}},
		{guarded, adminCall{name: "status without the token", method: "GET", path: "/__admin/record", status: 401, want: refused}},
		{guarded, adminCall{name: "snapshot without the token", method: "POST", path: "/__admin/record/snapshot", status: 401, want: refused}},
		{guarded, adminCall{name: "snapshot from another origin", method: "POST", path: "/__admin/record/snapshot", status: 403,
			header:   map[string]string{"Authorization": "Bearer adm", "Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"},
			contains: `"error":40300`}},
		{guarded, adminCall{name: "snapshot with the token", method: "POST", path: "/__admin/record/snapshot", status: 200,
			header: map[string]string{"Authorization": "Bearer adm"}, contains: `"written":["seed-data.json"]`}},
	}
	for _, tt := range tests {
		t.Run(tt.c.name, func(t *testing.T) { callAdmin(t, tt.ts, doc, tt.c) })
	}
}
