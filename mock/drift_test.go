package mock

import (
	"encoding/json"
	"errors"
	"testing"
)

// TestPreviousSpec serves examples/diff/new.yaml with old.yaml as its
// previous document, over a real connection: each request is answered
// as new.yaml alone answers it, and the journal's entry, read over the
// admin API, has a drift where old.yaml accepts what new.yaml refuses.
// Reload keeps the previous document. The journal in Redis, written off
// the request's path, keeps the drift alike.
func TestPreviousSpec(t *testing.T) { eachStore(t, previousSpec) }

// previousSpec is TestPreviousSpec with the store of opts.
func previousSpec(t *testing.T, opts Options) {
	newSpec := example(t, "diff/new.yaml")
	opts.Spec, opts.PreviousSpec = newSpec, example(t, "diff/old.yaml")
	s, ts := newTestServer(t, opts)
	const drift = "accepted by the previous document (Greenhouse 1.0), refused by the served one: "
	long := `{"name":"Monstera deliciosa Thai"}`
	valid := `{"name":"Fern","light":"shade"}`
	tooLong := `{"error":40004,"message":"request body does not match the schema: name: longer than the maximum length 20"}`
	calls := []struct {
		call
		drift string
	}{
		{call{name: "a name old.yaml allows", method: "POST", path: "/plants", header: jsonHeader(long), body: long,
			status: 422, wantHeader: map[string]string{"Content-Type": "application/json", "Content-Length": itoa(len(tooLong))}, wantBody: tooLong},
			drift + "request body does not match the schema: name: longer than the maximum length 20"},
		{call{name: "a valid plant", method: "POST", path: "/plants", header: jsonHeader(valid), body: valid,
			status: 201, wantHeader: map[string]string{"Content-Type": "application/json", "Content-Length": "31"}, wantBody: `{"light":"shade","name":"Fern"}`},
			""},
	}
	var want []string
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) { check(t, s, ts, c.call) })
		want = append(want, c.drift)
	}
	if _, err := s.Reload(given(Content{Spec: newSpec})); err != nil {
		t.Fatal(err)
	}
	t.Run("after a reload", func(t *testing.T) { check(t, s, ts, calls[0].call) })
	want = append(want, calls[0].drift)

	_, _, body := send(t, ts, call{method: "GET", path: "/__admin/requests"})
	var journal struct {
		Requests []struct {
			Seq   int     `json:"seq"`
			Drift *string `json:"drift"`
		} `json:"requests"`
	}
	if err := json.Unmarshal(body, &journal); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	if len(journal.Requests) != len(want) {
		t.Fatalf("the journal has %d entries, want %d: %s", len(journal.Requests), len(want), body)
	}
	for _, e := range journal.Requests {
		switch w := want[e.Seq-1]; {
		case w == "" && e.Drift != nil:
			t.Errorf("entry %d has drift %q, want none", e.Seq, *e.Drift)
		case w != "" && (e.Drift == nil || *e.Drift != w):
			t.Errorf("entry %d has drift %v, want %q", e.Seq, e.Drift, w)
		}
	}
}

// TestPreviousSpecRefused: a previous document that does not load, and
// one beside several documents, are New's *OptionError for
// previous-spec; the former is also a *SpecError.
func TestPreviousSpecRefused(t *testing.T) {
	_, err := New(Options{PreviousSpec: []byte("title: not openapi\n")})
	var oe *OptionError
	var se *SpecError
	want := "previous-spec: OpenAPI document: not an OpenAPI document: no openapi field"
	if !errors.As(err, &oe) || oe.Name != "previous-spec" || !errors.As(err, &se) || err.Error() != want {
		t.Errorf("a broken previous document: New gives %v, want an *OptionError for previous-spec around a *SpecError: %s", err, want)
	}
	_, err = New(Options{PreviousSpec: example(t, "diff/old.yaml"), Documents: []Document{{Spec: example(t, "diff/new.yaml"), Base: "/v2"}}})
	want = "previous-spec: a mock of Documents has no previous document: give it beside the one document it precedes, as Spec"
	if err == nil || err.Error() != want {
		t.Errorf("beside Documents: New gives %v, want %s", err, want)
	}
}
