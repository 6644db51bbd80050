package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/plantmock/plantmock/internal/redistest"
	"github.com/plantmock/plantmock/mock/internal/store"
	"github.com/plantmock/plantmock/mock/internal/store/redisstore"
)

// TestCreateRecorded checks that CreateRecorded appends its record to the
// session's journal exactly when it stores the resource, with a key given
// or assigned, and numbers it among the records Append adds; a create that
// finds the key taken, the store full, another scenario active or no
// document appends nothing.
func TestCreateRecorded(t *testing.T) {
	ctx := context.Background()
	s := redisstore.NewTestStore(t, redistest.NewServer(t), "p:", 3)
	create := func(ctx context.Context, sess, key string, doc func(string) ([]byte, error)) string {
		t.Helper()
		rec := redisstore.JournalRecord{Keep: redisstore.Keep{Size: 10}, Data: func() ([]byte, int) { return fmt.Appendf(nil, "create %s", key), 1 }}
		got, seq, err := s.CreateRecorded(ctx, sess, "/plants", key, doc, rec)
		return fmt.Sprintf("%q %d %v", got, seq, err)
	}
	if got := create(ctx, "", "a", constant(`{"v":1}`)); got != `"a" 1 <nil>` {
		t.Errorf("create a: %s", got)
	}
	if _, err := s.Append(ctx, "", redisstore.Keep{Size: 10}, []byte("refused"), 1); err != nil {
		t.Fatal(err)
	}
	if got := create(ctx, "", "a", constant(`{"v":2}`)); got != fmt.Sprintf(`"" 0 %v`, store.ErrExists) {
		t.Errorf("create a again: %s", got)
	}
	if got := create(ctx, "", "", constant(`{"v":3}`)); got != `"1" 3 <nil>` {
		t.Errorf("create assigned: %s", got)
	}
	noDoc := errors.New("no document")
	if got := create(ctx, "", "b", func(string) ([]byte, error) { return nil, noDoc }); got != `"" 0 no document` {
		t.Errorf("create without a document: %s", got)
	}
	if err := s.SetActive(ctx, "", "slow"); err != nil {
		t.Fatal(err)
	}
	if got := create(ctx, "s1", "a", constant(`{}`)); got != `"a" 1 <nil>` {
		t.Errorf("create in s1: %s", got)
	}
	if got := create(ctx, "", "d", constant(`{}`)); got != fmt.Sprintf(`"" 0 %v`, store.ErrFull) {
		t.Errorf("create beyond the bound: %s", got)
	}
	if got := journal(ctx, s, ""); got != `1 "create a", 2 "refused", 3 "create " <nil>` {
		t.Errorf("journal: %s", got)
	}
	if got := journal(ctx, s, "s1"); got != `1 "create a" <nil>` {
		t.Errorf("s1's journal: %s", got)
	}
}

// journal returns a session's journal records as "seq data" pairs.
func journal(ctx context.Context, s *redisstore.Store, sess string) string {
	recs, err := s.Journal(ctx, sess, 10)
	out := ""
	for i, r := range recs {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprintf("%d %q", r.Seq, r.Data)
	}
	return fmt.Sprintf("%s %v", out, err)
}
