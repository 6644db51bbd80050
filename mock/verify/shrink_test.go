package verify_test

import (
	"bytes"
	"context"
	"encoding/json"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/plantmock/plantmock/mock/verify"
)

// ordersSpec declares a create with optional parts of one value each,
// so that the smallest request that fails is known.
const ordersSpec = `openapi: 3.0.3
info: {title: Orders, version: '1'}
paths:
  /orders:
    post:
      parameters:
        - {name: ref, in: query, schema: {type: string, enum: [r]}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name]
              properties:
                name: {type: string, enum: [n]}
                note: {type: string, enum: [x]}
                lines: {type: array, maxItems: 4, items: {type: string, enum: [a]}}
                gift: {type: boolean}
      responses:
        '201': {description: created}
        '400': {description: refused}
`

// orders serves ordersSpec, refusing what breaks it, but answers 500 to
// any order with a note; it counts the requests it is sent.
func orders(n *atomic.Int64) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if r.URL.Path != "/orders" {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var in struct {
			Name  *string  `json:"name"`
			Note  *string  `json:"note"`
			Lines []string `json:"lines"`
			Gift  *bool    `json:"gift"`
		}
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		dec := json.NewDecoder(r.Body)
		ok := mt == "application/json" && dec.Decode(&in) == nil && in.Name != nil && *in.Name == "n" &&
			(in.Note == nil || *in.Note == "x") && len(in.Lines) <= 4
		for _, l := range in.Lines {
			ok = ok && l == "a"
		}
		if ref := r.URL.Query()["ref"]; ref != nil && (len(ref) != 1 || ref[0] != "r") {
			ok = false
		}
		switch {
		case !ok:
			w.WriteHeader(http.StatusBadRequest)
		case in.Note != nil:
			http.Error(w, "boom", http.StatusInternalServerError)
		default:
			w.WriteHeader(http.StatusCreated)
		}
	}
}

// TestShrink: a valid request that fails is shrunk to the smallest one
// that still fails the same way (every part it does not need left
// out), which is sent again to confirm and shown with the failure; the
// check's own request is kept apart. The extra requests are counted,
// and the request budget ends the shrinking, the failure then shown as
// its check sent it.
func TestShrink(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(orders(&n))
	defer srv.Close()
	rep, err := verify.Run(context.Background(), []byte(ordersSpec), srv.URL, verify.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Failures) != 1 || len(rep.Advice) != 0 {
		t.Fatalf("failures %v, advice %v; want one failure", rep.Failures, rep.Advice)
	}
	f := rep.Failures[0]
	want := "curl -sS -i -X POST '" + srv.URL + `/orders' -H 'Content-Type: application/json' --data-binary '{"name":"n","note":"x"}'`
	if f.Rule != "5xx" || f.Text != "a 5xx answer: 500 boom" || f.Curl != want {
		t.Errorf("failure %s\n%s\nwant the 5xx shrunk to\n%s", f, f.Curl, want)
	}
	var first *verify.Check
	for _, c := range rep.Checks {
		if c.Title() == f.Check {
			first = c
		}
	}
	if first == nil || f.Unshrunk != first.Curl || !strings.Contains(f.Unshrunk, `?ref=r' -H 'Content-Type: application/json' --data-binary '{"gift":true,"lines":["a","a"],"name":"n","note":"x"}'`) {
		t.Errorf("unshrunk %q, want the check's request %v", f.Unshrunk, first)
	}
	// Four requests shrank it: every optional part left out at once
	// (which passes: the note is gone), then the ref, the gift and the
	// lines one at a time (the note alone is that first request again,
	// not sent twice); a fifth confirmed it.
	if extra := rep.Requests - len(rep.Checks); extra != 5 || int64(rep.Requests) != n.Load() {
		t.Errorf("%d requests for %d checks (the service counted %d), want 5 more", rep.Requests, len(rep.Checks), n.Load())
	}
	var sum bytes.Buffer
	if err := rep.WriteSummary(&sum); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sum.String(), "    shrunk: the smallest request found that fails the same way, sent twice:\n    "+want+"\n") {
		t.Errorf("summary:\n%s", sum.String())
	}

	t.Run("budget", func(t *testing.T) {
		var n atomic.Int64
		srv := httptest.NewServer(orders(&n))
		defer srv.Close()
		// The first check is the required only, the second fails: two
		// requests are left to shrink it, and the budget ends the run.
		rep, err := verify.Run(context.Background(), []byte(ordersSpec), srv.URL, verify.Options{Seed: 1, MaxRequests: 4})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Stopped == "" || rep.Requests != 4 || n.Load() != 4 || len(rep.Checks) != 2 || len(rep.Failures) != 1 {
			t.Fatalf("stopped %q, %d requests (%d sent), checks %d, failures %v", rep.Stopped, rep.Requests, n.Load(), len(rep.Checks), rep.Failures)
		}
		if f := rep.Failures[0]; f.Curl != rep.Checks[1].Curl || f.Unshrunk != "" {
			t.Errorf("failure shown as %s (unshrunk %q), want its check's request %s", f.Curl, f.Unshrunk, rep.Checks[1].Curl)
		}
	})
}
