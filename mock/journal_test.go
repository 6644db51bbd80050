package mock

import (
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// entryView is what a test compares of an Entry (not times or headers).
type entryView struct {
	Seq                 uint64
	Method, Path, Query string
	Body, Token         string
	Operation, Scenario string
	Rule, Status        int
	Response            string
	Code                problem.Code
	Violations          []journal.Violation
}

func view(e journal.Entry) entryView {
	return entryView{e.Seq, e.Method, e.Path, e.Query, string(e.Body), e.Token, e.Operation, e.Scenario, e.Rule, e.Status, string(e.Response), e.Code, e.Violations}
}

// TestJournalRecords checks what the journal keeps of each kind of answer
// (tokens of 8 characters or fewer masked whole).
func TestJournalRecords(t *testing.T) {
	s, ts := scenarioServer(t, "name: j\nrules:\n  - when: {body: {name: scripted}}\n    respond: {status: 400, body: {error: 1, message: s}}\n  - when: {body: {name: reset}}\n    respond: {fault: connection_reset}\n", Options{})
	send(t, ts, post(`{"id":1,"name":"a"}`))
	send(t, ts, post(`{"id":"x"}`, "Authorization", "Bearer tok-2"))
	send(t, ts, call{method: "GET", path: "/nowhere?x=1"})
	send(t, ts, post(`{"id":2,"name":"scripted"}`))
	ts.Client().Do(jsonRequest(t, ts, `{"id":3,"name":"reset"}`))
	want := []entryView{
		{Seq: 1, Method: "POST", Path: "/plants", Body: `{"id":1,"name":"a"}`, Token: "****", Operation: "POST /plants", Status: 200, Response: `{"name":"a"}`},
		{Seq: 2, Method: "POST", Path: "/plants", Body: `{"id":"x"}`, Token: "****", Operation: "POST /plants", Status: 400,
			Response: `{"error":40004,"message":"request body does not match the schema: id: expected integer, got string; name: required property is missing"}`,
			Code:     problem.CodeSchema, Violations: []journal.Violation{
				{Path: "id", Reason: "expected integer, got string", Schema: "#/components/schemas/NewPlant/allOf/1/properties/id/type"},
				{Path: "name", Reason: "required property is missing", Schema: "#/components/schemas/Plant/required"}}},
		{Seq: 3, Method: "GET", Path: "/nowhere", Query: "x=1", Status: 404, Response: `{"error":40400,"message":"no path of the OpenAPI document matches /nowhere"}`, Code: problem.CodeNoRoute},
		{Seq: 4, Method: "POST", Path: "/plants", Body: `{"id":2,"name":"scripted"}`, Token: "****", Operation: "POST /plants", Scenario: "j", Rule: 1, Status: 400, Response: `{"error":1,"message":"s"}`},
		{Seq: 5, Method: "POST", Path: "/plants", Body: `{"id":3,"name":"reset"}`, Token: "****", Operation: "POST /plants", Scenario: "j", Rule: 2, Status: 0},
	}
	got := s.Journal()
	if len(got) != len(want) {
		t.Fatalf("journal holds %d entries, want %d", len(got), len(want))
	}
	for i := range want {
		if v := view(got[i]); !reflect.DeepEqual(v, want[i]) {
			t.Errorf("entry %d = %+v\nwant      %+v", i+1, v, want[i])
		}
		if got[i].Time.IsZero() || got[i].Duration <= 0 || got[i].Header.Get("Content-Type") == "" && got[i].Method == "POST" {
			t.Errorf("entry %d lacks time, duration or headers: %+v", i+1, got[i])
		}
	}
}

// TestJournalBounded checks that the journal keeps the newest entries.
func TestJournalBounded(t *testing.T) {
	s, ts := newTestServer(t, Options{Journal: JournalOptions{Size: 3}})
	for i := 1; i <= 5; i++ {
		send(t, ts, post(fmt.Sprintf(`{"id":%d,"name":"p"}`, i)))
	}
	got := s.Journal()
	if len(got) != 3 || got[0].Seq != 3 || got[2].Seq != 5 || string(got[2].Body) != `{"id":5,"name":"p"}` {
		t.Errorf("journal = %d entries from seq %d", len(got), got[0].Seq)
	}
	if st, body := do(t, ts, "DELETE", "/__admin/requests", ""); st != 204 {
		t.Fatalf("DELETE /__admin/requests: %d %s", st, body)
	}
	if n := len(s.Journal()); n != 0 {
		t.Errorf("%d entries after DELETE /__admin/requests", n)
	}
	send(t, ts, post(`{"id":9,"name":"p"}`))
	if got := s.Journal(); len(got) != 1 || got[0].Seq != 1 {
		t.Errorf("after reset: %+v", got)
	}
	off, ts2 := newTestServer(t, Options{Journal: JournalOptions{Size: -1}})
	send(t, ts2, post(`{"id":1,"name":"p"}`))
	if off.Journal() != nil {
		t.Error("a disabled journal recorded")
	}
}

// TestJournalConcurrent records from many goroutines into a small ring.
func TestJournalConcurrent(t *testing.T) {
	var observed sync.Map
	s, ts := newTestServer(t, Options{Journal: JournalOptions{Size: 50}, Observe: func(e journal.Entry) { observed.Store(e.Seq, e.Status) }})
	var wg sync.WaitGroup
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			resp, err := ts.Client().Do(jsonRequest(t, ts, fmt.Sprintf(`{"id":%d,"name":"p"}`, i)))
			if err == nil {
				resp.Body.Close()
			}
		}(i)
	}
	wg.Wait()
	got := s.Journal()
	if len(got) != 50 {
		t.Fatalf("journal holds %d entries, want 50", len(got))
	}
	for i, e := range got {
		if e.Seq != uint64(151+i) || e.Status != 200 {
			t.Errorf("entry %d: seq %d status %d", i, e.Seq, e.Status)
		}
	}
	n := 0
	observed.Range(func(any, any) bool { n++; return true })
	if n != 200 {
		t.Errorf("observer saw %d exchanges, want 200", n)
	}
}

// TestFind selects journal entries.
func TestFind(t *testing.T) {
	s, ts := newTestServer(t, Options{})
	send(t, ts, post(`{"id":7,"name":"Monstera","tag":"aroid"}`))
	send(t, ts, post(`{"id":8,"name":"Fern"}`))
	send(t, ts, post(`{"id":7,"name":"Again"}`))
	send(t, ts, call{method: "GET", path: "/plants"})
	tests := []struct {
		name string
		m    journal.Match
		want []uint64
	}{
		{"all", journal.Match{}, []uint64{1, 2, 3, 4}},
		{"operation", journal.Match{Operation: "post /plants"}, []uint64{1, 2, 3}},
		{"status", journal.Match{Status: 400}, []uint64{3}},
		{"body subset", journal.Match{Body: map[string]any{"id": 7}}, []uint64{1, 3}},
		{"body regex", journal.Match{Body: map[string]any{"name": "/^(Fern|Again)$/"}}, []uint64{2, 3}},
		{"func", journal.Match{Func: func(e journal.Entry) bool { return e.Status == 405 }}, []uint64{4}},
		{"together", journal.Match{Operation: "POST /plants", Status: 200, Body: map[string]any{"id": 7}}, []uint64{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Find(tt.m)
			if err != nil {
				t.Fatal(err)
			}
			var seqs []uint64
			for _, e := range got {
				seqs = append(seqs, e.Seq)
			}
			if !reflect.DeepEqual(seqs, tt.want) {
				t.Errorf("Find = %v, want %v", seqs, tt.want)
			}
		})
	}
	if _, err := s.Find(journal.Match{Body: map[string]any{"name": "/[/"}}); err == nil {
		t.Error("a bad regex was accepted")
	}
}
