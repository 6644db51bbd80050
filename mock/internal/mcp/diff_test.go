package mcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/plantmock/plantmock/mock/internal/mcp"
)

// servedDoc is the document the stand-in admin API serves, and a
// proposed version that cuts a name to 20 characters and removes the
// delete.
const (
	servedDoc = `openapi: 3.1.0
info: {title: Greenhouse, version: '1'}
paths:
  /plants:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, required: [name], properties: {name: {type: string, maxLength: 40}}}
      responses:
        '201': {description: added}
  /plants/{plantId}:
    delete:
      parameters: [{name: plantId, in: path, required: true, schema: {type: string}}]
      responses:
        '204': {description: removed}
`
	proposedDoc = `openapi: 3.1.0
info: {title: Greenhouse, version: '2'}
paths:
  /plants:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, required: [name], properties: {name: {type: string, maxLength: 20}}}
      responses:
        '201': {description: added}
`
)

// TestDiffDocument: diff_document compares the served document (the
// one named, with several) with the proposed one: the changes as
// plantmock diff --format json gives them, and its summary line as
// text; a proposed document that does not load, one over the bound and
// a document the mock does not serve are the tool's errors.
func TestDiffDocument(t *testing.T) {
	a := &admin{answers: map[string]reply{
		"GET /__admin/document":            {status: 200, ct: "application/yaml", body: servedDoc},
		"GET /__admin/document?document=b": {status: 200, ct: "application/yaml", body: proposedDoc},
		"GET /__admin/document?document=c": {status: 404, body: `{"error":40400,"message":"document=c names no document the mock serves; documents: a, b"}`},
	}}
	cs := connect(t, mcp.Options{Calls: a, MaxDocument: int64(len(servedDoc))})
	tests := []struct {
		name   string
		args   map[string]any
		call   string // the admin call made, "" for none
		failed bool
		text   string
		out    string // the structured output, "" for none
	}{
		{"changes", map[string]any{"proposed": proposedDoc}, "GET /__admin/document session= type= ", false,
			"2 changes from the served document to the proposed document: 2 break clients, 0 break providers, 0 compatible",
			`{"changes":[` +
				`{"level":"breaks-clients","new":{"line":10,"pointer":"/paths/~1plants/post/requestBody/content/application~1json/schema/properties/name/maxLength"},` +
				`"old":{"line":10,"pointer":"/paths/~1plants/post/requestBody/content/application~1json/schema/properties/name/maxLength"},` +
				`"operation":"POST /plants","reason":"request body (application/json) property name: maxLength went from 40 to 20; a request OLD accepted may be refused",` +
				`"rule":"request-property-max-length-decreased","side":"request"},` +
				`{"level":"breaks-clients","old":{"line":15,"pointer":"/paths/~1plants~1{plantId}/delete"},"operation":"DELETE /plants/{plantId}",` +
				`"reason":"NEW no longer declares DELETE /plants/{plantId}: a client of OLD that calls it is refused","rule":"operation-removed","side":"document"}],` +
				`"new":"the proposed document","old":"the served document"}`},
		{"no change", map[string]any{"proposed": proposedDoc, "document": "b"}, "GET /__admin/document?document=b session= type= ", false,
			"no changes from the served document b to the proposed document",
			`{"changes":[],"new":"the proposed document","old":"the served document b"}`},
		{"not OpenAPI", map[string]any{"proposed": "title: notes\n"}, "GET /__admin/document session= type= ", true,
			"the proposed document cannot be loaded: not an OpenAPI document: no openapi field", ""},
		{"unknown document", map[string]any{"proposed": proposedDoc, "document": "c"}, "GET /__admin/document?document=c session= type= ", true,
			"GET /__admin/document answered 404: document=c names no document the mock serves; documents: a, b", ""},
		{"over the bound", map[string]any{"proposed": servedDoc + " "}, "", true,
			"the proposed document is 502 bytes, over the largest the mock reads (501 bytes)", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "diff_document", Arguments: tt.args})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Content) != 1 {
				t.Fatalf("%d contents, want 1", len(res.Content))
			}
			text := res.Content[0].(*sdk.TextContent).Text
			if res.IsError != tt.failed || text != tt.text {
				t.Errorf("error %v, %q\nwant %v %q", res.IsError, text, tt.failed, tt.text)
			}
			out := ""
			if res.StructuredContent != nil {
				b, err := json.Marshal(res.StructuredContent)
				if err != nil {
					t.Fatal(err)
				}
				out = string(b)
			}
			if out != tt.out {
				t.Errorf("structured output:\n%s\nwant\n%s", out, tt.out)
			}
			calls := a.calls()
			if want := tt.call; strings.Join(calls, "\n") != want {
				t.Errorf("admin calls %q, want %q", calls, want)
			}
		})
	}
}
