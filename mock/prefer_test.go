package mock

import (
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
