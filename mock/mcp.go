package mock

import (
	"cmp"
	"context"
	"io"
	"net/http"
	"sync"

	"github.com/plantmock/plantmock/mock/internal/mcp"
)

// MCPTools are the tools of the MCP endpoint that the command line
// gives: they load documents and send requests elsewhere, which the
// mock alone does not. A nil one is left out.
type MCPTools struct {
	// Check loads a document as plantmock check does, and returns what
	// it prints.
	Check func(ctx context.Context, document []byte, strict bool) (text string, err error)
	// Verify runs plantmock verify with args against the document, and
	// returns its exit code and what it printed.
	Verify func(ctx context.Context, args []string, document []byte) (exit int, stdout, stderr string)
	// Workflows runs plantmock verify with args and --workflows, the
	// Arazzo description workflows, against the document, and returns
	// its exit code and what it printed.
	Workflows func(ctx context.Context, args []string, document, workflows []byte) (exit int, stdout, stderr string)
	// MaxDocument bounds, in bytes, the proposed document diff_document
	// compares (plantmock's --max-spec); 0 is DefaultMaxSpecFile.
	MaxDocument int64
}

// mcpHandler makes the handler of /__admin/mcp over the admin API's
// calls, and keeps them for ServeMCP. The endpoint is made at its first
// call: a mock that is never asked pays nothing for it.
func mcpHandler(s *Server, tools MCPTools) func(http.Handler) http.Handler {
	return func(calls http.Handler) http.Handler {
		s.adminCalls = calls
		made := sync.OnceValue(func() http.Handler { return mcp.Handler(mcpOptions(calls, tools)) })
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { made().ServeHTTP(w, r) })
	}
}

func mcpOptions(calls http.Handler, tools MCPTools) mcp.Options {
	max := cmp.Or(tools.MaxDocument, DefaultMaxSpecFile)
	return mcp.Options{Calls: calls, Version: Version, Check: tools.Check, Verify: tools.Verify, Workflows: tools.Workflows, MaxDocument: max}
}

// ServeMCP speaks the Model Context Protocol for s on in and out, a
// command's standard input and output, until the client closes in or
// ctx ends: the tools of its admin API's MCP endpoint (/__admin/mcp),
// without its token. s must have been made with its admin API, which
// need not be served.
func ServeMCP(ctx context.Context, s *Server, tools MCPTools, in io.ReadCloser, out io.WriteCloser) error {
	return mcp.Serve(ctx, mcpOptions(s.adminCalls, tools), in, out)
}
