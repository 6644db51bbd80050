package storetest_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/store"
	"github.com/plantmock/plantmock/mock/internal/store/storetest"
)

// implEnv names the implementation TestBroken runs the suite against: a
// key of impls.
const implEnv = "STORETEST_IMPL"

// impls are the implementations TestBroken can run the suite against: the
// real Memory store, and stores that wrap it and break one behaviour each.
var impls = map[string]func(max int) store.Store{
	"memory":          func(max int) store.Store { return store.NewMemory(max) },
	"overwrite":       func(max int) store.Store { return overwrite{store.NewMemory(max)} },
	"assignNoSkip":    func(max int) store.Store { return assignNoSkip{store.NewMemory(max)} },
	"newestFirst":     func(max int) store.Store { return newestFirst{store.NewMemory(max)} },
	"storeOnError":    func(max int) store.Store { return storeOnError{store.NewMemory(max)} },
	"unbounded":       func(max int) store.Store { return store.NewMemory(1 << 30) },
	"fillNoSkip":      func(max int) store.Store { return fillNoSkip{store.NewMemory(max)} },
	"fillNotAtomic":   func(max int) store.Store { return fillNotAtomic{store.NewMemory(max)} },
	"resetKeepsBound": func(max int) store.Store { return resetKeepsBound{store.NewMemory(max)} },
	"dumpUnsorted":    func(max int) store.Store { return dumpUnsorted{store.NewMemory(max)} },
	"racyUpdate":      func(max int) store.Store { return racyUpdate{store.NewMemory(max)} },
	"storeOnDocError": func(max int) store.Store { return storeOnDocError{store.NewMemory(max)} },
}

// TestBroken runs the suite against the implementation implEnv names, the
// real Memory store when it is not set. TestSuite runs it in a subprocess
// for each implementation.
func TestBroken(t *testing.T) {
	name := os.Getenv(implEnv)
	if name == "" {
		name = "memory"
	}
	newStore, ok := impls[name]
	if !ok {
		t.Fatalf("%s=%s names no implementation", implEnv, name)
	}
	storetest.Run(t, func(t *testing.T, max int) store.Store { return newStore(max) })
}

// TestSuite checks that the suite passes the real Memory store and fails
// each broken one, naming the subtest that checks the broken behaviour.
func TestSuite(t *testing.T) {
	for _, c := range []struct {
		impl    string
		failing string // "" when the suite must pass
	}{
		{"memory", ""},
		{"overwrite", "CreateTakenKey"},
		{"assignNoSkip", "AssignAboveHighest"},
		{"storeOnDocError", "CreateDocFails"},
		{"newestFirst", "ListOrder"},
		{"storeOnError", "UpdateFnError"},
		{"unbounded", "BoundCreate"},
		{"fillNoSkip", "FillAssignSkipsGiven"},
		{"fillNotAtomic", "BoundFillBeyond"},
		{"resetKeepsBound", "BoundReset"},
		{"dumpUnsorted", "DumpSorted"},
		{"racyUpdate", "ConcurrentUpdate"},
	} {
		t.Run(c.impl, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0], "-test.run=^TestBroken$", "-test.count=1", "-test.timeout=2m")
			cmd.Env = append(os.Environ(), implEnv+"="+c.impl)
			out, err := cmd.CombinedOutput()
			failed := failedSubtests(out)
			if c.failing == "" {
				if err != nil {
					t.Fatalf("the suite failed the %s store (%v), want it to pass; failed: %q\n%s", c.impl, err, failed, out)
				}
				if !strings.Contains(string(out), "PASS") {
					t.Fatalf("the suite passed the %s store without saying PASS:\n%s", c.impl, out)
				}
				return
			}
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				t.Fatalf("the suite run for the %s store ended with %v, want it to fail:\n%s", c.impl, err, out)
			}
			if !slices.Contains(failed, c.failing) {
				t.Fatalf("the suite failed the %s store in %q, want in %s:\n%s", c.impl, failed, c.failing, out)
			}
			t.Logf("the %s store fails %q", c.impl, failed)
		})
	}
}

// failedSubtests returns the names of the failed subtests of TestBroken
// that a test binary's output lists.
func failedSubtests(out []byte) []string {
	var names []string
	for _, m := range failLine.FindAllSubmatch(out, -1) {
		names = append(names, string(m[1]))
	}
	return names
}

var failLine = regexp.MustCompile(`(?m)^\s*--- FAIL: TestBroken/(\S+) \(`)

// overwrite stores a create of a taken key in place of the resource.
type overwrite struct{ store.Store }

func (s overwrite) Create(ctx context.Context, sess, col, key string, doc func(string) ([]byte, error)) (string, error) {
	if key != "" {
		s.Store.Delete(ctx, sess, col, key)
	}
	return s.Store.Create(ctx, sess, col, key, doc)
}

// assignNoSkip assigns the key after the collection's count, taken or not.
type assignNoSkip struct{ store.Store }

func (s assignNoSkip) Create(ctx context.Context, sess, col, key string, doc func(string) ([]byte, error)) (string, error) {
	if key == "" {
		n, err := s.Store.Count(ctx, sess, col)
		if err != nil {
			return "", err
		}
		key = strconv.Itoa(n + 1)
	}
	return s.Store.Create(ctx, sess, col, key, doc)
}

// storeOnDocError stores an empty object when the document fails.
type storeOnDocError struct{ store.Store }

func (s storeOnDocError) Create(ctx context.Context, sess, col, key string, doc func(string) ([]byte, error)) (string, error) {
	return s.Store.Create(ctx, sess, col, key, func(k string) ([]byte, error) {
		if d, err := doc(k); err == nil {
			return d, nil
		}
		return []byte("{}"), nil
	})
}

// newestFirst lists the newest resources first.
type newestFirst struct{ store.Store }

func (s newestFirst) List(ctx context.Context, sess, col string, limit int) ([][]byte, error) {
	docs, err := s.Store.List(ctx, sess, col, -1)
	slices.Reverse(docs)
	if limit >= 0 && limit < len(docs) {
		docs = docs[:limit]
	}
	return docs, err
}

// storeOnError stores what the update function makes even when it fails.
type storeOnError struct{ store.Store }

func (s storeOnError) Update(ctx context.Context, sess, col, key string, fn func([]byte) ([]byte, error)) ([]byte, error) {
	var fnErr error
	doc, err := s.Store.Update(ctx, sess, col, key, func(old []byte) ([]byte, error) {
		doc, err := fn(old)
		fnErr = err
		if doc == nil {
			doc = old
		}
		return doc, nil
	})
	if fnErr != nil {
		return nil, fnErr
	}
	return doc, err
}

// fillNoSkip assigns the items without a key "1", "2", ... whatever keys
// the other items give.
type fillNoSkip struct{ store.Store }

func (s fillNoSkip) Fill(ctx context.Context, sess, col string, items []store.Item) ([]string, error) {
	keyed := make([]store.Item, len(items))
	n := 0
	for i, it := range items {
		if it.Key == "" {
			n++
			it.Key = strconv.Itoa(n)
		}
		keyed[i] = it
	}
	return s.Store.Fill(ctx, sess, col, keyed)
}

// fillNotAtomic empties the collection before it fills it, so a fill
// beyond the bound leaves it empty.
type fillNotAtomic struct{ store.Store }

func (s fillNotAtomic) Fill(ctx context.Context, sess, col string, items []store.Item) ([]string, error) {
	if _, err := s.Store.Fill(ctx, sess, col, nil); err != nil {
		return nil, err
	}
	return s.Store.Fill(ctx, sess, col, items)
}

// resetKeepsBound removes a session's resources but keeps counting them
// against the bound.
type resetKeepsBound struct{ store.Store }

func (s resetKeepsBound) Reset(ctx context.Context, sess string) error {
	cols, err := s.Store.Dump(ctx, sess)
	if err != nil {
		return err
	}
	if err := s.Store.Reset(ctx, sess); err != nil {
		return err
	}
	for _, c := range cols {
		for range c.Docs {
			s.Store.Create(ctx, "\x00leaked", "/leaked", "", func(string) ([]byte, error) { return []byte("{}"), nil })
		}
	}
	return nil
}

// dumpUnsorted dumps the collections in reverse order of name.
type dumpUnsorted struct{ store.Store }

func (s dumpUnsorted) Dump(ctx context.Context, sess string) ([]store.Collection, error) {
	cols, err := s.Store.Dump(ctx, sess)
	slices.Reverse(cols)
	return cols, err
}

// racyUpdate reads, makes and writes the new document in separate steps,
// so concurrent updates are lost.
type racyUpdate struct{ store.Store }

func (s racyUpdate) Update(ctx context.Context, sess, col, key string, fn func([]byte) ([]byte, error)) ([]byte, error) {
	old, err := s.Store.Get(ctx, sess, col, key)
	if err != nil {
		return nil, err
	}
	doc, err := fn(old)
	if err != nil {
		return nil, err
	}
	runtime.Gosched() // let another update read the same document
	return s.Store.Update(ctx, sess, col, key, func([]byte) ([]byte, error) { return doc, nil })
}
