package diff_test

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/diff"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// githubSpec returns GitHub's REST description (api.github.com.json of
// npm @octokit/openapi, which .ci/run fetches for the corpus) from the
// file PLANTMOCK_GITHUB_SPEC names. It is not committed: without the
// variable the caller is skipped, or fails under CI, whose step for this
// test sets it.
func githubSpec(tb testing.TB) []byte {
	tb.Helper()
	return fileIn(tb, "PLANTMOCK_GITHUB_SPEC", "GitHub's api.github.com.json (npm @octokit/openapi)")
}

// fileIn reads the file the environment variable env names (what says
// which), skipping the test where it is not set, and failing it where
// CI runs it.
func fileIn(tb testing.TB, env, what string) []byte {
	tb.Helper()
	path := os.Getenv(env)
	if path == "" {
		if os.Getenv("CI") != "" {
			tb.Fatalf("%s is not set: CI runs this with %s", env, what)
		}
		tb.Skipf("set %s to %s", env, what)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// A docEdit is one change made to GitHub's description: where (a JSON
// pointer, the value edited or the object holding it), what it does to
// the parsed document, and the rule plantmock diff must report there.
type docEdit struct {
	pointer string
	rule    string
	apply   func(doc map[string]any)
}

// obj follows keys from m through nested objects.
func obj(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		m = m[k].(map[string]any)
	}
	return m
}

// param returns the parameter named name of an operation's inline
// parameters.
func param(op map[string]any, name string) map[string]any {
	for _, p := range op["parameters"].([]any) {
		if pm, ok := p.(map[string]any); ok && pm["name"] == name {
			return pm
		}
	}
	panic("no parameter " + name)
}

// tenEdits are the ten changes of the benchmark's copy, each to one
// operation's own (inline) part of the document, so that each shows at
// one place.
var tenEdits = []docEdit{
	{"/paths/~1zen/get", "operation-removed", func(d map[string]any) {
		delete(obj(d, "paths", "/zen"), "get")
	}},
	{"/paths/~1plantmock~1ping/get", "operation-added", func(d map[string]any) {
		obj(d, "paths")["/plantmock/ping"] = map[string]any{"get": map[string]any{
			"responses": map[string]any{"204": map[string]any{"description": "pong"}}}}
	}},
	{"/paths/~1markdown/post/requestBody/content/application~1json/schema/properties/mode/enum", "request-property-enum-value-removed", func(d map[string]any) {
		obj(d, "paths", "/markdown", "post", "requestBody", "content", "application/json", "schema", "properties", "mode")["enum"] = []any{"markdown"}
	}},
	{"/paths/~1markdown/post/requestBody/content/application~1json/schema/required", "request-property-became-required", func(d map[string]any) {
		obj(d, "paths", "/markdown", "post", "requestBody", "content", "application/json", "schema")["required"] = []any{"text", "context"}
	}},
	{"/paths/~1gists~1{gist_id}~1comments/post/requestBody/content/application~1json/schema/properties/body/maxLength", "request-property-max-length-decreased", func(d map[string]any) {
		obj(d, "paths", "/gists/{gist_id}/comments", "post", "requestBody", "content", "application/json", "schema", "properties", "body")["maxLength"] = 1000
	}},
	{"/paths/~1repos~1{owner}~1{repo}~1issues/get/parameters/3/schema/enum", "request-parameter-enum-value-removed", func(d map[string]any) {
		param(obj(d, "paths", "/repos/{owner}/{repo}/issues", "get"), "state")["schema"].(map[string]any)["enum"] = []any{"open", "closed"}
	}},
	{"/paths/~1repos~1{owner}~1{repo}~1issues/get/parameters/6", "request-parameter-became-required", func(d map[string]any) {
		param(obj(d, "paths", "/repos/{owner}/{repo}/issues", "get"), "creator")["required"] = true
	}},
	{"/paths/~1octocat/get/parameters/1", "request-parameter-added-required", func(d map[string]any) {
		op := obj(d, "paths", "/octocat", "get")
		op["parameters"] = append(op["parameters"].([]any), map[string]any{
			"name": "width", "in": "query", "required": true, "schema": map[string]any{"type": "integer"}})
	}},
	{"/paths/~1octocat/get/responses/202", "response-success-status-added", func(d map[string]any) {
		obj(d, "paths", "/octocat", "get", "responses")["202"] = map[string]any{"description": "Accepted"}
	}},
	{"/paths/~1emojis/get/responses/200/content/application~1json/schema/additionalProperties/format", "response-property-format-added", func(d map[string]any) {
		obj(d, "paths", "/emojis", "get", "responses", "200", "content", "application/json", "schema", "additionalProperties")["format"] = "uri"
	}},
}

// tenChanged returns a copy of doc with tenEdits made, re-encoded.
func tenChanged(tb testing.TB, doc []byte) []byte {
	tb.Helper()
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		tb.Fatal(err)
	}
	for _, e := range tenEdits {
		e.apply(m)
	}
	out, err := json.Marshal(m)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// TestCompareGitHub makes ten changes to GitHub's description and holds
// Compare to finding each, with its rule, and nothing else.
func TestCompareGitHub(t *testing.T) {
	old := githubSpec(t)
	r, err := diff.Compare(old, tenChanged(t, old))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range r.Changes {
		at := ""
		if c.New != nil {
			at = c.New.Pointer
		} else if c.Old != nil {
			at = c.Old.Pointer
		}
		got = append(got, c.Rule+" "+at)
	}
	var want []string
	for _, e := range tenEdits {
		want = append(want, e.rule+" "+e.pointer)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("changes found:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// BenchmarkCompareGitHub times Compare of GitHub's description (12.7 MB,
// about 1,100 operations) against the copy with ten changes, and, for
// scale, loading the same two documents once each ("load"): Compare
// loads both, then compares.
func BenchmarkCompareGitHub(b *testing.B) {
	old := githubSpec(b)
	changed := tenChanged(b, old)
	b.Run("load", func(b *testing.B) {
		for b.Loop() {
			if _, err := openapi.Load(old); err != nil {
				b.Fatal(err)
			}
			if _, err := openapi.Load(changed); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("compare", func(b *testing.B) {
		for b.Loop() {
			if _, err := diff.Compare(old, changed); err != nil {
				b.Fatal(err)
			}
		}
	})
}
