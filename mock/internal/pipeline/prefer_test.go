package pipeline

import (
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/event"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// TestPreferDefaultControls checks, over a real connection, that
// checkControls reads a request's Prefer header over the engine's
// default: the default answers a request without the header, a name the
// header gives wins over the default's, the default's others still apply,
// and the journal entry notes what of the default applied.
func TestPreferDefaultControls(t *testing.T) {
	e := plantEngine(t)
	e.Seed = 1
	e.Docs.Load().Docs[0].Scenarios = &scenario.Set{} // none: plantEngine loads none
	if err := e.SetPrefer("dynamic=true, seed=7"); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex // guards notes, written on the handler's goroutine
	var notes [][]string
	e.Listen(Told{Answered: func(a *event.Answered) {
		mu.Lock()
		defer mu.Unlock()
		notes = append(notes, slices.Clone(a.E.Notes))
	}})
	ts := httptest.NewServer(e)
	t.Cleanup(ts.Close)
	generated := `{"name":"curios tax","tag":"also"}`
	for _, tt := range []struct {
		name, prefer string
		status       int
		body, note   string
	}{
		{"the default alone: generated, with its seed", "", 200, generated, "default Prefer applied: dynamic=true, seed=7"},
		{"the header's dynamic wins: stored", "dynamic=false", 200, `{"name":"Monstera","tag":"aroid"}`, "default Prefer applied: seed=7"},
		{"the header's seed wins", "seed=8", 200, `{"name":"elated company","tag":"substantial"}`, "default Prefer applied: dynamic=true"},
		{"the header's mistake", "code=abc", 400, `{"error":40007,"message":"Prefer: code=abc is not an HTTP status"}`, ""},
		{"an undeclared code is the request's mistake", "code=404", 400, `{"error":40007,"message":"Prefer: code=404 is not declared for POST /plants (declared: 200, 400)"}`, "default Prefer applied: dynamic=true, seed=7"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mu.Lock()
			notes = nil
			mu.Unlock()
			req, _ := http.NewRequest("POST", ts.URL+"/plants", strings.NewReader(string(validBody)))
			req.Header.Set("Authorization", "Bearer abc")
			req.Header.Set("Content-Type", "application/json")
			if tt.prefer != "" {
				req.Header.Set("Prefer", tt.prefer)
			}
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			resp.Header.Del("Date")
			wantHeader := http.Header{"Content-Type": {"application/json"}, "Content-Length": {strconv.Itoa(len(tt.body))}}
			if resp.StatusCode != tt.status || string(body) != tt.body || !reflect.DeepEqual(resp.Header, wantHeader) {
				t.Errorf("got %d %v %s\nwant %d %v %s", resp.StatusCode, resp.Header, body, tt.status, wantHeader, tt.body)
			}
			var want [][]string
			if tt.note != "" {
				want = [][]string{{tt.note}}
			} else {
				want = [][]string{nil}
			}
			mu.Lock()
			defer mu.Unlock()
			if len(notes) != 1 || !slices.Equal(notes[0], want[0]) {
				t.Errorf("journal notes %q, want %q", notes, want)
			}
		})
	}
}
