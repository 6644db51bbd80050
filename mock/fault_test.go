package mock

import (
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// TestFaults checks each fault as a client sees it.
func TestFaults(t *testing.T) {
	yml := func(f scenario.Fault) string {
		return "name: s\nrules:\n  - respond: {fault: " + string(f) + "}\n"
	}
	t.Run("connection_reset", func(t *testing.T) {
		_, ts := scenarioServer(t, yml(scenario.FaultConnectionReset), Options{})
		got, err := rawCreate(t, ts)
		if !errors.Is(err, syscall.ECONNRESET) || len(got) != 0 {
			t.Errorf("read %q, %v; want nothing and a connection reset", got, err)
		}
		_, err = ts.Client().Do(mustRequest(t, ts))
		if err == nil || !strings.Contains(err.Error(), "connection reset by peer") {
			t.Errorf("client error = %v, want connection reset by peer", err)
		}
	})
	t.Run("connection_reset served", func(t *testing.T) {
		// Serve's connections are watched (see watch): the reset reaches
		// the socket under the watched connection.
		sc, err := scenario.ParseScenario("test.yaml", []byte(yml(scenario.FaultConnectionReset)))
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(Options{Scenarios: []*scenario.Scenario{sc}, Scenario: sc.Name})
		if err != nil {
			t.Fatal(err)
		}
		got, err := rawCreateAt(t, serveLoopback(t, s))
		if !errors.Is(err, syscall.ECONNRESET) || len(got) != 0 {
			t.Errorf("read %q, %v; want nothing and a connection reset", got, err)
		}
	})
	t.Run("empty_response", func(t *testing.T) {
		_, ts := scenarioServer(t, yml(scenario.FaultEmptyResponse), Options{})
		got, err := rawCreate(t, ts)
		if err != nil || len(got) != 0 {
			t.Errorf("read %q, %v; want EOF without a byte", got, err)
		}
		_, err = ts.Client().Do(mustRequest(t, ts))
		if err == nil || !strings.Contains(err.Error(), "EOF") {
			t.Errorf("client error = %v, want EOF", err)
		}
	})
	t.Run("malformed_body", func(t *testing.T) {
		_, ts := scenarioServer(t, yml(scenario.FaultMalformedBody), Options{})
		_, resp, got := send(t, ts, post(`{"id":1,"name":"a"}`))
		want := `{"name":"Monstera","tag":`
		if resp.StatusCode != 200 || string(got) != want || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("got %d %q %s, want 200 application/json %s", resp.StatusCode, resp.Header.Get("Content-Type"), got, want)
		}
	})
	t.Run("random_data_then_close", func(t *testing.T) {
		_, ts := scenarioServer(t, yml(scenario.FaultRandomDataThenClose), Options{})
		got, err := rawCreate(t, ts)
		if err != nil || len(got) != 64 || strings.HasPrefix(string(got), "HTTP/") {
			t.Errorf("read %d bytes %q, %v; want 64 bytes that are not HTTP, then EOF", len(got), got, err)
		}
		_, err = ts.Client().Do(mustRequest(t, ts))
		if err == nil || !strings.Contains(err.Error(), "malformed HTTP") {
			t.Errorf("client error = %v, want a malformed HTTP answer", err)
		}
	})
}

// TestDocsListEveryFault checks that the scenario table of docs/scenarios.md names
// every fault of the table, with what the client sees.
func TestDocsListEveryFault(t *testing.T) {
	readme, err := os.ReadFile("../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range scenario.Faults {
		if want := "`" + string(f.Name) + "` (" + f.Sees + ")"; !strings.Contains(string(readme), want) {
			t.Errorf("docs/scenarios.md does not say %s", want)
		}
	}
}
