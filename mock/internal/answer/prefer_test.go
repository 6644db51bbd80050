package answer_test

import (
	"testing"

	"github.com/plantmock/plantmock/mock/internal/answer"
)

// TestParsePrefer reads the preferences plantmock knows, ignores others,
// and refuses values it cannot read.
func TestParsePrefer(t *testing.T) {
	for _, tt := range []struct {
		name, header string
		want         answer.Preference
		problem      string
	}{
		{"code", "code=400", answer.Preference{Code: 400}, ""},
		{"example, quoted", `example="quiet"`, answer.Preference{Example: "quiet"}, ""},
		{"several, with parameters", "dynamic=TRUE; x=1, return=minimal, stream-items=3, stream-drop=0, stream-interval=250ms, stream-ids=true, stream-done=false",
			answer.Preference{Dynamic: true, Items: 3, Interval: 250, IDs: true, HasDone: true}, ""},
		{"stream-done", "stream-done=true", answer.Preference{Done: true, HasDone: true}, ""},
		{"a code that is not a status", "code=abc", answer.Preference{}, "Prefer: code=abc is not an HTTP status"},
		{"a code out of range", "code=99", answer.Preference{}, "Prefer: code=99 is not an HTTP status"},
		{"a seed that is no integer", "seed=x", answer.Preference{}, "Prefer: seed=x is not an integer"},
		{"no items", "stream-items=0", answer.Preference{}, "Prefer: stream-items=0 is not a count from 1 to 65535"},
		{"too many drops", "stream-drop=65536", answer.Preference{}, "Prefer: stream-drop=65536 is not a count from 0 to 65535"},
		{"too long an interval", "stream-interval=6m", answer.Preference{}, "Prefer: stream-interval=6m is not a duration from 0 to 5m0s (200ms, 1s)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, p := answer.ParsePrefer([]string{tt.header})
			switch {
			case tt.problem != "" && (p == nil || p.Message != tt.problem):
				t.Errorf("ParsePrefer(%q) = problem %v, want %q", tt.header, p, tt.problem)
			case tt.problem == "" && (p != nil || got != tt.want):
				t.Errorf("ParsePrefer(%q) = %+v, %v; want %+v", tt.header, got, p, tt.want)
			}
		})
	}
}

// TestPreferExample picks a named example; without a preference, the
// first named example is the canned answer.
func TestPreferExample(t *testing.T) {
	m := newMock(t, tasks(t))
	busy := `{"done":3,"labels":["red"],"open":49,"owner":"ops@example.com","updatedAt":"2026-01-02T03:04:05Z"}`
	quiet := `{"done":12,"open":0,"owner":"ops@example.com","updatedAt":"2026-01-02T03:04:05Z"}`
	m.do("GET", "/stats", "", "Prefer", "example=busy").want(t, 200, busy)
	m.do("GET", "/stats", "", "Prefer", `example="quiet"`).want(t, 200, quiet)
	m.do("GET", "/stats", "").want(t, 200, quiet)
}

// TestPreferCode answers a declared status with its generated body, and
// dynamic with generated data instead of the usual answer, the same for
// the same seed, storing nothing.
func TestPreferCode(t *testing.T) {
	m := newMock(t, tasks(t))
	m.do("GET", "/tasks", "", "Prefer", "code=422").want(t, 422,
		`{"code":591,"detail":"Theirs through production teacher rush run.","title":"nervous murder"}`)
	a := m.do("POST", "/tasks", `{"taskId":"t-1","title":"a"}`, "Prefer", "dynamic=true, seed=9")
	b := m.do("POST", "/tasks", `{"taskId":"t-1","title":"a"}`, "Prefer", "seed=9,dynamic=true")
	if a.status != 201 || a.body != b.body || a.body == `{"done":false,"taskId":"t-1","title":"a"}` {
		t.Errorf("got %d %s then %s; want the same generated task twice", a.status, a.body, b.body)
	}
	if got := m.stored("/tasks"); got != "[]" {
		t.Errorf("/tasks holds %s, want nothing", got)
	}
	m.do("POST", "/tasks", `{"taskId":"t-2","title":"b"}`, "Prefer", "code=201").want(t, 201, `{"done":false,"taskId":"t-2","title":"b"}`)
}

// TestPreferUsualAnswerChangesNothing checks that a Prefer header asking
// for the usual answer leaves generated data as it would be without it.
// (Regression: it drew from the sequence of generated values, so with a
// fixed seed every later answer moved one place.)
func TestPreferUsualAnswerChangesNothing(t *testing.T) {
	plain := newMock(t, tasks(t))
	a, b := plain.do("GET", "/report", "").body, plain.do("GET", "/report", "").body
	if a == b {
		t.Fatalf("two generated reports: %s and %s; want two different ones", a, b)
	}
	for _, prefer := range []string{"code=200", "return=minimal", "code=200, return=representation"} {
		m := newMock(t, tasks(t))
		a2, b2 := m.do("GET", "/report", "", "Prefer", prefer).body, m.do("GET", "/report", "").body
		if a2 != a || b2 != b {
			t.Errorf("Prefer: %s: reports %s, %s; want %s, %s as without it", prefer, a2, b2, a, b)
		}
	}
}
