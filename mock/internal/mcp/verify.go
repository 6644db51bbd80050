package mcp

import (
	"context"
	"encoding/json"
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
		"It sends real requests to target, under the same rules as the command line's."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in VerifyInput) (*sdk.CallToolResult, VerifyOutput, error) {
			doc, _, err := c.call(ctx, "GET", "/__admin/document"+query("document", in.Document), "", nil)
			if err != nil {
				return nil, VerifyOutput{}, err
			}
			exit, out, errs := verify(ctx, in.args(), doc)
			o := VerifyOutput{Exit: exit, Error: errs}
			json.Unmarshal([]byte(out), &o.Report)
			return &sdk.CallToolResult{IsError: exit == 2}, o, nil
		})
}
