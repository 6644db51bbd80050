package arazzo

import (
	"fmt"
	"sort"
	"strings"
)

// Problem is a mistake in a description: where it is and what is wrong.
type Problem struct {
	// Line is the line of the workflow or step it is in, 0 when unknown.
	Line int
	Text string
}

// String writes the problem as "line N: text", or its text alone where
// its line is unknown.
func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("line %d: %s", p.Line, p.Text)
	}
	return p.Text
}

// Lint checks a description without running it: every problem Parse
// refuses it for (a goto or dependsOn naming nothing, an expression
// that does not parse, a parameter's in), and besides, against the
// OpenAPI document its steps call, a step's operation the document does
// not have and a $steps.ID.outputs.NAME naming no step of its workflow
// or no output of that step. has reports whether the document has the
// operation of an operationId (pointer "") or at a JSON pointer
// ("/paths/~1plants/get", id ""). Operations of another source
// description than the first OpenAPI one are not looked up, as Run does
// not. It returns the problems in the order of the description, none
// for one that is fine.
func Lint(data []byte, has func(operationID, pointer string) bool) []Problem {
	d, err := load(data)
	if err != nil {
		return []Problem{{Text: err.Error()}}
	}
	var c checker
	d.check(&c)
	source := d.openAPISource()
	for _, w := range d.Workflows {
		d.lintWorkflow(&c, w, source, has)
	}
	sort.SliceStable(c.problems, func(i, j int) bool { return c.problems[i].Line < c.problems[j].Line })
	return c.problems
}

// openAPISource is the name of the first OpenAPI source description,
// the one steps are run against.
func (d *Document) openAPISource() string {
	for _, s := range d.Sources {
		if s.Type == "" || s.Type == "openapi" {
			return s.Name
		}
	}
	return ""
}

// lintWorkflow checks w's steps' operations and $steps expressions.
func (d *Document) lintWorkflow(c *checker, w *Workflow, source string, has func(string, string) bool) {
	where := "workflow " + w.ID
	for _, s := range w.Steps {
		at := where + " step " + s.ID
		switch {
		case s.OperationID != "":
			src, id := d.OperationID(s.OperationID)
			switch {
			case src != "" && src != source:
				c.add(s.Line, "%s: operationId %s: source description %q is not the OpenAPI one steps are run against (%s)", at, s.OperationID, src, source)
			case !has(id, ""):
				c.add(s.Line, "%s: operationId %s: no operation of the document has that id", at, id)
			}
		case s.OperationPath != "":
			src, ptr, err := d.OperationPath(s.OperationPath)
			switch {
			case err != nil: // Parse's
			case src != source:
				c.add(s.Line, "%s: operationPath %s: source description %q is not the OpenAPI one steps are run against (%s)", at, s.OperationPath, src, source)
			case !has("", ptr):
				c.add(s.Line, "%s: operationPath %s: no operation of the document is there", at, s.OperationPath)
			}
		}
		var es []*expr
		for _, p := range s.Parameters {
			es = valueExprs(es, p.Value)
		}
		if b := s.RequestBody; b != nil {
			es = valueExprs(es, b.Payload)
			for _, r := range b.Replacements {
				es = valueExprs(es, r.Value)
			}
		}
		for _, cr := range s.SuccessCriteria {
			es = criterionExprs(es, cr)
		}
		for _, a := range append(append([]*Action{}, s.OnSuccess...), s.OnFailure...) {
			for _, cr := range a.Criteria {
				es = criterionExprs(es, cr)
			}
		}
		es = outputExprs(es, s.Outputs)
		lintSteps(c, w, s.Line, at, es)
	}
	var es []*expr
	for _, p := range w.Parameters {
		es = valueExprs(es, p.Value)
	}
	for _, a := range append(append([]*Action{}, w.SuccessActions...), w.FailureActions...) {
		for _, cr := range a.Criteria {
			es = criterionExprs(es, cr)
		}
	}
	es = outputExprs(es, w.Outputs)
	lintSteps(c, w, w.Line, where, es)
}

// lintSteps checks that each $steps.ID.outputs.NAME of es names a step
// of w and one of its outputs.
func lintSteps(c *checker, w *Workflow, line int, where string, es []*expr) {
	seen := map[string]bool{}
	for _, e := range es {
		if e.root != "$steps" || seen[e.text] {
			continue
		}
		seen[e.text] = true
		s := w.Step(e.id)
		if s == nil {
			c.add(line, "%s: %s: no step of workflow %s has id %s", where, e.text, w.ID, e.id)
			continue
		}
		if _, ok := s.Outputs[e.name]; !ok {
			c.add(line, "%s: %s: step %s has no output %s", where, e.text, s.ID, e.name)
		}
	}
}

// valueExprs appends the runtime expressions a value holds to es (those
// that parse; Parse reports the others).
func valueExprs(es []*expr, v any) []*expr {
	switch x := v.(type) {
	case string:
		if t, err := parseTemplate(x); err == nil {
			es = templateExprs(es, t)
		}
	case []any:
		for _, e := range x {
			es = valueExprs(es, e)
		}
	case map[string]any:
		if isSelector(x) {
			if s, err := selectorOf(x); err == nil {
				es = append(es, s.context)
			}
			return es
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			es = valueExprs(es, x[k])
		}
	}
	return es
}

func templateExprs(es []*expr, t *template) []*expr {
	if t.whole != nil {
		return append(es, t.whole)
	}
	for _, p := range t.parts {
		if e, ok := p.(*expr); ok {
			es = append(es, e)
		}
	}
	return es
}

// outputExprs appends the expressions of outputs, in the order of their
// names.
func outputExprs(es []*expr, outs map[string]any) []*expr {
	names := make([]string, 0, len(outs))
	for n := range outs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		switch x := outs[n].(type) {
		case string:
			if e, err := parseExpr(strings.TrimSpace(x)); err == nil {
				es = append(es, e)
			}
		case map[string]any:
			es = valueExprs(es, x)
		}
	}
	return es
}

// criterionExprs appends the expressions of a criterion: its context's
// and its condition's.
func criterionExprs(es []*expr, cr *Criterion) []*expr {
	if cr.Context != "" {
		if e, err := parseExpr(strings.TrimSpace(cr.Context)); err == nil {
			es = append(es, e)
		}
	}
	if cr.kind != "" && cr.kind != "simple" {
		if t, err := embedded(cr.Condition); err == nil {
			es = templateExprs(es, t)
		}
		return es
	}
	n, err := parseCondition(cr.Condition)
	if err != nil {
		return es
	}
	var walk func(n node)
	walk = func(n node) {
		switch x := n.(type) {
		case exprRef:
			es = append(es, x.e)
		case not:
			walk(x.x)
		case binary:
			walk(x.l)
			walk(x.r)
		case index:
			walk(x.x)
		}
	}
	walk(n)
	return es
}
