package mcp_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/plantmock/plantmock/mock/internal/mcp"
)

// reply is what the stand-in admin API answers a call.
type reply struct {
	status int
	ct     string // its Content-Type; application/json when empty
	body   string
}

// admin stands in for the admin API's calls: it answers each "METHOD
// /path?query" from its table, 404 for the others, and keeps what it
// was asked.
type admin struct {
	answers map[string]reply

	mu    sync.Mutex // guards asked
	asked []string   // "METHOD /path?query session=S type=T body", in order
}

func (a *admin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	call := r.Method + " " + r.URL.RequestURI()
	a.mu.Lock()
	a.asked = append(a.asked, fmt.Sprintf("%s session=%s type=%s %s", call, r.Header.Get("X-Mock-Session"), r.Header.Get("Content-Type"), b))
	a.mu.Unlock()
	rep, ok := a.answers[call]
	if !ok {
		rep = reply{status: 404, body: `{"error":40400,"message":"no admin call ` + call + `"}`}
	}
	if rep.ct == "" {
		rep.ct = "application/json"
	}
	w.Header().Set("Content-Type", rep.ct)
	w.WriteHeader(rep.status)
	io.WriteString(w, rep.body)
}

// calls returns what the admin API was asked since the last time.
func (a *admin) calls() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := a.asked
	a.asked = nil
	return out
}

// connect connects the SDK's client to the server of o, in memory, and
// closes both at the end of the test.
func connect(tb testing.TB, o mcp.Options) *sdk.ClientSession {
	tb.Helper()
	ct, st := sdk.NewInMemoryTransports()
	ss, err := mcp.NewServer(o).Connect(context.Background(), st, nil)
	if err != nil {
		tb.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// callTool calls a tool and returns whether it failed and its one text.
func callTool(tb testing.TB, cs *sdk.ClientSession, name string, args any) (bool, string) {
	tb.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	if len(res.Content) != 1 {
		tb.Fatalf("%s: %d contents, want 1", name, len(res.Content))
	}
	text, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		tb.Fatalf("%s: a content of %T", name, res.Content[0])
	}
	return res.IsError, text.Text
}

// toolNames lists a server's tools, sorted.
func toolNames(tb testing.TB, cs *sdk.ClientSession) []string {
	tb.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		tb.Fatal(err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	return names
}

var adminTools = []string{"activate_scenario", "explain_request", "list_operations", "list_scenarios", "read_journal", "reset_scenario", "reset_session", "why_refused"}

// TestNewServer: the server names itself, lists the admin API's tools,
// the command line's where it gives them, and the two resources.
func TestNewServer(t *testing.T) {
	noop := func(context.Context, []string, []byte) (int, string, string) { return 0, "", "" }
	check := func(context.Context, []byte, bool) (string, error) { return "", nil }
	tests := []struct {
		name string
		o    mcp.Options
		want []string
	}{
		{"admin only", mcp.Options{Calls: &admin{}, Version: "1.2.3"}, adminTools},
		{"with check", mcp.Options{Calls: &admin{}, Version: "1.2.3", Check: check}, []string{"activate_scenario", "check_document", "explain_request", "list_operations", "list_scenarios", "read_journal", "reset_scenario", "reset_session", "why_refused"}},
		{"with verify", mcp.Options{Calls: &admin{}, Version: "1.2.3", Verify: noop}, []string{"activate_scenario", "explain_request", "list_operations", "list_scenarios", "read_journal", "reset_scenario", "reset_session", "verify_service", "why_refused"}},
		{"with workflows", mcp.Options{Calls: &admin{}, Version: "1.2.3", Workflows: func(context.Context, []string, []byte, []byte) (int, string, string) { return 0, "", "" }},
			[]string{"activate_scenario", "explain_request", "list_operations", "list_scenarios", "read_journal", "reset_scenario", "reset_session", "run_workflow", "why_refused"}},
		{"with diff", mcp.Options{Calls: &admin{}, Version: "1.2.3", MaxDocument: 1 << 20},
			[]string{"activate_scenario", "diff_document", "explain_request", "list_operations", "list_scenarios", "read_journal", "reset_scenario", "reset_session", "why_refused"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := connect(t, tt.o)
			if got := toolNames(t, cs); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("tools %v, want %v", got, tt.want)
			}
			init := cs.InitializeResult()
			if got := init.ServerInfo.Name + " " + init.ServerInfo.Version; got != "plantmock 1.2.3" {
				t.Errorf("server %s", got)
			}
			if !strings.HasPrefix(init.Instructions, "plantmock mocks an OpenAPI document.") {
				t.Errorf("instructions %q", init.Instructions)
			}
			res, err := cs.ListResources(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range res.Resources {
				got = append(got, r.URI+" "+r.Name+" "+r.MIMEType)
			}
			slices.Sort(got)
			if want := []string{"plantmock://contract contract application/json", "plantmock://document document application/yaml"}; !reflect.DeepEqual(got, want) {
				t.Errorf("resources %v, want %v", got, want)
			}
		})
	}
}

// TestAdminTools: each tool makes its admin call, in the session it is
// given, and answers what the call answered.
func TestAdminTools(t *testing.T) {
	entries := `{"requests":[{"seq":1,"status":400},{"seq":2,"status":400},{"seq":3,"status":400}]}`
	a := &admin{answers: map[string]reply{
		"GET /__admin/operations":             {status: 200, body: `{"operations":["GET /plants"]}`},
		"GET /__admin/operations?document=b":  {status: 200, body: `{"operations":["GET /b"]}`},
		"POST /__admin/explain":               {status: 200, body: `{"operation":"POST /plants","answer":"refused"}`},
		"GET /__admin/requests":               {status: 200, body: entries},
		"GET /__admin/requests?limit=2":       {status: 200, body: `{"requests":[{"seq":2},{"seq":3}]}`},
		"POST /__admin/requests/find":         {status: 200, body: entries},
		"GET /__admin/scenarios":              {status: 200, body: `{"scenarios":[{"name":"slow"}],"active":null}`},
		"PUT /__admin/scenario":               {status: 200, body: `{"active":"slow"}`},
		"GET /__admin/scenarios?document=ps1": {status: 200, body: `{"scenarios":[{"name":"slow"}],"active":null}`},
		"PUT /__admin/scenario?document=ps1":  {status: 200, body: `{"active":"slow"}`},
		"POST /__admin/reset":                 {status: 204},
	}}
	cs := connect(t, mcp.Options{Calls: a})
	tests := []struct {
		tool string
		args any
		call string // the admin call made
		want string // the tool's text
	}{
		{"list_operations", nil, "GET /__admin/operations session= type= ", `{"operations":["GET /plants"]}`},
		{"list_operations", map[string]any{"document": "b"}, "GET /__admin/operations?document=b session= type= ", `{"operations":["GET /b"]}`},
		{"explain_request", map[string]any{"method": "POST", "path": "/plants", "headers": map[string]string{"Authorization": "Bearer t"}, "body": map[string]any{"id": "x"}},
			`POST /__admin/explain session= type=application/json {"body":{"id":"x"},"headers":{"Authorization":"Bearer t"},"method":"POST","path":"/plants"}`,
			`{"operation":"POST /plants","answer":"refused"}`},
		{"explain_request", map[string]any{"method": "GET", "path": "/plants?limit=2"},
			`POST /__admin/explain session= type=application/json {"method":"GET","path":"/plants?limit=2"}`,
			`{"operation":"POST /plants","answer":"refused"}`},
		{"read_journal", nil, "GET /__admin/requests session= type= ", entries},
		{"read_journal", map[string]any{"limit": 2, "session": "s1"}, "GET /__admin/requests?limit=2 session=s1 type= ", `{"requests":[{"seq":2},{"seq":3}]}`},
		{"read_journal", map[string]any{"status": 400, "limit": 2},
			`POST /__admin/requests/find session= type=application/json {"status":400}`, `{"requests":[{"seq":2,"status":400},{"seq":3,"status":400}]}`},
		{"read_journal", map[string]any{"operation": "POST /plants", "direction": "inbound", "document": "a", "body": map[string]any{"id": "/x/"}, "limit": 5, "session": "s2"},
			`POST /__admin/requests/find session=s2 type=application/json {"body":{"id":"/x/"},"direction":"inbound","document":"a","operation":"POST /plants"}`, entries},
		{"list_scenarios", map[string]any{"session": "s1"}, "GET /__admin/scenarios session=s1 type= ", `{"scenarios":[{"name":"slow"}],"active":null}`},
		{"activate_scenario", map[string]any{"name": "slow", "session": "s1"}, `PUT /__admin/scenario session=s1 type=application/json {"name":"slow"}`, `{"active":"slow"}`},
		{"reset_scenario", map[string]any{"session": "s1"}, `PUT /__admin/scenario session=s1 type=application/json {"name":null}`, `{"active":"slow"}`},
		{"list_scenarios", map[string]any{"document": "ps1"}, "GET /__admin/scenarios?document=ps1 session= type= ", `{"scenarios":[{"name":"slow"}],"active":null}`},
		{"activate_scenario", map[string]any{"name": "slow", "document": "ps1"}, `PUT /__admin/scenario?document=ps1 session= type=application/json {"name":"slow"}`, `{"active":"slow"}`},
		{"reset_scenario", map[string]any{"document": "ps1"}, `PUT /__admin/scenario?document=ps1 session= type=application/json {"name":null}`, `{"active":"slow"}`},
		{"reset_session", nil, "POST /__admin/reset session= type= ", "done"},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			failed, got := callTool(t, cs, tt.tool, tt.args)
			if failed || got != tt.want {
				t.Errorf("%v: error %v, %s\nwant %s", tt.args, failed, got, tt.want)
			}
			if calls := a.calls(); len(calls) != 1 || calls[0] != tt.call {
				t.Errorf("%v: admin calls %q, want %q", tt.args, calls, tt.call)
			}
		})
	}
}

// TestAdminCallRefused: an admin call's refusal is the tool's error, in
// the admin API's words (its answer's text when it has no message),
// and an answer that does not read is an error too.
func TestAdminCallRefused(t *testing.T) {
	a := &admin{answers: map[string]reply{
		"PUT /__admin/scenario":         {status: 400, body: `{"error":40000,"message":"no scenario is named \"nope\""}`},
		"GET /__admin/operations":       {status: 500, ct: "text/plain", body: "  it broke \n"},
		"GET /__admin/requests?limit=1": {status: 401, body: `{"error":40102}`},
		"POST /__admin/requests/find":   {status: 200, body: `{"requests":`},
		"GET /__admin/requests":         {status: 200, body: `[]`},
	}}
	cs := connect(t, mcp.Options{Calls: a})
	tests := []struct {
		tool string
		args any
		want string
	}{
		{"activate_scenario", map[string]any{"name": "nope"}, `PUT /__admin/scenario answered 400: no scenario is named "nope"`},
		{"list_operations", nil, "GET /__admin/operations answered 500: it broke"},
		{"read_journal", map[string]any{"limit": 1}, `GET /__admin/requests answered 401: {"error":40102}`},
		{"read_journal", map[string]any{"status": 200}, "unexpected end of JSON input"},
		{"why_refused", nil, "json: cannot unmarshal array into Go value of type struct { Requests []mcp.refusal \"json:\\\"requests\\\"\" }"},
		{"explain_request", map[string]any{"path": "/plants"}, `validating "arguments": validating root: required: missing properties: ["method"]`},
	}
	for _, tt := range tests {
		failed, got := callTool(t, cs, tt.tool, tt.args)
		if !failed || got != tt.want {
			t.Errorf("%s %v: error %v, %q\nwant %q", tt.tool, tt.args, failed, got, tt.want)
		}
	}
}

// TestWhyRefused: why_refused says why the session's newest inbound
// request answered 400 or more was refused, as the dashboard words it.
func TestWhyRefused(t *testing.T) {
	tests := []struct {
		name, journal, want string
	}{
		{"none refused", `{"requests":[{"seq":1,"method":"GET","path":"/plants","status":200},{"seq":2,"direction":"outbound","status":500}]}`,
			"No request of this session was refused: the journal holds no answer of status 400 or more."},
		{"empty", `{"requests":[]}`, "No request of this session was refused: the journal holds no answer of status 400 or more."},
		{"a bad body", `{"requests":[{"seq":1,"method":"POST","path":"/plants","operation":"POST /plants","status":400,"code":40004,` +
			`"response":{"error":40004,"message":"request body does not match the schema: id: expected integer, got string"},` +
			`"violations":[{"path":"id","reason":"expected integer, got string","schema":"#/components/schemas/Plant/properties/id/type"},{"path":"","reason":"required property is missing"}]},` +
			`{"seq":2,"method":"GET","path":"/plants","status":200},{"seq":3,"direction":"outbound","status":500}]}`,
			"Request 1, POST /plants (operation: POST /plants), was answered 400, error 40004.\n" +
				"Message: request body does not match the schema: id: expected integer, got string\n" +
				"Violations:\n- id: expected integer, got string (schema #/components/schemas/Plant/properties/id/type)\n" +
				"- body: required property is missing"},
		{"no route, the code from the body, notes", `{"requests":[{"seq":4,"method":"GET","path":"/plants","status":401},{"seq":7,"method":"GET","path":"/nope","query":"a=1","status":404,` +
			`"response":{"error":40400,"message":"no operation at GET /nope"},"notes":["a near path: /plants"]}]}`,
			"Request 7, GET /nope?a=1 (operation: none matched), was answered 404, error 40400.\nMessage: no operation at GET /nope\nNote: a near path: /plants"},
		{"no error value", `{"requests":[{"seq":9,"method":"GET","path":"/x","operation":"GET /x","status":502,"response":{"error":0},"violations":[{"path":"response","reason":"status 502 is not declared","direction":"response"}]}]}`,
			"Request 9, GET /x (operation: GET /x), was answered 502.\nViolations:\n- response: status 502 is not declared"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &admin{answers: map[string]reply{"GET /__admin/requests": {status: 200, body: tt.journal}}}
			cs := connect(t, mcp.Options{Calls: a})
			failed, got := callTool(t, cs, "why_refused", map[string]any{"session": "s1"})
			if failed || got != tt.want {
				t.Errorf("error %v:\n%s\nwant\n%s", failed, got, tt.want)
			}
			if calls := a.calls(); len(calls) != 1 || calls[0] != "GET /__admin/requests session=s1 type= " {
				t.Errorf("admin calls %q", calls)
			}
		})
	}
}

// TestCheckDocument: check_document hands the document to Options.Check
// and answers its text, or its error.
func TestCheckDocument(t *testing.T) {
	var got []string
	check := func(_ context.Context, doc []byte, strict bool) (string, error) {
		got = append(got, fmt.Sprintf("%s strict=%v", doc, strict))
		if strings.Contains(string(doc), "swagger") {
			return "", errors.New("not OpenAPI 3")
		}
		return "2 operations, no mistakes", nil
	}
	a := &admin{}
	cs := connect(t, mcp.Options{Calls: a, Check: check})
	for _, tt := range []struct {
		args   map[string]any
		failed bool
		want   string
	}{
		{map[string]any{"document": "openapi: 3.1.0", "strict": true}, false, "2 operations, no mistakes"},
		{map[string]any{"document": "swagger: '2.0'"}, true, "not OpenAPI 3"},
	} {
		if failed, text := callTool(t, cs, "check_document", tt.args); failed != tt.failed || text != tt.want {
			t.Errorf("%v: error %v, %q, want %v %q", tt.args, failed, text, tt.failed, tt.want)
		}
	}
	if want := []string{"openapi: 3.1.0 strict=true", "swagger: '2.0' strict=false"}; !reflect.DeepEqual(got, want) {
		t.Errorf("checked %q, want %q", got, want)
	}
	if calls := a.calls(); len(calls) != 0 {
		t.Errorf("admin calls %q", calls)
	}
}

// TestVerifyService: verify_service runs Options.Verify with the flags
// of its input against the served document, and answers its exit code,
// report and errors; bad flags (exit 2) are the tool's error.
func TestVerifyService(t *testing.T) {
	type run struct {
		args []string
		doc  string
	}
	var runs []run
	verify := func(_ context.Context, args []string, doc []byte) (int, string, string) {
		runs = append(runs, run{args, string(doc)})
		if slices.Contains(args, "--rate") {
			return 2, "", "--rate: not N/s or N/m"
		}
		return 1, `{"ok":false,"operations":2}`, "one answer breaks the document"
	}
	a := &admin{answers: map[string]reply{
		"GET /__admin/document":            {status: 200, ct: "application/yaml", body: "openapi: 3.1.0\n"},
		"GET /__admin/document?document=b": {status: 200, ct: "application/yaml", body: "openapi: 3.0.3\n"},
	}}
	cs := connect(t, mcp.Options{Calls: a, Verify: verify})
	tests := []struct {
		args   map[string]any
		call   string
		failed bool
		want   string
		run    run
	}{
		{map[string]any{"target": "http://127.0.0.1:9/api"}, "GET /__admin/document session= type= ", false,
			`{"error":"one answer breaks the document","exit":1,"report":{"ok":false,"operations":2}}`,
			run{[]string{"--target", "http://127.0.0.1:9/api", "--format", "json"}, "openapi: 3.1.0\n"}},
		{map[string]any{"target": "http://h/api", "document": "b", "only": []string{"createPlant", "GET /plants"}, "skip": []string{"deletePlant"},
			"headers": []string{"X-A: 1"}, "credentials": []string{"bearer=t"}, "timeout": "5s", "no_destructive": true,
			"max_requests": 3, "seed": 7},
			"GET /__admin/document?document=b session= type= ", false,
			`{"error":"one answer breaks the document","exit":1,"report":{"ok":false,"operations":2}}`,
			run{[]string{"--target", "http://h/api", "--format", "json", "--only", "createPlant", "--only", "GET /plants", "--skip", "deletePlant",
				"--header", "X-A: 1", "--credential", "bearer=t", "--timeout", "5s", "--no-destructive", "--max-requests", "3", "--seed", "7"}, "openapi: 3.0.3\n"}},
		{map[string]any{"target": "http://h/api", "rate": "fast", "dry_run": true}, "GET /__admin/document session= type= ", true,
			`{"error":"--rate: not N/s or N/m","exit":2}`,
			run{[]string{"--target", "http://h/api", "--format", "json", "--rate", "fast", "--dry-run"}, "openapi: 3.1.0\n"}},
	}
	for _, tt := range tests {
		runs = nil
		failed, got := callTool(t, cs, "verify_service", tt.args)
		if failed != tt.failed || got != tt.want {
			t.Errorf("%v: error %v, %s\nwant %v %s", tt.args, failed, got, tt.failed, tt.want)
		}
		if len(runs) != 1 || !reflect.DeepEqual(runs[0], tt.run) {
			t.Errorf("%v: ran %q\nwant %q", tt.args, runs, tt.run)
		}
		if calls := a.calls(); len(calls) != 1 || calls[0] != tt.call {
			t.Errorf("%v: admin calls %q, want %q", tt.args, calls, tt.call)
		}
	}

	// Flags whose order the input does not fix: each given once.
	runs = nil
	callTool(t, cs, "verify_service", map[string]any{"target": "http://h", "duration": "30s", "auth": "bearer t", "timeout": "1s", "no_destructive": true, "assert_formats": true})
	if len(runs) != 1 {
		t.Fatalf("ran %d times", len(runs))
	}
	args := runs[0].args
	if len(args) != 12 || !reflect.DeepEqual(args[:4], []string{"--target", "http://h", "--format", "json"}) {
		t.Fatalf("args %q", args)
	}
	var rest []string
	for i := 4; i < len(args); i++ {
		if strings.HasPrefix(args[i], "--") && i+1 < len(args) && !strings.HasPrefix(args[i+1], "--") {
			rest = append(rest, args[i]+" "+args[i+1])
			i++
		} else {
			rest = append(rest, args[i])
		}
	}
	slices.Sort(rest)
	if want := []string{"--assert-formats", "--auth bearer t", "--duration 30s", "--no-destructive", "--timeout 1s"}; !reflect.DeepEqual(rest, want) {
		t.Errorf("flags %q, want %q", rest, want)
	}

	a.answers["GET /__admin/document?document=c"] = reply{status: 404, body: `{"error":40400,"message":"no document is named \"c\""}`}
	runs = nil
	if failed, got := callTool(t, cs, "verify_service", map[string]any{"target": "http://h", "document": "c"}); !failed || got != `GET /__admin/document answered 404: no document is named "c"` {
		t.Errorf("an unknown document: error %v, %q", failed, got)
	}
	if len(runs) != 0 {
		t.Errorf("verify ran without a document: %q", runs)
	}
}

// TestRunWorkflow: run_workflow runs Options.Workflows with the flags
// of its input and the description it is given against the served
// document, and answers the exit code and the workflows' part of the
// report; a description with mistakes (exit 2) is the tool's error.
func TestRunWorkflow(t *testing.T) {
	type run struct {
		args       []string
		doc, flows string
	}
	var runs []run
	workflows := func(_ context.Context, args []string, doc, flows []byte) (int, string, string) {
		runs = append(runs, run{args, string(doc), string(flows)})
		if string(flows) == "nope" {
			return 2, "", "the workflows: not YAML"
		}
		return 1, `{"ok":false,"operations":2,"workflows":[{"workflowId":"w","ok":false,"steps":["s"],"step":"s","rule":"criterion","line":9}],` +
			`"failures":[{"rule":"criterion","workflow":"w","step":"s"}],"notes":["read as the served document"]}`, ""
	}
	a := &admin{answers: map[string]reply{
		"GET /__admin/document":            {status: 200, ct: "application/yaml", body: "openapi: 3.1.0\n"},
		"GET /__admin/document?document=b": {status: 200, ct: "application/yaml", body: "openapi: 3.0.3\n"},
	}}
	cs := connect(t, mcp.Options{Calls: a, Workflows: workflows})
	tests := []struct {
		args   map[string]any
		call   string
		failed bool
		want   string
		run    run
	}{
		{map[string]any{"target": "http://127.0.0.1:9/api", "workflows": "arazzo: 1.0.1"}, "GET /__admin/document session= type= ", false,
			`{"exit":1,"failures":[{"rule":"criterion","step":"s","workflow":"w"}],"notes":["read as the served document"],"workflows":[{"line":9,"ok":false,"rule":"criterion","step":"s","steps":["s"],"workflowId":"w"}]}`,
			run{[]string{"--target", "http://127.0.0.1:9/api", "--format", "json"}, "openapi: 3.1.0\n", "arazzo: 1.0.1"}},
		{map[string]any{"target": "http://h", "workflows": "arazzo: 1.1.0", "document": "b", "inputs": map[string]any{"title": "Fern", "count": "2"},
			"headers": []string{"X-A: 1"}, "credentials": []string{"key=k"}, "seed": 7},
			"GET /__admin/document?document=b session= type= ", false,
			`{"exit":1,"failures":[{"rule":"criterion","step":"s","workflow":"w"}],"notes":["read as the served document"],"workflows":[{"line":9,"ok":false,"rule":"criterion","step":"s","steps":["s"],"workflowId":"w"}]}`,
			run{[]string{"--target", "http://h", "--format", "json", "--header", "X-A: 1", "--credential", "key=k", "--seed", "7", "--input", "count=2", "--input", "title=Fern"}, "openapi: 3.0.3\n", "arazzo: 1.1.0"}},
		{map[string]any{"target": "http://h", "workflows": "nope"}, "GET /__admin/document session= type= ", true,
			`{"error":"the workflows: not YAML","exit":2}`,
			run{[]string{"--target", "http://h", "--format", "json"}, "openapi: 3.1.0\n", "nope"}},
	}
	for _, tt := range tests {
		runs = nil
		failed, got := callTool(t, cs, "run_workflow", tt.args)
		if failed != tt.failed || got != tt.want {
			t.Errorf("%v: error %v, %s\nwant %v %s", tt.args, failed, got, tt.failed, tt.want)
		}
		if len(runs) != 1 || !reflect.DeepEqual(runs[0], tt.run) {
			t.Errorf("%v: ran %q\nwant %q", tt.args, runs, tt.run)
		}
		if calls := a.calls(); len(calls) != 1 || calls[0] != tt.call {
			t.Errorf("%v: admin calls %q, want %q", tt.args, calls, tt.call)
		}
	}
}

// TestResources: the resources are the answers of their admin calls,
// with their type; a refused call is an error.
func TestResources(t *testing.T) {
	a := &admin{answers: map[string]reply{
		"GET /__admin/document": {status: 200, ct: "application/yaml", body: "openapi: 3.1.0\n"},
		"GET /__admin/contract": {status: 200, body: `{"operations":[]}`},
	}}
	cs := connect(t, mcp.Options{Calls: a})
	tests := []struct{ uri, call, mime, text string }{
		{mcp.DocumentURI, "GET /__admin/document session= type= ", "application/yaml", "openapi: 3.1.0\n"},
		{mcp.ContractURI, "GET /__admin/contract session= type= ", "application/json", `{"operations":[]}`},
	}
	for _, tt := range tests {
		res, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: tt.uri})
		if err != nil {
			t.Fatalf("%s: %v", tt.uri, err)
		}
		if len(res.Contents) != 1 || res.Contents[0].URI != tt.uri || res.Contents[0].MIMEType != tt.mime || res.Contents[0].Text != tt.text {
			t.Errorf("%s: %+v, want %s %q", tt.uri, res.Contents[0], tt.mime, tt.text)
		}
		if calls := a.calls(); len(calls) != 1 || calls[0] != tt.call {
			t.Errorf("%s: admin calls %q, want %q", tt.uri, calls, tt.call)
		}
	}
	a.answers["GET /__admin/contract"] = reply{status: 500, body: `{"error":50000,"message":"the contract broke"}`}
	_, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: mcp.ContractURI})
	if err == nil || err.Error() != `calling "resources/read": GET /__admin/contract answered 500: the contract broke` {
		t.Errorf("a refused read: %v", err)
	}
}

// TestCallsInProcess: the admin calls are made in the process, from
// loopback to localhost, as the admin API's guard lets through.
func TestCallsInProcess(t *testing.T) {
	var got string
	calls := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = fmt.Sprintf("%s %s host=%s from=%s", r.Method, r.URL, r.Host, r.RemoteAddr)
		w.WriteHeader(204)
	})
	cs := connect(t, mcp.Options{Calls: calls})
	if failed, text := callTool(t, cs, "reset_session", nil); failed || text != "done" {
		t.Errorf("reset_session: %v %q", failed, text)
	}
	if want := "POST http://localhost/__admin/reset host=localhost from=127.0.0.1:0"; got != want {
		t.Errorf("the call: %s, want %s", got, want)
	}
}

// TestHandler: the endpoint speaks Streamable HTTP, stateless, each
// answer JSON, and leaves the Host to the admin API's guard.
func TestHandler(t *testing.T) {
	a := &admin{answers: map[string]reply{"GET /__admin/operations": {status: 200, body: `{"operations":[]}`}}}
	ts := httptest.NewServer(mcp.Handler(mcp.Options{Calls: a, Version: "9"}))
	defer ts.Close()
	client := ts.Client()
	defer client.CloseIdleConnections()

	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(),
		&sdk.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: client, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := toolNames(t, cs); !reflect.DeepEqual(got, adminTools) {
		t.Errorf("tools %v", got)
	}
	if failed, got := callTool(t, cs, "list_operations", nil); failed || got != `{"operations":[]}` {
		t.Errorf("list_operations: %v %s", failed, got)
	}

	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(initialize))
	req.Host = "evil.example"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" || resp.Header.Get("Mcp-Session-Id") != "" ||
		!strings.Contains(string(body), `"serverInfo":{"name":"plantmock","version":"9"}`) {
		t.Errorf("initialize for another host: %d %q %q %s", resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Mcp-Session-Id"), body)
	}
}

// TestServe: Serve speaks MCP on a reader and a writer until the client
// closes its end, or until ctx ends, and then returns nil.
func TestServe(t *testing.T) {
	for _, end := range []string{"client closes", "ctx ends"} {
		t.Run(end, func(t *testing.T) {
			a := &admin{answers: map[string]reply{"GET /__admin/scenarios": {status: 200, body: `{"scenarios":[],"active":null}`}}}
			toServer, fromClient := io.Pipe()
			toClient, fromServer := io.Pipe()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			served := make(chan error, 1)
			go func() { served <- mcp.Serve(ctx, mcp.Options{Calls: a}, toServer, fromServer) }()

			cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(),
				&sdk.IOTransport{Reader: toClient, Writer: fromClient}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if failed, got := callTool(t, cs, "list_scenarios", nil); failed || got != `{"scenarios":[],"active":null}` {
				t.Errorf("list_scenarios: %v %s", failed, got)
			}
			if end == "ctx ends" {
				cancel()
				if err := <-served; err != nil {
					t.Errorf("Serve: %v", err)
				}
				cs.Close()
				return
			}
			cs.Close()
			if err := <-served; err != nil {
				t.Errorf("Serve: %v", err)
			}
		})
	}
}

// discard is an output that drops what is written.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
func (discard) Close() error                { return nil }

// TestServeNotJSON: input that is not JSON-RPC ends Serve with the
// error.
func TestServeNotJSON(t *testing.T) {
	err := mcp.Serve(context.Background(), mcp.Options{Calls: &admin{}}, io.NopCloser(strings.NewReader("garbage\n")), discard{})
	if err == nil || err.Error() != "invalid character 'g' looking for beginning of value" {
		t.Errorf("Serve: %v", err)
	}
}
