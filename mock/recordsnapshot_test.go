package mock

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/pipeline"
)

// recordedFiles lists the files of a recording folder, sorted.
func recordedFiles(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
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
			client := &http.Client{}
			defer client.CloseIdleConnections()
			resp, err := client.Post("http://"+ln.Addr().String()+"/plants", "application/json", strings.NewReader(`{"id":1,"name":"fern"}`))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			expect(t, "POST /plants", resp.StatusCode, string(b), 201, `{"id":1,"name":"fern"}`)
			if got := recordedFiles(t, dir); got != "" {
				t.Fatalf("files written before shutdown: %s", got)
			}
			tt.stop(t, s, cancel, served)
			if got := recordedFiles(t, dir); got != "recorded-post-plants.yaml seed-data.json" {
				t.Errorf("files written at shutdown: %s", got)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "seed-data.json")); string(b) != "{\n  \"/plants\": [\n    {\n      \"id\": 1,\n      \"name\": \"fern\"\n    }\n  ]\n}\n" {
				t.Errorf("seed data written at shutdown:\n%s", b)
			}
			cancel()
			served()
		})
	}
}

// TestRecordAdminCalls: the recording's admin calls without a
// recording, behind the admin token, and when the snapshot fails.
func TestRecordAdminCalls(t *testing.T) {
	doc := adminDoc(t)
	_, plain := newTestServer(t, Options{})
	dir := t.TempDir()
	_, guarded := newTestServer(t, Options{Spec: []byte(replicaSpec), Proxy: pipeline.ProxyOptions{URL: crudStore(t).URL, Record: dir}, Admin: AdminOptions{Token: "adm"}})
	blockedDir := t.TempDir()
	_, blocked := newTestServer(t, Options{Spec: []byte(replicaSpec), Proxy: pipeline.ProxyOptions{URL: crudStore(t).URL, Record: blockedDir}})
	st, body := do(t, blocked, "POST", "/plants", `{"id":1,"name":"fern"}`)
	expect(t, "POST /plants", st, body, 201, `{"id":1,"name":"fern"}`)
	if err := os.MkdirAll(filepath.Join(blockedDir, "seed-data.json", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	notRecording := `{"error":40400,"message":"the mock is not recording: start it with --proxy URL --record DIR"}`
	refused := `{"error":40102,"message":"the admin API needs \"Authorization: Bearer <admin token>\""}`
	token := map[string]string{"Authorization": "Bearer adm"}
	empty := `{"folder":"` + dir + `","exchanges":0,"pending":0,"dropped":0,"bytes":0,"bound":67108864`
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
		{guarded, adminCall{name: "status with the token", method: "GET", path: "/__admin/record", status: 200, header: token, want: empty + `}`}},
		{guarded, adminCall{name: "snapshot with the token", method: "POST", path: "/__admin/record/snapshot", status: 200, header: token,
			want: empty + `,"written":["seed-data.json"]}`}},
		{blocked, adminCall{name: "snapshot that cannot write", method: "POST", path: "/__admin/record/snapshot", status: 500,
			contains: `{"error":50000,"message":"the recording was not written whole: record: rename ` + blockedDir + `/.seed-data.json.`}},
	}
	for _, tt := range tests {
		t.Run(tt.c.name, func(t *testing.T) { callAdmin(t, tt.ts, doc, tt.c) })
	}
}
