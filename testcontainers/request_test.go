package plantmock

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"
)

// TestRequest checks the container request Run makes from the options,
// without a container runtime: the files it copies, the flags it passes,
// the port it waits on, and Testcontainers' own options applied after
// plantmock's.
func TestRequest(t *testing.T) {
	req, token, err := newRequest("plantmock:test", []testcontainers.ContainerCustomizer{
		WithDocument("../openapi.yaml"),
		WithDocumentAt("/tasks", "../examples/tasks.yaml"),
		WithScenarios("testdata/board-busy.yaml", "../scenarios/slow.yaml"),
		WithSeedData("testdata/seed.json"),
		WithAdminToken("secret"),
		WithRedis("redis://redis:6379/0"),
		WithFlag("--store-wait", "30s"),
		testcontainers.WithEnv(map[string]string{"PLANTMOCK_SEED": "7"}),
	})
	if err != nil {
		t.Fatal(err)
	}
	if token != "secret" || req.Image != "plantmock:test" || !req.Started || !slices.Equal(req.ExposedPorts, []string{"4010/tcp"}) {
		t.Errorf("token %q, image %q, started %v, ports %q", token, req.Image, req.Started, req.ExposedPorts)
	}
	wantCmd := []string{
		"--seed-data=/seed-data.json", "--admin-token=secret", "--store=redis://redis:6379/0", "--store-wait=30s",
		"--spec=/specs/1-openapi.yaml,/tasks=/specs/2-tasks.yaml", "--scenarios=/scenarios",
	}
	if !slices.Equal(req.Cmd, wantCmd) {
		t.Errorf("command %q, not %q", req.Cmd, wantCmd)
	}
	var files []string
	for _, f := range req.Files {
		rel, err := filepath.Rel(mustAbs(t, ".."), f.HostFilePath)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, rel+" "+f.ContainerFilePath)
		if f.FileMode != 0o644 {
			t.Errorf("%s: mode %o", f.ContainerFilePath, f.FileMode)
		}
	}
	wantFiles := []string{
		"openapi.yaml /specs/1-openapi.yaml", "examples/tasks.yaml /specs/2-tasks.yaml",
		"testcontainers/testdata/board-busy.yaml /scenarios/board-busy.yaml", "scenarios/slow.yaml /scenarios/slow.yaml",
		"testcontainers/testdata/seed.json /seed-data.json",
	}
	if !slices.Equal(files, wantFiles) {
		t.Errorf("files %q, not %q", files, wantFiles)
	}
	if req.Env["PLANTMOCK_SEED"] != "7" {
		t.Errorf("environment %v", req.Env)
	}
	hs, ok := req.WaitingFor.(*wait.HTTPStrategy)
	if !ok || hs.String() != `HTTP GET request on port 4010 path "/__admin/health"` || !hs.StatusCodeMatcher(200) || hs.StatusCodeMatcher(503) {
		t.Errorf("waits for %v", req.WaitingFor)
	}

	if _, _, err := newRequest("plantmock:test", []testcontainers.ContainerCustomizer{WithFlag("--", "x")}); err == nil || err.Error() != "plantmock: WithFlag: no flag name" {
		t.Errorf("a flag without a name: %v", err)
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}
