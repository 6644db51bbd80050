package openapi

import (
	"net/http"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/wire"
)

// ValidateParams checks the request's path, query, header and cookie
// parameters against the declared ones, each read by its style. raw are
// the path parameter values as they appear in the path (still
// percent-escaped), in template order.
func (o *Operation) ValidateParams(r *http.Request, raw []string) []Violation {
	if len(o.Params) == 0 {
		return nil
	}
	var buf [8]wire.Value
	vals := o.wire.Decode(buf[:0], r, func(name string) (string, bool) {
		for j, n := range o.pathNames {
			if n == name && j < len(raw) {
				return raw[j], true
			}
		}
		return "", false
	})
	var out []Violation
	for i, v := range vals {
		p := &o.Params[i]
		where := p.In + "." + p.Name
		switch {
		case v.Err != nil:
			out = append(out, wireViolation(v.Err))
			continue
		case !v.Present:
			if p.Required {
				out = append(out, Violation{Path: where, Reason: "required parameter is missing"})
			}
			continue
		}
		s := p.Schema
		if p.Content != nil {
			s = p.Content.Schema
		}
		for _, vi := range s.ValidateRequest(v.Value) {
			vi.Path = joinParam(where, vi.Path)
			out = append(out, vi)
		}
	}
	sortViolations(out)
	return out
}

func joinParam(where, inner string) string {
	switch {
	case inner == "":
		return where
	case strings.HasPrefix(inner, "["):
		return where + inner
	}
	return where + "." + inner
}
