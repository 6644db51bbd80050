package verify_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/verify"
	"github.com/plantmock/plantmock/mock/verify/internal/bookstore"
)

// bookstoreCredentials are a reader's token, and a writer's fetched by
// the client credentials flow of the document's oauth scheme.
var bookstoreCredentials = []verify.ScopedCredential{
	{Scheme: "oauth", Scopes: []string{"read"}, Value: bookstore.ReaderToken},
	{Scheme: "oauth", Scopes: []string{"read", "write"}, Value: bookstore.ClientID + ":" + bookstore.ClientSecret},
}

// TestBookstore verifies a service written apart from verify, whose
// genres are made by PUT at their own path and whose books are made
// under a genre that must exist, at seeds 1 to 6: kept, it gives no
// failure and no advice, and the sequences run parents first; built
// with each bug that only state or scopes show (a DELETE that deletes
// nothing, a PUT that never updates the genre it made, a PATCH refused,
// a nested create refused under a parent made first, an operation that
// ignores its auth, one that ignores its scope), verify finds that bug
// once, and nothing else.
func TestBookstore(t *testing.T) {
	tests := []struct {
		bug             bookstore.Bug
		operation, text string
	}{
		{bookstore.None, "", ""},
		{bookstore.DeleteKeeps, "GET /genres/{genreId}", "stateful: read after delete: state: the read of a deleted item ("},
		{bookstore.PutKeeps, "GET /genres/{genreId}", "stateful: read after PUT: state: the read of the item just updated has name "},
		{bookstore.PatchRefused, "PATCH /genres/{genreId}", "stateful: PATCH after create: valid input refused: status 422"},
		{bookstore.BookRefused, "POST /genres/{genreId}/books", "stateful: create: state: a valid create was refused with 404"},
		{bookstore.AuthIgnored, "GET /genres", "negative: missing credentials of oauth: accepted invalid input: status 200"},
		{bookstore.ScopeIgnored, "PUT /genres/{genreId}", "negative: credentials of oauth without scope write: accepted invalid input: status 200: the request was not refused, but header.Authorization: the credentials of security scheme oauth hold read, not write, which the operation asks"},
	}
	if len(tests) != len(bookstore.Bugs())+1 {
		t.Fatalf("%d cases for %d bugs and none", len(tests), len(bookstore.Bugs()))
	}
	wantOrder := []string{"PUT /genres/{genreId}", "POST /genres/{genreId}/books, after PUT /genres/{genreId} for genreId"}
	for seed := uint64(1); seed <= 6; seed++ {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("seed %d/%s", seed, tt.bug), func(t *testing.T) {
				srv := httptest.NewServer(bookstore.New(tt.bug))
				defer srv.Close()
				rep, err := verify.Run(context.Background(), bookstore.Spec(), srv.URL, verify.Options{Seed: seed, Scoped: bookstoreCredentials})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(rep.Order, wantOrder) {
					t.Errorf("order %q, want %q", rep.Order, wantOrder)
				}
				if tt.bug == bookstore.None {
					for _, f := range append(rep.Failures, rep.Advice...) {
						t.Errorf("a problem without a bug: %s\n%s", f, f.Curl)
					}
					return
				}
				if len(rep.Failures) != 1 || len(rep.Advice) != 0 {
					for _, f := range append(rep.Failures, rep.Advice...) {
						t.Log(f)
					}
					t.Fatalf("%d failures, %d advice; want 1 and 0", len(rep.Failures), len(rep.Advice))
				}
				if f := rep.Failures[0]; f.Operation != tt.operation || !strings.Contains(f.String(), tt.text) {
					t.Errorf("found %s\nwant %s: ...%s...", f, tt.operation, tt.text)
				}
			})
		}
	}
}

// TestClientCredentialsRefused: a token endpoint that refuses the
// client's credentials ends the run before any request, saying so.
func TestClientCredentialsRefused(t *testing.T) {
	p := bookstore.New(bookstore.None)
	srv := httptest.NewServer(p)
	defer srv.Close()
	_, err := verify.Run(context.Background(), bookstore.Spec(), srv.URL, verify.Options{Credentials: map[string]string{"oauth": bookstore.ClientID + ":wrong"}})
	want := `verify: credentials for "oauth": the token endpoint ` + srv.URL + `/oauth/token answered 401 without a token: {"error":"invalid_client"}`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant    %s", err, want)
	}
}

// TestSetup: a set-up's requests make a fixture before the checks, and
// its output is the value of the path parameter of its name: the
// checks of the books of a genre run on the genre it made (answered
// 200, where a made-up genre gets 404). The same set-up as an Arazzo
// workflow, named with its file, does the same; a set-up that names no
// operation ends the run before any request.
func TestSetup(t *testing.T) {
	list := `setup:
  - operation: putGenre
    parameters: {genreId: fiction}
    body: {name: Fiction}
    outputs: {genreId: $response.body#/id}
`
	flow := `arazzo: 1.0.1
info: {title: shelves, version: "1"}
sourceDescriptions: [{name: api, url: bookstore.yaml, type: openapi}]
workflows:
  - workflowId: other
    steps:
      - {stepId: list, operationId: listGenres, successCriteria: [{condition: $statusCode == 200}]}
  - workflowId: shelve
    steps:
      - stepId: put
        operationId: putGenre
        parameters: [{name: genreId, in: path, value: fiction}]
        requestBody: {payload: {name: Fiction}}
        successCriteria: [{condition: $statusCode == 201}]
        outputs: {id: $response.body#/id}
    outputs: {genreId: $steps.put.outputs.id}
`
	for _, tt := range []struct {
		name  string
		setup verify.Setup
		runs  []string
	}{
		{"list", verify.Setup{Description: []byte(list), File: "setup.yaml"}, []string{"setup"}},
		{"workflow", verify.Setup{Description: []byte(flow), File: "shelves.arazzo.yaml", Workflow: "shelve"}, []string{"shelve"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(bookstore.New(bookstore.None))
			defer srv.Close()
			rep, err := verify.Run(context.Background(), bookstore.Spec(), srv.URL, verify.Options{Seed: 1, Scoped: bookstoreCredentials, Setup: &tt.setup})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range append(rep.Failures, rep.Advice...) {
				t.Errorf("a problem: %s", f)
			}
			if len(rep.Fixtures) != 1 || rep.Fixtures["genreId"] != "fiction" {
				t.Errorf("fixtures %v, want genreId fiction", rep.Fixtures)
			}
			var runs []string
			for _, w := range rep.Workflows {
				if !w.Setup || !w.OK {
					t.Errorf("workflow %+v, want a set-up one that succeeded", w)
				}
				runs = append(runs, w.ID)
			}
			if !slices.Equal(runs, tt.runs) {
				t.Errorf("set-up workflows %q, want %q", runs, tt.runs)
			}
			found := false
			for _, c := range rep.Checks {
				if c.Operation == "GET /genres/{genreId}/books" && c.Kind == "positive" {
					found = true
					if c.Status != 200 || !strings.Contains(c.Curl, srv.URL+"/genres/fiction/books") {
						t.Errorf("check %s: status %d, %s; want 200 on the genre the set-up made", c.Name, c.Status, c.Curl)
					}
				}
			}
			if !found {
				t.Error("no positive check of GET /genres/{genreId}/books")
			}
		})
	}
	_, err := verify.Run(context.Background(), bookstore.Spec(), "http://127.0.0.1:1", verify.Options{Setup: &verify.Setup{Description: []byte("setup:\n  - operation: shelveBook\n")}})
	want := `verify: the set-up's request 1: no operation is named "shelveBook" (name one by its operationId or as "METHOD /path")`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant    %s", err, want)
	}
}
