// Package mcp is the mock's endpoint for coding agents: a Model Context
// Protocol server whose tools answer what the admin API's calls answer,
// by making those calls in the process, and that runs check and verify
// where the command line gives them.
package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/plantmock/plantmock/mock/internal/journal"
)

// Options are what the endpoint reads and runs.
type Options struct {
	// Calls answers the admin API's calls, past its guard and token.
	Calls   http.Handler
	Version string
	// Check loads a document as plantmock check does and says what it
	// says; nil leaves the tool out.
	Check func(ctx context.Context, document []byte, strict bool) (text string, err error)
	// Verify runs plantmock verify with args against document; nil
	// leaves the tool out.
	Verify func(ctx context.Context, args []string, document []byte) (exit int, stdout, stderr string)
	// Workflows runs plantmock verify with args and --workflows, the
	// Arazzo description workflows, against document; nil leaves the
	// tool out.
	Workflows func(ctx context.Context, args []string, document, workflows []byte) (exit int, stdout, stderr string)
	// MaxDocument bounds the proposed document diff_document compares
	// with the served one, in bytes: the largest document the mock
	// reads. 0 leaves the tool out.
	MaxDocument int64
}

// NewServer returns the MCP server of the options: its tools and
// resources.
func NewServer(o Options) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "plantmock", Version: o.Version}, &sdk.ServerOptions{
		Instructions: "plantmock mocks an OpenAPI document. These tools read and drive the running mock through its admin API: " +
			"list its operations, explain a request before sending it, read the journal, ask why the last request was refused, " +
			"switch scenarios and reset sessions, and compare a proposed version of the document with the served one.",
		Capabilities: served,
	})
	s.AddReceivingMiddleware(refuseUnserved)
	c := caller{o.Calls}
	c.addTools(s)
	if o.Check != nil {
		sdk.AddTool(s, &sdk.Tool{Name: "check_document", Description: "Load an OpenAPI document (YAML or JSON text) as plantmock check does, without serving it: the mistakes that would be left out and the caveats of serving it.",
			Annotations: readOnly},
			func(ctx context.Context, _ *sdk.CallToolRequest, in CheckInput) (*sdk.CallToolResult, any, error) {
				text, err := o.Check(ctx, []byte(in.Document), in.Strict)
				if err != nil {
					return nil, nil, err
				}
				return textResult(text), nil, nil
			})
	}
	if o.Verify != nil {
		addVerify(s, c, o.Verify)
	}
	if o.Workflows != nil {
		addWorkflows(s, c, o.Workflows)
	}
	if o.MaxDocument > 0 {
		addDiff(s, c, o.MaxDocument)
	}
	c.addResources(s)
	return s
}

// served is what the server advertises: tools and resources, whose
// lists never change while it runs. Without it the SDK would advertise
// logging, which the server never sends.
var served = &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}, Resources: &sdk.ResourceCapabilities{}}

// refuseUnserved answers the methods of capabilities the server does
// not advertise (prompts, logging) as methods not found, which the SDK
// would otherwise answer with an empty list or take in silence.
func refuseUnserved(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		switch method {
		case "prompts/list", "prompts/get", "logging/setLevel":
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "plantmock serves no " + method}
		}
		return next(ctx, method, req)
	}
}

// The tools' annotations, which tell an agent what a call may change.
// The admin API's tools act on the mock alone (a closed world); verify
// and workflows send real requests to a service, creates and deletes
// among them.
var (
	// readOnly changes nothing.
	readOnly = &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}
	// setsMock changes the mock's session, the same way each time it
	// is called with the same arguments, and deletes nothing.
	setsMock = &sdk.ToolAnnotations{DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(false)}
	// emptiesMock deletes the session's resources and journal.
	emptiesMock = &sdk.ToolAnnotations{DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)}
	// sendsRequests sends requests that may create, change and delete
	// a service's resources.
	sendsRequests = &sdk.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(true)}
)

func ptr(b bool) *bool { return &b }

// Handler returns the endpoint over Streamable HTTP: stateless, each
// answer JSON. The admin API's own guard decides which Host and origin
// may call it, so the SDK's guard of localhost is left off.
func Handler(o Options) http.Handler {
	s := NewServer(o)
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s },
		&sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true, DisableLocalhostProtection: true})
}

// Serve speaks MCP on in and out (a command's standard input and
// output) until the client closes in or ctx ends.
func Serve(ctx context.Context, o Options, in io.ReadCloser, out io.WriteCloser) error {
	err := NewServer(o).Run(ctx, &sdk.IOTransport{Reader: in, Writer: out})
	if errors.Is(err, io.EOF) || ctx.Err() != nil {
		return nil
	}
	return err
}

// caller makes admin calls in the process.
type caller struct{ h http.Handler }

// document returns the served document as it was read (GET
// /__admin/document): the one named name where several are served,
// "" for the only or first one.
func (c caller) document(ctx context.Context, name string) ([]byte, error) {
	doc, _, err := c.call(ctx, "GET", "/__admin/document"+query("document", name), "", nil)
	return doc, err
}

// call makes an admin call and returns its answer's body; an answer of
// 400 or more is an error with the admin API's message.
func (c caller) call(ctx context.Context, method, path, session string, body any) ([]byte, string, error) {
	var rd io.Reader = http.NoBody
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, "", err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://localhost"+path, rd)
	if err != nil {
		return nil, "", err
	}
	req.RemoteAddr = "127.0.0.1:0"
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if session != "" {
		req.Header.Set("X-Mock-Session", session)
	}
	w := httptest.NewRecorder()
	c.h.ServeHTTP(w, req)
	if w.Code >= 400 {
		var e struct{ Message string }
		if json.Unmarshal(w.Body.Bytes(), &e) != nil || e.Message == "" {
			e.Message = strings.TrimSpace(w.Body.String())
		}
		return nil, "", fmt.Errorf("%s %s answered %d: %s", method, strings.SplitN(path, "?", 2)[0], w.Code, e.Message)
	}
	return w.Body.Bytes(), w.Header().Get("Content-Type"), nil
}

// jsonCall makes an admin call whose answer is JSON, as a tool's result.
func (c caller) jsonCall(ctx context.Context, method, path, session string, body any) (*sdk.CallToolResult, any, error) {
	b, _, err := c.call(ctx, method, path, session, body)
	if err != nil {
		return nil, nil, err
	}
	if len(b) == 0 { // 204
		return textResult("done"), nil, nil
	}
	return nil, json.RawMessage(b), nil
}

func textResult(text string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}
}

// query writes the query of an admin call, its empty values left out.
func query(kv ...string) string {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			q.Set(kv[i], kv[i+1])
		}
	}
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}

// Session names the session a tool is about.
type Session struct {
	Session string `json:"session,omitempty" jsonschema:"the X-Mock-Session of the session; none for the default one"`
}

// OperationsInput is list_operations'.
type OperationsInput struct {
	Document string `json:"document,omitempty" jsonschema:"where the mock serves several documents, the name of one"`
}

// ExplainInput is explain_request's: a request as the client would send it.
type ExplainInput struct {
	Method  string            `json:"method" jsonschema:"the request's method, e.g. POST"`
	Path    string            `json:"path" jsonschema:"the path and query, e.g. /plants?limit=2"`
	Headers map[string]string `json:"headers,omitempty" jsonschema:"the request's headers, Authorization and X-Mock-Session included"`
	Body    any               `json:"body,omitempty" jsonschema:"the body: JSON, or a string sent as it is"`
}

// JournalInput is read_journal's: the filters of GET /__admin/requests
// and POST /__admin/requests/find.
type JournalInput struct {
	Session   string `json:"session,omitempty" jsonschema:"the X-Mock-Session of the session; none for the default one"`
	Limit     int    `json:"limit,omitempty" jsonschema:"only the newest N entries"`
	Operation string `json:"operation,omitempty" jsonschema:"METHOD /path/template of the document, or webhook NAME"`
	Status    int    `json:"status,omitempty" jsonschema:"the answer's status"`
	Direction string `json:"direction,omitempty" jsonschema:"inbound or outbound"`
	Document  string `json:"document,omitempty" jsonschema:"the name of the document that answered"`
	Body      any    `json:"body,omitempty" jsonschema:"a JSON subset of the request body; strings may be /regex/"`
}

// ScenarioInput is activate_scenario's.
type ScenarioInput struct {
	Session  string `json:"session,omitempty" jsonschema:"the X-Mock-Session of the session; none for the default one"`
	Name     string `json:"name" jsonschema:"the scenario's name, as list_scenarios gives it"`
	Document string `json:"document,omitempty" jsonschema:"with several documents, the one whose scenario it is, alone; none for every document that loads the name"`
}

// ScenariosInput is list_scenarios' and reset_scenario's.
type ScenariosInput struct {
	Session  string `json:"session,omitempty" jsonschema:"the X-Mock-Session of the session; none for the default one"`
	Document string `json:"document,omitempty" jsonschema:"with several documents, the one to list or reset alone; none for every document"`
}

// CheckInput is check_document's.
type CheckInput struct {
	Document string `json:"document" jsonschema:"the OpenAPI document, YAML or JSON text"`
	Strict   bool   `json:"strict,omitempty" jsonschema:"refuse a document with mistakes, as --strict does"`
}

func (c caller) addTools(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{Name: "list_operations", Description: "The operations the mock serves, METHOD /path, with the examples of their request bodies and responses (GET /__admin/operations).", Annotations: readOnly},
		func(ctx context.Context, _ *sdk.CallToolRequest, in OperationsInput) (*sdk.CallToolResult, any, error) {
			return c.jsonCall(ctx, "GET", "/__admin/operations"+query("document", in.Document), "", nil)
		})
	sdk.AddTool(s, &sdk.Tool{Name: "explain_request", Description: "How the mock would answer a request, without sending it: the operation it matches, its checks in order, and the refusal (status, error, message, violations) or where the answer comes from. Nothing is stored or journaled (POST /__admin/explain).", Annotations: readOnly},
		func(ctx context.Context, _ *sdk.CallToolRequest, in ExplainInput) (*sdk.CallToolResult, any, error) {
			body := map[string]any{"method": in.Method, "path": in.Path}
			if in.Headers != nil {
				body["headers"] = in.Headers
			}
			if in.Body != nil {
				body["body"] = in.Body
			}
			return c.jsonCall(ctx, "POST", "/__admin/explain", "", body)
		})
	sdk.AddTool(s, &sdk.Tool{Name: "read_journal", Description: "The requests the mock received and the webhooks it sent, oldest first, filtered as GET /__admin/requests and POST /__admin/requests/find filter them.", Annotations: readOnly},
		func(ctx context.Context, _ *sdk.CallToolRequest, in JournalInput) (*sdk.CallToolResult, any, error) {
			return c.journal(ctx, in)
		})
	sdk.AddTool(s, &sdk.Tool{Name: "why_refused", Description: "Why the mock refused the session's last refused request, in the words the dashboard shows: the request, its status and error value, the message and each violation.", Annotations: readOnly},
		func(ctx context.Context, _ *sdk.CallToolRequest, in Session) (*sdk.CallToolResult, any, error) {
			text, err := c.whyRefused(ctx, in.Session)
			if err != nil {
				return nil, nil, err
			}
			return textResult(text), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "list_scenarios", Description: "The scenarios the mock loaded, as they were written, and the session's active one (GET /__admin/scenarios).", Annotations: readOnly},
		func(ctx context.Context, _ *sdk.CallToolRequest, in ScenariosInput) (*sdk.CallToolResult, any, error) {
			return c.jsonCall(ctx, "GET", "/__admin/scenarios"+query("document", in.Document), in.Session, nil)
		})
	sdk.AddTool(s, &sdk.Tool{Name: "activate_scenario", Description: "Make a scenario the session's active one (PUT /__admin/scenario).", Annotations: setsMock},
		func(ctx context.Context, _ *sdk.CallToolRequest, in ScenarioInput) (*sdk.CallToolResult, any, error) {
			return c.jsonCall(ctx, "PUT", "/__admin/scenario"+query("document", in.Document), in.Session, map[string]any{"name": in.Name})
		})
	sdk.AddTool(s, &sdk.Tool{Name: "reset_scenario", Description: "Leave the session without an active scenario (PUT /__admin/scenario with name null).", Annotations: setsMock},
		func(ctx context.Context, _ *sdk.CallToolRequest, in ScenariosInput) (*sdk.CallToolResult, any, error) {
			return c.jsonCall(ctx, "PUT", "/__admin/scenario"+query("document", in.Document), in.Session, map[string]any{"name": nil})
		})
	sdk.AddTool(s, &sdk.Tool{Name: "reset_session", Description: "Empty the session's resources and journal and restart its rule counters (POST /__admin/reset).", Annotations: emptiesMock},
		func(ctx context.Context, _ *sdk.CallToolRequest, in Session) (*sdk.CallToolResult, any, error) {
			return c.jsonCall(ctx, "POST", "/__admin/reset", in.Session, nil)
		})
}

// journal reads the journal: GET /__admin/requests without a filter,
// else POST /__admin/requests/find, then the newest limit entries.
func (c caller) journal(ctx context.Context, in JournalInput) (*sdk.CallToolResult, any, error) {
	m := map[string]any{}
	for k, v := range map[string]string{"operation": in.Operation, "direction": in.Direction, "document": in.Document} {
		if v != "" {
			m[k] = v
		}
	}
	if in.Status != 0 {
		m["status"] = in.Status
	}
	if in.Body != nil {
		m["body"] = in.Body
	}
	if len(m) == 0 {
		return c.jsonCall(ctx, "GET", "/__admin/requests"+query("limit", limit(in.Limit)), in.Session, nil)
	}
	b, _, err := c.call(ctx, "POST", "/__admin/requests/find", in.Session, m)
	if err != nil {
		return nil, nil, err
	}
	var found struct {
		Requests []json.RawMessage `json:"requests"`
	}
	if err := json.Unmarshal(b, &found); err != nil {
		return nil, nil, err
	}
	if in.Limit > 0 && in.Limit < len(found.Requests) {
		found.Requests = found.Requests[len(found.Requests)-in.Limit:]
	}
	return nil, found, nil
}

func limit(n int) string {
	if n <= 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// refusal is what why_refused reads of a journal entry.
type refusal struct {
	Seq        uint64              `json:"seq"`
	Method     string              `json:"method"`
	Path       string              `json:"path"`
	Query      string              `json:"query"`
	Operation  string              `json:"operation"`
	Status     int                 `json:"status"`
	Code       int                 `json:"code"`
	Response   json.RawMessage     `json:"response"`
	Violations []journal.Violation `json:"violations"`
	Notes      []string            `json:"notes"`
	Direction  string              `json:"direction"`
}

// whyRefused finds the session's newest inbound entry answered 400 or
// more and says why, as the dashboard shows it: the request, the
// status, the error value, the answer's message and each violation
// ("path: reason").
func (c caller) whyRefused(ctx context.Context, session string) (string, error) {
	b, _, err := c.call(ctx, "GET", "/__admin/requests", session, nil)
	if err != nil {
		return "", err
	}
	var j struct {
		Requests []refusal `json:"requests"`
	}
	if err := json.Unmarshal(b, &j); err != nil {
		return "", err
	}
	for i := len(j.Requests) - 1; i >= 0; i-- {
		if e := j.Requests[i]; e.Direction == "" && e.Status >= 400 {
			return e.words(), nil
		}
	}
	return "No request of this session was refused: the journal holds no answer of status 400 or more.", nil
}

// words says why an entry was refused.
func (e refusal) words() string {
	var sb strings.Builder
	target := e.Path
	if e.Query != "" {
		target += "?" + e.Query
	}
	op := e.Operation
	if op == "" {
		op = "none matched"
	}
	fmt.Fprintf(&sb, "Request %d, %s %s (operation: %s), was answered %d", e.Seq, e.Method, target, op, e.Status)
	var body struct {
		Error   json.Number `json:"error"`
		Message string      `json:"message"`
	}
	json.Unmarshal(e.Response, &body)
	code := strconv.Itoa(e.Code)
	if e.Code == 0 {
		code = body.Error.String()
	}
	if code != "" && code != "0" {
		fmt.Fprintf(&sb, ", error %s", code)
	}
	sb.WriteString(".\n")
	if body.Message != "" {
		fmt.Fprintf(&sb, "Message: %s\n", body.Message)
	}
	if len(e.Violations) > 0 {
		sb.WriteString("Violations:\n")
		for _, v := range e.Violations {
			fmt.Fprintf(&sb, "- %s", v)
			if v.Schema != "" {
				fmt.Fprintf(&sb, " (schema %s)", v.Schema)
			}
			sb.WriteString("\n")
		}
	}
	for _, n := range e.Notes {
		fmt.Fprintf(&sb, "Note: %s\n", n)
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

// Resources' URIs.
const (
	DocumentURI = "plantmock://document"
	ContractURI = "plantmock://contract"
)

func (c caller) addResources(s *sdk.Server) {
	s.AddResource(&sdk.Resource{URI: DocumentURI, Name: "document", Title: "The served OpenAPI document", MIMEType: "application/yaml",
		Description: "The document the mock serves, as it was read (GET /__admin/document); with several, the first is named by ?document=NAME"},
		c.resource("/__admin/document"))
	s.AddResource(&sdk.Resource{URI: ContractURI, Name: "contract", Title: "The contract report", MIMEType: "application/json",
		Description: "Per operation, the exchanges seen and the ways they broke the document (GET /__admin/contract)"},
		c.resource("/__admin/contract"))
}

// resource reads a resource from an admin call; a query on the URI is
// passed on (?document=NAME).
func (c caller) resource(path string) sdk.ResourceHandler {
	return func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		uri := req.Params.URI
		q := ""
		if i := strings.IndexByte(uri, '?'); i >= 0 {
			q = uri[i:]
		}
		b, ct, err := c.call(ctx, "GET", path+q, "", nil)
		if err != nil {
			return nil, err
		}
		return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: ct, Text: string(b)}}}, nil
	}
}
