package mock

import (
	"strings"
	"testing"
)

// TestPrefer checks the Prism-compatible Prefer header.
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
	t.Run("a code that is not a status is refused", func(t *testing.T) {
		check(t, s, ts, post(`{"id":1,"name":"a"}`, "Prefer", "code=abc").expect(400,
			`{"error":40007,"message":"Prefer: code=abc is not an HTTP status"}`))
	})
	t.Run("dynamic generates instead of echoing, and stores nothing", func(t *testing.T) {
		a, b := post(`{"id":1,"name":"a"}`, "Prefer", "dynamic=true, seed=9"), post(`{"id":1,"name":"a"}`, "Prefer", "seed=9,dynamic=true")
		req, resp, got := send(t, ts, a)
		_, _, again := send(t, ts, b)
		if resp.StatusCode != 200 || string(got) == `{"name":"a"}` || string(got) != string(again) {
			t.Errorf("got %d %s then %s; want the same generated plant twice", resp.StatusCode, got, again)
		}
		assertConforms(t, s, req, resp, got)
		if n := stored(s, "/plants"); n != 0 {
			t.Errorf("store holds %d plants", n)
		}
	})
	t.Run("code of the success status is the usual answer", func(t *testing.T) {
		check(t, s, ts, post(`{"id":1,"name":"a"}`, "Prefer", "code=200").expect(200, `{"name":"a"}`))
	})
	t.Run("an unknown example is refused", func(t *testing.T) {
		check(t, s, ts, post(`{"id":2,"name":"a"}`, "Prefer", "example=big").expect(400,
			`{"error":40007,"message":"Prefer: example=big names no example of status 200 (examples: none)"}`))
	})
	t.Run("unknown preferences are ignored", func(t *testing.T) {
		check(t, s, ts, post(`{"id":3,"name":"c"}`, "Prefer", "return=minimal").expect(200, `{"name":"c"}`))
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

// TestPreferExample picks a named example of the second document.
func TestPreferExample(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: readSpec(t, "../examples/tasks.yaml")})
	busy := `{"done":3,"labels":["red"],"open":49,"owner":"ops@example.com","updatedAt":"2026-01-02T03:04:05Z"}`
	check(t, s, ts, call{method: "GET", path: "/stats", header: map[string]string{"X-API-Key": "k", "Prefer": "example=busy"}}.expect(200, busy))
	quiet := `{"done":12,"open":0,"owner":"ops@example.com","updatedAt":"2026-01-02T03:04:05Z"}`
	check(t, s, ts, call{method: "GET", path: "/stats", header: map[string]string{"X-API-Key": "k", "Prefer": `example="quiet"`}}.expect(200, quiet))
	// Without a preference, the first named example is the canned answer.
	check(t, s, ts, call{method: "GET", path: "/stats", header: map[string]string{"X-API-Key": "k"}}.expect(200, quiet))
}

// TestPreferUsualAnswerChangesNothing checks that a Prefer header asking
// for the usual answer leaves generated data as it would be without it.
// (Regression: it drew from the sequence of generated values, so with a
// fixed seed every later answer moved one place.)
func TestPreferUsualAnswerChangesNothing(t *testing.T) {
	spec := readSpec(t, "../examples/tasks.yaml")
	report := func(prefer string) call {
		h := map[string]string{"X-API-Key": "k"}
		if prefer != "" {
			h["Prefer"] = prefer
		}
		return call{method: "GET", path: "/report", header: h}
	}
	_, plain := newTestServer(t, Options{Spec: spec, Seed: 7})
	_, first, a := send(t, plain, report(""))
	_, _, b := send(t, plain, report(""))
	if first.StatusCode != 200 || string(a) == string(b) {
		t.Fatalf("two generated reports: %d %s and %s; want two different ones", first.StatusCode, a, b)
	}
	for _, prefer := range []string{"code=200", "return=minimal", "code=200, return=representation"} {
		_, ts := newTestServer(t, Options{Spec: spec, Seed: 7})
		_, _, a2 := send(t, ts, report(prefer))
		_, _, b2 := send(t, ts, report(""))
		if string(a2) != string(a) || string(b2) != string(b) {
			t.Errorf("Prefer: %s: reports %s, %s; want %s, %s as without it", prefer, a2, b2, a, b)
		}
	}
}
