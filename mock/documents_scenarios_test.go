package mock_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/plantmock/plantmock"
	"github.com/plantmock/plantmock/internal/redistest"
	"github.com/plantmock/plantmock/mock"
)

// twoStores serves the Plant Store twice, at /ps1 and /ps2, with a
// scenario of each document's own (ps1-twice: the first two requests of
// ps1 answer 503; ps2-every: every second request of ps2 answers 429)
// and the shipped ones; url is the store, "" for memory.
func twoStores(t *testing.T, url string) *httptest.Server {
	t.Helper()
	var own []*mock.Scenario
	for _, src := range []string{
		"name: ps1-twice\ndocument: ps1\nrules:\n  - when: {operation: POST /plants}\n    times: 2\n    respond: {status: 503}\n    off_contract: true\n",
		"name: ps2-every\ndocument: ps2\nrules:\n  - when: {operation: POST /plants}\n    every: 2\n    respond: {status: 429}\n    off_contract: true\n",
	} {
		sc, err := mock.ParseScenario("test.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		own = append(own, sc)
	}
	s, err := mock.New(mock.Options{
		Documents: []mock.Document{{Spec: []byte(plantmock.OpenAPI), Base: "/ps1"}, {Spec: []byte(plantmock.OpenAPI), Base: "/ps2"}},
		Scenarios: own, Store: mock.StoreOptions{URL: url},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts
}

// send2 sends a request with a JSON body (when not empty) and returns its
// status and body; status 0 is a connection that broke.
func send2(t *testing.T, ts *httptest.Server, method, path, body string) (int, string) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, ts.URL+path, r)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer t")
	resp, err := ts.Client().Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(b))
}

// alternate creates n plants in ps1 and n in ps2, one document after the
// other, and returns the statuses.
func alternate(t *testing.T, ts *httptest.Server, n int) []int {
	t.Helper()
	var got []int
	for i := range n {
		for _, doc := range []string{"ps1", "ps2"} {
			st, _ := send2(t, ts, "POST", "/"+doc+"/plants", `{"id":`+strconv.Itoa(i+1)+`,"name":"Fern"}`)
			got = append(got, st)
		}
	}
	return got
}

// stores runs test with the memory store and with Redis.
func stores(t *testing.T, test func(t *testing.T, url string)) {
	t.Run("memory", func(t *testing.T) { test(t, "") })
	t.Run("redis", func(t *testing.T) { test(t, redistest.NewServer(t).URL(0)) })
}

// TestDocumentsCountApart: with each document's own scenario active,
// traffic alternating between the documents gets each one's scripted
// answers at the right counts: a document's times and every count on
// whatever the other's requests in between.
func TestDocumentsCountApart(t *testing.T) {
	stores(t, func(t *testing.T, url string) {
		ts := twoStores(t, url)
		for _, c := range []struct{ doc, name string }{{"ps1", "ps1-twice"}, {"ps2", "ps2-every"}} {
			if st, body := send2(t, ts, "PUT", "/__admin/scenario?document="+c.doc, `{"name":"`+c.name+`"}`); st != 200 {
				t.Fatalf("activate %s: %d %s", c.name, st, body)
			}
		}
		got := alternate(t, ts, 4)
		want := []int{503, 200, 503, 429, 200, 200, 200, 429}
		if !slices.Equal(got, want) {
			t.Errorf("alternating ps1, ps2: %v, want %v", got, want)
		}
	})
}

// TestDocumentsFirstCallFailsOnce: first-call-fails active for every
// document breaks the first request of each, once, however requests
// alternate between them.
func TestDocumentsFirstCallFailsOnce(t *testing.T) {
	stores(t, func(t *testing.T, url string) {
		ts := twoStores(t, url)
		if st, body := send2(t, ts, "PUT", "/__admin/scenario", `{"name":"first-call-fails"}`); st != 200 {
			t.Fatalf("activate: %d %s", st, body)
		}
		got := alternate(t, ts, 3)
		if want := []int{0, 0, 200, 200, 200, 200}; !slices.Equal(got, want) {
			t.Errorf("alternating ps1, ps2 (0: reset): %v, want %v", got, want)
		}
	})
}

// TestDocumentActivationAlone: PUT /__admin/scenario?document= makes a
// scenario active in that document alone, and leaves the other
// document's active scenario as it was; GET /__admin/scenarios?document=
// shows each document's own, and without ?document= each document's,
// and the scenarios labelled with their document.
func TestDocumentActivationAlone(t *testing.T) {
	stores(t, func(t *testing.T, url string) {
		ts := twoStores(t, url)
		const plant = `{"id":1,"name":"Fern"}`
		steps := []struct{ method, path, body, want string }{
			{"PUT", "/__admin/scenario?document=ps2", `{"name":"ps2-every"}`, `200 {"active":"ps2-every"}`},
			{"PUT", "/__admin/scenario?document=ps1", `{"name":"store-busy"}`, `200 {"active":"store-busy"}`},
			{"POST", "/ps2/plants", plant, "200"},
			{"POST", "/ps1/plants", plant, "400"},
			{"GET", "/__admin/scenarios?document=ps2", "", `200 {"active":"ps2-every",`},
			{"GET", "/__admin/scenarios?document=ps1", "", `200 {"active":"store-busy",`},
			{"PUT", "/__admin/scenario?document=ps2", `{"name":null}`, `200 {"active":null}`},
			{"GET", "/__admin/scenarios?document=ps1", "", `200 {"active":"store-busy",`},
			{"GET", "/__admin/scenarios?document=ps2", "", `200 {"active":null,`},
			{"GET", "/__admin/scenarios", "", `~"documents":{"ps1":"store-busy","ps2":null}`},
			{"GET", "/__admin/scenarios", "", `~{"name":"store-busy","description":"Every create is refused with a 400, error 50300 and a generated message.","document":"ps1",`},
			{"GET", "/__admin/scenarios", "", `~{"name":"store-busy","description":"Every create is refused with a 400, error 50300 and a generated message.","document":"ps2",`},
			{"GET", "/__admin/scenarios?document=ps2", "", `~{"name":"ps2-every","document":"ps2",`},
			{"PUT", "/__admin/scenario?document=ps1", `{"name":"ps2-every"}`, `400 {"error":40006,"message":"no scenario of document ps1 is named \"ps2-every\"`},
		}
		for _, s := range steps {
			st, body := send2(t, ts, s.method, s.path, s.body)
			got := strconv.Itoa(st) + " " + body
			if part, ok := strings.CutPrefix(s.want, "~"); ok && !strings.Contains(body, part) || !ok && !strings.HasPrefix(got, s.want) {
				t.Errorf("%s %s %s: %.200s, want %s", s.method, s.path, s.body, got, s.want)
			}
		}
	})
}
