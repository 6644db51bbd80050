package verify_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock"
	"github.com/plantmock/plantmock/mock/verify"
)

// TestRate: a run paced by Rate sends the same requests, in the same
// order, as one that is not, and finds the same.
func TestRate(t *testing.T) {
	titles := func(rep *verify.Report) []string {
		var out []string
		for _, c := range rep.Checks {
			out = append(out, c.Operation+": "+c.Title())
		}
		return out
	}
	var want []string
	for _, rate := range []float64{0, 1000, 500} {
		m, err := mock.New(mock.Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(m)
		defer srv.Close()
		rep, err := verify.Run(context.Background(), nil, srv.URL, verify.Options{Seed: 1, Rate: rate})
		if err != nil {
			t.Fatal(err)
		}
		got := titles(rep)
		if rate == 0 {
			want = got
		}
		if !rep.OK() || rep.Stopped != "" || rep.Requests != len(want) || !slices.Equal(got, want) {
			t.Errorf("rate %v: %d requests, stopped %q, failures %v, checks\n%q\nwant\n%q", rate, rep.Requests, rep.Stopped, rep.Failures, got, want)
		}
	}
}

// TestDuration: when the time budget runs out while an answer is under
// way, the run stops without waiting for it or judging it, says so, and
// reports no failure.
func TestDuration(t *testing.T) {
	var sent atomic.Int64
	done := make(chan struct{}) // closed when the test ends
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent.Add(1)
		io.Copy(io.Discard, r.Body) // the server sees the client leave only once the body is read
		select {
		case <-r.Context().Done():
		case <-done:
		}
	}))
	defer srv.Close()
	defer close(done)
	rep, err := verify.Run(context.Background(), nil, srv.URL, verify.Options{Duration: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	const stopped = "stopped after 1 request (the time budget, 300ms)"
	if rep.Stopped != stopped || rep.Requests != 1 || len(rep.Checks) != 0 || !rep.OK() {
		t.Errorf("stopped %q, %d requests, checks %v, failures %v; want %q, 1 request, no check", rep.Stopped, rep.Requests, rep.Checks, rep.Failures, stopped)
	}
	if n := sent.Load(); n != 1 {
		t.Errorf("%d requests reached the service, want 1", n)
	}
}

// TestBudgetRefused: a negative Rate or Duration is refused before
// anything is sent.
func TestBudgetRefused(t *testing.T) {
	tests := []struct {
		name string
		opts verify.Options
		err  string
	}{
		{"rate", verify.Options{Rate: -1}, "verify: rate -1: want 0 (no bound) or more"},
		{"duration", verify.Options{Duration: -time.Second}, "verify: duration -1s: want 0 (no bound) or more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := verify.Run(context.Background(), nil, "http://127.0.0.1:1", tt.opts)
			if rep != nil || err == nil || err.Error() != tt.err {
				t.Errorf("Run: %v, %v; want %s", rep, err, tt.err)
			}
		})
	}
}
