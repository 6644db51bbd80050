package arazzo

import (
	"fmt"
	"strings"

	"github.com/theory/jsonpath"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/regex"
)

// criterionKind reads a criterion's type: a name, or an Expression
// Type Object ({type, version}).
func criterionKind(t any) (string, error) {
	switch x := t.(type) {
	case nil:
		return "simple", nil
	case string:
		switch x {
		case "simple", "regex", "jsonpath":
			return x, nil
		case "xpath":
			return "", fmt.Errorf("type xpath: XPath criteria are not evaluated")
		}
		return "", fmt.Errorf("type %q: want simple, regex or jsonpath", x)
	case map[string]any:
		kind, _ := x["type"].(string)
		version, _ := x["version"].(string)
		if kind == "jsonpath" && (version == "rfc9535" || version == "draft-goessner-dispatch-jsonpath-00") {
			return "jsonpath", nil
		}
		return "", fmt.Errorf("type {type: %s, version: %s}: only JSONPath (evaluated as RFC 9535) is evaluated", kind, version)
	}
	return "", fmt.Errorf("type %v: want a name or {type, version}", t)
}

// compile parses the criterion (a simple condition now; a regex or a
// JSONPath query now too where it holds no expression).
func (c *Criterion) compile() error {
	switch c.kind {
	case "simple":
		if c.Context != "" {
			if _, err := parseExpr(strings.TrimSpace(c.Context)); err != nil {
				return err
			}
		}
		_, err := parseCondition(c.Condition)
		return err
	}
	if c.Context == "" {
		return fmt.Errorf("a %s criterion needs a context", c.kind)
	}
	if _, err := parseExpr(strings.TrimSpace(c.Context)); err != nil {
		return err
	}
	t, err := embedded(c.Condition)
	if err != nil || t.expressions() {
		return err
	}
	return check(c.kind, c.Condition)
}

// embedded parses a regex's or a query's condition for the expressions
// between braces in it (a condition that starts with $ is a JSONPath
// query, not an expression).
func embedded(s string) (*template, error) {
	if strings.HasPrefix(strings.TrimSpace(s), "$") {
		t, err := parseTemplate("x" + s) // not one expression: only the {$...} in it
		if err != nil {
			return nil, err
		}
		t.parts[0] = strings.TrimPrefix(t.parts[0].(string), "x")
		return t, nil
	}
	return parseTemplate(s)
}

// check compiles a regex or a JSONPath query.
func check(kind, cond string) error {
	if kind == "regex" {
		_, err := regex.Compile(cond)
		return err
	}
	_, err := jsonpath.Parse(cond)
	return err
}

// met evaluates the criterion in sc: whether it holds, and why not
// (what its expressions were); an error where it cannot be evaluated,
// which fails it too.
func (c *Criterion) met(sc *scope) (bool, string, error) {
	if c.kind == "simple" || c.kind == "" {
		n, err := parseCondition(c.Condition)
		if err != nil {
			return false, "", err
		}
		ev := &evaluation{sc: sc}
		v, err := ev.eval(n)
		if err != nil {
			return false, strings.Join(ev.seen, ", "), err
		}
		ok, err := truth(v)
		return ok, strings.Join(ev.seen, ", "), err
	}
	ctx, _ := parseExpr(strings.TrimSpace(c.Context))
	v, found, err := sc.eval(ctx)
	if err != nil {
		return false, "", err
	}
	if !found || v == nil {
		return false, c.Context + " is null", nil
	}
	t, err := embedded(c.Condition)
	if err != nil {
		return false, "", err
	}
	cond, err := sc.value(t)
	if err != nil {
		return false, "", err
	}
	pattern := text(cond)
	if c.kind == "regex" {
		re, err := regex.Compile(pattern)
		if err != nil {
			return false, "", err
		}
		s := text(v)
		return re.MatchString(s), fmt.Sprintf("%s = %q", c.Context, clipped(s, 80)), nil
	}
	q, err := jsonpath.Parse(pattern)
	if err != nil {
		return false, "", err
	}
	if s, ok := v.(string); ok {
		d, err := jsonx.Decode([]byte(s))
		if err != nil {
			return false, "", fmt.Errorf("%s is not JSON: %v", c.Context, err)
		}
		v = d
	}
	n := len(q.Select(v))
	return n > 0, fmt.Sprintf("%s selects %d nodes of %s = %s", pattern, n, c.Context, clipped(text(v), 80)), nil
}

// selector is a Selector Object (Arazzo 1.1): the value a JSONPath query
// or a JSON pointer selects in a context.
type selector struct {
	context *expr
	query   string
	kind    string // jsonpath or jsonpointer
}

// isSelector reports whether an object is a Selector Object.
func isSelector(m map[string]any) bool {
	_, c := m["context"]
	_, s := m["selector"]
	return c && s && len(m) <= 3
}

func selectorOf(m map[string]any) (*selector, error) {
	ctx, _ := m["context"].(string)
	q, _ := m["selector"].(string)
	e, err := parseExpr(strings.TrimSpace(ctx))
	if err != nil {
		return nil, err
	}
	s := &selector{context: e, query: q}
	switch t := m["type"].(type) {
	case string:
		s.kind = t
	case map[string]any:
		s.kind, _ = t["type"].(string)
	}
	switch s.kind {
	case "jsonpath":
		if _, err := jsonpath.Parse(q); err != nil {
			return nil, err
		}
	case "jsonpointer":
		if q != "" && !strings.HasPrefix(q, "/") {
			return nil, fmt.Errorf("selector %q is not a JSON pointer", q)
		}
	default:
		return nil, fmt.Errorf("selector type %v: only jsonpath and jsonpointer are evaluated", m["type"])
	}
	return s, nil
}

// selectFrom is what the selector selects: the one node a query
// selects, or an array of them where it selects several.
func (s *selector) selectFrom(sc *scope) (any, error) {
	v, found, err := sc.eval(s.context)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("%s has no value", s.context.text)
	}
	if str, ok := v.(string); ok {
		if d, err := jsonx.Decode([]byte(str)); err == nil {
			v = d
		}
	}
	if s.kind == "jsonpointer" {
		r, ok := openapi.PointerValue(v, s.query)
		if !ok {
			return nil, fmt.Errorf("%s selects nothing in %s", s.query, s.context.text)
		}
		return r, nil
	}
	q, _ := jsonpath.Parse(s.query)
	nodes := q.Select(v)
	switch len(nodes) {
	case 0:
		return nil, fmt.Errorf("%s selects nothing in %s", s.query, s.context.text)
	case 1:
		return nodes[0], nil
	}
	return []any(nodes), nil
}
