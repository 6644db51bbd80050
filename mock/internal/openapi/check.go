package openapi

import (
	"net/http"

	"github.com/pb33f/libopenapi-validator/config"
	"github.com/pb33f/libopenapi-validator/responses"
)

// CheckResponse validates a response to req with libopenapi-validator's
// response validator: the status must be declared, and the content type,
// body schema and headers must match its declaration. It consumes
// resp.Body. It is meant for tests and diagnostics, not the request path.
func (d *Document) CheckResponse(req *http.Request, resp *http.Response) []Violation {
	v := responses.NewResponseBodyValidator(d.model, config.WithExistingOpts(d.opts))
	ok, errs := v.ValidateResponseBody(req, resp)
	if ok {
		return nil
	}
	var out []Violation
	for _, e := range errs {
		reason := e.Message
		for _, s := range e.SchemaValidationErrors {
			reason += "; " + s.FieldPath + ": " + s.Reason
		}
		out = append(out, Violation{Path: "response", Reason: reason})
	}
	return out
}
