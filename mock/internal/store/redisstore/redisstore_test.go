package redisstore_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plantmock/plantmock/internal/redistest"
	"github.com/plantmock/plantmock/mock/internal/store"
	"github.com/plantmock/plantmock/mock/internal/store/redisstore"
	"github.com/plantmock/plantmock/mock/internal/store/storetest"
)

// TestRedis runs the conformance suite against Stores on one
// redis-server, each subtest under its own prefix.
func TestRedis(t *testing.T) {
	srv := redistest.NewServer(t)
	storetest.Run(t, func(t *testing.T, max int) store.Store {
		return redisstore.NewTestStore(t, srv, t.Name()+":", max)
	})
}

// TestLargeKeys checks that sequences past 2^53 count exactly, as in
// memory, up to the largest 64-bit number.
func TestLargeKeys(t *testing.T) {
	ctx := context.Background()
	srv := redistest.NewServer(t)
	for _, c := range []struct{ given, want string }{
		{"9007199254740993", "9007199254740994"}, // 2^53 + 1
		{"18446744073709551614", "18446744073709551615"},
		{"99999999999999", "100000000000000"},
		{"18446744073709551616", "1"}, // beyond 64 bits: not a number
	} {
		t.Run(c.given, func(t *testing.T) {
			for name, s := range map[string]store.Store{
				"memory": store.NewMemory(10),
				"redis":  redisstore.NewTestStore(t, srv, t.Name()+":", 10),
			} {
				if _, err := s.Create(ctx, "", "/plants", c.given, constant(`{}`)); err != nil {
					t.Fatalf("%s: Create(%s): %v", name, c.given, err)
				}
				if got, err := s.Create(ctx, "", "/plants", "", constant(`{}`)); err != nil || got != c.want {
					t.Errorf("%s: assigned create after %s = %q, %v; want %q, no error", name, c.given, got, err, c.want)
				}
			}
		})
	}
}

// TestReplicas checks that two Stores on one Redis, as two mock
// processes would have, share their resources.
func TestReplicas(t *testing.T) {
	ctx := context.Background()
	srv := redistest.NewServer(t)
	a := redisstore.NewTestStore(t, srv, "plantmock:", 10_000)
	b := redisstore.NewTestStore(t, srv, "plantmock:", 10_000)

	if _, err := a.Create(ctx, "", "/plants", "monstera", constant(`{"name":"Monstera"}`)); err != nil {
		t.Fatalf("Create on a: %v", err)
	}
	if got, err := b.Get(ctx, "", "/plants", "monstera"); err != nil || string(got) != `{"name":"Monstera"}` {
		t.Errorf(`Get on b = %s, %v; want {"name":"Monstera"}, no error`, got, err)
	}
	if got, err := b.List(ctx, "", "/plants", -1); err != nil || len(got) != 1 || string(got[0]) != `{"name":"Monstera"}` {
		t.Errorf(`List on b = %s, %v; want [{"name":"Monstera"}], no error`, got, err)
	}
	if _, err := b.Create(ctx, "", "/plants", "monstera", constant(`{}`)); !errors.Is(err, store.ErrExists) {
		t.Errorf("Create of the same key on b: got error %v, want %v", err, store.ErrExists)
	}

	const each = 200
	keys := make([][]string, 2)
	errs := make([][]error, 2)
	var wg sync.WaitGroup
	for r, s := range []*redisstore.Store{a, b} {
		keys[r], errs[r] = make([]string, each), make([]error, each)
		for i := range each {
			wg.Go(func() {
				keys[r][i], errs[r][i] = s.Create(ctx, "", "/pets", "", func(key string) ([]byte, error) {
					return []byte(`{"id":"` + key + `"}`), nil
				})
			})
		}
	}
	wg.Wait()
	seen := map[string]bool{}
	for r := range keys {
		for i, k := range keys[r] {
			if errs[r][i] != nil {
				t.Errorf("assigned create %d on replica %d: %v", i, r, errs[r][i])
				continue
			}
			if seen[k] {
				t.Errorf("key %q was assigned twice", k)
			}
			seen[k] = true
		}
	}
	for n := 1; n <= 2*each; n++ {
		if !seen[strconv.Itoa(n)] {
			t.Errorf("key %d was not assigned, want keys 1 to %d", n, 2*each)
		}
	}
	for r, s := range []*redisstore.Store{a, b} {
		if n, err := s.Count(ctx, "", "/pets"); err != nil || n != 2*each {
			t.Errorf("Count on replica %d = %d, %v; want %d, no error", r, n, err, 2*each)
		}
	}
}

// TestUnavailable checks that calls to a Redis that stopped fail with
// ErrUnavailable, none hanging.
func TestUnavailable(t *testing.T) {
	ctx := context.Background()
	srv := redistest.NewServer(t)
	s, err := redisstore.New(ctx, redisstore.Options{URL: srv.URL(0), Max: 10, Timeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	defer s.Close()
	srv.Close()

	calls := []struct {
		name string
		call func() error
	}{
		{"Create", func() error { _, err := s.Create(ctx, "", "/plants", "a", constant(`{}`)); return err }},
		{"Get", func() error { _, err := s.Get(ctx, "", "/plants", "a"); return err }},
		{"List", func() error { _, err := s.List(ctx, "", "/plants", -1); return err }},
		{"Update", func() error { _, err := s.Update(ctx, "", "/plants", "a", nil); return err }},
		{"Delete", func() error { _, err := s.Delete(ctx, "", "/plants", "a"); return err }},
		{"Count", func() error { _, err := s.Count(ctx, "", "/plants"); return err }},
		{"Dump", func() error { _, err := s.Dump(ctx, ""); return err }},
		{"Fill", func() error { _, err := s.Fill(ctx, "", "/plants", nil); return err }},
		{"Reset", func() error { return s.Reset(ctx, "") }},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			if err := c.call(); !errors.Is(err, redisstore.ErrUnavailable) {
				t.Errorf("got error %v, want %v", err, redisstore.ErrUnavailable)
			}
		})
	}

	if _, err := redisstore.New(ctx, redisstore.Options{URL: srv.URL(0), Timeout: 500 * time.Millisecond}); !errors.Is(err, redisstore.ErrUnavailable) {
		t.Errorf("New on a stopped Redis: got error %v, want %v", err, redisstore.ErrUnavailable)
	}
}

func constant(d string) func(string) ([]byte, error) {
	return func(string) ([]byte, error) { return []byte(d), nil }
}

// benchStores are the stores the benchmarks compare: Redis and, as the
// reference, memory.
func benchStores(b *testing.B) []struct {
	name string
	new  func(b *testing.B) store.Store
} {
	srv := redistest.NewServer(b)
	return []struct {
		name string
		new  func(b *testing.B) store.Store
	}{
		{"memory", func(*testing.B) store.Store { return store.NewMemory(1 << 30) }},
		{"redis", func(b *testing.B) store.Store {
			return redisstore.NewTestStore(b, srv, b.Name()+":"+strconv.Itoa(b.N)+":", 1<<30)
		}},
	}
}

// BenchmarkGet measures reads of one resource from parallel callers.
func BenchmarkGet(b *testing.B) {
	for _, st := range benchStores(b) {
		b.Run(st.name, func(b *testing.B) {
			s := st.new(b)
			if _, err := s.Create(context.Background(), "", "/plants", "1", constant(`{"name":"Monstera","price":12.5}`)); err != nil {
				b.Fatal(err)
			}
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := s.Get(context.Background(), "", "/plants", "1"); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// BenchmarkCreate measures assigned creates from parallel callers.
func BenchmarkCreate(b *testing.B) {
	for _, st := range benchStores(b) {
		b.Run(st.name, func(b *testing.B) {
			s := st.new(b)
			d := constant(`{"name":"Monstera","price":12.5}`)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := s.Create(context.Background(), "", "/plants", "", d); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// TestNewBadURL checks that URLs New cannot use are refused without
// showing their password.
func TestNewBadURL(t *testing.T) {
	for _, u := range []string{
		"http://user:s3cret@localhost:6379/0",
		"redis://user:s3cret@localhost:6379/notadb",
		"redis://user:s3cret@local host:6379/0",
		"",
	} {
		t.Run(u, func(t *testing.T) {
			_, err := redisstore.New(context.Background(), redisstore.Options{URL: u, Max: 1})
			if err == nil {
				t.Fatal("New: no error, want one")
			}
			if errors.Is(err, redisstore.ErrUnavailable) {
				t.Errorf("New: got error %v, want one that does not wrap %v", err, redisstore.ErrUnavailable)
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("New: error %q shows the password", err)
			}
		})
	}
}

// TestHung checks that calls to a Redis that hangs, made together while a
// batch of them is out, each fail with ErrUnavailable (none waits for an
// answer that never comes: the test would not end), and that the store
// serves again once Redis does. How soon they fail is not asserted: a
// test on a busy machine cannot hold a clock to it.
func TestHung(t *testing.T) {
	ctx := context.Background()
	srv := redistest.NewServer(t)
	const timeout = 400 * time.Millisecond
	s, err := redisstore.New(ctx, redisstore.Options{URL: srv.URL(0), Max: 1000, Timeout: timeout})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	defer s.Close()
	srv.Pause(t)

	const callers = 16
	errs := make([]error, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			if i > 0 {
				time.Sleep(time.Duration(i) * timeout / callers) // later calls queue behind the batch that is out
			}
			_, errs[i] = s.Create(ctx, "", "/plants", strconv.Itoa(i), constant(`{}`))
		})
	}
	wg.Wait()
	for i := range callers {
		if !errors.Is(errs[i], redisstore.ErrUnavailable) {
			t.Errorf("call %d: error %v, want one wrapping %v", i, errs[i], redisstore.ErrUnavailable)
		}
	}

	srv.Resume()
	if _, err := s.Create(ctx, "", "/plants", "after", constant(`{}`)); err != nil {
		t.Errorf("Create once Redis answers again: %v", err)
	}
}
