package diff_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/diff"
	"github.com/plantmock/plantmock/mock/verify"
)

// TestWeighGitHub records real traffic and weighs the ten changes to
// GitHub's description with it: verify sends a mock of the description
// its requests for the operations the changes touch, every journal
// entry is saved, and judged against both documents. Each exchange NEW breaks
// must be explained by exactly one change, of its own operation, and
// the request's changes that traffic can show must each be shown.
func TestWeighGitHub(t *testing.T) {
	old := githubSpec(t)
	changed := tenChanged(t, old)
	only := []string{"GET /zen", "POST /markdown", "POST /gists/{gist_id}/comments", "GET /repos/{owner}/{repo}/issues", "GET /octocat", "GET /emojis"}
	file := recorded(t, old, func(url string) {
		if _, err := verify.Run(context.Background(), old, url, verify.Options{Only: only, Header: http.Header{"Authorization": {"Bearer abc"}}}); err != nil {
			t.Fatal(err)
		}
	})
	r, err := diff.Compare(old, changed)
	if err != nil {
		t.Fatal(err)
	}
	weigh(t, r, old, changed, file)
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

// TestWeighGitHubVersions weighs a real change of a document with real
// traffic: GitHub's description as @octokit/openapi 22.0.0 published it
// (PLANTMOCK_GITHUB_SPEC_PREVIOUS) and as 23.0.2 does. verify sends a
// mock of the older one its requests for every operation the comparison
// finds a break in, and the recorded journal is judged against both.
// Each exchange NEW breaks must be explained by changes of its own
// operation, none by no change.
func TestWeighGitHubVersions(t *testing.T) {
	old := fileIn(t, "PLANTMOCK_GITHUB_SPEC_PREVIOUS", "@octokit/openapi 22.0.0's generated/api.github.com.json")
	now := githubSpec(t)
	r, err := diff.Compare(old, now)
	if err != nil {
		t.Fatal(err)
	}
	var only []string
	for _, c := range r.Changes {
		if c.Level != diff.Compatible && c.Operation != "" && c.Rule != "operation-added" && !slices.Contains(only, c.Operation) && !strings.HasPrefix(c.Rule, "webhook-") {
			only = append(only, c.Operation)
		}
	}
	file := recorded(t, old, func(url string) {
		if _, err := verify.Run(context.Background(), old, url, verify.Options{Only: only, Seed: 1}); err != nil {
			t.Fatal(err)
		}
	})
	weigh(t, r, old, now, file)
	if len(r.Traffic.Broken) == 0 {
		t.Fatalf("no recorded exchange breaks NEW, of %d (%d operations)", r.Traffic.Exchanges, len(only))
	}
	ops := map[string]map[string]bool{} // each operation's rules
	for _, c := range r.Changes {
		if ops[c.Operation] == nil {
			ops[c.Operation] = map[string]bool{}
		}
		ops[c.Operation][c.Rule] = true
	}
	for _, b := range r.Traffic.Broken {
		if len(b.Rules) == 0 {
			t.Errorf("%s %s %s -> %d: explained by no change: %+v", b.Source, b.Method, b.Path, b.Status, b.Violations)
		}
		for _, rule := range b.Rules {
			// A removed operation is found by OLD's routes: NEW has none.
			if rule != "operation-removed" && !ops[b.Operation][rule] {
				t.Errorf("%s %s %s (%s): explained by %s, not a change of its operation", b.Source, b.Method, b.Path, b.Operation, rule)
			}
		}
	}
	t.Logf("%d operations with a break, %d exchanges recorded, %d NEW breaks", len(only), r.Traffic.Exchanges, len(r.Traffic.Broken))
}
