package mock

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestPrefer checks the Prism-compatible Prefer header as the pipeline
// decides on it: a declared code, and the codes and examples it refuses.
// What the answer makes of a preference is answer's TestParsePrefer,
// TestPreferCode and TestPreferExample.
func TestPrefer(t *testing.T) {
	s, ts := newTestServer(t, Options{})
	t.Run("code picks a declared status with a generated body", func(t *testing.T) {
		req, resp, got := send(t, ts, post(`{"id":1,"name":"a"}`, "Prefer", "code=400"))
		if resp.StatusCode != 400 {
			t.Fatalf("status %d: %s", resp.StatusCode, got)
		}
		assertConforms(t, s, req, resp, got)
	})
	t.Run("an undeclared code is refused", func(t *testing.T) {
		check(t, s, ts, post(`{"id":1,"name":"a"}`, "Prefer", "code=418").expect(400,
			`{"error":40007,"message":"Prefer: code=418 is not declared for POST /plants (declared: 200, 400)"}`))
	})
	t.Run("an unknown example is refused", func(t *testing.T) {
		check(t, s, ts, post(`{"id":2,"name":"a"}`, "Prefer", "example=big").expect(400,
			`{"error":40007,"message":"Prefer: example=big names no example of status 200 (examples: none)"}`))
	})
}

// TestPreferOverScenario checks that Prefer takes precedence over the
// active scenario's rules, also when it names the success status: that
// status is the operation's usual answer, stored as usual.
func TestPreferOverScenario(t *testing.T) {
	s, ts := newTestServer(t, Options{Scenario: "store-busy", Seed: 3})
	busy := post(`{"id":1,"name":"a"}`)
	_, resp, got := send(t, ts, busy)
	if resp.StatusCode != 400 || !strings.HasPrefix(string(got), `{"error":50300,"message":"the store is busy (`) {
		t.Fatalf("without Prefer: %d %s; want the scenario's 400", resp.StatusCode, got)
	}
	check(t, s, ts, post(`{"id":1,"name":"a"}`, "Prefer", "code=200").expect(200, `{"name":"a"}`))
	if n := stored(s, "/plants"); n != 1 {
		t.Errorf("store holds %d plants after Prefer: code=200, want 1", n)
	}
	req, resp, got := send(t, ts, post(`{"id":2,"name":"b"}`, "Prefer", "dynamic=true"))
	if resp.StatusCode != 200 {
		t.Errorf("Prefer: dynamic=true: %d %s; want a generated 200", resp.StatusCode, got)
	}
	assertConforms(t, s, req, resp, got)
	// A seed alone asks for no answer: the scenario's rule answers.
	if _, resp, got := send(t, ts, post(`{"id":3,"name":"c"}`, "Prefer", "seed=5")); resp.StatusCode != 400 {
		t.Errorf("Prefer: seed=5: %d %s; want the scenario's 400", resp.StatusCode, got)
	}
}

// TestPreferDefault checks Options.Prefer as the facade wires it: every
// request to the API has the preference but where its own Prefer header
// says otherwise, the journal notes it, an undeclared code is refused per
// request, the admin API never sees it, and New refuses a bad one. The
// precedence itself is answer's TestPreferDefaultApply.
func TestPreferDefault(t *testing.T) {
	t.Run("dynamic, but where the header says otherwise", func(t *testing.T) {
		s, ts := newTestServer(t, Options{Prefer: "dynamic=true, seed=7"})
		check(t, s, ts, post(`{"id":1,"name":"Fern"}`).expect(200, `{"name":"curios tax","tag":"also"}`))
		if n := stored(s, "/plants"); n != 0 {
			t.Errorf("the store holds %d plants after a generated answer, want 0", n)
		}
		check(t, s, ts, post(`{"id":1,"name":"Fern"}`, "Prefer", "dynamic=false").expect(200, `{"name":"Fern"}`))
		if n := stored(s, "/plants"); n != 1 {
			t.Errorf("the store holds %d plants after Prefer: dynamic=false, want 1", n)
		}
		var notes [][]string
		for _, e := range s.Journal() {
			notes = append(notes, e.Notes)
		}
		if want := [][]string{{"default Prefer applied: dynamic=true, seed=7"}, {"default Prefer applied: seed=7"}}; !reflect.DeepEqual(notes, want) {
			t.Errorf("journal notes %q, want %q", notes, want)
		}
	})
	t.Run("a code the operation does not declare, and the admin API", func(t *testing.T) {
		s, ts := newTestServer(t, Options{Prefer: "code=404"})
		check(t, s, ts, post(`{"id":1,"name":"Fern"}`).expect(400,
			`{"error":40007,"message":"Prefer: code=404 is not declared for POST /plants (declared: 200, 400)"}`))
		_, resp, got := send(t, ts, call{method: "GET", path: "/__admin/store"})
		if resp.StatusCode != 200 || string(got) != `{"collections":{}}` {
			t.Errorf("GET /__admin/store: %d %s; want 200 and the empty store", resp.StatusCode, got)
		}
	})
	t.Run("refused at start", func(t *testing.T) {
		_, err := New(Options{Prefer: "dynamc=true"})
		var oe *OptionError
		if !errors.As(err, &oe) || oe.Name != "prefer" || err.Error() != `prefer: "dynamc" is no preference plantmock knows (code, example, dynamic, seed, stream-items, stream-interval, stream-drop, stream-ids, stream-done)` {
			t.Errorf("New: %v; want an OptionError of prefer", err)
		}
	})
}
