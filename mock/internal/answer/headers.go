package answer

import (
	"encoding/hex"
	"net/http"
	"strings"
	"time"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// respHeader is a response header the document requires, and how the
// mock fills it: with a value fixed at start, or one made per answer for
// headers that name the answer (a request id, a date).
type respHeader struct {
	Name  string
	fixed string
	fresh func(s *Answerer, x *Turn) string // nil for a fixed value
}

// Value returns the header's value for an answer.
func (h *respHeader) Value(s *Answerer, x *Turn) string {
	if h.fresh != nil {
		return h.fresh(s, x)
	}
	return h.fixed
}

// newRespHeader works out how to fill a required response header: by its
// name where the name says what it holds, else from its schema.
func newRespHeader(h openapi.Header) respHeader {
	out := respHeader{Name: h.Name}
	sch := h.Schema
	plain := sch == nil || len(sch.Enum) == 0 && !sch.HasConst && sch.Pattern == "" && (len(sch.Types) == 0 || sch.Is("string"))
	name := strings.ToLower(h.Name)
	switch {
	case plain && (sch == nil || sch.Format == "" || sch.Format == "uuid") && isRequestID(name):
		out.fresh = func(s *Answerer, x *Turn) string { return x.Fake(s).UUID() }
	case plain && (name == "date" || name == "last-modified" || name == "expires") && (sch == nil || sch.Format == ""):
		out.fresh = func(*Answerer, *Turn) string { return time.Now().UTC().Format(http.TimeFormat) }
	case plain && sch != nil && sch.Format == "date-time":
		out.fresh = func(*Answerer, *Turn) string { return time.Now().UTC().Truncate(time.Second).Format(time.RFC3339) }
	case plain && (sch == nil || sch.Format == "") && name == "etag":
		f := gen.Faker(uint64(len(name)), 0)
		out.fixed = `"` + hex.EncodeToString([]byte(f.LetterN(8))) + `"`
	case plain && (sch == nil || sch.Format == "") && name == "content-language":
		out.fixed = "en"
	default:
		out.fixed = SchemaHeaderValue(sch)
	}
	return out
}

// isRequestID reports whether a header name says it identifies the
// answer or its request.
func isRequestID(name string) bool {
	name = strings.TrimPrefix(name, "x-")
	switch name {
	case "request-id", "requestid", "correlation-id", "trace-id", "amzn-requestid", "amz-request-id", "response-id", "span-id":
		return true
	}
	return false
}

// SchemaHeaderValue makes up a fixed value for a header from its schema.
func SchemaHeaderValue(s *openapi.Schema) string {
	v := gen.Value(s, gen.Faker(1, 0))
	if str, ok := v.(string); ok {
		return str
	}
	return string(jsonx.Marshal(v))
}
