package redisstore

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plantmock/plantmock/internal/redistest"
)

// TestBatchCallFailsAlone checks that a call of a batch that fails in
// Redis (here on a key of the wrong type) gets its error, and the other
// calls of the same batch their answers.
func TestBatchCallFailsAlone(t *testing.T) {
	ctx := context.Background()
	srv := redistest.NewServer(t)
	s := NewTestStore(t, srv, "p:", 10)
	broken, good := s.keys("", "/broken"), s.keys("", "/good")
	c := srv.Client(t)
	if err := c.Do(ctx, c.B().Set().Key(broken.docs).Value("not a hash").Build()).Error(); err != nil {
		t.Fatal(err)
	}
	create := func(k keys, col, key string) *call {
		return &call{op: "create", done: make(chan struct{}), deadline: time.Now().Add(time.Minute),
			keys: s.storeKeys(k),
			args: []string{key, strconv.Itoa(s.max), col, k.base, `{"v":1}`, "1"}}
	}
	batch := []*call{create(good, "/good", "a"), create(broken, "/broken", "a"), create(good, "/good", "b")}
	s.batches.write(batch, nil, nil)
	for i, want := range []string{"ok", "", "ok"} {
		c := batch[i]
		<-c.done
		if want == "" {
			if !errors.Is(c.err, ErrUnavailable) || !strings.Contains(c.err.Error(), "WRONGTYPE") {
				t.Errorf("call %d: %v, %v; want an error wrapping %v, saying WRONGTYPE", i, c.v, c.err, ErrUnavailable)
			}
			continue
		}
		if c.v != want || c.err != nil {
			t.Errorf("call %d: %v, %v; want %q", i, c.v, c.err, want)
		}
	}
	if n, err := s.Count(ctx, "", "/good"); n != 2 || err != nil {
		t.Errorf("Count of /good = %d, %v; want 2", n, err)
	}
}
