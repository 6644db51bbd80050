package pipeline

import (
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// OperationInfo is an operation with its examples, as GET
// /__admin/operations lists it.
type OperationInfo struct {
	// Operation is "METHOD /path/template", the base path the document
	// is mounted at in front.
	Operation string `json:"operation"`
	ID        string `json:"operationId,omitempty"`
	Document  string `json:"document,omitempty"` // where the mock serves several
	// Request is the request body's media types; none for an
	// operation that takes no body.
	Request   []MediaExamples    `json:"request,omitempty"`
	Responses []ResponseExamples `json:"responses"`
}

// ResponseExamples is a declared response and its media types.
type ResponseExamples struct {
	Status  string          `json:"status"` // "200", "4XX" or "default"
	Content []MediaExamples `json:"content,omitempty"`
}

// MediaExamples is a media type and its examples.
type MediaExamples struct {
	Type string `json:"type"`
	// Example is the media type's example, or its first named one.
	Example  any            `json:"example,omitempty"`
	Examples map[string]any `json:"examples,omitempty"`
}

// Operations lists the operations of sv, or of every document for nil,
// in the documents' order.
func (m *Mounts) Operations(sv *Served) []OperationInfo {
	out := []OperationInfo{}
	docs := m.Docs
	if sv != nil {
		docs = []*Served{sv}
	}
	for _, d := range docs {
		for _, op := range d.Doc.Operations {
			o := OperationInfo{Operation: d.OperationName(op), ID: op.ID, Responses: []ResponseExamples{}}
			if m.Several() {
				o.Document = d.Name
			}
			if op.Body != nil {
				o.Request = mediaExamples(op.Body.Content)
			}
			resps := op.Responses
			if op.Default != nil {
				resps = append(resps[:len(resps):len(resps)], op.Default)
			}
			for _, r := range resps {
				o.Responses = append(o.Responses, ResponseExamples{Status: r.Status, Content: mediaExamples(r.Content)})
			}
			out = append(out, o)
		}
	}
	return out
}

func mediaExamples(ms []*openapi.Media) []MediaExamples {
	out := make([]MediaExamples, len(ms))
	for i, m := range ms {
		out[i] = MediaExamples{Type: m.Type, Examples: m.Examples}
		if m.HasExample {
			out[i].Example = m.Example
		}
	}
	return out
}
