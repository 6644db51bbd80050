package mock

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/problem"
)

// TestConcurrentCreates posts 400 plants from 16 goroutines, every id twice
// from different goroutines: each id must be created exactly once, refused
// exactly once, and stored with its own body.
func TestConcurrentCreates(t *testing.T) {
	s, ts := newTestServer(t, Options{})
	const n, workers = 400, 16
	client := ts.Client()
	client.Transport.(*http.Transport).MaxIdleConnsPerHost = workers
	type result struct {
		id     int
		status int
		body   string
	}
	results := make(chan result, 2*n)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range jobs {
				body := fmt.Sprintf(`{"id":%d,"name":"plant %d","tag":"t%d"}`, id, id, id%7)
				req, _ := http.NewRequest("POST", ts.URL+"/plants", strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer load")
				req.Header.Set("Content-Type", "application/json")
				resp, err := client.Do(req)
				if err != nil {
					results <- result{id: id, status: -1, body: err.Error()}
					continue
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				results <- result{id: id, status: resp.StatusCode, body: string(b)}
			}
		}()
	}
	go func() {
		for i := 0; i < n; i++ {
			jobs <- i
		}
		for i := n - 1; i >= 0; i-- {
			jobs <- i
		}
		close(jobs)
		wg.Wait()
		close(results)
	}()
	created := map[int]int{}
	refused := map[int]int{}
	for r := range results {
		switch r.status {
		case 200:
			created[r.id]++
			if want := fmt.Sprintf(`{"name":"plant %d","tag":"t%d"}`, r.id, r.id%7); r.body != want {
				t.Errorf("create %d answered %s, want %s", r.id, r.body, want)
			}
		case 400:
			refused[r.id]++
			if want := errBody(problem.CodeDuplicate, fmt.Sprintf("id %d already exists in /plants", r.id)); r.body != want {
				t.Errorf("duplicate %d answered %s, want %s", r.id, r.body, want)
			}
		default:
			t.Errorf("id %d: status %d: %s", r.id, r.status, r.body)
		}
	}
	for i := 0; i < n; i++ {
		if created[i] != 1 || refused[i] != 1 {
			t.Errorf("id %d: created %d times, refused %d times; want 1 and 1", i, created[i], refused[i])
		}
	}
	if got := stored(s, "/plants"); got != n {
		t.Errorf("store holds %d plants, want %d", got, n)
	}
	for i := 0; i < n; i++ {
		doc, ok := storedDoc(s, "/plants", fmt.Sprint(i))
		if want := fmt.Sprintf(`{"id":%d,"name":"plant %d","tag":"t%d"}`, i, i, i%7); !ok || string(doc) != want {
			t.Errorf("store[%d] = %s, want %s", i, doc, want)
		}
	}
	// The contract report counted every exchange, however many ran at once.
	if ops := s.Contract().Operations; len(ops) != 1 || ops[0].Operation != "POST /plants" || ops[0].Exchanges != 2*n {
		t.Errorf("contract report: %+v, want POST /plants with %d exchanges", ops, 2*n)
	}
}
