package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"text/template"
	"text/template/parse"

	"github.com/brianvoe/gofakeit/v6"
)

// valueTemplate is a templated string of a scripted answer: a Go template
// over the request (see templateData) that may call fake.
type valueTemplate struct {
	t *template.Template
	// typed is true when the string is a single {{ }} action, whose output
	// becomes a JSON number, true, false or null when it reads as one.
	typed bool
}

// templateFuncs are the only functions templates may call besides Go's
// template builtins: nothing reads files, the environment or the network.
// fake is bound to the exchange's faker when a template is rendered.
var templateFuncs = template.FuncMap{"fake": func(string) (string, error) { return "", nil }}

// CompileTemplate parses a template; at names its place for messages.
func CompileTemplate(text, at string) (*valueTemplate, error) {
	t, err := template.New(at).Funcs(templateFuncs).Option("missingkey=zero").Parse(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", at, strings.TrimPrefix(err.Error(), "template: "))
	}
	if err := checkFakes(t.Tree.Root); err != nil {
		return nil, fmt.Errorf("%s: %v", at, err)
	}
	nodes := t.Tree.Root.Nodes
	return &valueTemplate{t: t, typed: len(nodes) == 1 && nodes[0].Type() == parse.NodeAction}, nil
}

// TemplateData is what a template sees of a request: its decoded body,
// the first value of each header, its token, and the rule's count of
// answers in the session.
func TemplateData(body any, h http.Header, token string, seq int64) map[string]any {
	headers := make(map[string]string, len(h))
	for k, v := range h {
		if len(v) > 0 {
			headers[k] = v[0]
		}
	}
	return map[string]any{"body": body, "headers": headers, "token": token, "seq": seq}
}

// Render executes the template; faker is called when a fake needs one.
func (vt *valueTemplate) Render(data map[string]any, faker func() *gofakeit.Faker) (any, error) {
	t, err := vt.t.Clone()
	if err != nil {
		return nil, err
	}
	t.Funcs(template.FuncMap{"fake": func(name string) (string, error) {
		info := gofakeit.GetFuncLookup(strings.ToLower(name))
		if info == nil {
			return "", fmt.Errorf("gofakeit has no function %q", name)
		}
		v, err := info.Generate(faker().Rand, &gofakeit.MapParams{}, info)
		if err != nil {
			return "", err
		}
		return fmt.Sprint(v), nil
	}})
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return nil, err
	}
	out := buf.String()
	if vt.typed {
		switch {
		case out == "true":
			return true, nil
		case out == "false":
			return false, nil
		case out == "null":
			return nil, nil
		case isJSONNumber(out):
			return json.Number(out), nil
		}
	}
	return out, nil
}

// compileBody turns the strings of an answer body that hold {{ }} into
// templates. static is true when there are none.
func compileBody(v any, at string) (tree any, static bool, err error) {
	switch x := v.(type) {
	case string:
		if !strings.Contains(x, "{{") {
			return x, true, nil
		}
		t, err := CompileTemplate(x, at)
		return t, false, err
	case map[string]any:
		out := make(map[string]any, len(x))
		static = true
		for k, e := range x {
			c, st, err := compileBody(e, at+"."+k)
			if err != nil {
				return nil, false, err
			}
			out[k], static = c, static && st
		}
		return out, static, nil
	case []any:
		out := make([]any, len(x))
		static = true
		for i, e := range x {
			c, st, err := compileBody(e, fmt.Sprintf("%s[%d]", at, i))
			if err != nil {
				return nil, false, err
			}
			out[i], static = c, static && st
		}
		return out, static, nil
	}
	return v, true, nil
}

// RenderBody renders every template of an answer body.
func RenderBody(v any, data map[string]any, faker func() *gofakeit.Faker) (any, error) {
	switch x := v.(type) {
	case *valueTemplate:
		return x.Render(data, faker)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			r, err := RenderBody(e, data, faker)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			r, err := RenderBody(e, data, faker)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	}
	return v, nil
}

// checkFakes makes sure every fake "name" call names a gofakeit function.
func checkFakes(n parse.Node) error {
	var err error
	var walk func(parse.Node)
	walk = func(n parse.Node) {
		if n == nil || err != nil {
			return
		}
		switch x := n.(type) {
		case *parse.ListNode:
			if x == nil { // an absent else branch
				return
			}
			for _, c := range x.Nodes {
				walk(c)
			}
		case *parse.ActionNode:
			walk(x.Pipe)
		case *parse.PipeNode:
			for _, c := range x.Cmds {
				walk(c)
			}
		case *parse.CommandNode:
			if len(x.Args) > 0 {
				if id, ok := x.Args[0].(*parse.IdentifierNode); ok && id.Ident == "fake" {
					if len(x.Args) != 2 {
						err = errors.New(`fake takes one quoted gofakeit function name, e.g. fake "name"`)
						return
					}
					if str, ok := x.Args[1].(*parse.StringNode); ok && gofakeit.GetFuncLookup(strings.ToLower(str.Text)) == nil {
						err = fmt.Errorf("fake %q: gofakeit has no such function", str.Text)
						return
					}
				}
			}
			for _, c := range x.Args {
				walk(c)
			}
		case *parse.IfNode:
			walk(x.Pipe)
			walk(x.List)
			walk(x.ElseList)
		case *parse.RangeNode:
			walk(x.Pipe)
			walk(x.List)
			walk(x.ElseList)
		case *parse.WithNode:
			walk(x.Pipe)
			walk(x.List)
			walk(x.ElseList)
		}
	}
	walk(n)
	return err
}

// isJSONNumber reports whether s is a JSON number literal.
func isJSONNumber(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	if s[0] != '-' && (s[0] < '0' || s[0] > '9') {
		return false
	}
	var v any
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	if err := d.Decode(&v); err != nil || d.More() {
		return false
	}
	n, ok := v.(json.Number)
	return ok && string(n) == s
}
