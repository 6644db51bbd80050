package mock

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// answerScenario answers lists with a 400 carrying msg.
func answerScenario(t *testing.T, msg string) *scenario.Scenario {
	t.Helper()
	return mustScenario(t, fmt.Sprintf(`name: answer
rules:
  - when: {operation: GET /plants}
    respond: {status: 400, body: {error: 1, message: %q}}
`, msg))
}

// TestReload: a reload swaps document and scenarios and keeps the store
// and the active scenario; one that fails keeps what was served and says
// why; resources that no longer fit are listed.
func TestReload(t *testing.T) {
	opts := Options{Spec: []byte(replicaSpec), Scenarios: []*scenario.Scenario{answerScenario(t, "v1")}, Scenario: "answer"}
	s, ts := newTestServer(t, opts)
	st, body := do(t, ts, "POST", "/plants", `{"id":1,"name":"fern"}`)
	expect(t, "create", st, body, 201, `{"id":1,"name":"fern"}`)
	st, body = do(t, ts, "GET", "/plants", "")
	expect(t, "scripted before", st, body, 400, `{"error":1,"message":"v1"}`)

	opts.Scenarios = []*scenario.Scenario{answerScenario(t, "v2")}
	rs, err := s.Reload(given(opts.Content()))
	if err != nil || rs.Reloads != 1 || rs.Problem != "" || len(rs.Misfits) != 0 {
		t.Fatalf("reload: %+v %v", rs, err)
	}
	st, body = do(t, ts, "GET", "/plants", "")
	expect(t, "scripted after", st, body, 400, `{"error":1,"message":"v2"}`)
	st, body = do(t, ts, "GET", "/plants/1", "")
	expect(t, "kept", st, body, 200, `{"id":1,"name":"fern"}`)

	// A scenario that does not fit: the reload fails, v2 goes on.
	bad := opts
	bad.Scenarios = []*scenario.Scenario{mustScenario(t, "name: answer\nrules:\n  - respond: {status: 418}\n")}
	rs, err = s.Reload(given(bad.Content()))
	want := "test.yaml:3: rule 1: status 418 is not declared for GET /plants (declared: 200, 400); set off_contract: true to send it anyway"
	if err == nil || !strings.Contains(rs.Problem, want) || rs.Reloads != 1 {
		t.Errorf("bad reload: %+v %v", rs, err)
	}
	st, body = do(t, ts, "GET", "/plants", "")
	expect(t, "still v2", st, body, 400, `{"error":1,"message":"v2"}`)
	callAdmin(t, ts, adminDoc(t), adminCall{name: "reload status", method: "GET", path: "/__admin/reload", status: 200, contains: `","problem":"` + strings.ReplaceAll(want, `"`, `\"`)})

	// A document whose plants need a tag: the stored fern no longer fits.
	stricter := opts
	stricter.Spec = []byte(strings.Replace(replicaSpec, "required: [id, name]\n      properties: {id: {type: integer}, name: {type: string}}",
		"required: [id, name, tag]\n      properties: {id: {type: integer}, name: {type: string}, tag: {type: string}}", 1))
	rs, err = s.Reload(given(stricter.Content()))
	if err != nil || rs.Reloads != 2 || rs.Problem != "" || strings.Join(rs.Misfits, "\n") != "/plants: id 1: tag: required property is missing" {
		t.Errorf("stricter reload: %+v %v", rs, err)
	}
	callAdmin(t, ts, adminDoc(t), adminCall{name: "misfits", method: "GET", path: "/__admin/reload", status: 200,
		contains: `"misfits":["/plants: id 1: tag: required property is missing"]}`})
	st, body = do(t, ts, "POST", "/plants", `{"id":2,"name":"ivy"}`)
	if st != 400 || !strings.Contains(body, "tag: required property is missing") {
		t.Errorf("the new document checks creates: %d %s", st, body)
	}
	// Seed data given to a reload fills its collections again.
	seeded := stricter
	seeded.SeedData = []byte(`{"/plants":[{"id":5,"name":"a","tag":"t"}]}`)
	if rs, err = s.Reload(given(seeded.Content())); err != nil || rs.Reloads != 3 || len(rs.Misfits) != 0 {
		t.Errorf("seeded reload: %+v %v", rs, err)
	}
	st, body = do(t, ts, "GET", "/plants/5", "")
	expect(t, "seeded", st, body, 200, `{"id":5,"name":"a","tag":"t"}`)
	// Seed data naming a collection the document lacks changes nothing,
	// not even the collections before it.
	seeded.SeedData = []byte(`{"/plants":[{"id":9,"name":"b","tag":"t"}],"/trees":[]}`)
	if _, err = s.Reload(given(seeded.Content())); err == nil || err.Error() != "seed data: /trees is not a collection the document creates resources in (POST with a JSON object body)" {
		t.Errorf("seed data for no collection: %v", err)
	}
	st, body = do(t, ts, "GET", "/plants/9", "")
	if st != 404 {
		t.Errorf("a failed seed filled /plants: %d %s", st, body)
	}

	// A load that fails (a file that does not read) is the status's
	// problem, and what is served stays.
	unread := errors.New("cannot read --spec: open api.yaml: permission denied")
	rs, err = s.Reload(func() (Content, error) { return Content{Spec: []byte("not: a document")}, unread })
	if err != unread || rs.Reloads != 3 || rs.Problem != unread.Error() || len(rs.Misfits) != 0 {
		t.Errorf("a load that fails: %+v %v", rs, err)
	}
	callAdmin(t, ts, adminDoc(t), adminCall{name: "load failed", method: "GET", path: "/__admin/reload", status: 200,
		contains: `","problem":"cannot read --spec: open api.yaml: permission denied"}`})
	st, body = do(t, ts, "GET", "/plants/5", "")
	expect(t, "served after a load that fails", st, body, 200, `{"id":5,"name":"a","tag":"t"}`)

	// The contract report's counts go on across reloads.
	st, body = do(t, ts, "GET", "/__admin/contract", "")
	if !strings.Contains(body, `{"operation":"GET /plants","exchanges":3,`) {
		t.Errorf("contract after reloads: %d %s", st, body)
	}
}

// TestReloadUnderLoad: requests running while reloads swap scenarios get
// the one answer or the other, never a mix or a failure.
func TestReloadUnderLoad(t *testing.T) {
	opts := Options{Spec: []byte(replicaSpec), Scenarios: []*scenario.Scenario{answerScenario(t, "v1")}, Scenario: "answer"}
	s, ts := newTestServer(t, opts)
	v2 := opts
	v2.Scenarios = []*scenario.Scenario{answerScenario(t, "v2")}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	bad := make(chan string, 8)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				st, body := do(t, ts, "GET", "/plants", "")
				if st != 400 || body != `{"error":1,"message":"v1"}` && body != `{"error":1,"message":"v2"}` {
					select {
					case bad <- fmt.Sprintf("%d %s", st, body):
					default:
					}
				}
			}
		}()
	}
	for i := range 50 {
		o := opts
		if i%2 == 0 {
			o = v2
		}
		if _, err := s.Reload(given(o.Content())); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	close(bad)
	for b := range bad {
		t.Errorf("answer during reloads: %s", b)
	}
}
