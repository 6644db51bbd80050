package verify_test

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock"
	"github.com/plantmock/plantmock/mock/verify"
)

// TestNoFalsePositives verifies the mock serving each of our documents
// against the same document: the mock keeps its own contract, so every
// failure found is verify's mistake.
func TestNoFalsePositives(t *testing.T) {
	docs := map[string]string{"Plant Store": "../../openapi.yaml"}
	for _, pattern := range []string{"../../examples/*.yaml", "testdata/*.yaml"} {
		paths, err := filepath.Glob(pattern)
		if err != nil || len(paths) == 0 {
			t.Fatalf("%s: %d documents, %v", pattern, len(paths), err)
		}
		for _, p := range paths {
			docs[filepath.Base(p)] = p
		}
	}
	if len(docs) < 4 {
		t.Fatalf("verifying %d documents, want the Plant Store and the examples: %v", len(docs), docs)
	}
	// steps are the checks that must be sent, by document: those of the
	// variants, invalid values and sequences the document calls for.
	steps := map[string][]string{
		"sequences.yaml": {
			"POST /gardens positive: alternative shape 1/2 Square",
			"POST /gardens positive: alternative shape 2/2 Circle",
			`POST /gardens positive: enum soil="sand"`,
			`GET /gardens positive: enum query.soil="loam"`,
			"POST /gardens positive: maxLength name=40",
			"POST /gardens positive: maxItems tags=5",
			"GET /gardens negative: parameter query.limit out of range",
			"POST /gardens negative: property name out of range",
			"POST /beds negative: property size out of range",
			"POST /beds negative: property code breaking its pattern",
			"GET /beds/{code} negative: parameter path.code breaking its pattern",
			"GET /gardens/{gardenId} negative: parameter path.gardenId breaking its format",
			"GET /gardens/{gardenId} stateful: read after create",
			"GET /gardens stateful: list after create",
			"PUT /gardens/{gardenId} stateful: PUT after create",
			"GET /gardens/{gardenId} stateful: read after PUT",
			"PATCH /gardens/{gardenId} stateful: PATCH after create",
			"GET /gardens/{gardenId} stateful: read after PATCH",
			"GET /gardens/{gardenId} stateful: read after delete",
			"POST /beds stateful: create that repeats an identifier",
			"GET /beds/{code} stateful: read after create",
		},
		"streams.yaml": {
			"POST /batch positive: required only",
			"POST /batch positive: in application/json-seq",
			"POST /batch positive: in multipart/mixed",
			"POST /lines positive: required only",
			"POST /batch negative: missing required property item[2].name",
			"POST /batch negative: wrong type of item[2].name",
			"POST /lines negative: missing required property item[2].name",
			"POST /lines negative: wrong type of item[2].name",
		},
		"views.yaml": {
			"GET /orgs/{org}/hooks/{hook_id} stateful: read after create",
			"PATCH /orgs/{org}/hooks/{hook_id} stateful: PATCH after create",
			"GET /orgs/{org}/hooks/{hook_id} stateful: read after PATCH",
			"GET /orgs/{org}/hooks/{hook_id} stateful: read after delete",
			"POST /boards/{board}/items positive: example issue",
			"POST /boards/{board}/items positive: example pull",
			"GET /notes stateful: list after create",
			"GET /{story_id} stateful: read after create",
			"GET /groups/{group_id} stateful: read after create",
			"GET /projects/{project_id}/users/{user_id} stateful: read after create",
			"GET /projects/{project_id}/users stateful: list after create",
		},
		"nested.yaml": {
			"GET /cards/{cardId}/transactions/{transactionId} stateful: read after create",
		},
		"nosuccess.yaml": {
			"GET /users/{username} stateful: read after create",
		},
		"tasks.yaml": {
			"POST /tasks negative: property priority breaking its format",
			"GET /tasks stateful: list after create",
			"POST /tasks stateful: create that repeats an identifier",
			"GET /tasks/{taskId} stateful: read after PUT",
			"GET /tasks/{taskId} stateful: read after PATCH",
		},
	}
	// impossible are the rules no answer can keep, by document: each
	// must be listed once, not failed.
	impossible := map[string][]string{
		"twins.yaml": {"#/paths/~1notes/get/responses/401/content/application~1json/schema/oneOf: oneOf alternatives 0 and 1 accept the same values, so no answer can keep it: answers are not judged by it"},
	}
	for name, p := range docs {
		t.Run(name, func(t *testing.T) {
			spec, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rep := verifyMocked(t, spec)
			var b strings.Builder
			rep.WriteSummary(&b)
			t.Log(b.String())
			for _, f := range append(rep.Failures, rep.Advice...) {
				t.Errorf("%s\n%s", f, f.Curl)
			}
			if len(rep.Unmade) > 0 {
				t.Errorf("no request could be made: %q", rep.Unmade)
			}
			if rep.Coverage.Operations != rep.Coverage.OperationsDeclared || rep.Requests == 0 {
				t.Errorf("coverage %s with %d requests, want every operation", rep.Coverage, rep.Requests)
			}
			titles := map[string]bool{}
			for _, c := range rep.Checks {
				titles[c.Operation+" "+c.Title()] = true
			}
			if !slices.Equal(rep.Impossible, impossible[name]) {
				t.Errorf("Impossible = %q, want %q", rep.Impossible, impossible[name])
			}
			for _, want := range steps[name] {
				if !titles[want] {
					t.Errorf("no check %q", want)
				}
			}
		})
	}
}

// verifyMocked runs verify with seed 1 against a mock of spec, served
// for the run.
func verifyMocked(t *testing.T, spec []byte) *verify.Report {
	t.Helper()
	m, err := mock.New(mock.Options{Spec: spec, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(m)
	defer srv.Close()
	rep, err := verify.Run(context.Background(), spec, srv.URL, verify.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
