package diff_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock"
	"github.com/plantmock/plantmock/mock/diff"
	"github.com/plantmock/plantmock/mock/verify"
)

// TestWeighGitHub records real traffic and weighs the ten changes to
// GitHub's description with it: verify sends a mock of the description
// its requests for the operations the changes touch, the mock's journal
// is saved, and judged against both documents. Each exchange NEW breaks
// must be explained by exactly one change, of its own operation, and
// the request's changes that traffic can show must each be shown.
func TestWeighGitHub(t *testing.T) {
	old := githubSpec(t)
	changed := tenChanged(t, old)
	srv, err := mock.New(mock.Options{Spec: old})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { ts.Close(); srv.Close() })
	only := []string{"GET /zen", "POST /markdown", "POST /gists/{gist_id}/comments", "GET /repos/{owner}/{repo}/issues", "GET /octocat", "GET /emojis"}
	if _, err := verify.Run(context.Background(), old, ts.URL, verify.Options{Only: only, Header: http.Header{"Authorization": {"Bearer abc"}}}); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(ts.URL + "/__admin/requests")
	if err != nil {
		t.Fatal(err)
	}
	journal, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "requests.json")
	if err := os.WriteFile(file, journal, 0o600); err != nil {
		t.Fatal(err)
	}
	var judged [2]*mock.ContractReport
	for i, spec := range [][]byte{old, changed} {
		m, err := mock.New(mock.Options{Spec: spec})
		if err != nil {
			t.Fatal(err)
		}
		judged[i], err = m.CheckTraffic(file)
		m.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	r, err := diff.Compare(old, changed)
	if err != nil {
		t.Fatal(err)
	}
	r.Weigh(judged[0], judged[1])
	if len(r.Traffic.Broken) == 0 {
		t.Fatalf("no recorded exchange breaks NEW, of %d", r.Traffic.Exchanges)
	}
	for _, b := range r.Traffic.Broken {
		if len(b.Rules) != 1 {
			t.Errorf("%s %s %s: explained by %v, want one change", b.Source, b.Method, b.Path, b.Rules)
		}
	}
	var shown []string
	for _, c := range r.Changes {
		if c.Traffic != nil && c.Traffic.Broken > 0 {
			shown = append(shown, c.Operation+" "+c.Rule)
		}
		for _, b := range r.Traffic.Broken {
			if slices.Contains(b.Rules, c.Rule) && b.Operation != c.Operation && c.Rule != "operation-removed" {
				t.Errorf("%s (%s) explained by %s of %s", b.Source, b.Operation, c.Rule, c.Operation)
			}
		}
	}
	slices.Sort(shown)
	want := []string{
		"GET /octocat request-parameter-added-required",
		"GET /repos/{owner}/{repo}/issues request-parameter-became-required",
		"GET /repos/{owner}/{repo}/issues request-parameter-enum-value-removed",
		"GET /zen operation-removed",
		"POST /markdown request-property-became-required",
		"POST /markdown request-property-enum-value-removed",
	}
	if !slices.Equal(shown, want) {
		t.Errorf("changes the traffic shows:\n%s\nwant:\n%s", strings.Join(shown, "\n"), strings.Join(want, "\n"))
	}
}
