package plantmock_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/testcontainers/testcontainers-go"

	plantmock "github.com/plantmock/plantmock/testcontainers"
)

// image is the plantmock image the tests start: PLANTMOCK_IMAGE, or the
// one .ci/container builds.
func image() string {
	if img := os.Getenv("PLANTMOCK_IMAGE"); img != "" {
		return img
	}
	return "plantmock:ci"
}

// requireRuntime skips the test where no container runtime answers, or
// fails it when the environment variable CI is set: CI must run it.
func requireRuntime(t *testing.T) {
	t.Helper()
	err := runtimeHealth(t.Context())
	if err == nil {
		return
	}
	msg := "no container runtime (Docker, or podman system service with DOCKER_HOST set to its socket): " + err.Error()
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

func runtimeHealth(ctx context.Context) (err error) {
	// Testcontainers panics where it finds no Docker host at all.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	p, err := testcontainers.ProviderDefault.GetProvider()
	if err != nil {
		return err
	}
	defer p.Close()
	return p.Health(ctx)
}

// call makes a request to the mocked API with the task board's API key
// and returns the answer's status and body.
func call(t *testing.T, method, url, body string) (int, string) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-API-Key", "tc-key")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// expect fails the test unless a call answered status and body.
func expect(t *testing.T, what string, status int, body string, wantStatus int, wantBody string) {
	t.Helper()
	if status != wantStatus || body != wantBody {
		t.Errorf("%s answered %d %s, not %d %s", what, status, body, wantStatus, wantBody)
	}
}

// TestRun starts the image with the task board, a scenario, seed data and
// an admin token; creates a task and reads it; reads the journal and
// verifies the requests through the helpers; activates the scenario and
// checks its answer; resets; and stops the container.
func TestRun(t *testing.T) {
	requireRuntime(t)
	ctx := t.Context()
	ctr, err := plantmock.Run(ctx, image(),
		plantmock.WithDocument("../examples/tasks.yaml"),
		plantmock.WithScenarios("testdata/board-busy.yaml"),
		plantmock.WithSeedData("testdata/seed.json"),
		plantmock.WithAdminToken("tc-admin-token"),
		plantmock.WithFlag("seed", "7"),
	)
	testcontainers.CleanupContainer(t, ctr)
	if err != nil {
		t.Fatal(err)
	}
	base, err := ctr.BaseURL(ctx)
	if err != nil {
		t.Fatal(err)
	}
	admin, err := ctr.AdminURL(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if admin != base+"/__admin" || !strings.HasPrefix(base, "http://") {
		t.Fatalf("BaseURL %q, AdminURL %q", base, admin)
	}

	status, body := call(t, "POST", base+"/tasks", `{"taskId":"water","title":"Water the fern"}`)
	expect(t, "POST /tasks", status, body, 201, `{"done":false,"taskId":"water","title":"Water the fern"}`)
	status, body = call(t, "GET", base+"/tasks/water", "")
	expect(t, "GET /tasks/water", status, body, 200, `{"done":false,"taskId":"water","title":"Water the fern"}`)
	status, body = call(t, "GET", base+"/tasks", "")
	expect(t, "GET /tasks, with the seed data", status, body, 200,
		`[{"done":true,"taskId":"repot","title":"Repot the fern"},{"done":false,"taskId":"water","title":"Water the fern"}]`)

	journal, err := ctr.Journal(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range journal {
		got = append(got, fmt.Sprintf("%d %s %s %s %d %s %s", e.Seq, e.Method, e.Path, e.Operation, e.Status, e.Body, e.Response))
	}
	want := []string{
		`1 POST /tasks POST /tasks 201 {"taskId":"water","title":"Water the fern"} {"done":false,"taskId":"water","title":"Water the fern"}`,
		`2 GET /tasks/water GET /tasks/{taskId} 200  {"done":false,"taskId":"water","title":"Water the fern"}`,
		`3 GET /tasks GET /tasks 200  [{"done":true,"taskId":"repot","title":"Repot the fern"},{"done":false,"taskId":"water","title":"Water the fern"}]`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the journal holds\n%s\nnot\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(journal) > 0 && journal[0].Headers["X-Api-Key"][0] != "****" {
		t.Errorf("the journal keeps the API key as %q", journal[0].Headers["X-Api-Key"])
	}
	if err := ctr.Verify(ctx, "post", "/tasks", 1); err != nil {
		t.Error(err)
	}
	if err := ctr.Verify(ctx, "GET", "/tasks/{taskId}", 2); err == nil || err.Error() != "plantmock: GET /tasks/{taskId} was requested 1 times, not 2" {
		t.Errorf("Verify of a wrong count: %v", err)
	}
	found, err := ctr.FindRequests(ctx, plantmock.Match{Operation: "POST /tasks", Body: map[string]any{"taskId": "/^wat/"}})
	if err != nil || len(found) != 1 || found[0].Seq != 1 {
		t.Errorf("FindRequests by body: %+v, %v", found, err)
	}
	if n, err := ctr.CountRequests(ctx, plantmock.Match{Status: 200}); n != 2 || err != nil {
		t.Errorf("CountRequests of status 200: %d, %v", n, err)
	}

	// The scenario, activated through the helper, answers reads; none
	// active again, the store answers.
	if err := ctr.SetScenario(ctx, "board-busy"); err != nil {
		t.Fatal(err)
	}
	status, body = call(t, "GET", base+"/tasks/water", "")
	expect(t, "GET /tasks/water in board-busy", status, body, 422, `{"code":42290,"detail":"the board is busy: request 1 refused","title":"board busy"}`)
	if e, err := ctr.FindRequests(ctx, plantmock.Match{Status: 422}); err != nil || len(e) != 1 || e[0].Scenario != "board-busy" || e[0].Rule != 1 {
		t.Errorf("the journal's entry of the scenario's answer: %+v, %v", e, err)
	}
	if err := ctr.SetScenario(ctx, ""); err != nil {
		t.Fatal(err)
	}
	status, body = call(t, "GET", base+"/tasks/water", "")
	expect(t, "GET /tasks/water with no scenario", status, body, 200, `{"done":false,"taskId":"water","title":"Water the fern"}`)

	// A scenario the mock has not loaded is refused, with its answer.
	var refused *plantmock.AdminError
	if err := ctr.SetScenario(ctx, "no-such-scenario"); !errors.As(err, &refused) || refused.Status != 400 ||
		refused.Body != `{"error":40006,"message":"no scenario is named \"no-such-scenario\"; known: board-busy, first-call-fails, flaky, slow"}` {
		t.Errorf("SetScenario of an unknown name: %v", err)
	}

	// The admin token guards the admin API; the helpers send it.
	status, body = call(t, "GET", admin+"/requests", "")
	expect(t, "the journal without the admin token", status, body, 401, `{"error":40102,"message":"the admin API needs \"Authorization: Bearer <admin token>\""}`)

	if err := ctr.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	status, body = call(t, "GET", base+"/tasks/water", "")
	expect(t, "GET /tasks/water after the reset", status, body, 404, `{"code":40401,"title":"Not Found","detail":"no resource with taskId \"water\" in /tasks"}`)
	if journal, err := ctr.Journal(ctx); err != nil || len(journal) != 1 || journal[0].Status != 404 {
		t.Errorf("the journal after the reset: %+v, %v", journal, err)
	}

	if err := testcontainers.TerminateContainer(ctr); err != nil {
		t.Fatalf("stopping the container: %v", err)
	}
	if _, err := http.Get(base + "/__admin/health"); err == nil {
		t.Errorf("%s still answers once the container is stopped", base)
	}
}
