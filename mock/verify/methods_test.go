package verify_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/verify"
)

// methodsSpec declares GET /things, and every method verify tries on
// /all.
const methodsSpec = `openapi: 3.0.3
info: {title: Methods, version: '1'}
paths:
  /things:
    get:
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: array, items: {type: string}}}}}
  /all:
    get: {responses: {'204': {description: ok}}}
    put: {responses: {'204': {description: ok}}}
    patch: {responses: {'204': {description: ok}}}
    post: {responses: {'204': {description: ok}}}
    delete: {responses: {'204': {description: ok}}}
`

// methodsService serves methodsSpec, answering a method /things does
// not declare with status, and allow as its Allow header (none when
// nil).
func methodsService(status int, allow []string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/all":
			w.WriteHeader(http.StatusNoContent)
		case r.URL.Path == "/things" && r.Method == http.MethodGet:
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`["a"]`))
		case r.URL.Path == "/things":
			if allow != nil {
				w.Header()["Allow"] = allow
			}
			w.WriteHeader(status)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}
}

// TestUnsupportedMethod: a method a path does not declare must be
// refused with 405 and an Allow header (RFC 9110 section 15.5.6). An
// Allow header missing, or a 5xx, is a failure; an Allow header that
// leaves out a declared method, another refusal or an answer that takes
// the request is advice, with why. A path that declares every method
// tried is sent none; with NoDestructive only GET and POST are tried.
func TestUnsupportedMethod(t *testing.T) {
	const (
		check = "negative: unsupported method PATCH"
		what  = "PATCH /things, a method the path does not declare (it declares GET)"
	)
	tests := []struct {
		name     string
		status   int
		allow    []string
		failures []string // rule, text
		advice   []string // rule, text, the start of why
	}{
		{"405 with Allow", 405, []string{"GET, HEAD"}, nil, nil},
		{"405 with two Allow fields", 405, []string{"HEAD", "GET"}, nil, nil},
		{"405 with an empty Allow", 405, []string{""}, nil,
			[]string{"allow\tstatus 405 to PATCH /things: Allow:  lacks GET, which the document declares\tthe Allow header lists the methods"}},
		{"405 with an Allow that lists the method", 405, []string{"GET, PATCH"}, nil,
			[]string{"allow\tstatus 405 to PATCH /things: Allow: GET, PATCH lists PATCH, which the service refused\tthe Allow header lists the methods"}},
		{"405 without Allow", 405, nil,
			[]string{"allow\tstatus 405 to PATCH /things without an Allow header, which RFC 9110 requires of a 405 (section 15.5.6): the methods the resource supports (GET)"}, nil},
		{"404", 404, nil, nil,
			[]string{"unsupported method\tstatus 404 to " + what + "; 405 is the status for it\tRFC 9110 lets a service answer 404"}},
		{"400", 400, nil, nil,
			[]string{"unsupported method\tstatus 400 to " + what + "; 405 is the status for it\t405 is the status for a method the resource does not support"}},
		{"501", 501, nil, nil,
			[]string{"unsupported method\tstatus 501 to " + what + "; 405 is the status for it\t501 says the service does not recognize the method"}},
		{"taken", 204, nil, nil,
			[]string{"unsupported method\tstatus 204: the service took " + what + "\ta document may leave operations out"}},
		{"500", 500, nil, []string{"5xx\ta 5xx answer to " + what + ": 500 "}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(methodsService(tt.status, tt.allow))
			defer srv.Close()
			rep, err := verify.Run(context.Background(), []byte(methodsSpec), srv.URL, verify.Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			var failures, advice []string
			for _, f := range rep.Failures {
				if f.Operation != "GET /things" || f.Check != check {
					t.Errorf("failure %s", f)
				}
				failures = append(failures, f.Rule+"\t"+f.Text)
			}
			for _, f := range rep.Advice {
				if f.Operation != "GET /things" || f.Check != check {
					t.Errorf("advice %s", f)
				}
				why := f.Why
				if i := len(advice); i < len(tt.advice) {
					_, want, _ := strings.Cut(strings.SplitN(tt.advice[i], "\t", 2)[1], "\t")
					if strings.HasPrefix(why, want) {
						why = want // the rest of it is the code's to word
					}
				}
				advice = append(advice, f.Rule+"\t"+f.Text+"\t"+why)
			}
			if !slices.Equal(failures, tt.failures) || !slices.Equal(advice, tt.advice) {
				t.Errorf("failures %q\nadvice %q\nwant %q\nand %q", failures, advice, tt.failures, tt.advice)
			}
			var tried []string
			for _, c := range rep.Checks {
				if strings.HasPrefix(c.Name, "unsupported method") {
					tried = append(tried, c.Operation+": "+c.Title()+": "+strings.Fields(c.Curl)[4])
				}
			}
			if want := []string{"GET /things: " + check + ": PATCH"}; !slices.Equal(tried, want) {
				t.Errorf("tried %q, want %q", tried, want)
			}
			if rep.Coverage.Statuses != rep.Coverage.StatusesDeclared {
				t.Errorf("coverage %s", rep.Coverage)
			}
		})
	}
	t.Run("no destructive", func(t *testing.T) {
		srv := httptest.NewServer(methodsService(http.StatusMethodNotAllowed, []string{"GET"}))
		defer srv.Close()
		rep, err := verify.Run(context.Background(), []byte(methodsSpec), srv.URL, verify.Options{Seed: 1, NoDestructive: true})
		if err != nil {
			t.Fatal(err)
		}
		var tried []string
		for _, c := range rep.Checks {
			if strings.HasPrefix(c.Name, "unsupported method") {
				tried = append(tried, c.Operation+": "+c.Title())
			}
		}
		if want := []string{"GET /things: negative: unsupported method POST"}; !slices.Equal(tried, want) || !rep.OK() || len(rep.Advice) != 0 {
			t.Errorf("tried %q, want %q; failures %v, advice %v", tried, want, rep.Failures, rep.Advice)
		}
	})
}
