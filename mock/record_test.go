package mock

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/pipeline"
	"github.com/plantmock/plantmock/mock/internal/record"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// crudStore is a real service of replicaSpec for the recording tests:
// plants in memory, a cookie and a trace header on every answer.
func crudStore(t *testing.T) *httptest.Server {
	var mu sync.Mutex
	var order []string
	plants := map[string]string{}
	mux := http.NewServeMux()
	answer := func(w http.ResponseWriter, status int, body string) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Set-Cookie", "session=s3ssion-value")
		w.Header().Set("X-Trace", "t-1")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
	mux.HandleFunc("POST /plants", func(w http.ResponseWriter, r *http.Request) {
		var p struct {
			ID   json.Number `json:"id"`
			Name string      `json:"name"`
		}
		json.NewDecoder(r.Body).Decode(&p)
		mu.Lock()
		defer mu.Unlock()
		if _, ok := plants[p.ID.String()]; ok {
			answer(w, 409, `{"error":409,"message":"plant `+p.ID.String()+` exists"}`)
			return
		}
		b := `{"id":` + p.ID.String() + `,"name":"` + p.Name + `"}`
		plants[p.ID.String()], order = b, append(order, p.ID.String())
		answer(w, 201, b)
	})
	mux.HandleFunc("GET /plants", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		var all []string
		for _, id := range order {
			all = append(all, plants[id])
		}
		answer(w, 200, "["+strings.Join(all, ",")+"]")
	})
	mux.HandleFunc("GET /plants/{id}", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if b, ok := plants[r.PathValue("id")]; ok {
			answer(w, 200, b)
			return
		}
		answer(w, 404, `{"error":404,"message":"no plant `+r.PathValue("id")+`"}`)
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts
}

// TestRecordAndReplay: what a proxy recorded loads as scenarios and seed
// data, replays the same answers without the real service, and holds no
// credential, cookie or redacted header.
func TestRecordAndReplay(t *testing.T) {
	dir := t.TempDir()
	real := crudStore(t)
	_, rec := newTestServer(t, Options{Spec: []byte(replicaSpec), Proxy: pipeline.ProxyOptions{URL: real.URL, Record: dir, RecordRedact: []string{"X-Api-Secret"}}})
	session := []struct{ method, path, body string }{
		{"POST", "/plants", `{"id":1,"name":"fern"}`},
		{"POST", "/plants", `{"id":2,"name":"ivy"}`},
		{"POST", "/plants", `{"id":1,"name":"fern"}`},
		{"GET", "/plants", ""},
		{"GET", "/plants/1", ""},
		{"GET", "/plants/3", ""},
	}
	creds := []string{"Authorization", "Bearer tok-123", "Cookie", "sid=c00kie", "X-Api-Secret", "hush"}
	var recorded []string
	for _, c := range session {
		st, body := do(t, rec, c.method, c.path, c.body, creds...)
		recorded = append(recorded, string(jsonx.Marshal(mustDecode(t, body)))+" "+itoa(st))
	}
	want := []string{`{"id":1,"name":"fern"} 201`, `{"id":2,"name":"ivy"} 201`, `{"error":409,"message":"plant 1 exists"} 409`,
		`[{"id":1,"name":"fern"},{"id":2,"name":"ivy"}] 200`, `{"id":1,"name":"fern"} 200`, `{"error":404,"message":"no plant 3"} 404`}
	if strings.Join(recorded, "\n") != strings.Join(want, "\n") {
		t.Fatalf("through the proxy:\n%s\nwant\n%s", strings.Join(recorded, "\n"), strings.Join(want, "\n"))
	}
	snapshot(t, rec, "recorded-get-plants-{id}.yaml recorded-get-plants.yaml recorded-post-plants.yaml seed-data.json")

	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
		b, _ := os.ReadFile(f)
		for _, secret := range []string{"tok-123", "c00kie", "hush", "s3ssion-value", "Set-Cookie", "Authorization"} {
			if strings.Contains(string(b), secret) {
				t.Errorf("%s holds %q:\n%s", filepath.Base(f), secret, b)
			}
		}
	}
	if got := strings.Join(names, " "); got != "recorded-get-plants-{id}.yaml recorded-get-plants.yaml recorded-post-plants.yaml seed-data.json" {
		t.Errorf("recorded files: %s", got)
	}

	// Replay: no proxy, the recording's scenarios active, its seed data.
	scs, err := scenario.LoadScenarios(os.DirFS(dir), ".")
	if err != nil {
		t.Fatal(err)
	}
	seed, err := os.ReadFile(filepath.Join(dir, record.SeedDataFile))
	if err != nil {
		t.Fatal(err)
	}
	_, replay := newTestServer(t, Options{Spec: []byte(replicaSpec), Scenarios: scs, Scenario: "recorded-*", SeedData: seed})
	var replayed []string
	for _, c := range session {
		st, body := do(t, replay, c.method, c.path, c.body)
		replayed = append(replayed, string(jsonx.Marshal(mustDecode(t, body)))+" "+itoa(st))
	}
	if strings.Join(replayed, "\n") != strings.Join(want, "\n") {
		t.Errorf("replayed:\n%s\nwant\n%s", strings.Join(replayed, "\n"), strings.Join(want, "\n"))
	}
	_, resp, _ := send(t, replay, call{method: "GET", path: "/plants/2"})
	if resp.Header.Get("X-Trace") != "" {
		t.Errorf("GET /plants/2 was not recorded, yet answered with the recorded header")
	}
	if _, err := New(Options{Proxy: pipeline.ProxyOptions{Record: dir}}); err == nil || err.Error() != "record needs proxy: it records what the real service answers" {
		t.Errorf("New with record and no proxy: %v", err)
	}
}

// snapshot asks the mock to write its recording, through the admin
// call, and checks the files it says it wrote (space-separated, sorted).
func snapshot(t *testing.T, ts *httptest.Server, want string) {
	t.Helper()
	got := callAdmin(t, ts, adminDoc(t), adminCall{name: "snapshot", method: "POST", path: "/__admin/record/snapshot", status: 200})
	var st struct{ Written []string }
	if err := json.Unmarshal([]byte(got), &st); err != nil {
		t.Fatalf("snapshot: %v: %s", err, got)
	}
	if strings.Join(st.Written, " ") != want {
		t.Errorf("snapshot wrote %q, want %q", st.Written, want)
	}
}

func mustDecode(t *testing.T, s string) any {
	t.Helper()
	v, err := jsonx.Decode([]byte(s))
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

// TestRecordLongAnswer: regression test for proxied answers over 32 KiB,
// which the reverse proxy copies through one buffer of that size: the
// journal's copy of the answer began with its last piece instead of its
// first, and the recording left out a body that no longer decoded.
func TestRecordLongAnswer(t *testing.T) {
	long := `{"id":1,"name":"` + strings.Repeat("a", 20000) + strings.Repeat("b", 20000) + `"}`
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, long)
	}))
	t.Cleanup(up.Close)
	dir := t.TempDir()
	s, ts := newTestServer(t, Options{Spec: []byte(replicaSpec), Proxy: pipeline.ProxyOptions{URL: up.URL, Record: dir}})
	st, body := do(t, ts, "GET", "/plants/1", "")
	if st != 200 || body != long {
		t.Fatalf("GET /plants/1: %d, %d bytes, want 200 and the %d bytes sent", st, len(body), len(long))
	}
	if j := s.Journal(); len(j) != 1 || string(j[0].Response) != long {
		t.Errorf("the journal's answer is not the one sent: %d entries", len(j))
	}
	snapshot(t, ts, "recorded-get-plants-{id}.yaml seed-data.json")
	b, _ := os.ReadFile(filepath.Join(dir, "recorded-get-plants-{id}.yaml"))
	sc, err := scenario.ParseScenario("recorded-get-plants-{id}.yaml", b)
	if err != nil || len(sc.Rules) != 1 || string(jsonx.Marshal(sc.Rules[0].Respond.Body)) != long {
		t.Errorf("the recorded answer is not the one sent: %v", err)
	}
}
