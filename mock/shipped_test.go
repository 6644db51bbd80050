package mock

import (
	"fmt"
	"io"
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
