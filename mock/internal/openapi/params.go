package openapi

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
)

// ValidateParams checks the request's path, query, header and cookie
// parameters against the declared ones. raw are the path parameter values
// as they appear in the path (still percent-escaped), in template order.
func (o *Operation) ValidateParams(r *http.Request, raw []string) []Violation {
	if len(o.Params) == 0 {
		return nil
	}
	var out []Violation
	var query url.Values
	for i := range o.Params {
		p := &o.Params[i]
		where := p.In + "." + p.Name
		var text string
		present := false
		switch p.In {
		case "path":
			for j, n := range o.pathNames {
				if n == p.Name && j < len(raw) {
					u, err := url.PathUnescape(raw[j])
					if err != nil {
						out = append(out, Violation{Path: where, Reason: "malformed percent-escape"})
						continue
					}
					text, present = u, true
				}
			}
		case "query":
			if query == nil {
				query = r.URL.Query()
			}
			if vs, ok := query[p.Name]; ok {
				text, present = vs[0], true
			}
		case "header":
			if vs := r.Header.Values(p.Name); len(vs) > 0 {
				text, present = strings.Join(vs, ", "), true
			}
		case "cookie":
			if c, err := r.Cookie(p.Name); err == nil {
				text, present = c.Value, true
			}
		}
		if !present {
			if p.Required {
				out = append(out, Violation{Path: where, Reason: "required parameter is missing"})
			}
			continue
		}
		if p.Schema == nil {
			continue
		}
		v := coerce(text, p.Schema)
		for _, vi := range p.Schema.Validate(v) {
			vi.Path = joinParam(where, vi.Path)
			out = append(out, vi)
		}
	}
	sortViolations(out)
	return out
}

// coerce reads a parameter's text as the JSON value its schema expects.
func coerce(text string, s *Schema) any {
	if s.Is("string") {
		return text
	}
	if (s.Is("integer") || s.Is("number")) && validNumber(text) {
		return json.Number(text)
	}
	if s.Is("boolean") && (text == "true" || text == "false") {
		return text == "true"
	}
	return text
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
