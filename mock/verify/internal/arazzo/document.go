package arazzo

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/plantmock/plantmock/internal/jsonx"
)

// Document is an Arazzo description (the Arazzo Specification Object).
type Document struct {
	Arazzo     string      `yaml:"arazzo"`
	Self       string      `yaml:"$self"`
	Info       Info        `yaml:"info"`
	Sources    []Source    `yaml:"sourceDescriptions"`
	Workflows  []*Workflow `yaml:"workflows"`
	Components Components  `yaml:"components"`
}

// Info is the description's metadata.
type Info struct {
	Title       string `yaml:"title"`
	Summary     string `yaml:"summary"`
	Description string `yaml:"description"`
	Version     string `yaml:"version"`
}

// Source is a Source Description Object: the OpenAPI (or Arazzo, or
// AsyncAPI) document the workflows call.
type Source struct {
	Name string `yaml:"name"`
	URL  string `yaml:"url"`
	Type string `yaml:"type"`
}

// Components holds the reusable objects a Reusable Object names.
type Components struct {
	Inputs         map[string]any     `yaml:"inputs"`
	Parameters     map[string]Param   `yaml:"parameters"`
	SuccessActions map[string]*Action `yaml:"successActions"`
	FailureActions map[string]*Action `yaml:"failureActions"`
}

// Workflow is a Workflow Object.
type Workflow struct {
	ID             string         `yaml:"workflowId"`
	Summary        string         `yaml:"summary"`
	Description    string         `yaml:"description"`
	Inputs         map[string]any `yaml:"inputs"` // a JSON Schema
	DependsOn      []string       `yaml:"dependsOn"`
	Steps          []*Step        `yaml:"steps"`
	SuccessActions []*Action      `yaml:"successActions"`
	FailureActions []*Action      `yaml:"failureActions"`
	Outputs        map[string]any `yaml:"outputs"` // expressions or Selector Objects
	Parameters     []Param        `yaml:"parameters"`
	// Line is where the workflow is in the description, 0 when unknown.
	Line int `yaml:"-"`
}

// Step is a Step Object: a call of one operation (by operationId or
// operationPath) or of a workflow.
type Step struct {
	ID              string         `yaml:"stepId"`
	Description     string         `yaml:"description"`
	OperationID     string         `yaml:"operationId"`
	OperationPath   string         `yaml:"operationPath"`
	WorkflowID      string         `yaml:"workflowId"`
	Parameters      []Param        `yaml:"parameters"`
	RequestBody     *RequestBody   `yaml:"requestBody"`
	SuccessCriteria []*Criterion   `yaml:"successCriteria"`
	OnSuccess       []*Action      `yaml:"onSuccess"`
	OnFailure       []*Action      `yaml:"onFailure"`
	Outputs         map[string]any `yaml:"outputs"`
	// Timeout (Arazzo 1.1) is how long the step may take, in
	// milliseconds; 0 for no bound of its own.
	Timeout   int      `yaml:"timeout"`
	DependsOn []string `yaml:"dependsOn"`
	// Line is where the step is in the description, 0 when unknown.
	Line int `yaml:"-"`
}

// Param is a Parameter Object, or a Reusable Object naming one
// (Reference, with Value replacing the named parameter's value); Parse
// replaces a reference by the parameter it names.
type Param struct {
	Name      string `yaml:"name"`
	In        string `yaml:"in"`
	Value     any    `yaml:"value"`
	Reference string `yaml:"reference"`
}

// RequestBody is a Request Body Object.
type RequestBody struct {
	ContentType  string        `yaml:"contentType"`
	Payload      any           `yaml:"payload"`
	Replacements []Replacement `yaml:"replacements"`
}

// Replacement is a Payload Replacement Object: Value set at Target, a
// JSON pointer into the payload.
type Replacement struct {
	Target             string `yaml:"target"`
	TargetSelectorType any    `yaml:"targetSelectorType"`
	Value              any    `yaml:"value"`
}

// Action is a Success Action Object or a Failure Action Object, or a
// Reusable Object naming one (Reference), which Parse replaces by the
// action it names.
type Action struct {
	Name       string       `yaml:"name"`
	Type       string       `yaml:"type"` // end, goto or retry
	WorkflowID string       `yaml:"workflowId"`
	StepID     string       `yaml:"stepId"`
	Criteria   []*Criterion `yaml:"criteria"`
	RetryAfter *float64     `yaml:"retryAfter"`
	RetryLimit *int         `yaml:"retryLimit"`
	Parameters []Param      `yaml:"parameters"`
	Reference  string       `yaml:"reference"`
}

// Criterion is a Criterion Object.
type Criterion struct {
	Context   string `yaml:"context"`
	Condition string `yaml:"condition"`
	// Type is "simple" (or empty), "regex", "jsonpath" or "xpath", or an
	// Expression Type Object ({type, version}).
	Type any `yaml:"type"`
	// Line is where the criterion is in the description, 0 when
	// unknown.
	Line int `yaml:"-"`

	kind string // simple, regex or jsonpath, set by Parse
}

// String writes the criterion as the description does: its condition,
// with its context and type where it has them.
func (c *Criterion) String() string {
	if c.kind == "" || c.kind == "simple" {
		return c.Condition
	}
	return fmt.Sprintf("%s %q against %s", c.kind, c.Condition, c.Context)
}

// Workflow returns the workflow of that id, nil when there is none.
func (d *Document) Workflow(id string) *Workflow {
	for _, w := range d.Workflows {
		if w.ID == id {
			return w
		}
	}
	return nil
}

// Step returns the step of that id, nil when there is none.
func (w *Workflow) Step(id string) *Step {
	for _, s := range w.Steps {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// stepIndex returns the index of the step of that id, -1 for none.
func (w *Workflow) stepIndex(id string) int {
	for i, s := range w.Steps {
		if s.ID == id {
			return i
		}
	}
	return -1
}

// opaque are the keys whose values are data (a payload, a value, a
// JSON Schema), left as they are when x- keys are taken out.
var opaque = map[string]bool{"payload": true, "value": true, "inputs": true, "outputs": true}

// Parse reads an Arazzo description, YAML or JSON, and checks it (see
// the package doc). Unknown keys are errors, but the extensions (x-).
// Every problem found is in the error, one a line, with its line in
// the description where it is known.
func Parse(data []byte) (*Document, error) {
	d, err := load(data)
	if err != nil {
		return nil, err
	}
	var c checker
	d.check(&c)
	if len(c.problems) > 0 {
		return nil, errors.New(c.String())
	}
	return d, nil
}

// load reads a description into a Document, with its lines, not
// checked.
func load(data []byte) (*Document, error) {
	var root yaml.Node
	if err := yaml.Load(data, &root); err != nil {
		return nil, fmt.Errorf("the Arazzo description is not YAML or JSON: %s", strings.TrimPrefix(oneLine(err.Error()), "yaml: "))
	}
	dropExtensions(&root)
	d := &Document{}
	if err := root.Load(d, yaml.WithKnownFields()); err != nil {
		msg := strings.TrimPrefix(oneLine(err.Error()), "yaml: ")
		return nil, fmt.Errorf("the Arazzo description: %s", strings.TrimPrefix(msg, "construct errors: "))
	}
	d.lines(&root)
	return d, nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// dropExtensions takes the x- keys out of every object but the data.
func dropExtensions(n *yaml.Node) {
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			dropExtensions(c)
		}
	case yaml.MappingNode:
		kept := n.Content[:0]
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if strings.HasPrefix(k.Value, "x-") {
				continue
			}
			if !opaque[k.Value] {
				dropExtensions(v)
			}
			kept = append(kept, k, v)
		}
		n.Content = kept
	}
}

// lines sets the line of each workflow, step and success criterion.
func (d *Document) lines(root *yaml.Node) {
	top := root
	if top.Kind == yaml.DocumentNode && len(top.Content) > 0 {
		top = top.Content[0]
	}
	ws := get(top, "workflows")
	if ws == nil || ws.Kind != yaml.SequenceNode {
		return
	}
	for i, wn := range ws.Content {
		if i >= len(d.Workflows) {
			return
		}
		w := d.Workflows[i]
		w.Line = wn.Line
		ss := get(wn, "steps")
		if ss == nil || ss.Kind != yaml.SequenceNode {
			continue
		}
		for j, sn := range ss.Content {
			if j >= len(w.Steps) {
				break
			}
			s := w.Steps[j]
			s.Line = sn.Line
			if cs := get(sn, "successCriteria"); cs != nil && cs.Kind == yaml.SequenceNode {
				for k, cn := range cs.Content {
					if k < len(s.SuccessCriteria) {
						s.SuccessCriteria[k].Line = cn.Line
					}
				}
			}
		}
	}
}

// get returns the value of key in a mapping node, nil when none.
func get(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// checker collects the problems of a description.
type checker struct{ problems []Problem }

func (c *checker) add(line int, format string, args ...any) {
	c.problems = append(c.problems, Problem{Line: line, Text: fmt.Sprintf(format, args...)})
}

// String writes the problems one a line.
func (c *checker) String() string {
	lines := make([]string, len(c.problems))
	for i, p := range c.problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

var version10 = regexp.MustCompile(`^1\.[01]\.\d+(-.+)?$`)

// check checks the description, normalizes its data (payloads and
// values as JSON values) and resolves its Reusable Objects.
func (d *Document) check(c *checker) {
	if !version10.MatchString(d.Arazzo) {
		c.add(0, "arazzo %q: want a version 1.0.x or 1.1.x", d.Arazzo)
	}
	if len(d.Sources) == 0 {
		c.add(0, "sourceDescriptions: want at least one")
	}
	if len(d.Workflows) == 0 {
		c.add(0, "workflows: want at least one")
	}
	for name, p := range d.Components.Parameters {
		v, err := jsonx.Normalize(p.Value)
		if err != nil {
			c.add(0, "components.parameters.%s: %v", name, err)
		}
		p.Value = v
		d.Components.Parameters[name] = p
	}
	seen := map[string]bool{}
	for _, w := range d.Workflows {
		switch {
		case w.ID == "":
			c.add(w.Line, "a workflow has no workflowId")
		case seen[w.ID]:
			c.add(w.Line, "workflowId %q is used twice", w.ID)
		}
		seen[w.ID] = true
	}
	for _, w := range d.Workflows {
		d.checkWorkflow(c, w)
	}
	d.checkCycles(c)
}

func (d *Document) checkWorkflow(c *checker, w *Workflow) {
	where := "workflow " + w.ID
	for _, dep := range w.DependsOn {
		if d.Workflow(dep) == nil {
			c.add(w.Line, "%s: dependsOn %q: no workflow has that id", where, dep)
		}
	}
	if len(w.Steps) == 0 {
		c.add(w.Line, "%s: steps: want at least one", where)
	}
	w.Parameters = d.params(c, w.Line, where, w.Parameters)
	w.SuccessActions = d.actions(c, w, w.Line, where+": successActions", w.SuccessActions, d.Components.SuccessActions, "successActions")
	w.FailureActions = d.actions(c, w, w.Line, where+": failureActions", w.FailureActions, d.Components.FailureActions, "failureActions")
	d.checkOutputs(c, w.Line, where, w.Outputs)
	ids := map[string]bool{}
	for _, s := range w.Steps {
		at := where + " step " + s.ID
		switch {
		case s.ID == "":
			c.add(s.Line, "%s: a step has no stepId", where)
		case ids[s.ID]:
			c.add(s.Line, "%s: stepId %q is used twice", where, s.ID)
		}
		ids[s.ID] = true
		n := 0
		for _, f := range []string{s.OperationID, s.OperationPath, s.WorkflowID} {
			if f != "" {
				n++
			}
		}
		if n != 1 {
			c.add(s.Line, "%s: want one of operationId, operationPath and workflowId, not %d", at, n)
		}
		if s.WorkflowID != "" && d.Workflow(s.WorkflowID) == nil {
			c.add(s.Line, "%s: workflowId %q: no workflow has that id", at, s.WorkflowID)
		}
		if s.OperationPath != "" {
			if _, _, err := d.OperationPath(s.OperationPath); err != nil {
				c.add(s.Line, "%s: %v", at, err)
			}
		}
		s.Parameters = d.params(c, s.Line, at, s.Parameters)
		for _, p := range s.Parameters {
			switch {
			case s.WorkflowID == "" && p.In != "path" && p.In != "query" && p.In != "header" && p.In != "cookie":
				c.add(s.Line, "%s: parameter %s: in %q: want path, query, header or cookie", at, p.Name, p.In)
			}
			checkValue(c, s.Line, at+": parameter "+p.Name, p.Value)
		}
		if b := s.RequestBody; b != nil {
			v, err := jsonx.Normalize(b.Payload)
			if err != nil {
				c.add(s.Line, "%s: requestBody.payload: %v", at, err)
			}
			b.Payload = v
			checkValue(c, s.Line, at+": requestBody.payload", b.Payload)
			for i := range b.Replacements {
				r := &b.Replacements[i]
				if t, ok := r.TargetSelectorType.(string); r.TargetSelectorType != nil && (!ok || t != "jsonpointer") {
					c.add(s.Line, "%s: requestBody.replacements[%d]: only JSON pointer targets are evaluated", at, i)
				}
				if r.Target != "" && !strings.HasPrefix(r.Target, "/") {
					c.add(s.Line, "%s: requestBody.replacements[%d]: target %q is not a JSON pointer", at, i, r.Target)
				}
				v, err := jsonx.Normalize(r.Value)
				if err != nil {
					c.add(s.Line, "%s: requestBody.replacements[%d].value: %v", at, i, err)
				}
				r.Value = v
				checkValue(c, s.Line, fmt.Sprintf("%s: requestBody.replacements[%d].value", at, i), r.Value)
			}
		}
		for _, cr := range s.SuccessCriteria {
			checkCriterion(c, cr.Line, at+": successCriteria", cr)
		}
		s.OnSuccess = d.actions(c, w, s.Line, at+": onSuccess", s.OnSuccess, d.Components.SuccessActions, "successActions")
		s.OnFailure = d.actions(c, w, s.Line, at+": onFailure", s.OnFailure, d.Components.FailureActions, "failureActions")
		d.checkOutputs(c, s.Line, at, s.Outputs)
		for _, dep := range s.DependsOn {
			if strings.HasPrefix(dep, "$") {
				continue // a step of another workflow or document
			}
			if w.Step(dep) == nil {
				c.add(s.Line, "%s: dependsOn %q: no step of the workflow has that id", at, dep)
			}
		}
	}
}

// checkOutputs checks the outputs' names and expressions.
func (d *Document) checkOutputs(c *checker, line int, where string, outs map[string]any) {
	for name, v := range outs {
		if !outputName.MatchString(name) {
			c.add(line, "%s: output %q: a name is letters, digits, '.', '-' and '_'", where, name)
		}
		switch x := v.(type) {
		case string:
			if _, err := parseExpr(strings.TrimSpace(x)); err != nil {
				c.add(line, "%s: output %s: %v", where, name, err)
			}
		case map[string]any:
			if _, err := selectorOf(x); err != nil {
				c.add(line, "%s: output %s: %v", where, name, err)
			}
		default:
			c.add(line, "%s: output %s: want a runtime expression or a Selector Object", where, name)
		}
	}
}

var outputName = regexp.MustCompile(`^[a-zA-Z0-9.\-_]+$`)

// checkValue checks the runtime expressions a value holds: a string
// that starts with $ is one, and so is each {$...} in a string.
func checkValue(c *checker, line int, where string, v any) {
	switch x := v.(type) {
	case string:
		if _, err := parseTemplate(x); err != nil {
			c.add(line, "%s: %v", where, err)
		}
	case []any:
		for _, e := range x {
			checkValue(c, line, where, e)
		}
	case map[string]any:
		if isSelector(x) {
			if _, err := selectorOf(x); err != nil {
				c.add(line, "%s: %v", where, err)
			}
			return
		}
		for _, e := range x {
			checkValue(c, line, where, e)
		}
	}
}

// checkCriterion checks a criterion's type and syntax and sets its
// kind.
func checkCriterion(c *checker, line int, where string, cr *Criterion) {
	kind, err := criterionKind(cr.Type)
	if err != nil {
		c.add(line, "%s: %v", where, err)
		return
	}
	cr.kind = kind
	if err := cr.compile(); err != nil {
		c.add(line, "%s: %s: %v", where, cr.Condition, err)
	}
}

// params resolves the Reusable Objects of a list of parameters and
// normalizes their values.
func (d *Document) params(c *checker, line int, where string, ps []Param) []Param {
	out := make([]Param, 0, len(ps))
	for _, p := range ps {
		if p.Reference != "" {
			name, ok := strings.CutPrefix(p.Reference, "$components.parameters.")
			ref, found := d.Components.Parameters[name]
			if !ok || !found {
				c.add(line, "%s: reference %q: no parameter of components has that name", where, p.Reference)
				continue
			}
			if p.Value != nil {
				ref.Value = p.Value
			}
			p = ref
		}
		v, err := jsonx.Normalize(p.Value)
		if err != nil {
			c.add(line, "%s: parameter %s: %v", where, p.Name, err)
		}
		p.Value = v
		if p.Name == "" {
			c.add(line, "%s: a parameter has no name", where)
		}
		out = append(out, p)
	}
	return out
}

// actions resolves the Reusable Objects of a list of actions (from
// components' successActions or failureActions, named kind) and checks
// each: its type, its goto or retry target, its criteria.
func (d *Document) actions(c *checker, w *Workflow, line int, where string, as []*Action, reusable map[string]*Action, kind string) []*Action {
	out := make([]*Action, 0, len(as))
	for _, a := range as {
		if a.Reference != "" {
			name, ok := strings.CutPrefix(a.Reference, "$components."+kind+".")
			ref, found := reusable[name]
			if !ok || !found {
				c.add(line, "%s: reference %q: no action of components.%s has that name", where, a.Reference, kind)
				continue
			}
			a = ref
		}
		at := where + " " + a.Name
		switch a.Type {
		case "end":
		case "goto", "retry":
			if a.Type == "retry" && kind != "failureActions" {
				c.add(line, "%s: type retry is a failure action's", at)
			}
			switch {
			case a.StepID != "" && a.WorkflowID != "":
				c.add(line, "%s: stepId and workflowId exclude each other", at)
			case a.StepID != "" && w.Step(a.StepID) == nil:
				c.add(line, "%s: stepId %q: no step of workflow %s has that id", at, a.StepID, w.ID)
			case a.WorkflowID != "" && d.Workflow(a.WorkflowID) == nil:
				c.add(line, "%s: workflowId %q: no workflow has that id", at, a.WorkflowID)
			case a.Type == "goto" && a.StepID == "" && a.WorkflowID == "":
				c.add(line, "%s: a goto names a stepId or a workflowId", at)
			}
		default:
			c.add(line, "%s: type %q: want end, goto or retry", at, a.Type)
		}
		if a.RetryAfter != nil && *a.RetryAfter < 0 {
			c.add(line, "%s: retryAfter %v: want 0 or more", at, *a.RetryAfter)
		}
		if a.RetryLimit != nil && *a.RetryLimit < 0 {
			c.add(line, "%s: retryLimit %d: want 0 or more", at, *a.RetryLimit)
		}
		for _, cr := range a.Criteria {
			checkCriterion(c, line, at+": criteria", cr)
		}
		out = append(out, a)
	}
	return out
}

// checkCycles refuses workflows that depend on themselves.
func (d *Document) checkCycles(c *checker) {
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(w *Workflow, path []string)
	visit = func(w *Workflow, path []string) {
		switch state[w.ID] {
		case 1:
			c.add(w.Line, "workflow %s depends on itself: %s", w.ID, strings.Join(append(path, w.ID), " -> "))
			return
		case 2:
			return
		}
		state[w.ID] = 1
		for _, dep := range w.DependsOn {
			if dw := d.Workflow(dep); dw != nil {
				visit(dw, append(path, w.ID))
			}
		}
		state[w.ID] = 2
	}
	for _, w := range d.Workflows {
		visit(w, nil)
	}
}

// Source returns the source description named name, nil when there is
// none.
func (d *Document) Source(name string) *Source {
	for i := range d.Sources {
		if d.Sources[i].Name == name {
			return &d.Sources[i]
		}
	}
	return nil
}

// OperationPath reads a step's operationPath,
// '{$sourceDescriptions.NAME.url}#/paths/~1things/get', into the source
// it names and the JSON pointer to the operation.
func (d *Document) OperationPath(p string) (source, pointer string, err error) {
	ref, ptr, ok := strings.Cut(p, "#")
	inner, isExpr := strings.CutPrefix(ref, "{$sourceDescriptions.")
	inner, closed := strings.CutSuffix(inner, ".url}")
	if !ok || !isExpr || !closed {
		return "", "", fmt.Errorf("operationPath %q: want '{$sourceDescriptions.NAME.url}#/paths/...'", p)
	}
	if d.Source(inner) == nil {
		return "", "", fmt.Errorf("operationPath %q: no source description is named %q", p, inner)
	}
	if !strings.HasPrefix(ptr, "/paths/") {
		return "", "", fmt.Errorf("operationPath %q: the pointer names no operation (want #/paths/PATH/METHOD)", p)
	}
	return inner, ptr, nil
}

// OperationID reads a step's operationId: the id, and the source it
// names where it is $sourceDescriptions.NAME.ID ("" for none).
func (d *Document) OperationID(id string) (source, op string) {
	rest, ok := strings.CutPrefix(id, "$sourceDescriptions.")
	if !ok {
		return "", id
	}
	name, op, _ := strings.Cut(rest, ".")
	return name, op
}
