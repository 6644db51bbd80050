package mcp

import (
	"context"
	"encoding/json"
	"sort"
	"strconv"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// VerifyInput is verify_service's: the flags of plantmock verify that
// neither read nor write files. The document is the served one.
type VerifyInput struct {
	Target        string   `json:"target" jsonschema:"base URL of the service to verify, e.g. http://127.0.0.1:8080/api"`
	Document      string   `json:"document,omitempty" jsonschema:"where the mock serves several documents, the name of the one to verify against"`
	Only          []string `json:"only,omitempty" jsonschema:"verify only these operations, by operationId or as METHOD /path"`
	Skip          []string `json:"skip,omitempty" jsonschema:"leave out these operations"`
	NoDestructive bool     `json:"no_destructive,omitempty" jsonschema:"leave out DELETE, PUT and PATCH operations"`
	DryRun        bool     `json:"dry_run,omitempty" jsonschema:"list the requests without sending them"`
	MaxRequests   int      `json:"max_requests,omitempty" jsonschema:"stop after this many requests"`
	Rate          string   `json:"rate,omitempty" jsonschema:"at most this many requests, as N/s or N/m"`
	Duration      string   `json:"duration,omitempty" jsonschema:"stop once this much time has passed, e.g. 30s"`
	Seed          *uint64  `json:"seed,omitempty" jsonschema:"seed of the generated values"`
	Timeout       string   `json:"timeout,omitempty" jsonschema:"longest an answer may take, e.g. 5s"`
	AssertFormats bool     `json:"assert_formats,omitempty" jsonschema:"hold the service to formats"`
	Headers       []string `json:"headers,omitempty" jsonschema:"'NAME: VALUE' sent with every request"`
	Credentials   []string `json:"credentials,omitempty" jsonschema:"credentials of one security scheme, each written SCHEME=VALUE"`
	Auth          string   `json:"auth,omitempty" jsonschema:"credentials sent with every request, as 'bearer TOKEN' or 'basic USER:PASSWORD'"`
}

// args are the flags of plantmock verify the input stands for.
func (in VerifyInput) args() []string {
	a := []string{"--target", in.Target, "--format", "json"}
	for _, o := range in.Only {
		a = append(a, "--only", o)
	}
	for _, o := range in.Skip {
		a = append(a, "--skip", o)
	}
	for _, h := range in.Headers {
		a = append(a, "--header", h)
	}
	for _, c := range in.Credentials {
		a = append(a, "--credential", c)
	}
	for flag, v := range map[string]string{"--rate": in.Rate, "--duration": in.Duration, "--timeout": in.Timeout, "--auth": in.Auth} {
		if v != "" {
			a = append(a, flag, v)
		}
	}
	for flag, on := range map[string]bool{"--no-destructive": in.NoDestructive, "--dry-run": in.DryRun, "--assert-formats": in.AssertFormats} {
		if on {
			a = append(a, flag)
		}
	}
	if in.MaxRequests != 0 {
		a = append(a, "--max-requests", strconv.Itoa(in.MaxRequests))
	}
	if in.Seed != nil {
		a = append(a, "--seed", strconv.FormatUint(*in.Seed, 10))
	}
	return a
}

// VerifyOutput is what plantmock verify gave.
type VerifyOutput struct {
	// Exit is its exit code: 0 every answer keeps the document, 1 one
	// breaks it or the service did not answer, 2 bad flags.
	Exit   int    `json:"exit"`
	Report any    `json:"report,omitempty" jsonschema:"the report, as plantmock verify --format json writes it"`
	Error  string `json:"error,omitempty"`
}

func addVerify(s *sdk.Server, c caller, verify func(ctx context.Context, args []string, document []byte) (int, string, string)) {
	sdk.AddTool(s, &sdk.Tool{Name: "verify_service", Description: "Run plantmock verify: send the service at target requests for every operation of the served document and judge its answers. " +
		"It sends real requests to target, under the same rules as the command line's.", Annotations: sendsRequests},
		func(ctx context.Context, _ *sdk.CallToolRequest, in VerifyInput) (*sdk.CallToolResult, VerifyOutput, error) {
			doc, err := c.document(ctx, in.Document)
			if err != nil {
				return nil, VerifyOutput{}, err
			}
			exit, out, errs := verify(ctx, in.args(), doc)
			o := VerifyOutput{Exit: exit, Error: errs}
			json.Unmarshal([]byte(out), &o.Report)
			return &sdk.CallToolResult{IsError: exit == 2}, o, nil
		})
}

// WorkflowInput is run_workflow's: the Arazzo description itself (the
// tool reads no file) and the flags of plantmock verify --workflows
// that neither read nor write files. The document is the served one.
type WorkflowInput struct {
	Target      string            `json:"target" jsonschema:"base URL of the service to run the workflows against, e.g. http://127.0.0.1:8080/api"`
	Workflows   string            `json:"workflows" jsonschema:"the Arazzo 1.0 or 1.1 description, YAML or JSON text"`
	Inputs      map[string]string `json:"inputs,omitempty" jsonschema:"the workflows' inputs by name, each read as JSON where it is, unless the input's schema says string"`
	Document    string            `json:"document,omitempty" jsonschema:"where the mock serves several documents, the name of the one whose operations the steps call"`
	Seed        *uint64           `json:"seed,omitempty" jsonschema:"seed of the generated values"`
	Timeout     string            `json:"timeout,omitempty" jsonschema:"longest an answer may take, e.g. 5s"`
	Headers     []string          `json:"headers,omitempty" jsonschema:"'NAME: VALUE' sent with every request"`
	Credentials []string          `json:"credentials,omitempty" jsonschema:"credentials of one security scheme, each written SCHEME=VALUE"`
	Auth        string            `json:"auth,omitempty" jsonschema:"credentials sent with every request, as 'bearer TOKEN' or 'basic USER:PASSWORD'"`
}

// args are the flags of plantmock verify the input stands for, but
// --workflows, which the runner adds for the description it is given:
// inputs in the order of their names.
func (in WorkflowInput) args() []string {
	v := VerifyInput{Target: in.Target, Seed: in.Seed, Timeout: in.Timeout, Headers: in.Headers, Credentials: in.Credentials, Auth: in.Auth}
	a := v.args()
	names := make([]string, 0, len(in.Inputs))
	for n := range in.Inputs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		a = append(a, "--input", n+"="+in.Inputs[n])
	}
	return a
}

// WorkflowOutput is what plantmock verify --workflows gave: the part of
// its report about the workflows.
type WorkflowOutput struct {
	// Exit is its exit code: 0 every workflow succeeded and every answer
	// keeps the document, 1 not, 2 bad flags or a description with
	// mistakes.
	Exit      int    `json:"exit"`
	Workflows any    `json:"workflows,omitempty" jsonschema:"each workflow run: workflowId, ok, the steps run, and where one failed its step, rule, reason and line in the description"`
	Failures  any    `json:"failures,omitempty" jsonschema:"the failures of the steps' answers, each with its workflow and step"`
	Notes     any    `json:"notes,omitempty" jsonschema:"which document the source descriptions were read as"`
	Error     string `json:"error,omitempty"`
}

func addWorkflows(s *sdk.Server, c caller, run func(ctx context.Context, args []string, document, workflows []byte) (int, string, string)) {
	sdk.AddTool(s, &sdk.Tool{Name: "run_workflow", Description: "Run plantmock verify --workflows: run the workflows of an Arazzo description against the service at target, " +
		"each step's answer judged by the served document, and say how each workflow went. " +
		"It sends real requests to target, under the same rules as the command line's.", Annotations: sendsRequests},
		func(ctx context.Context, _ *sdk.CallToolRequest, in WorkflowInput) (*sdk.CallToolResult, WorkflowOutput, error) {
			doc, err := c.document(ctx, in.Document)
			if err != nil {
				return nil, WorkflowOutput{}, err
			}
			exit, out, errs := run(ctx, in.args(), doc, []byte(in.Workflows))
			o := WorkflowOutput{Exit: exit, Error: errs}
			var rep struct {
				Workflows, Failures, Notes any
			}
			if json.Unmarshal([]byte(out), &rep) == nil {
				o.Workflows, o.Failures, o.Notes = rep.Workflows, rep.Failures, rep.Notes
			}
			return &sdk.CallToolResult{IsError: exit == 2}, o, nil
		})
}
