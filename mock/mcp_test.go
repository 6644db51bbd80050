package mock

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// withToken sends the admin token with every request.
type withToken struct{ token string }

func (w withToken) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+w.token)
	return http.DefaultTransport.RoundTrip(r)
}

// mcpSession connects the Go SDK's client to the mock's /__admin/mcp.
func mcpSession(t *testing.T, url string) *sdk.ClientSession {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url + "/__admin/mcp",
		HTTPClient: &http.Client{Transport: withToken{"adm"}}, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// callTool calls a tool and returns its text, failing on a tool error.
func callTool(t *testing.T, cs *sdk.ClientSession, name string, args any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError || len(res.Content) != 1 {
		t.Fatalf("%s: error %v, %d contents", name, res.IsError, len(res.Content))
	}
	return res.Content[0].(*sdk.TextContent).Text
}

// TestMCP connects the Go SDK's client to /__admin/mcp over a loopback
// listener: it lists the admin API's tools and those of MCPTools, and
// its tools read the mock's own state (mock/internal/mcp tests each
// tool's answers).
func TestMCP(t *testing.T) {
	var verified []string
	tools := MCPTools{
		Check: func(_ context.Context, doc []byte, strict bool) (string, error) {
			return "checked " + string(doc) + " strict=" + map[bool]string{true: "yes", false: "no"}[strict], nil
		},
		Verify: func(_ context.Context, args []string, doc []byte) (int, string, string) {
			verified = append(args, string(doc))
			return 1, `{"ok":false}`, "one answer breaks the document"
		},
	}
	s, ts := newTestServer(t, Options{Admin: AdminOptions{Token: "adm", MCP: tools}})
	cs := mcpSession(t, ts.URL)
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	want := []string{"activate_scenario", "check_document", "diff_document", "explain_request", "list_operations", "list_scenarios", "read_journal", "reset_scenario", "reset_session", "verify_service", "why_refused"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}

	send(t, ts, post(`{"id":"x"}`))
	wantWhy := "Request 1, POST /plants (operation: POST /plants), was answered 400, error 40004.\n" +
		"Message: request body does not match the schema: id: expected integer, got string; name: required property is missing\n" +
		"Violations:\n- id: expected integer, got string (schema #/components/schemas/NewPlant/allOf/1/properties/id/type)\n" +
		"- name: required property is missing (schema #/components/schemas/Plant/required)"
	if got := callTool(t, cs, "why_refused", nil); got != wantWhy {
		t.Errorf("why_refused:\n%s\nwant\n%s", got, wantWhy)
	}
	// The words are the journal's violations as the dashboard writes them.
	for _, v := range s.Journal()[0].Violations {
		if !strings.Contains(wantWhy, "- "+v.String()) {
			t.Errorf("why_refused lacks %q", v.String())
		}
	}
	if got := callTool(t, cs, "check_document", map[string]any{"document": "openapi: 3.1.0", "strict": true}); got != "checked openapi: 3.1.0 strict=yes" {
		t.Errorf("check_document: %s", got)
	}
	if got, want := callTool(t, cs, "verify_service", map[string]any{"target": "http://127.0.0.1:9/api"}),
		`{"error":"one answer breaks the document","exit":1,"report":{"ok":false}}`; got != want {
		t.Errorf("verify_service: %s, want %s", got, want)
	}
	doc := callAdmin(t, ts, adminDoc(t), adminCall{name: "document", method: "GET", path: "/__admin/document", header: map[string]string{"Authorization": "Bearer adm"}, status: 200})
	if want := []string{"--target", "http://127.0.0.1:9/api", "--format", "json", doc}; !reflect.DeepEqual(verified, want) {
		t.Errorf("verified %.200q, want the served document", verified)
	}
	if got, want := callTool(t, cs, "diff_document", map[string]any{"proposed": doc}),
		"no changes from the served document to the proposed document"; got != want {
		t.Errorf("diff_document: %s, want %s", got, want)
	}
}

// TestMCPMaxDocument: MCPTools.MaxDocument (plantmock's --max-spec)
// bounds the proposed document of diff_document, which is refused past
// it as the tool's error.
func TestMCPMaxDocument(t *testing.T) {
	_, ts := newTestServer(t, Options{Admin: AdminOptions{Token: "adm", MCP: MCPTools{MaxDocument: 64}}})
	cs := mcpSession(t, ts.URL)
	proposed := "openapi: 3.1.0\ninfo: {title: Plant Store, version: '2'}\npaths: {}\n# " + strings.Repeat("x", 20) + "\n"
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "diff_document", Arguments: map[string]any{"proposed": proposed}})
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("the proposed document is %d bytes, over the largest the mock reads (64 bytes)", len(proposed))
	if !res.IsError || len(res.Content) != 1 || res.Content[0].(*sdk.TextContent).Text != want {
		t.Errorf("diff_document: error %v, %v; want the error %q", res.IsError, res.Content, want)
	}
}

// TestMCPGuarded checks that /__admin/mcp is behind the admin token and
// the admin API's Host and origin rules.
func TestMCPGuarded(t *testing.T) {
	_, ts := newTestServer(t, Options{Admin: AdminOptions{Token: "adm"}})
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	with := func(kv ...string) map[string]string {
		h := map[string]string{"Accept": "application/json, text/event-stream"}
		for i := 0; i < len(kv); i += 2 {
			h[kv[i]] = kv[i+1]
		}
		return h
	}
	for _, c := range []struct {
		name   string
		header map[string]string
		status int
		want   string
	}{
		{"no token", with(), 401, `{"error":40102,"message":"the admin API needs \"Authorization: Bearer <admin token>\""}`},
		{"wrong token", with("Authorization", "Bearer api"), 401, `{"error":40102,"message":"the admin API needs \"Authorization: Bearer <admin token>\""}`},
		{"another origin", with("Authorization", "Bearer adm", "Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site"), 403,
			`{"error":40300,"message":"the admin API does not answer pages of other origins (http://evil.example); allow one with --admin-cors ORIGIN"}`},
		{"another host", with("Authorization", "Bearer adm", "Host", "evil.example"), 403,
			`{"error":40300,"message":"the admin API does not answer calls to host \"evil.example\": use the mock's address or localhost, or allow that name with --allowed-host (this keeps DNS rebinding out)"}`},
	} {
		req, _ := http.NewRequest("POST", ts.URL+"/__admin/mcp", strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		for k, v := range c.header {
			req.Header.Set(k, v)
		}
		if h := c.header["Host"]; h != "" {
			req.Host = h
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || string(got) != c.want {
			t.Errorf("%s: %d %s, want %d %s", c.name, resp.StatusCode, got, c.status, c.want)
		}
	}
}
