package mcp_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/plantmock/plantmock/mock/internal/mcp"
)

// allTools is a server with every tool.
func allTools() mcp.Options {
	noop := func(context.Context, []string, []byte) (int, string, string) { return 0, "", "" }
	return mcp.Options{Calls: &admin{}, Version: "1",
		Check:       func(context.Context, []byte, bool) (string, error) { return "", nil },
		Verify:      noop,
		Workflows:   func(context.Context, []string, []byte, []byte) (int, string, string) { return 0, "", "" },
		MaxDocument: 1 << 20,
	}
}

// hints writes a tool's annotations as the client reads them, the
// defaults of the specification filled in (destructive and open world
// when not said).
func hints(a *sdk.ToolAnnotations) string {
	if a == nil {
		return "none"
	}
	destructive, open := true, true
	if a.DestructiveHint != nil {
		destructive = *a.DestructiveHint
	}
	if a.OpenWorldHint != nil {
		open = *a.OpenWorldHint
	}
	return fmt.Sprintf("readOnly=%t destructive=%t idempotent=%t openWorld=%t", a.ReadOnlyHint, destructive, a.IdempotentHint, open)
}

// TestToolAnnotations: each tool says whether it changes anything, and
// the two that send requests to a service say they reach outside the
// mock and may delete there.
func TestToolAnnotations(t *testing.T) {
	const (
		reads   = "readOnly=true destructive=true idempotent=false openWorld=false"
		sets    = "readOnly=false destructive=false idempotent=true openWorld=false"
		empties = "readOnly=false destructive=true idempotent=true openWorld=false"
		sends   = "readOnly=false destructive=true idempotent=false openWorld=true"
	)
	want := map[string]string{
		"check_document":    reads,
		"diff_document":     reads,
		"list_operations":   reads,
		"explain_request":   reads,
		"read_journal":      reads,
		"why_refused":       reads,
		"list_scenarios":    reads,
		"activate_scenario": sets,
		"reset_scenario":    sets,
		"reset_session":     empties,
		"verify_service":    sends,
		"run_workflow":      sends,
	}
	cs := connect(t, allTools())
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tl := range list.Tools {
		got[tl.Name] = hints(tl.Annotations)
	}
	for name, w := range want {
		t.Run(name, func(t *testing.T) {
			if got[name] != w {
				t.Errorf("%s: %s, want %s", name, got[name], w)
			}
		})
	}
	if len(got) != len(want) {
		t.Errorf("%d tools, want %d: %v", len(got), len(want), got)
	}
}

// TestCapabilities: the server advertises tools and resources, lists
// that do not change, and nothing else; the methods of what it does not
// advertise are not found.
func TestCapabilities(t *testing.T) {
	cs := connect(t, allTools())
	caps := cs.InitializeResult().Capabilities
	want := &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}, Resources: &sdk.ResourceCapabilities{}}
	if !reflect.DeepEqual(caps, want) {
		t.Errorf("capabilities %+v, want %+v", caps, want)
	}
	ctx := context.Background()
	calls := []struct {
		name string
		call func() error
	}{
		{"prompts/list", func() error { _, err := cs.ListPrompts(ctx, nil); return err }},
		{"prompts/get", func() error { _, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "x"}); return err }},
		{"logging/setLevel", func() error {
			//lint:ignore SA1019 the deprecated method is called to see it refused
			return cs.SetLoggingLevel(ctx, &sdk.SetLoggingLevelParams{Level: "info"})
		}},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			var je *jsonrpc.Error
			if !errors.As(err, &je) || je.Code != jsonrpc.CodeMethodNotFound {
				t.Errorf("%s: %v, want method not found (%d)", c.name, err, jsonrpc.CodeMethodNotFound)
			}
		})
	}
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Errorf("tools/list: %v", err)
	}
}
