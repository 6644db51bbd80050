package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPStdio starts plantmock mcp as an agent would, speaks MCP with
// the Go SDK's client on its standard input and output while its HTTP
// listener serves the client code's requests, and closes stdin, which
// stops it with 0.
func TestMCPStdio(t *testing.T) {
	cmd := exec.Command(plantmockBinary(t), "mcp", "--addr", "127.0.0.1:0", "--admin-token", "adm")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	t.Cleanup(func() {
		if !closed {
			cs.Close()
		}
	})
	// The start-up line goes to stderr: stdout is the protocol's.
	lines := bufio.NewReader(stderr)
	line, err := lines.ReadString('\n')
	m := listening.FindStringSubmatch(strings.TrimSpace(line))
	if err != nil || m == nil {
		t.Fatalf("start-up line %q (%v)", line, err)
	}
	logs := make(chan string, 1)
	go func() { b, _ := io.ReadAll(lines); logs <- string(b) }()
	req, _ := http.NewRequest("POST", m[2]+"/plants", strings.NewReader(`{"id":"x","name":"a"}`))
	req.Header.Set("Authorization", "Bearer t")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	call := func(name string, args any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res.Content[0].(*sdk.TextContent).Text, res.IsError
	}
	for _, c := range []struct {
		tool    string
		args    any
		want    string
		isError bool
	}{
		{"why_refused", nil, "Request 1, POST /plants (operation: POST /plants), was answered 400, error 40004.\n" +
			"Message: request body does not match the schema: id: expected integer, got string\n" +
			"Violations:\n- id: expected integer, got string (schema #/components/schemas/NewPlant/allOf/1/properties/id/type)", false},
		{"check_document", map[string]any{"document": "openapi: 3.1.0\ninfo: {title: Tiny, version: '1'}\npaths: {}\n"},
			"plantmock: Tiny 1 and scenarios first-call-fails, flaky, slow are fine\n", false},
		{"check_document", map[string]any{"document": "openapi: [3"}, "plantmock: the document cannot be served: ", true},
		// verify's own checks of its flags, as on the command line.
		{"verify_service", map[string]any{"target": m[2], "max_requests": -1},
			`{"error":"plantmock verify: --max-requests -1: want 0 or more; run plantmock verify --help\n","exit":2}`, true},
		{"verify_service", map[string]any{"target": m[2], "rate": "fast"},
			`{"error":"plantmock verify: --rate \"fast\": want N/s or N/m with N over 0, e.g. 10/s; run plantmock verify --help\n","exit":2}`, true},
	} {
		got, isErr := call(c.tool, c.args)
		if isErr != c.isError || !(got == c.want || c.isError && c.tool == "check_document" && strings.HasPrefix(got, c.want)) {
			t.Errorf("%s %v: error %v\n%s\nwant error %v\n%s", c.tool, c.args, isErr, got, c.isError, c.want)
		}
	}
	// A workflow run against the mock itself: the step's answer keeps
	// the document and its criteria; a description that is not one is
	// the tool's error.
	flows := "arazzo: 1.0.1\ninfo: {title: t, version: '1'}\nsourceDescriptions: [{name: store, url: openapi.yaml}]\n" +
		"workflows:\n- workflowId: plant\n  inputs: {type: object, properties: {name: {type: string}}}\n  steps:\n" +
		"  - stepId: create\n    operationId: createPlant\n    requestBody: {payload: {id: 7, name: $inputs.name}}\n" +
		"    successCriteria: [{condition: $statusCode == 200 && $response.body#/name == $inputs.name}]\n"
	got, isErr := call("run_workflow", map[string]any{"target": m[2], "workflows": flows, "inputs": map[string]any{"name": "Fern"}})
	if want := `{"exit":0,"failures":[],"notes":["source description store (openapi.yaml) is read as the document verify was given, (the served document): its url names another document than (the served document), whose operations the steps are looked up in"],"workflows":[{"ok":true,"steps":["create"],"workflowId":"plant"}]}`; isErr || got != want {
		t.Errorf("run_workflow: error %v\n%s\nwant\n%s", isErr, got, want)
	}
	got, isErr = call("run_workflow", map[string]any{"target": m[2], "workflows": "arazzo: [1"})
	if !isErr || !strings.HasPrefix(got, `{"error":"plantmock verify: the workflows: the Arazzo description is not YAML or JSON`) {
		t.Errorf("run_workflow of no description: error %v %s", isErr, got)
	}
	// A dry run of verify against the mock itself sends nothing and
	// keeps the document.
	got, isErr = call("verify_service", map[string]any{"target": m[2], "dry_run": true})
	if isErr || !strings.HasPrefix(got, `{"exit":0,"report":{`) {
		t.Errorf("verify --dry-run: error %v %.300s", isErr, got)
	}

	closed = true
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit code %d after stdin closed; stderr: %s", code, <-logs)
	}
}
