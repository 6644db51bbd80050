package main

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// syncBuffer is a bytes.Buffer that counts its writes.
type syncBuffer struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	writes int
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.writes++
	return b.buf.Write(p)
}

func TestLogWriterKeepsEveryLineInOrder(t *testing.T) {
	var out syncBuffer
	w := newLogWriter(&out)
	const writers, lines = 8, 2000
	var wg sync.WaitGroup
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range lines {
				fmt.Fprintf(w, "g%d line %d\n", g, i)
			}
		}()
	}
	wg.Wait()
	w.Close()
	fmt.Fprintf(w, "after close\n")

	got := strings.Split(strings.TrimSuffix(out.buf.String(), "\n"), "\n")
	if len(got) != writers*lines+1 {
		t.Fatalf("%d lines written, want %d", len(got), writers*lines+1)
	}
	next := make([]int, writers)
	for _, l := range got[:len(got)-1] {
		var g, i int
		if _, err := fmt.Sscanf(l, "g%d line %d", &g, &i); err != nil {
			t.Fatalf("line %q is mangled: %v", l, err)
		}
		if i != next[g] {
			t.Fatalf("writer %d: line %d came where line %d was due", g, i, next[g])
		}
		next[g]++
	}
	if last := got[len(got)-1]; last != "after close" {
		t.Fatalf("last line %q, want the one written after Close", last)
	}
	if out.writes > writers*lines {
		t.Errorf("%d writes for %d lines: lines are not gathered", out.writes, writers*lines)
	}
}

// blockingWriter takes nothing until released.
type blockingWriter struct {
	release chan struct{}
	syncBuffer
}

func (b *blockingWriter) Write(p []byte) (int, error) {
	<-b.release
	return b.syncBuffer.Write(p)
}

func TestLogWriterBoundsWhatItHolds(t *testing.T) {
	out := &blockingWriter{release: make(chan struct{})}
	w := newLogWriter(out)
	waiting := make(chan int, 1)
	w.onWait = func() {
		select {
		case waiting <- len(w.buf):
		default:
		}
	}
	line := append(bytes.Repeat([]byte("x"), 1023), '\n')
	lines := 3 * maxPending / len(line)
	done := make(chan struct{})
	go func() {
		for range lines {
			w.Write(line)
		}
		close(done)
	}()
	// With the output taking nothing, the writer holds maxPending bytes
	// besides the batch out is stuck on, and the next Write waits.
	if held := <-waiting; held != maxPending {
		t.Fatalf("a Write waited with %d bytes held, want %d", held, maxPending)
	}
	select {
	case <-done:
		t.Fatal("every write returned while the output took nothing")
	default:
	}
	close(out.release)
	<-done
	w.Close()
	if got, want := out.buf.Len(), lines*len(line); got != want {
		t.Fatalf("%d bytes written, want %d", got, want)
	}
}
