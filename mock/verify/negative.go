package verify

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// undeclaredType is the media type of the body that no operation
// declares (unless by a range that admits it).
const undeclaredType = "application/x-plantmock-undeclared"

// invalid is one invalid request: its name, what is wrong with it, and
// how it is made from a valid one (false when it cannot be).
type invalid struct {
	name string
	why  openapi.Violation
	// scheme is the security scheme whose credentials the request
	// leaves out or breaks, nil for other mistakes; it is sent only
	// where no security alternative is then met. alt is the security
	// alternative the request presents before that.
	scheme *openapi.SecurityScheme
	alt    openapi.Requirement
	// lacks, for a credential of scheme that holds too few scopes, are
	// the scopes it lacks of those the operation asks (see
	// scopeMistakes); nil otherwise.
	lacks []string
	// wrong is set for credentials of scheme that no service issued
	// (see wrongCredentials): they meet no alternative that needs the
	// scheme, an API key's too.
	wrong bool
	// param is true for a parameter's mistake, made from the call with
	// its optional parameters too, and sent only where the operation's
	// own decoder then finds the parameters invalid.
	param bool
	// from is the call the request is made from when it is not the
	// valid one (a parameter's value changed), nil otherwise. keywords,
	// for a parameter's value, are the schema keywords it breaks: it is
	// sent only where the operation's own decoder finds it wrong by those
	// alone.
	from     *exercise.Call
	keywords []string
	mutate   func(req *http.Request, body []byte) ([]byte, bool)
}

// negative sends op one invalid request per class of mistake, each made
// from c (with its optional parameters too), and judges the answers:
// each must be refused.
func (r *runner) negative(ctx context.Context, c *exercise.Call) error {
	op := c.Op
	all := c.WithOptional()
	var ins []invalid
	ins = append(ins, bodyMistakes(c)...)
	ins = append(ins, nestedMistakes(all)...)
	ins = append(ins, bodyItemMistakes(all)...)
	ins = append(ins, streamMistakes(c)...)
	ins = append(ins, paramMistakes(all)...)
	ins = append(ins, valueMistakes(c)...)
	ins = append(ins, styleMistakes(all)...)
	ins = append(ins, r.credentialMistakes(c)...)
	ins = append(ins, r.scopeMistakes(c)...)
	for _, in := range ins {
		base := c
		if in.param {
			base = all
		}
		if in.from != nil {
			base = in.from
		}
		alt := r.alternative(base)
		if in.alt != nil {
			alt = in.alt
		}
		req, body, err := r.prepareAs(base, alt)
		if err != nil {
			continue // the positive checks said why
		}
		body, ok := in.mutate(req, body)
		if !ok {
			continue
		}
		if in.param {
			if r.routed(req) != op {
				continue // a changed path parameter that routes elsewhere
			}
			vs := op.ValidateParams(req, r.pathValues(req))
			if len(vs) == 0 {
				continue // the mistake reads as valid (an object exploded into its properties)
			}
			if _, ok := brokenBy(vs, in.why.Path, in.keywords); in.keywords != nil && !ok {
				continue // the value reads otherwise as written (a path that routes elsewhere, say)
			}
		}
		if in.scheme != nil && !in.refusable(op, req) {
			continue // another alternative is met: by credentials the options give, say
		}
		if _, err := r.send(ctx, op, "negative", in.name, req, body, r.judgeNegative(op, in.why, in.scheme != nil)); err != nil {
			return err
		}
	}
	return nil
}

// bodyMistakes are the invalid JSON bodies made from c's: a required
// property missing, a property of the wrong type, a value outside its
// enum, malformed JSON, and the body in an undeclared media type.
func bodyMistakes(c *exercise.Call) []invalid {
	if c.Media == nil || !openapi.IsJSON(c.Media.Type) {
		return nil
	}
	var out []invalid
	s := c.Media.Schema
	obj, _ := c.Body.(map[string]any)
	if s != nil && obj != nil {
		if v, why, ok := firstBreak(s, obj, missingProperty); ok {
			out = append(out, replaceBody("missing required property "+why.Path, v, why))
		}
		if v, why, ok := firstBreak(s, obj, wrongType); ok {
			out = append(out, replaceBody("wrong type of "+why.Path, v, why))
		}
		if v, why, ok := firstBreak(s, obj, outsideEnum); ok {
			out = append(out, replaceBody("value of "+why.Path+" outside its enum", v, why))
		}
	}
	out = append(out, invalid{name: "malformed JSON", why: openapi.Violation{Reason: "the body is not JSON"},
		mutate: func(*http.Request, []byte) ([]byte, bool) { return []byte(`{"malformed": `), true }})
	if c.Op.Body.Media(undeclaredType) == nil {
		out = append(out, invalid{name: "undeclared media type " + undeclaredType,
			why: openapi.Violation{Path: "Content-Type", Reason: undeclaredType + " is not a declared request media type"},
			mutate: func(req *http.Request, body []byte) ([]byte, bool) {
				req.Header.Set("Content-Type", undeclaredType)
				return body, true
			}})
	}
	return out
}

// replaceBody is the invalid request whose body is v.
func replaceBody(name string, v any, why openapi.Violation) invalid {
	data, _ := json.Marshal(v)
	return invalid{name: name, why: why, mutate: func(*http.Request, []byte) ([]byte, bool) { return data, true }}
}

// A breaker changes property name of a copy of obj, whose schema is p,
// into a mistake; false when it makes none of that kind.
type breaker func(obj map[string]any, name string, p *openapi.Schema, s *openapi.Schema) bool

// firstBreak returns obj with the first mistake of a kind made (on a
// copy), and what the schema says of it: the violation naming the
// property that was changed.
func firstBreak(s *openapi.Schema, obj map[string]any, b breaker) (map[string]any, openapi.Violation, bool) {
	for _, p := range s.Properties {
		if p.Schema == nil || p.Schema.ReadOnly {
			continue
		}
		cp := make(map[string]any, len(obj))
		for k, v := range obj {
			cp[k] = v
		}
		if !b(cp, p.Name, p.Schema, s) {
			continue
		}
		for _, v := range s.ValidateRequest(cp) {
			if v.Path == p.Name || v.Path == "" && strings.Contains(v.Reason, p.Name) {
				v.Path = p.Name
				return cp, v, true
			}
		}
	}
	return nil, openapi.Violation{}, false
}

func missingProperty(obj map[string]any, name string, _ *openapi.Schema, s *openapi.Schema) bool {
	if _, has := obj[name]; !has || !s.Requires(name) {
		return false
	}
	delete(obj, name)
	return true
}

func wrongType(obj map[string]any, name string, p *openapi.Schema, _ *openapi.Schema) bool {
	if _, has := obj[name]; !has || len(p.Types) == 0 {
		return false
	}
	for _, v := range []any{"not-a-" + p.Types[0], json.Number("12345"), true, map[string]any{}} {
		if !p.Is(typeOf(v)) && !(typeOf(v) == "integer" && p.Is("number")) {
			obj[name] = v
			return true
		}
	}
	return false
}

func outsideEnum(obj map[string]any, name string, p *openapi.Schema, _ *openapi.Schema) bool {
	if _, has := obj[name]; !has || len(p.Enum) == 0 || !p.Is("string") {
		return false
	}
	obj[name] = "not-in-enum-" + name
	return true
}

// typeOf names the JSON type of a value made by wrongType.
func typeOf(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case json.Number:
		return "integer"
	case bool:
		return "boolean"
	}
	return "object"
}

// paramMistakes are the invalid requests made from c's by leaving out
// each required query, header or cookie parameter. The value mistakes
// of each parameter (path ones too) are styleMistakes.
func paramMistakes(c *exercise.Call) []invalid {
	var out []invalid
	for i := range c.Op.Params {
		p := &c.Op.Params[i]
		if p.In == "path" || p.Content != nil || !p.Required {
			continue
		}
		k := p.In + "." + p.Name
		if _, has := c.Values[k]; !has {
			continue
		}
		out = append(out, invalid{name: "missing required parameter " + k, param: true,
			why:    openapi.Violation{Path: k, Reason: "required parameter is missing", Schema: ""},
			mutate: setParam(p, "", true)})
	}
	return out
}

// setParam sets parameter p of a request to value, or removes it; false
// when a query or cookie parameter is not in the request.
func setParam(p *openapi.Param, value string, remove bool) func(*http.Request, []byte) ([]byte, bool) {
	if p.In == "cookie" {
		value = url.QueryEscape(value)
	}
	return func(req *http.Request, body []byte) ([]byte, bool) {
		if p.In != "header" && p.In != "query" && p.In != "cookie" {
			return nil, false
		}
		had := put(req, placed{p.In, p.Name, value}, remove)
		return body, had || p.In == "header"
	}
}
