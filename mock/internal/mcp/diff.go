package mcp

import (
	"context"
	"errors"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/plantmock/plantmock/mock/diff"
)

// DiffInput is diff_document's: a proposed new version of the served
// document.
type DiffInput struct {
	Proposed string `json:"proposed" jsonschema:"the proposed new version of the served OpenAPI document, YAML or JSON text"`
	Document string `json:"document,omitempty" jsonschema:"where the mock serves several documents, the name of the one to compare with"`
}

// DiffOutput is what diff_document found, as plantmock diff --format
// json writes it.
type DiffOutput struct {
	Old     string        `json:"old" jsonschema:"the served document: its name, where the mock serves several"`
	New     string        `json:"new" jsonschema:"the proposed document"`
	Changes []diff.Change `json:"changes" jsonschema:"each change: its rule, level (breaks-clients, breaks-providers, compatible), side, operation, where it is in the served (old) and proposed (new) documents, and its reason"`
}

// The names the report gives the two documents.
const (
	servedName   = "the served document"
	proposedName = "the proposed document"
)

// addDiff adds diff_document, which compares the served document with
// a proposed one of at most max bytes.
func addDiff(s *sdk.Server, c caller, max int64) {
	sdk.AddTool(s, &sdk.Tool{Name: "diff_document", Description: "Compare the served document with a proposed new version of it, as plantmock diff does, without changing what is served: " +
		"each change with whom it breaks (clients, providers, or neither), its rule and its place in both documents, and a summary line.",
		Annotations: readOnly},
		func(ctx context.Context, _ *sdk.CallToolRequest, in DiffInput) (*sdk.CallToolResult, DiffOutput, error) {
			if int64(len(in.Proposed)) > max {
				return nil, DiffOutput{}, fmt.Errorf("the proposed document is %d bytes, over the largest the mock reads (%d bytes)", len(in.Proposed), max)
			}
			served, err := c.document(ctx, in.Document)
			if err != nil {
				return nil, DiffOutput{}, err
			}
			old := servedName
			if in.Document != "" {
				old += " " + in.Document
			}
			rep, err := diff.Compare(served, []byte(in.Proposed))
			var le *diff.LoadError
			switch {
			case errors.As(err, &le) && le.New:
				return nil, DiffOutput{}, fmt.Errorf("the proposed document cannot be loaded: %v", le.Err)
			case err != nil:
				return nil, DiffOutput{}, fmt.Errorf("%s cannot be loaded: %v", old, err)
			}
			out := DiffOutput{Old: old, New: proposedName, Changes: rep.Changes}
			if out.Changes == nil {
				out.Changes = []diff.Change{}
			}
			return textResult(rep.Summary(old, proposedName)), out, nil
		})
}
