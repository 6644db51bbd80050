package mock

import (
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plantmock/plantmock/internal/redistest"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// The scenarios of scenarioReplicas: busy scripts creates, lists
// scripts lists only.
const busyScenario = `name: busy
rules:
  - when: {operation: POST /plants}
    respond: {status: 400, body: {error: 2, message: busy}}
`

const listsScenario = `name: lists
rules:
  - when: {operation: GET /plants}
    respond: {status: 400, body: {error: 3, message: lists}}
`

func scenarioReplicas(t *testing.T) (a, b string, do2 func(server, method, path, body string) (int, string)) {
	t.Helper()
	var scs []*scenario.Scenario
	for name, src := range map[string]string{"busy.yaml": busyScenario, "lists.yaml": listsScenario} {
		sc, err := scenario.ParseScenario(name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		scs = append(scs, sc)
	}
	r := replicas(t, redistest.NewServer(t).URL(0), 2, Options{Scenarios: scs})
	servers := map[string]int{"A": 0, "B": 1}
	return "A", "B", func(server, method, path, body string) (int, string) {
		t.Helper()
		return do(t, r[servers[server]], method, path, body)
	}
}

// TestReplicaScenario: creates in the default session answer as the
// scenario switched to through another replica, whichever scenario is
// switched to and from; what a create under a scenario no longer active
// would have stored is not stored.
func TestReplicaScenario(t *testing.T) {
	a, b, do := scenarioReplicas(t)
	create := func(server string, id int) (int, string) {
		t.Helper()
		return do(server, "POST", "/plants", fmt.Sprintf(`{"id":%d,"name":"p%d"}`, id, id))
	}
	activate := func(name string) {
		t.Helper()
		body := `{"name":null}`
		want := `{"active":null}`
		if name != "" {
			body, want = `{"name":"`+name+`"}`, `{"active":"`+name+`"}`
		}
		st, got := do(a, "PUT", "/__admin/scenario", body)
		expect(t, "activate "+name+" on A", st, got, 200, want)
	}
	ok := func(id int) string { return fmt.Sprintf(`{"id":%d,"name":"p%d"}`, id, id) }
	const busy = `{"error":2,"message":"busy"}`

	st, got := create(b, 1)
	expect(t, "B creates 1, none active", st, got, 201, ok(1))
	st, got = create(b, 2)
	expect(t, "B creates 2, none still active", st, got, 201, ok(2))

	activate("busy")
	st, got = create(b, 3)
	expect(t, "B creates 3 after busy on A", st, got, 400, busy)
	st, got = create(b, 4)
	expect(t, "B creates 4, busy still active", st, got, 400, busy)

	activate("lists") // no rule for creates
	st, got = create(b, 3)
	expect(t, "B creates 3 after lists on A", st, got, 201, ok(3))
	st, got = create(b, 4)
	expect(t, "B creates 4, lists still active", st, got, 201, ok(4))
	st, got = do(b, "GET", "/plants", "")
	expect(t, "B lists under lists", st, got, 400, `{"error":3,"message":"lists"}`)

	activate("busy")
	st, got = create(b, 5)
	expect(t, "B creates 5 after busy on A, lists active before", st, got, 400, busy)

	activate("")
	st, got = do(b, "GET", "/plants", "")
	expect(t, "B lists after none on A", st, got, 200, `[`+ok(1)+`,`+ok(2)+`,`+ok(3)+`,`+ok(4)+`]`)
	st, got = create(b, 5)
	expect(t, "B creates 5 after none on A", st, got, 201, ok(5))

	// The journal has each request once, as answered.
	st, got = do(a, "GET", "/__admin/requests", "")
	if st != 200 {
		t.Fatalf("journal: %d %s", st, got)
	}
	var journal struct {
		Requests []struct {
			Scenario     string
			Status, Rule int
		}
	}
	if err := json.Unmarshal([]byte(got), &journal); err != nil {
		t.Fatal(err)
	}
	var summary []string
	for _, e := range journal.Requests {
		summary = append(summary, fmt.Sprintf("%d %s %d", e.Status, e.Scenario, e.Rule))
	}
	want := "[201  0 201  0 400 busy 1 400 busy 1 201  0 201  0 400 lists 1 400 busy 1 200  0 201  0]"
	if fmt.Sprint(summary) != want {
		t.Errorf("journal: %v\nwant %s", summary, want)
	}
}

// TestReplicaScenarioUnderLoad: while 8 clients create through B, a
// scenario switch through A holds for every create sent after the switch
// was answered, and every create answered 201 is stored.
func TestReplicaScenarioUnderLoad(t *testing.T) {
	a, b, do := scenarioReplicas(t)
	type result struct {
		sent   time.Time
		status int
	}
	var (
		mu       sync.Mutex
		results  = map[int]result{}
		next     atomic.Int64
		switched atomic.Pointer[time.Time]
		after    atomic.Int64 // creates sent after the switch was answered
		wg       sync.WaitGroup
	)
	for range 8 {
		wg.Go(func() {
			for after.Load() < 200 {
				id := int(next.Add(1))
				sent := time.Now()
				st, _ := do(b, "POST", "/plants", fmt.Sprintf(`{"id":%d,"name":"p"}`, id))
				if sw := switched.Load(); sw != nil && sent.After(*sw) {
					after.Add(1)
				}
				mu.Lock()
				results[id] = result{sent, st}
				mu.Unlock()
			}
		})
	}
	for next.Load() < 200 {
		st, _ := do(a, "GET", "/plants/1", "") // until B has been creating for a while
		if st != 200 && st != 404 {
			t.Fatalf("read on A: %d", st)
		}
	}
	st, got := do(a, "PUT", "/__admin/scenario", `{"name":"busy"}`)
	expect(t, "activate busy on A", st, got, 200, `{"active":"busy"}`)
	now := time.Now()
	switched.Store(&now)
	wg.Wait()

	stored := 0
	for id, r := range results {
		switch {
		case r.sent.After(now) && r.status != 400:
			t.Errorf("create %d, sent after the switch, answered %d; want 400", id, r.status)
		case r.status == 201:
			stored++
		case r.status != 400:
			t.Errorf("create %d answered %d", id, r.status)
		}
	}
	st, got = do(a, "PUT", "/__admin/scenario", `{"name":null}`)
	expect(t, "activate none on A", st, got, 200, `{"active":null}`)
	st, got = do(a, "GET", "/plants", "")
	var plants []any
	if err := json.Unmarshal([]byte(got), &plants); st != 200 || err != nil || len(plants) != stored {
		t.Errorf("list: %d, %d plants (%v); want 200 and the %d answered 201", st, len(plants), err, stored)
	}
}
