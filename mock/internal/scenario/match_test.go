package scenario_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/state"
)

// decode decodes JSON as the request path does: numbers as json.Number.
func decode(t testing.TB, s string) any {
	t.Helper()
	v, err := jsonx.Decode([]byte(s))
	if err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return v
}

// answered names what a match gave: "rule N #count", or "none".
func answered(rl *scenario.Script, n int64) string {
	if rl == nil {
		return "none"
	}
	return fmt.Sprintf("rule %d #%d", rl.Index+1, n)
}

// TestMatch covers what a rule matches, one scenario per case; the
// requests of a case are matched in order in one session.
func TestMatch(t *testing.T) {
	doc := shop(t)
	type try struct {
		req  func() scenario.Request
		want string
	}
	create := func(body string, header ...string) func() scenario.Request {
		return func() scenario.Request { return request(t, doc, "POST /plants", body, nil, header...) }
	}
	item := func(id string) func() scenario.Request {
		return func() scenario.Request { return request(t, doc, "GET /plants/{id}", "", []string{id}) }
	}
	tests := []struct {
		name  string
		yml   string
		tries []try
	}{
		{"times limits a rule, then the next answers", `
name: s
rules:
  - when: {operation: POST /plants}
    times: 2
    respond: {}
  - respond: {}`, []try{
			{create(`{"id":1,"name":"a"}`), "rule 1 #1"},
			{create(`{"id":1,"name":"a"}`), "rule 1 #2"},
			{create(`{"id":1,"name":"a"}`), "rule 2 #1"},
			{create(`{"id":1,"name":"a"}`), "rule 2 #2"},
		}},
		{"every answers every n-th match", `
name: s
rules:
  - every: 3
    respond: {}`, []try{
			{create(`{"id":1,"name":"a"}`), "none"},
			{create(`{"id":1,"name":"a"}`), "none"},
			{create(`{"id":1,"name":"a"}`), "rule 1 #1"},
			{create(`{"id":1,"name":"a"}`), "none"},
			{create(`{"id":1,"name":"a"}`), "none"},
			{create(`{"id":1,"name":"a"}`), "rule 1 #2"},
		}},
		{"every and times together", `
name: s
rules:
  - every: 2
    times: 1
    respond: {}`, []try{
			{create(`{"id":1,"name":"a"}`), "none"},
			{create(`{"id":1,"name":"a"}`), "rule 1 #1"},
			{create(`{"id":1,"name":"a"}`), "none"},
			{create(`{"id":1,"name":"a"}`), "none"},
		}},
		{"operation", `
name: s
rules:
  - when: {operation: 'GET /plants/{id}'}
    respond: {}`, []try{
			{create(`{"id":1,"name":"a"}`), "none"},
			{item("1"), "rule 1 #1"},
		}},
		{"headers exactly or by regex, the first value", `
name: s
rules:
  - when: {headers: {X-Request-Id: abc, x-client: '/^web-[0-9]+$/'}}
    respond: {}`, []try{
			{create(`{}`, "X-Request-Id", "abc", "X-Client", "web-12"), "rule 1 #1"},
			{create(`{}`, "X-Request-Id", "abc", "X-Client", "app-12"), "none"},
			{create(`{}`, "X-Request-Id", "abcd", "X-Client", "web-1"), "none"},
			{create(`{}`, "X-Client", "web-1"), "none"},
			{create(`{}`, "X-Request-Id", "abc", "X-Client", "app-1", "X-Client", "web-1"), "none"},
			{create(`{}`, "X-Request-Id", "abc", "X-Client", "web-1", "X-Client", "app-1"), "rule 1 #2"},
		}},
		{"a header given empty must be present", `
name: s
rules:
  - when: {headers: {X-Empty: ''}}
    respond: {}`, []try{
			{create(`{}`), "none"},
			{create(`{}`, "X-Empty", ""), "rule 1 #1"},
			{create(`{}`, "X-Empty", "x"), "none"},
		}},
		{"token exactly or by regex; none matches neither", `
name: s
rules:
  - when: {token: expired-token}
    respond: {}
  - when: {token: '/^(admin-.*)?$/'}
    respond: {}`, []try{
			{create(`{}`, "Authorization", "Bearer expired-token"), "rule 1 #1"},
			{create(`{}`, "Authorization", "Bearer admin-7"), "rule 2 #1"},
			{create(`{}`, "Authorization", "Bearer fresh"), "none"},
			{create(`{}`), "none"},
		}},
		{"body is a JSON subset with regexes", `
name: s
rules:
  - when: {body: {tag: '/^poison/', id: 7}}
    respond: {}
  - when: {body: {id: '/^9+$/', ok: '/^true$/'}}
    respond: {}`, []try{
			{create(`{"id":7,"name":"a","tag":"poison ivy"}`), "rule 1 #1"},
			{create(`{"id":7.0,"tag":"poison"}`), "rule 1 #2"},
			{create(`{"id":7,"name":"a","tag":"ivy"}`), "none"},
			{create(`{"id":8,"name":"a","tag":"poison"}`), "none"},
			{create(`{"id":"7","tag":"poison"}`), "none"},
			{create(`{"id":999,"ok":true}`), "rule 2 #1"},
			{create(`{"id":999,"ok":false}`), "none"},
			{create(`{"id":999,"ok":"true"}`), "rule 2 #2"},
			{create(`{"id":999,"ok":null}`), "none"},
			{create(`[1]`), "none"},
			{create(``), "none"},
		}},
		{"arrays in a body pattern match element by element", `
name: s
rules:
  - when: {body: {list: [1, '/^a/', {k: null}]}}
    respond: {}`, []try{
			{create(`{"list":[1,"abc",{"k":null,"x":2}]}`), "rule 1 #1"},
			{create(`{"list":[1,"abc",{"k":null},3]}`), "none"},
			{create(`{"list":[2,"abc",{"k":null}]}`), "none"},
			{create(`{"list":[1,"abc",{"k":0}]}`), "none"},
			{create(`{"list":[1,"abc",{}]}`), "none"},
			{create(`{"list":{"0":1}}`), "none"},
		}},
		{"params by name, exactly or by regex", `
name: s
rules:
  - when: {operation: 'GET /plants/{id}', params: {id: '/^1[0-9]$/'}}
    respond: {}
  - when: {operation: 'GET /plants/{id}', params: {id: '7'}}
    respond: {}`, []try{
			{item("17"), "rule 1 #1"},
			{item("7"), "rule 2 #1"},
			{item("170"), "none"},
			{item("77"), "none"},
		}},
		{"the first matching rule answers; others are not counted", `
name: s
rules:
  - when: {operation: POST /plants, body: {name: first}}
    respond: {}
  - when: {operation: POST /plants}
    times: 1
    respond: {}`, []try{
			{create(`{"name":"first"}`), "rule 1 #1"},
			{create(`{"name":"first"}`), "rule 1 #2"},
			{create(`{"name":"other"}`), "rule 2 #1"},
			{create(`{"name":"other"}`), "none"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := compileOne(t, doc, tt.yml)
			sess := newSession(t)
			for i, try := range tt.tries {
				rl, n, err := sc.Match(context.Background(), try.req(), sess)
				if got := answered(rl, n); got != try.want || err != nil {
					t.Errorf("request %d: %s, %v; want %s", i+1, got, err, try.want)
				}
			}
		})
	}
}

// TestMatchCountsPerSession: each session counts a rule's answers
// afresh.
func TestMatchCountsPerSession(t *testing.T) {
	doc := plants(t)
	sc := compileOne(t, doc, "name: s\nrules:\n  - times: 1\n    respond: {status: 400, body: {error: 1, message: m}}\n")
	req := request(t, doc, "POST /plants", `{}`, nil)
	a, b := newSession(t), newSession(t)
	for _, step := range []struct {
		sess interface {
			Hit(context.Context, *state.Rule) (int64, error)
		}
		want string
	}{{a, "rule 1 #1"}, {a, "none"}, {b, "rule 1 #1"}, {b, "none"}} {
		rl, n, err := sc.Match(context.Background(), req, step.sess)
		if got := answered(rl, n); got != step.want || err != nil {
			t.Errorf("%s, %v; want %s", got, err, step.want)
		}
	}
}

// brokenCounts is a session whose counts cannot be read.
type brokenCounts struct{ err error }

func (b brokenCounts) Hit(context.Context, *state.Rule) (int64, error) { return 0, b.err }

// TestMatchCountsFail: a session whose counts cannot be read is the
// error of the match, for a rule that matches; a request no rule
// matches does not read them.
func TestMatchCountsFail(t *testing.T) {
	doc := plants(t)
	sc := compileOne(t, doc, "name: s\nrules:\n  - when: {token: t}\n    respond: {status: 400, body: {error: 1, message: m}}\n")
	down := errors.New("redis: i/o timeout")
	rl, n, err := sc.Match(context.Background(), request(t, doc, "POST /plants", `{}`, nil, "Authorization", "Bearer t"), brokenCounts{down})
	if rl != nil || n != 0 || err != down {
		t.Errorf("matching rule: %v %d %v; want nil 0 %v", rl, n, err, down)
	}
	rl, n, err = sc.Match(context.Background(), request(t, doc, "POST /plants", `{}`, nil), brokenCounts{down})
	if rl != nil || n != 0 || err != nil {
		t.Errorf("no matching rule: %v %d %v; want nil 0 nil", rl, n, err)
	}
}

// TestMatchConcurrentCounts matches 200 requests at once against a rule
// with times: 50, each in a goroutine of its own, in one session:
// exactly 50 are answered, each count from 1 to 50 once, and the other
// 150 fall through to the next rule, counted 1 to 150.
func TestMatchConcurrentCounts(t *testing.T) {
	doc := plants(t)
	sc := compileOne(t, doc, `
name: s
rules:
  - times: 50
    respond: {status: 400, body: {error: 1, message: scripted}}
  - respond: {status: 400, body: {error: 2, message: after}}`)
	sess := newSession(t)
	req := request(t, doc, "POST /plants", `{"id":1,"name":"p"}`, nil)
	const n = 200
	var wg sync.WaitGroup
	var mu sync.Mutex // guards seen and errs
	seen := map[string]int{}
	var errs []error
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rl, c, err := sc.Match(context.Background(), req, sess)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
				return
			}
			seen[answered(rl, c)]++
		}()
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	want := map[string]int{}
	for i := 1; i <= 50; i++ {
		want[fmt.Sprintf("rule 1 #%d", i)] = 1
	}
	for i := 1; i <= n-50; i++ {
		want[fmt.Sprintf("rule 2 #%d", i)] = 1
	}
	if len(seen) != len(want) {
		t.Errorf("%d distinct answers, want %d", len(seen), len(want))
	}
	for k, w := range want {
		if seen[k] != w {
			t.Errorf("%s answered %d times, want %d", k, seen[k], w)
		}
	}
}
