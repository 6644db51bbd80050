package mock

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// The shipped scenarios, each selected per request as a client would.

func TestShippedFirstCreateFails(t *testing.T) {
	s, ts := newTestServer(t, Options{Scenario: "first-create-fails"})
	check(t, s, ts, post(`{"id":1,"name":"a"}`).expect(400, `{"error":50300,"message":"the store refused plant 1: please retry"}`))
	check(t, s, ts, post(`{"id":1,"name":"a"}`).expect(200, `{"name":"a"}`))
	check(t, s, ts, post(`{"id":2,"name":"b"}`).expect(200, `{"name":"b"}`))
	if n := stored(s, "/plants"); n != 2 {
		t.Errorf("store holds %d plants, want 2", n)
	}
}

func TestShippedStoreBusy(t *testing.T) {
	s, ts := newTestServer(t, Options{Seed: 3})
	var bodies []string
	for i := 0; i < 3; i++ {
		req, resp, got := send(t, ts, post(`{"id":1,"name":"a"}`, ScenarioHeader, "store-busy"))
		if resp.StatusCode != 400 {
			t.Fatalf("status %d: %s", resp.StatusCode, got)
		}
		assertConforms(t, s, req, resp, got)
		if !strings.HasPrefix(string(got), `{"error":50300,"message":"the store is busy (`) {
			t.Errorf("answer %s; want error 50300, the scenario's own, and the generated message", got)
		}
		bodies = append(bodies, string(got))
	}
	if bodies[0] == bodies[1] || bodies[1] == bodies[2] {
		t.Errorf("generated messages repeat: %v", bodies)
	}
	if n := stored(s, "/plants"); n != 0 {
		t.Errorf("store holds %d plants after refused creates", n)
	}
	_, ts2 := newTestServer(t, Options{Seed: 3})
	if _, _, again := send(t, ts2, post(`{"id":1,"name":"a"}`, ScenarioHeader, "store-busy")); string(again) != bodies[0] {
		t.Errorf("same seed, different answer: %s vs %s", again, bodies[0])
	}
}

func TestShippedSlow(t *testing.T) {
	s, ts := newTestServer(t, Options{})
	start := time.Now()
	check(t, s, ts, post(`{"id":1,"name":"a"}`, ScenarioHeader, "slow").expect(200, `{"name":"a"}`))
	if d := time.Since(start); d < 1500*time.Millisecond {
		t.Errorf("answered after %v, before 1.5s", d)
	}
}

func TestShippedFlaky(t *testing.T) {
	s, ts := newTestServer(t, Options{Scenario: "flaky"})
	for i := 1; i <= 6; i++ {
		resp, err := ts.Client().Do(jsonRequest(t, ts, fmt.Sprintf(`{"id":%d,"name":"p"}`, i)))
		if i%3 == 0 {
			if err == nil {
				resp.Body.Close()
				t.Errorf("create %d answered %d; want a reset", i, resp.StatusCode)
			} else if !strings.Contains(err.Error(), "connection reset by peer") {
				t.Errorf("create %d: %v; want a connection reset", i, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("create %d: %v", i, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(b) != `{"name":"p"}` {
			t.Errorf("create %d: %d %s", i, resp.StatusCode, b)
		}
	}
	if n := stored(s, "/plants"); n != 4 {
		t.Errorf("store holds %d plants, want the 4 creates that were answered", n)
	}
}

// TestShippedOnAnyDocument checks that first-call-fails, flaky and slow
// fit a document other than the Plant Store, and count every request,
// whatever its operation; the Plant Store's own scenarios are left out.
func TestShippedOnAnyDocument(t *testing.T) {
	spec := readSpec(t, "../examples/tasks.yaml")
	health := call{method: "GET", path: "/health"}
	stats := call{method: "GET", path: "/stats", header: map[string]string{"X-API-Key": "k"}}
	// answered sends c and reports whether it was answered, not reset.
	// Each request has a connection of its own: Go's client sends a GET
	// again, unasked, when a connection it reused is reset.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	answered := func(t *testing.T, ts *httptest.Server, c call) bool {
		t.Helper()
		req, err := http.NewRequest(c.method, ts.URL+c.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range c.header {
			req.Header.Set(k, v)
		}
		resp, err := client.Do(req)
		if err != nil {
			if !strings.Contains(err.Error(), "connection reset by peer") && !strings.Contains(err.Error(), "EOF") {
				t.Fatalf("%s %s: %v; want an answer or a reset", c.method, c.path, err)
			}
			return false
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("%s %s: %d, want 200", c.method, c.path, resp.StatusCode)
		}
		return true
	}
	t.Run("loaded", func(t *testing.T) {
		s, _ := newTestServer(t, Options{Spec: spec})
		if got := strings.Join(s.ScenarioNames(), ", "); got != "first-call-fails, flaky, slow" {
			t.Errorf("scenarios %q, want the three that fit any document", got)
		}
	})
	t.Run("first-call-fails", func(t *testing.T) {
		_, ts := newTestServer(t, Options{Spec: spec, Scenario: "first-call-fails"})
		var got []bool
		for _, c := range []call{stats, health, stats} {
			got = append(got, answered(t, ts, c))
		}
		if fmt.Sprint(got) != "[false true true]" {
			t.Errorf("answered %v, want only the first reset", got)
		}
	})
	t.Run("flaky", func(t *testing.T) {
		_, ts := newTestServer(t, Options{Spec: spec, Scenario: "flaky"})
		var got []bool
		for _, c := range []call{health, stats, health, stats, health, stats} {
			got = append(got, answered(t, ts, c))
		}
		if fmt.Sprint(got) != "[true true false true true false]" {
			t.Errorf("answered %v, want every third reset", got)
		}
	})
	t.Run("slow", func(t *testing.T) {
		_, ts := newTestServer(t, Options{Spec: spec, Scenario: "slow"})
		start := time.Now()
		if !answered(t, ts, stats) {
			t.Fatal("reset")
		}
		if d := time.Since(start); d < 1500*time.Millisecond {
			t.Errorf("answered after %v, before the 1.5 s delay", d)
		}
	})
}

func TestShippedTagPolicy(t *testing.T) {
	s, ts := newTestServer(t, Options{Scenario: "tag-policy"})
	check(t, s, ts, post(`{"id":1,"name":"a","tag":"poison-ivy"}`).expect(400, `{"error":42200,"message":"tag \"poison-ivy\" is not allowed in this store"}`))
	check(t, s, ts, post(`{"id":1,"name":"a","tag":"ivy"}`).expect(200, `{"name":"a","tag":"ivy"}`))
	check(t, s, ts, post(`{"id":2,"name":"b"}`).expect(200, `{"name":"b"}`))
}

// TestReset checks that Reset empties the store and restarts rule counters.
func TestReset(t *testing.T) {
	s, ts := newTestServer(t, Options{Scenario: "first-create-fails"})
	refused := `{"error":50300,"message":"the store refused plant 1: please retry"}`
	check(t, s, ts, post(`{"id":1,"name":"a"}`).expect(400, refused))
	check(t, s, ts, post(`{"id":1,"name":"a"}`).expect(200, `{"name":"a"}`))
	s.Reset()
	if n := stored(s, "/plants"); n != 0 {
		t.Errorf("store holds %d plants after Reset", n)
	}
	check(t, s, ts, post(`{"id":1,"name":"a"}`).expect(400, refused))
	check(t, s, ts, post(`{"id":1,"name":"a"}`).expect(200, `{"name":"a"}`))
}
