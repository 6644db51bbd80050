package arazzo

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Exchange is a step's request and its answer, as runtime expressions
// read them.
type Exchange struct {
	URL    string
	Method string
	Status int
	// RequestHeader, Query and Path are the request's headers, query and
	// path parameters (by name, as sent).
	RequestHeader http.Header
	Query         url.Values
	Path          map[string]string
	// RequestBody and Body are the request's and the answer's bodies: a
	// JSON value where the body is JSON, else its text; nil for none.
	RequestBody any
	Header      http.Header // the answer's headers
	Body        any
}

// expr is a runtime expression, parsed.
type expr struct {
	text string
	root string // $url, $method, $statusCode, $self, $request, $response, $inputs, $outputs, $steps, $workflows, $sourceDescriptions, $components
	part string // of $request and $response: header, query, path or body; of $workflows: inputs or outputs; of $components: its kind
	id   string // a step's or workflow's id, a source's name
	name string // a header, parameter, input or output name, a source's field
	// pointer is the JSON pointer after #, hasPointer whether there was
	// one; props are the properties after body ($response.body.a.b).
	pointer    string
	hasPointer bool
	props      []string
}

// roots are the starts of runtime expressions (the ABNF of Arazzo's
// "Runtime Expressions").
var roots = []string{"$url", "$method", "$statusCode", "$self", "$request.", "$response.", "$message.",
	"$inputs.", "$outputs.", "$steps.", "$workflows.", "$sourceDescriptions.", "$components."}

// looksLikeExpr reports whether s starts as a runtime expression does.
func looksLikeExpr(s string) bool {
	for _, r := range roots {
		if strings.HasPrefix(s, r) {
			return true
		}
	}
	return false
}

// parseExpr parses one runtime expression.
func parseExpr(s string) (*expr, error) {
	e := &expr{text: s}
	bad := func(want string) (*expr, error) {
		return nil, fmt.Errorf("%q is not a runtime expression: %s", s, want)
	}
	switch s {
	case "$url", "$method", "$statusCode", "$self":
		e.root = s
		return e, nil
	}
	root, rest, ok := strings.Cut(s, ".")
	if !ok || rest == "" {
		return bad("want $url, $method, $statusCode, $request., $response., $inputs., $outputs., $steps., $workflows. or $sourceDescriptions.")
	}
	e.root = root
	// A name may be followed by a JSON pointer.
	cutPointer := func(r string) (string, error) {
		name, ptr, has := strings.Cut(r, "#")
		if has {
			if ptr != "" && !strings.HasPrefix(ptr, "/") {
				return "", fmt.Errorf("%q is not a runtime expression: the JSON pointer after # starts with /", s)
			}
			e.pointer, e.hasPointer = ptr, true
		}
		return name, nil
	}
	switch root {
	case "$request", "$response":
		switch {
		case strings.HasPrefix(rest, "header."):
			e.part, e.name = "header", strings.TrimPrefix(rest, "header.")
		case strings.HasPrefix(rest, "query."):
			e.part, e.name = "query", strings.TrimPrefix(rest, "query.")
		case strings.HasPrefix(rest, "path."):
			e.part, e.name = "path", strings.TrimPrefix(rest, "path.")
		case rest == "body" || strings.HasPrefix(rest, "body#") || strings.HasPrefix(rest, "body."):
			e.part = "body"
			after := strings.TrimPrefix(rest, "body")
			if strings.HasPrefix(after, ".") {
				e.props = strings.Split(after[1:], ".")
				break
			}
			if _, err := cutPointer(after); err != nil {
				return nil, err
			}
		default:
			return bad("after " + root + ". want header.NAME, query.NAME, path.NAME or body")
		}
		if e.part != "body" && e.name == "" {
			return bad("the name is missing")
		}
	case "$inputs", "$outputs":
		name, err := cutPointer(rest)
		if err != nil {
			return nil, err
		}
		e.name = name
	case "$steps":
		id, out, ok := strings.Cut(rest, ".outputs.")
		if !ok || id == "" {
			return bad("want $steps.ID.outputs.NAME")
		}
		name, err := cutPointer(out)
		if err != nil {
			return nil, err
		}
		e.id, e.name = id, name
	case "$workflows":
		id, more, ok := strings.Cut(rest, ".")
		field, name, ok2 := strings.Cut(more, ".")
		if !ok || !ok2 || (field != "inputs" && field != "outputs") {
			return bad("want $workflows.ID.inputs.NAME or $workflows.ID.outputs.NAME")
		}
		name, err := cutPointer(name)
		if err != nil {
			return nil, err
		}
		e.id, e.part, e.name = id, field, name
	case "$sourceDescriptions":
		id, field, ok := strings.Cut(rest, ".")
		if !ok {
			return bad("want $sourceDescriptions.NAME.FIELD")
		}
		e.id, e.name = id, field
	case "$components":
		kind, name, ok := strings.Cut(rest, ".")
		if !ok || kind != "parameters" {
			return bad("the value of a component is that of a parameter: $components.parameters.NAME")
		}
		e.part, e.name = kind, name
	case "$message":
		return bad("$message (AsyncAPI) is not evaluated")
	default:
		return bad("unknown source " + root)
	}
	if e.name == "" && e.root != "$request" && e.root != "$response" {
		return bad("the name is missing")
	}
	return e, nil
}

// scope is what expressions read while a workflow runs.
type scope struct {
	doc *Document
	x   *Exchange // the step's exchange, nil outside a step
	// inputs and outputs are the running workflow's; steps its steps'
	// outputs by id.
	inputs, outputs map[string]any
	steps           map[string]map[string]any
	// workflows are the inputs and outputs of the workflows run so far,
	// by id.
	workflows map[string]*workflowValues
}

type workflowValues struct{ inputs, outputs map[string]any }

// eval evaluates e: its value, and whether it has one (a header the
// answer lacks, a pointer into nothing, an output not set have none).
// The error says why e cannot be evaluated here: $response outside a
// step, a step that has not run.
func (sc *scope) eval(e *expr) (any, bool, error) {
	v, found, err := sc.base(e)
	if err != nil || !found {
		return nil, found, err
	}
	if e.hasPointer {
		if s, ok := v.(string); ok {
			// A body kept as text (or an output of one) is read as JSON
			// when it is.
			if d, err := jsonx.Decode([]byte(s)); err == nil {
				v = d
			}
		}
		v, found = openapi.PointerValue(v, e.pointer)
		if !found {
			return nil, false, nil
		}
	}
	for _, p := range e.props {
		v, found = property(v, p)
		if !found {
			return nil, false, nil
		}
	}
	return v, true, nil
}

// base is the value e names, before its pointer and properties.
func (sc *scope) base(e *expr) (any, bool, error) {
	needX := func() error {
		if sc.x == nil {
			return fmt.Errorf("%s names a request or an answer, and there is none here (only a step has one)", e.text)
		}
		return nil
	}
	switch e.root {
	case "$url", "$method", "$statusCode", "$request", "$response":
		if err := needX(); err != nil {
			return nil, false, err
		}
	}
	x := sc.x
	switch e.root {
	case "$url":
		return x.URL, true, nil
	case "$method":
		return x.Method, true, nil
	case "$statusCode":
		return json.Number(strconv.Itoa(x.Status)), true, nil
	case "$self":
		return sc.doc.Self, sc.doc.Self != "", nil
	case "$request", "$response":
		h, body := x.RequestHeader, x.RequestBody
		if e.root == "$response" {
			h, body = x.Header, x.Body
		}
		switch e.part {
		case "header":
			vs := h.Values(e.name)
			if len(vs) == 0 {
				return nil, false, nil
			}
			return vs[0], true, nil
		case "query":
			if e.root == "$response" {
				return nil, false, fmt.Errorf("%s: an answer has no query", e.text)
			}
			if !x.Query.Has(e.name) {
				return nil, false, nil
			}
			return x.Query.Get(e.name), true, nil
		case "path":
			if e.root == "$response" {
				return nil, false, fmt.Errorf("%s: an answer has no path parameters", e.text)
			}
			v, ok := x.Path[e.name]
			return v, ok, nil
		}
		return body, body != nil, nil
	case "$inputs":
		v, ok := lookup(sc.inputs, e.name)
		return v, ok, nil
	case "$outputs":
		v, ok := lookup(sc.outputs, e.name)
		return v, ok, nil
	case "$steps":
		outs, ran := sc.steps[e.id]
		if !ran {
			return nil, false, fmt.Errorf("%s: step %s has not run", e.text, e.id)
		}
		v, ok := lookup(outs, e.name)
		return v, ok, nil
	case "$workflows":
		w, ran := sc.workflows[e.id]
		if !ran {
			return nil, false, fmt.Errorf("%s: workflow %s has not run", e.text, e.id)
		}
		m := w.outputs
		if e.part == "inputs" {
			m = w.inputs
		}
		v, ok := lookup(m, e.name)
		return v, ok, nil
	case "$sourceDescriptions":
		s := sc.doc.Source(e.id)
		if s == nil {
			return nil, false, fmt.Errorf("%s: no source description is named %s", e.text, e.id)
		}
		switch e.name {
		case "url":
			return s.URL, true, nil
		case "type":
			return s.Type, s.Type != "", nil
		case "name":
			return s.Name, true, nil
		}
		return nil, false, fmt.Errorf("%s: a source description's fields are name, url and type", e.text)
	case "$components":
		p, ok := sc.doc.Components.Parameters[e.name]
		return p.Value, ok, nil
	}
	return nil, false, fmt.Errorf("%s is not evaluated", e.text)
}

// lookup finds name in m; a name not there whose start is (an output
// "a" for "a.b") is read as that, its rest as properties, so that
// $inputs.order.id reads the id of the input order.
func lookup(m map[string]any, name string) (any, bool) {
	if v, ok := m[name]; ok {
		return v, true
	}
	for i := strings.LastIndexByte(name, '.'); i > 0; i = strings.LastIndexByte(name[:i], '.') {
		if v, ok := m[name[:i]]; ok {
			for _, p := range strings.Split(name[i+1:], ".") {
				if v, ok = property(v, p); !ok {
					return nil, false
				}
			}
			return v, true
		}
	}
	return nil, false
}

// property is an object's property or an array's item (by index).
func property(v any, name string) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		p, ok := x[name]
		return p, ok
	case []any:
		i, err := strconv.Atoi(name)
		if err != nil || i < 0 || i >= len(x) {
			return nil, false
		}
		return x[i], true
	}
	return nil, false
}

// template is a string value: one runtime expression (whole), or text
// with expressions between braces, or text alone.
type template struct {
	whole *expr
	parts []any // string or *expr
}

// parseTemplate parses a string value. A string that starts as a
// runtime expression is one; else each {$...} in it is.
func parseTemplate(s string) (*template, error) {
	if t := strings.TrimSpace(s); looksLikeExpr(t) {
		e, err := parseExpr(t)
		if err != nil {
			return nil, err
		}
		return &template{whole: e}, nil
	}
	t := &template{}
	rest := s
	for {
		i := strings.Index(rest, "{$")
		if i < 0 {
			if rest != "" {
				t.parts = append(t.parts, rest)
			}
			return t, nil
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return nil, fmt.Errorf("%q: the expression at %q has no closing brace", s, rest[i:])
		}
		e, err := parseExpr(rest[i+1 : i+j])
		if err != nil {
			return nil, err
		}
		if i > 0 {
			t.parts = append(t.parts, rest[:i])
		}
		t.parts = append(t.parts, e)
		rest = rest[i+j+1:]
	}
}

// expressions reports whether t holds any.
func (t *template) expressions() bool {
	if t.whole != nil {
		return true
	}
	for _, p := range t.parts {
		if _, ok := p.(*expr); ok {
			return true
		}
	}
	return false
}

// value evaluates t: the value of its expression where it is one (of
// its type), else its text with each expression's value written in.
// An expression without a value is an error.
func (sc *scope) value(t *template) (any, error) {
	if t.whole != nil {
		v, found, err := sc.eval(t.whole)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, fmt.Errorf("%s has no value", t.whole.text)
		}
		return v, nil
	}
	var b strings.Builder
	for _, p := range t.parts {
		switch x := p.(type) {
		case string:
			b.WriteString(x)
		case *expr:
			v, found, err := sc.eval(x)
			if err != nil {
				return nil, err
			}
			if !found {
				return nil, fmt.Errorf("%s has no value", x.text)
			}
			b.WriteString(text(v))
		}
	}
	return b.String(), nil
}

// text writes a value into a string: a string as it is, any other
// value as JSON.
func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return string(jsonx.Marshal(v))
}

// resolve evaluates every runtime expression a value holds: a string
// (see value), each item of an array, each property of an object, and
// a Selector Object (Arazzo 1.1) replaced by what it selects.
func (sc *scope) resolve(v any) (any, error) {
	switch x := v.(type) {
	case string:
		t, err := parseTemplate(x)
		if err != nil {
			return nil, err
		}
		return sc.value(t)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			r, err := sc.resolve(e)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	case map[string]any:
		if isSelector(x) {
			s, err := selectorOf(x)
			if err != nil {
				return nil, err
			}
			return s.selectFrom(sc)
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			r, err := sc.resolve(e)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	}
	return v, nil
}
