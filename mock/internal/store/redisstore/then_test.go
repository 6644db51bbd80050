package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/internal/redistest"
	"github.com/plantmock/plantmock/mock/internal/store"
	"github.com/plantmock/plantmock/mock/internal/store/redisstore"
)

// testOps are operations a test adds to the batch script: put sets a key
// that takes the TTL of the session's clock, and note pushes a value on
// a list and answers the list's length.
const testOps = `
function ops.put(k, a)
  redis.call("SET", KEYS[k + 1], ARGV[a + 1])
  inherit(KEYS[k + 1], KEYS[k + 2])
  return 1
end

function ops.note(k, a)
  return redis.call("RPUSH", KEYS[k + 1], ARGV[a + 1])
end
`

// newOpsStore returns a Store on srv with testOps and the session keys
// "clock", "read" and "other" (Options.Session); the test's cleanup
// closes it.
func newOpsStore(tb testing.TB, srv *redistest.Server, max int) *redisstore.Store {
	tb.Helper()
	s, err := redisstore.New(context.Background(), redisstore.Options{URL: srv.URL(0), Prefix: "p:", Max: max, Ops: testOps,
		Session: redisstore.SessionKeys{Suffixes: []string{"clock", "read", "other"}, Clock: 0, Read: 1}})
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// TestCreateThen checks that CreateThen runs its operation exactly when
// it stores the resource, with a key given or assigned, and returns the
// operation's answer; a create that finds the key taken, the store full
// or no document runs nothing.
func TestCreateThen(t *testing.T) {
	ctx := context.Background()
	srv := redistest.NewServer(t)
	s := newOpsStore(t, srv, 3)
	note := func(sess, key string) redisstore.Then {
		return redisstore.Then{Op: "note", Add: func(keys, args []string) ([]string, []string) {
			return append(keys, s.SessionBase(sess)+"notes"), append(args, "create "+key)
		}}
	}
	create := func(sess, key string, doc func(string) ([]byte, error)) string {
		t.Helper()
		got, n, err := s.CreateThen(ctx, sess, "/plants", key, doc, note(sess, key))
		return fmt.Sprintf("%q %d %v", got, n, err)
	}
	if got := create("", "a", constant(`{"v":1}`)); got != `"a" 1 <nil>` {
		t.Errorf("create a: %s", got)
	}
	if v, err := s.Call(ctx, "note", []string{s.SessionBase("") + "notes"}, []string{"called"}); v != int64(2) || err != nil {
		t.Fatalf("Call: %v, %v; want 2", v, err)
	}
	if got := create("", "a", constant(`{"v":2}`)); got != fmt.Sprintf(`"" 0 %v`, store.ErrExists) {
		t.Errorf("create a again: %s", got)
	}
	if got := create("", "", constant(`{"v":3}`)); got != `"1" 3 <nil>` {
		t.Errorf("create assigned: %s", got)
	}
	noDoc := errors.New("no document")
	if got := create("", "b", func(string) ([]byte, error) { return nil, noDoc }); got != `"" 0 no document` {
		t.Errorf("create without a document: %s", got)
	}
	if got := create("s1", "a", constant(`{}`)); got != `"a" 1 <nil>` {
		t.Errorf("create in s1: %s", got)
	}
	if got := create("", "d", constant(`{}`)); got != fmt.Sprintf(`"" 0 %v`, store.ErrFull) {
		t.Errorf("create beyond the bound: %s", got)
	}
	c := srv.Client(t)
	for sess, want := range map[string]string{"": "create a,called,create ", "s1": "create a"} {
		got, err := c.Do(ctx, c.B().Lrange().Key(s.SessionBase(sess)+"notes").Start(0).Stop(-1).Build()).AsStrSlice()
		if strings.Join(got, ",") != want || err != nil {
			t.Errorf("notes of session %q: %q, %v; want %s", sess, got, err, want)
		}
	}
}
