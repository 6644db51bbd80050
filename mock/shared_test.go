package mock

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plantmock/plantmock/internal/redistest"
)

// TestStoreURLErrors: New refuses a malformed URL and an unreachable
// Redis with a *StoreError that hides the password.
func TestStoreURLErrors(t *testing.T) {
	srv := redistest.NewServer(t)
	addr := srv.Addr
	srv.Close()
	for _, c := range []struct{ url, want string }{
		{"redis://user:hunter2@" + addr + "/0", "store redis://user:xxxxx@" + addr + "/0: store: unavailable: ping " + addr + ": dial tcp " + addr + ": connect: connection refused"},
		{"mysql://" + addr, "store mysql://" + addr + ": redisstore: mysql://" + addr + ": the scheme must be redis or rediss"},
	} {
		_, err := New(Options{Spec: []byte(replicaSpec), Store: StoreOptions{URL: c.url}})
		if _, ok := err.(*StoreError); !ok || err.Error() != c.want {
			t.Errorf("New with %s: %T %v\nwant *StoreError %s", c.url, err, err, c.want)
		}
	}
}

// TestStoreUnavailable: while Redis is down, requests that need it get
// the documented 503 (or the operation's declared 5xx) in the error
// shape, the health call says why, and the mock recovers by itself.
func TestStoreUnavailable(t *testing.T) {
	srv := redistest.NewDurableServer(t)
	ts := replicas(t, srv.URL(0), 1, Options{Store: StoreOptions{Timeout: 300 * 1e6}})[0]
	st, body := do(t, ts, "POST", "/plants", `{"id":1,"name":"fern"}`)
	expect(t, "create", st, body, 201, `{"id":1,"name":"fern"}`)
	st, body = do(t, ts, "GET", "/__admin/health", "")
	expect(t, "health", st, body, 200, `{"spec":"Replicated Plants 1.0.0","status":"ok","store":"redis","version":"`+Version+`"}`)

	srv.Kill()
	// The first call after the kill may find the connection closed (EOF),
	// the next ones find nothing listening.
	refused := "<down>"
	st, body = do(t, ts, "POST", "/plants", `{"id":2,"name":"ivy"}`)
	down := func(op string) string {
		return `{"error":50300,"message":"the mock's shared store did not answer in time; retry (a change asked for may or may not have been stored): store: unavailable: ` + op + `: ` + refused + `"}`
	}
	// Both read the active scenario first.
	expect(t, "create while down", st, lost(body), 503, down("active"))
	st, body = do(t, ts, "GET", "/plants/1", "")
	expect(t, "read while down, which declares a 500", st, lost(body), 500, down("active"))
	st, body = do(t, ts, "GET", "/plants/1", "", ScenarioHeader, "none")
	expect(t, "a scenario that is not loaded while down: the request's fault first", st, body, 400,
		`{"error":40006,"message":"X-Mock-Scenario names no loaded scenario: \"none\"; known: first-call-fails, first-create-fails, flaky, slow, store-busy, tag-policy"}`)
	st, body = do(t, ts, "POST", "/plants", `{"id":"x"}`)
	expect(t, "an invalid create while down: the contract first", st, body, 400, `{"error":40004,"message":"request body does not match the schema: id: expected integer, got string; name: required property is missing"}`)
	st, body = do(t, ts, "GET", "/__admin/health", "")
	expect(t, "health while down", st, lost(body), 503, `{"reason":"store: unavailable: ping: `+refused+`","spec":"Replicated Plants 1.0.0","status":"unhealthy","store":"redis","version":"`+Version+`"}`)
	st, body = do(t, ts, "GET", "/__admin/requests", "")
	expect(t, "journal while down", st, lost(body), 503, `{"error":50300,"message":"the mock's shared store did not answer in time: store: unavailable: journal: `+refused+`"}`)

	// Once Redis is back, the first call after the wait between dials
	// (at most 2 s) dials it again: no restart.
	srv.Restart(t)
	st, body = healthyAgain(t, ts)
	expect(t, "health after the restart", st, body, 200, `{"spec":"Replicated Plants 1.0.0","status":"ok","store":"redis","version":"`+Version+`"}`)
	st, body = do(t, ts, "GET", "/plants", "")
	expect(t, "list after the restart", st, body, 200, `[{"id":1,"name":"fern"}]`)
	st, body = do(t, ts, "POST", "/plants", `{"id":2,"name":"ivy"}`)
	expect(t, "create after the restart", st, body, 201, `{"id":2,"name":"ivy"}`)
}

// healthyAgain asks a mock's health until it is no longer 503, for up
// to 10 s, and returns the last answer: after Redis restarts, the mock
// dials it again on its first call after the current wait between
// dials (at most 2 s).
func healthyAgain(t *testing.T, ts *httptest.Server) (int, string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, body := do(t, ts, "GET", "/__admin/health", "")
		if st != 503 || time.Now().After(deadline) {
			return st, body
		}
		time.Sleep(10 * time.Millisecond) // polling with a deadline
	}
}

// lost writes the reason a call to a stopped Redis failed as <down>.
func lost(s string) string { return downReason.ReplaceAllString(s, "<down>") }

var downReason = regexp.MustCompile(`EOF|dial tcp [0-9.:]+: connect: connection refused`)

// TestStoreKilledMidLoad: Redis killed under load from 16 clients across
// two replicas. Every answer is a 201 or the documented 503; none waits
// much past the store's deadline; every create acknowledged before the
// kill is there once Redis is back from its append-only file.
func TestStoreKilledMidLoad(t *testing.T) {
	srv := redistest.NewDurableServer(t)
	const timeout = 300 * time.Millisecond
	r := replicas(t, srv.URL(0), 2, Options{Store: StoreOptions{Timeout: timeout}})
	const clients, failures = 16, 4
	var (
		acked    sync.Map // id -> body, of the 201s
		nacked   atomic.Int64
		slowest  atomic.Int64 // nanoseconds
		killed   = make(chan struct{})
		enough   = make(chan struct{}, clients) // a client saw failures after the kill
		problems = make(chan string, clients)
		wg       sync.WaitGroup
	)
	client := &http.Client{Timeout: 10 * time.Second}
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			failed := 0
			for i := 1; failed < failures; i++ {
				id := c*1_000_000 + i
				body := fmt.Sprintf(`{"id":%d,"name":"p%d"}`, id, id)
				start := time.Now()
				resp, err := client.Post(r[c%2].URL+"/plants", "application/json", strings.NewReader(body))
				if err != nil {
					problems <- err.Error()
					return
				}
				got, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if d := int64(time.Since(start)); d > slowest.Load() {
					slowest.Store(d) // racy maximum: good enough for a report
				}
				switch {
				case resp.StatusCode == 201 && string(got) == body:
					acked.Store(id, body)
					if nacked.Add(1) == 200 {
						close(killed) // from now on, failures are expected
						srv.Kill()
					}
				case resp.StatusCode == 503 && strings.HasPrefix(string(got), `{"error":50300,"message":"the mock's shared store did not answer in time; retry`):
					select {
					case <-killed:
					default:
						problems <- "a 503 before the kill: " + string(got)
						return
					}
					if failed++; failed == failures {
						enough <- struct{}{}
					}
				default:
					problems <- fmt.Sprintf("create %d: %d %s", id, resp.StatusCode, got)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(problems)
	for p := range problems {
		t.Error(p)
	}
	if len(enough) != clients {
		t.Fatalf("%d of %d clients saw the outage", len(enough), clients)
	}
	// Each request makes a few calls to Redis, each within the deadline,
	// and a refused connection fails at once.
	if max := time.Duration(slowest.Load()); max > 4*timeout+time.Second {
		t.Errorf("the slowest answer took %v; the store's deadline is %v", max, timeout)
	}
	t.Logf("%d creates acknowledged before the kill; slowest answer %v", nacked.Load(), time.Duration(slowest.Load()))

	srv.Restart(t)
	for _, ts := range r {
		if st, body := healthyAgain(t, ts); st != 200 {
			t.Fatalf("health after the restart: %d %s", st, body)
		}
	}
	acked.Range(func(k, v any) bool {
		id := k.(int)
		st, body := do(t, r[id%2], "GET", "/plants/"+strconv.Itoa(id), "")
		expect(t, "an acknowledged create after the restart", st, body, 200, v.(string))
		return !t.Failed()
	})
}
