package verify_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock"
	"github.com/plantmock/plantmock/mock/verify"
)

const tasksFlows = "testdata/workflows/tasks.arazzo.yaml"

// runFlows runs the workflows of tasksFlows against the Task Board
// served by the mock, its answers changed by breaking (nil for none).
func runFlows(t *testing.T, breaking func(http.Handler) http.Handler) *verify.Report {
	t.Helper()
	spec, err := os.ReadFile("../../examples/tasks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	flows, err := os.ReadFile(tasksFlows)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mock.New(mock.Options{Spec: spec, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler = m
	if breaking != nil {
		h = breaking(m)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	rep, err := verify.Run(context.Background(), spec, srv.URL, verify.Options{Seed: 1,
		Workflows: &verify.Workflows{Description: flows, File: tasksFlows, Spec: "examples/tasks.yaml"}})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// steps lists the workflow checks of a report as "workflow/step status".
func steps(rep *verify.Report) []string {
	var out []string
	for _, c := range rep.Checks {
		out = append(out, c.Workflow+"/"+c.Step+" "+c.Operation+" "+http.StatusText(c.Status))
	}
	return out
}

// TestWorkflowsAgainstMock runs two workflows against the mock serving
// their document, a service that keeps it: every step answers as the
// workflows want, and values flow from one step to the next and from
// one workflow to the one that depends on it.
func TestWorkflowsAgainstMock(t *testing.T) {
	rep := runFlows(t, nil)
	var b strings.Builder
	rep.WriteSummary(&b)
	for _, f := range append(rep.Failures, rep.Advice...) {
		t.Errorf("%s\n%s", f, f.Curl)
	}
	want := []string{
		"createThenRead/create POST /tasks Created",
		"createThenRead/read GET /tasks/{taskId} OK",
		"finishAndRemove/finish PATCH /tasks/{taskId} OK",
		"finishAndRemove/remove DELETE /tasks/{taskId} No Content",
		"finishAndRemove/gone GET /tasks/{taskId} Not Found",
	}
	if got := steps(rep); !slices.Equal(got, want) {
		t.Errorf("checks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(rep.Workflows) != 2 || !rep.Workflows[0].OK || !rep.Workflows[1].OK {
		t.Fatalf("workflows: %s", b.String())
	}
	if got, _ := json.Marshal(rep.Workflows[0].Outputs); string(got) != `{"taskId":"water-the-fern","title":"Water the fern"}` {
		t.Errorf("outputs of createThenRead = %s", got)
	}
	if !strings.Contains(b.String(), "\nworkflows (testdata/workflows/tasks.arazzo.yaml):\n  createThenRead: ok (create, read)\n  finishAndRemove: ok (finish, remove, gone)\n") {
		t.Errorf("summary:\n%s", b.String())
	}
	wantNote := "source description board (../../../../examples/tasks.yaml) is read as the document verify was given, examples/tasks.yaml"
	if !slices.Equal(rep.Notes, []string{wantNote}) {
		t.Errorf("notes = %q, want %q", rep.Notes, wantNote)
	}
}

// TestWorkflowsName the step that failed: a service whose read answers
// another title than the one created fails the read step's criterion,
// and the workflow that depends on it fails for that; a service whose
// delete answers a status the document does not declare fails the
// answer and the step.
func TestWorkflowsNameTheFailedStep(t *testing.T) {
	t.Run("criterion", func(t *testing.T) {
		rep := runFlows(t, func(next http.Handler) http.Handler {
			return rewrite(next, func(r *http.Request, body []byte) []byte {
				if r.Method == http.MethodGet {
					return bytes.Replace(body, []byte(`"Water the fern"`), []byte(`"Water the oak"`), 1)
				}
				return body
			})
		})
		var got []string
		for _, f := range rep.Failures {
			got = append(got, f.String()+" ["+f.Workflow+"/"+f.Step+" "+f.File+":"+itoa(f.Line)+"]")
		}
		want := []string{
			`GET /tasks/{taskId}: workflow: createThenRead step read: criterion: workflow createThenRead failed at step read: $statusCode == 200 && $response.body#/title == $inputs.title is not met ($statusCode = 200, $response.body#/title = "Water the oak", $inputs.title = "Water the fern") [createThenRead/read testdata/workflows/tasks.arazzo.yaml:46]`,
			`workflow finishAndRemove: workflow: finishAndRemove: workflow: workflow finishAndRemove failed: it depends on workflow createThenRead, which failed [finishAndRemove/ testdata/workflows/tasks.arazzo.yaml:55]`,
		}
		if !slices.Equal(got, want) {
			t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		var b strings.Builder
		rep.WriteSummary(&b)
		if !strings.Contains(b.String(), "  createThenRead: FAILED at step read (line 46): criterion: $statusCode == 200") {
			t.Errorf("summary:\n%s", b.String())
		}
		var gh strings.Builder
		rep.WriteGitHub(&gh, "examples/tasks.yaml")
		wantGH := "::error file=testdata/workflows/tasks.arazzo.yaml,line=46,title=plantmock verify%3A workflow createThenRead step read%3A criterion::workflow: createThenRead step read: workflow createThenRead failed at step read: $statusCode == 200"
		if !strings.HasPrefix(gh.String(), wantGH) {
			t.Errorf("github:\n%s\nwant it to start with\n%s", gh.String(), wantGH)
		}
		var ju strings.Builder
		rep.WriteJUnit(&ju)
		for _, want := range []string{
			`<testsuite name="workflow createThenRead" tests="2" failures="1" skipped="0">`,
			`<failure message="workflow createThenRead failed at step read: $statusCode == 200 &amp;&amp; $response.body#/title == $inputs.title is not met`,
			`at: testdata/workflows/tasks.arazzo.yaml:46`,
			`<testsuite name="workflow finishAndRemove" tests="1" failures="1" skipped="0">`,
		} {
			if !strings.Contains(ju.String(), want) {
				t.Errorf("JUnit lacks %s:\n%s", want, ju.String())
			}
		}
	})
	t.Run("answer outside the document", func(t *testing.T) {
		rep := runFlows(t, func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodDelete {
					w.WriteHeader(http.StatusAccepted)
					return
				}
				next.ServeHTTP(w, r)
			})
		})
		var got []string
		for _, f := range rep.Failures {
			got = append(got, f.String())
		}
		want := []string{
			"DELETE /tasks/{taskId}: workflow: finishAndRemove step remove: status: status 202 is not declared (DELETE /tasks/{taskId} declares 204, 404)",
			"DELETE /tasks/{taskId}: workflow: finishAndRemove step remove: criterion: workflow finishAndRemove failed at step remove: $statusCode == 204 is not met ($statusCode = 202)",
		}
		if !slices.Equal(got, want) {
			t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

// rewrite changes the bodies of next's answers.
func rewrite(next http.Handler, change func(*http.Request, []byte) []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		body := change(r, rec.Body.Bytes())
		for k, vs := range rec.Header() {
			w.Header()[k] = vs
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		io.Copy(w, bytes.NewReader(body))
	})
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestLintWorkflows lints the Task Board's workflows against their
// document, which has every operation they call, and against the Plant
// Store, which has none of them.
func TestLintWorkflows(t *testing.T) {
	spec, err := os.ReadFile("../../examples/tasks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	flows, err := os.ReadFile(tasksFlows)
	if err != nil {
		t.Fatal(err)
	}
	probs, err := verify.LintWorkflows(flows, spec)
	if err != nil || len(probs) != 0 {
		t.Errorf("against tasks.yaml: %v, %v; want none", probs, err)
	}
	probs, err = verify.LintWorkflows(flows, nil)
	if err != nil || len(probs) == 0 {
		t.Fatalf("against the Plant Store: %v, %v; want problems", probs, err)
	}
	for _, p := range probs {
		if p.Line == 0 || !strings.Contains(p.Text, "no operation of the document") {
			t.Errorf("against the Plant Store: %+v, want a step's line and no operation", p)
		}
	}
	if _, err := verify.LintWorkflows(flows, []byte("openapi: [")); err == nil {
		t.Error("a document that is not YAML: no error")
	}
}
