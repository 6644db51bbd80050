package arazzo

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/plantmock/plantmock/internal/jsonx"
)

// Call is one step's request, its values worked out: what a Sender
// sends.
type Call struct {
	// Workflow and Step name the step; Attempt counts its tries (1 for
	// the first, more when a retry sends it again).
	Workflow, Step string
	Attempt        int
	// OperationID is the operation the step names by id; OperationPath,
	// else, the JSON pointer to it ("/paths/~1things/get"). Source is
	// the source description the step names, "" where it names none.
	OperationID, OperationPath, Source string
	// Params are the step's parameters (and the workflow's), values
	// worked out.
	Params []Value
	// Body is the request body's payload worked out, HasBody whether the
	// step gives one; ContentType is the step's, "" for the operation's.
	Body        any
	HasBody     bool
	ContentType string
}

// Value is a parameter of a call, its value worked out.
type Value struct {
	Name, In string
	Value    any
}

// Sender sends a step's request and returns the exchange. Sent counts
// the calls, so that a result can name the one it failed at. An
// *Unsent error fails the step's workflow (the operation is not in the
// document, no answer came); any other error ends the run (a budget
// spent, a context done) and Run returns it.
type Sender interface {
	Send(ctx context.Context, c *Call) (*Exchange, error)
}

// Unsent says why a step got no answer.
type Unsent struct{ Reason string }

func (u *Unsent) Error() string { return u.Reason }

// The rules a failed workflow names.
const (
	// RuleCriterion: a step's success criteria were not met, and no
	// failure action took the workflow on.
	RuleCriterion = "criterion"
	// RuleWorkflow: the workflow could not go on (an expression without
	// a value, a step without an answer, an input missing, a workflow it
	// depends on failed).
	RuleWorkflow = "workflow"
)

// Result is how a workflow ran.
type Result struct {
	Workflow string
	OK       bool
	// Steps are the steps run, in order, each try apart.
	Steps []StepRun
	// Where it failed: the step ("" for the workflow itself), the rule
	// broken, why, and the line of the description (the criterion's,
	// else the step's, else the workflow's).
	Step, Rule, Reason string
	Line               int
	// Call is the number of the Sender's call the failure was seen in
	// (0 for the first), -1 where it was seen in none.
	Call int
	// Outputs are the workflow's outputs, where it succeeded.
	Outputs map[string]any
}

// StepRun is one try of a step.
type StepRun struct {
	Step    string
	Attempt int
	OK      bool
	Call    int // the Sender's call, -1 for a step that calls a workflow
}

// Options says how Run runs workflows.
type Options struct {
	// Inputs are given inputs by name, as text: each workflow that
	// declares an input of that name gets it, a JSON value where its
	// schema does not declare it a string and the text is JSON.
	Inputs map[string]string
	// Wait waits d before a retry; nil waits on a timer.
	Wait func(ctx context.Context, d time.Duration) error
	// MaxSteps bounds the steps one workflow runs (a goto loop);
	// 0 means DefaultMaxSteps.
	MaxSteps int
	// Only names the one workflow to run, with those it depends on
	// before it; "" runs every workflow. Run fails when it names none.
	Only string
}

// DefaultMaxSteps bounds the steps a workflow runs when
// Options.MaxSteps is 0.
const DefaultMaxSteps = 1000

// Run runs the workflows of d, each once, in the order of the
// description, those a workflow depends on before it. It returns a
// result for each; the error is the Sender's, which ended the run.
func Run(ctx context.Context, d *Document, s Sender, opts Options) ([]*Result, error) {
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	if opts.Wait == nil {
		opts.Wait = wait
	}
	r := &run{doc: d, send: s, opts: opts, done: map[string]*Result{}, values: map[string]*workflowValues{}}
	list := d.Workflows
	if opts.Only != "" {
		w := d.Workflow(opts.Only)
		if w == nil {
			return nil, fmt.Errorf("the description has no workflow %s", opts.Only)
		}
		list = []*Workflow{w}
	}
	var out []*Result
	for _, w := range list {
		res, err := r.top(ctx, w)
		if err != nil {
			return out, err
		}
		out = append(out, res)
	}
	return out, nil
}

func wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// run is one Run.
type run struct {
	doc    *Document
	send   Sender
	opts   Options
	calls  int
	done   map[string]*Result         // top-level results by workflow id
	values map[string]*workflowValues // the last run's inputs and outputs by workflow id
}

// top runs w as a workflow of the description, once: after those it
// depends on.
func (r *run) top(ctx context.Context, w *Workflow) (*Result, error) {
	if res, ok := r.done[w.ID]; ok {
		return res, nil
	}
	for _, dep := range w.DependsOn {
		res, err := r.top(ctx, r.doc.Workflow(dep))
		if err != nil {
			return nil, err
		}
		if !res.OK {
			out := &Result{Workflow: w.ID, Rule: RuleWorkflow, Line: w.Line, Call: -1,
				Reason: fmt.Sprintf("it depends on workflow %s, which failed", dep)}
			r.done[w.ID] = out
			return out, nil
		}
	}
	inputs, err := r.inputs(w, nil)
	if err != nil {
		out := &Result{Workflow: w.ID, Rule: RuleWorkflow, Reason: err.Error(), Line: w.Line, Call: -1}
		r.done[w.ID] = out
		return out, nil
	}
	res, err := r.workflow(ctx, w, inputs, 0)
	if err != nil {
		return nil, err
	}
	r.done[w.ID] = res
	return res, nil
}

// inputs are w's inputs: given ones (Options.Inputs, then those a step
// or action passes, by name), else the default or first example of the
// inputs schema's property. A required input without a value is an
// error.
func (r *run) inputs(w *Workflow, passed map[string]any) (map[string]any, error) {
	schema := r.inputSchema(w.Inputs)
	props, _ := schema["properties"].(map[string]any)
	out := map[string]any{}
	for name, p := range props {
		ps, _ := p.(map[string]any)
		if raw, ok := r.opts.Inputs[name]; ok {
			out[name] = inputValue(raw, ps)
			continue
		}
		if v, ok := ps["default"]; ok {
			out[name], _ = jsonx.Normalize(v)
		} else if ex, ok := ps["examples"].([]any); ok && len(ex) > 0 {
			out[name], _ = jsonx.Normalize(ex[0])
		} else if v, ok := ps["example"]; ok {
			out[name], _ = jsonx.Normalize(v)
		}
	}
	maps.Copy(out, passed)
	req, _ := schema["required"].([]any)
	for _, n := range req {
		name, _ := n.(string)
		if _, ok := out[name]; !ok {
			return nil, fmt.Errorf("input %s is required and has no value: give it (--input %s=VALUE), or a default in the inputs schema", name, name)
		}
	}
	return out, nil
}

// inputSchema follows the inputs schema's $ref into components.inputs.
func (r *run) inputSchema(s map[string]any) map[string]any {
	for range 8 {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		next, _ := r.doc.Components.Inputs[strings.TrimPrefix(ref, "#/components/inputs/")].(map[string]any)
		if next == nil {
			return s
		}
		s = next
	}
	return s
}

// inputValue reads a given input: as text where its schema says it is
// a string, else as JSON where the text is JSON.
func inputValue(raw string, schema map[string]any) any {
	if t, _ := schema["type"].(string); t == "string" {
		return raw
	}
	if v, err := jsonx.Decode([]byte(raw)); err == nil {
		return v
	}
	return raw
}

// workflow runs w with its inputs; depth counts the workflows that
// called it.
func (r *run) workflow(ctx context.Context, w *Workflow, inputs map[string]any, depth int) (*Result, error) {
	res := &Result{Workflow: w.ID, Call: -1}
	if depth > 16 {
		return r.failed(res, "", RuleWorkflow, "workflows call each other more than 16 deep", w.Line, -1), nil
	}
	sc := &scope{doc: r.doc, inputs: inputs, outputs: map[string]any{}, steps: map[string]map[string]any{}, workflows: r.values}
	r.values[w.ID] = &workflowValues{inputs: inputs, outputs: map[string]any{}}
	tries := map[*Action]int{}
	attempts := map[string]int{}
	for i, n := 0, 0; i < len(w.Steps); n++ {
		if n >= r.opts.MaxSteps {
			return r.failed(res, w.Steps[i].ID, RuleWorkflow, fmt.Sprintf("more than %d steps were run: a goto that loops?", r.opts.MaxSteps), w.Steps[i].Line, -1), nil
		}
		s := w.Steps[i]
		attempts[s.ID]++
		out, err := r.step(ctx, w, s, sc, attempts[s.ID], depth)
		if err != nil {
			return nil, err
		}
		res.Steps = append(res.Steps, StepRun{Step: s.ID, Attempt: attempts[s.ID], OK: out.ok, Call: out.call})
		if out.ok {
			sc.steps[s.ID] = out.outputs
			a := r.action(append(slices.Clone(s.OnSuccess), w.SuccessActions...), sc, nil)
			switch {
			case a == nil:
				i++
			case a.Type == "end":
				i = len(w.Steps)
			case a.StepID != "":
				i = w.stepIndex(a.StepID)
			default:
				return r.transfer(ctx, res, w, s, a, sc, depth)
			}
			sc.x = nil
			continue
		}
		// The step failed: the first failure action whose criteria hold,
		// a retry only while it has tries left.
		a := r.action(append(slices.Clone(s.OnFailure), w.FailureActions...), sc, func(a *Action) bool {
			return a.Type != "retry" || tries[a] < retryLimit(a)
		})
		switch {
		case a == nil || a.Type == "end":
			return r.failed(res, s.ID, out.rule, out.reason, out.line, out.call), nil
		case a.Type == "retry":
			tries[a]++
			if a.StepID != "" || a.WorkflowID != "" {
				if ok, err := r.detour(ctx, w, a, sc, attempts, depth); err != nil || !ok {
					if err != nil {
						return nil, err
					}
					return r.failed(res, s.ID, RuleWorkflow, fmt.Sprintf("the retry's %s failed", target(a)), s.Line, out.call), nil
				}
			}
			if err := r.opts.Wait(ctx, retryAfter(a, sc.x)); err != nil {
				return nil, err
			}
		case a.StepID != "":
			i = w.stepIndex(a.StepID)
		default:
			return r.transfer(ctx, res, w, s, a, sc, depth)
		}
		sc.x = nil
	}
	sc.x = nil
	outs, err := outputs(sc, w.Outputs)
	if err != nil {
		return r.failed(res, "", RuleWorkflow, "outputs: "+err.Error(), w.Line, -1), nil
	}
	res.OK, res.Outputs = true, outs
	r.values[w.ID].outputs = outs
	return res, nil
}

// failed marks res failed at step.
func (r *run) failed(res *Result, step, rule, reason string, line, call int) *Result {
	res.OK, res.Step, res.Rule, res.Reason, res.Line, res.Call = false, step, rule, reason, line, call
	return res
}

// transfer ends w by a goto to another workflow: w's outcome is that
// workflow's.
func (r *run) transfer(ctx context.Context, res *Result, w *Workflow, s *Step, a *Action, sc *scope, depth int) (*Result, error) {
	next := r.doc.Workflow(a.WorkflowID)
	passed, err := r.passed(a.Parameters, sc)
	var inputs map[string]any
	if err == nil {
		inputs, err = r.inputs(next, passed)
	}
	if err != nil {
		return r.failed(res, s.ID, RuleWorkflow, fmt.Sprintf("goto workflow %s: %v", next.ID, err), s.Line, -1), nil
	}
	sub, err := r.workflow(ctx, next, inputs, depth+1)
	if err != nil {
		return nil, err
	}
	res.Steps = append(res.Steps, sub.Steps...)
	if !sub.OK {
		return r.failed(res, s.ID, sub.Rule, fmt.Sprintf("goto workflow %s, which failed at %s: %s", next.ID, where(sub), sub.Reason), sub.Line, sub.Call), nil
	}
	res.OK, res.Outputs = true, sub.Outputs
	return res, nil
}

// detour runs the step or workflow a retry names before the retry.
func (r *run) detour(ctx context.Context, w *Workflow, a *Action, sc *scope, attempts map[string]int, depth int) (bool, error) {
	if a.StepID != "" {
		s := w.Step(a.StepID)
		attempts[s.ID]++
		out, err := r.step(ctx, w, s, sc, attempts[s.ID], depth)
		if err != nil || !out.ok {
			return false, err
		}
		sc.steps[s.ID] = out.outputs
		return true, nil
	}
	next := r.doc.Workflow(a.WorkflowID)
	passed, err := r.passed(a.Parameters, sc)
	if err != nil {
		return false, nil
	}
	inputs, err := r.inputs(next, passed)
	if err != nil {
		return false, nil
	}
	sub, err := r.workflow(ctx, next, inputs, depth+1)
	if err != nil {
		return false, err
	}
	return sub.OK, nil
}

func target(a *Action) string {
	if a.StepID != "" {
		return "step " + a.StepID
	}
	return "workflow " + a.WorkflowID
}

func where(res *Result) string {
	if res.Step == "" {
		return "its start"
	}
	return "step " + res.Step
}

// retryLimit is how many times a retry action retries (one where it
// does not say).
func retryLimit(a *Action) int {
	if a.RetryLimit == nil {
		return 1
	}
	return *a.RetryLimit
}

// retryAfter is how long to wait before a retry: the answer's
// Retry-After in seconds where it has one (which the specification
// says SHOULD overrule retryAfter), else retryAfter.
func retryAfter(a *Action, x *Exchange) time.Duration {
	if x != nil {
		if s, err := strconv.Atoi(strings.TrimSpace(x.Header.Get("Retry-After"))); err == nil && s >= 0 {
			return time.Duration(s) * time.Second
		}
		if t, err := http.ParseTime(x.Header.Get("Retry-After")); err == nil {
			if d := time.Until(t); d > 0 {
				return d
			}
			return 0
		}
	}
	if a.RetryAfter == nil {
		return 0
	}
	return time.Duration(*a.RetryAfter * float64(time.Second))
}

// action returns the first action whose criteria all hold (and that
// usable allows), nil for none. An action named again later (the
// workflow's, overridden by the step's of the same name) is the
// first's.
func (r *run) action(as []*Action, sc *scope, usable func(*Action) bool) *Action {
	names := map[string]bool{}
	for _, a := range as {
		if names[a.Name] {
			continue
		}
		names[a.Name] = true
		if usable != nil && !usable(a) {
			continue
		}
		ok := true
		for _, c := range a.Criteria {
			if met, _, err := c.met(sc); err != nil || !met {
				ok = false
				break
			}
		}
		if ok {
			return a
		}
	}
	return nil
}

// stepOutcome is how one try of a step went.
type stepOutcome struct {
	ok           bool
	outputs      map[string]any
	rule, reason string
	line, call   int
}

// step runs one try of s.
func (r *run) step(ctx context.Context, w *Workflow, s *Step, sc *scope, attempt, depth int) (stepOutcome, error) {
	fail := func(rule, reason string, line, call int) (stepOutcome, error) {
		if line == 0 {
			line = s.Line
		}
		return stepOutcome{rule: rule, reason: reason, line: line, call: call}, nil
	}
	params, err := r.params(w, s, sc)
	if err != nil {
		return fail(RuleWorkflow, err.Error(), 0, -1)
	}
	if s.WorkflowID != "" {
		return r.callWorkflow(ctx, s, params, sc, depth)
	}
	c := &Call{Workflow: w.ID, Step: s.ID, Attempt: attempt, Params: params}
	if s.OperationID != "" {
		c.Source, c.OperationID = r.doc.OperationID(s.OperationID)
	} else {
		c.Source, c.OperationPath, _ = r.doc.OperationPath(s.OperationPath)
	}
	if b := s.RequestBody; b != nil {
		c.ContentType, c.HasBody = b.ContentType, true
		if c.Body, err = r.body(b, sc); err != nil {
			return fail(RuleWorkflow, "requestBody: "+err.Error(), 0, -1)
		}
	}
	call := r.calls
	r.calls++
	x, err := r.send.Send(ctx, c)
	if err != nil {
		var u *Unsent
		if errors.As(err, &u) {
			return fail(RuleWorkflow, u.Reason, 0, call)
		}
		return stepOutcome{}, err
	}
	sc.x = x
	for _, cr := range s.SuccessCriteria {
		met, seen, err := cr.met(sc)
		switch {
		case err != nil:
			return fail(RuleCriterion, fmt.Sprintf("%s cannot be evaluated: %v%s", cr, err, saw(seen)), cr.Line, call)
		case !met:
			return fail(RuleCriterion, fmt.Sprintf("%s is not met%s", cr, saw(seen)), cr.Line, call)
		}
	}
	outs, err := outputs(sc, s.Outputs)
	if err != nil {
		return fail(RuleWorkflow, "outputs: "+err.Error(), 0, call)
	}
	return stepOutcome{ok: true, outputs: outs, call: call}, nil
}

func saw(seen string) string {
	if seen == "" {
		return ""
	}
	return " (" + seen + ")"
}

// callWorkflow runs the workflow a step names, the step's parameters
// its inputs; the step's outputs read $outputs, the workflow's.
func (r *run) callWorkflow(ctx context.Context, s *Step, params []Value, sc *scope, depth int) (stepOutcome, error) {
	next := r.doc.Workflow(s.WorkflowID)
	passed := map[string]any{}
	for _, p := range params {
		passed[p.Name] = p.Value
	}
	inputs, err := r.inputs(next, passed)
	if err != nil {
		return stepOutcome{rule: RuleWorkflow, reason: fmt.Sprintf("workflow %s: %v", next.ID, err), line: s.Line, call: -1}, nil
	}
	sub, err := r.workflow(ctx, next, inputs, depth+1)
	if err != nil {
		return stepOutcome{}, err
	}
	if !sub.OK {
		return stepOutcome{rule: sub.Rule, reason: fmt.Sprintf("workflow %s failed at %s: %s", next.ID, where(sub), sub.Reason), line: sub.Line, call: sub.Call}, nil
	}
	inner := &scope{doc: sc.doc, inputs: sc.inputs, outputs: sub.Outputs, steps: sc.steps, workflows: sc.workflows}
	outs, err := outputs(inner, s.Outputs)
	if err != nil {
		return stepOutcome{rule: RuleWorkflow, reason: "outputs: " + err.Error(), line: s.Line, call: -1}, nil
	}
	return stepOutcome{ok: true, outputs: outs, call: -1}, nil
}

// params works out the parameters of a step: the workflow's, each
// replaced by the step's of the same name and place.
func (r *run) params(w *Workflow, s *Step, sc *scope) ([]Value, error) {
	all := slices.Clone(w.Parameters)
	for _, p := range s.Parameters {
		i := slices.IndexFunc(all, func(q Param) bool { return q.Name == p.Name && q.In == p.In })
		if i >= 0 {
			all[i] = p
		} else {
			all = append(all, p)
		}
	}
	out := make([]Value, 0, len(all))
	for _, p := range all {
		v, err := sc.resolve(p.Value)
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %v", p.Name, err)
		}
		out = append(out, Value{Name: p.Name, In: p.In, Value: v})
	}
	return out, nil
}

// passed works out the parameters an action passes to a workflow.
func (r *run) passed(ps []Param, sc *scope) (map[string]any, error) {
	out := map[string]any{}
	for _, p := range ps {
		v, err := sc.resolve(p.Value)
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %v", p.Name, err)
		}
		out[p.Name] = v
	}
	return out, nil
}

// body works out a request body: its payload, then each replacement.
func (r *run) body(b *RequestBody, sc *scope) (any, error) {
	v, err := sc.resolve(b.Payload)
	if err != nil {
		return nil, err
	}
	for _, rp := range b.Replacements {
		val, err := sc.resolve(rp.Value)
		if err != nil {
			return nil, fmt.Errorf("replacement %s: %v", rp.Target, err)
		}
		if v, err = replace(v, rp.Target, val); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// replace sets the value at a JSON pointer in v, in a copy: an
// object's property (added where missing, with the objects on the way),
// an array's item, or "-" to append to an array.
func replace(v any, ptr string, val any) (any, error) {
	if ptr == "" {
		return val, nil
	}
	return setAt(v, strings.Split(strings.TrimPrefix(ptr, "/"), "/"), val, ptr)
}

func setAt(v any, toks []string, val any, ptr string) (any, error) {
	if len(toks) == 0 {
		return val, nil
	}
	tok := strings.ReplaceAll(strings.ReplaceAll(toks[0], "~1", "/"), "~0", "~")
	switch x := v.(type) {
	case map[string]any:
		out := maps.Clone(x)
		inner, err := setAt(x[tok], toks[1:], val, ptr)
		if err != nil {
			return nil, err
		}
		out[tok] = inner
		return out, nil
	case []any:
		out := slices.Clone(x)
		if tok == "-" && len(toks) == 1 {
			return append(out, val), nil
		}
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || i >= len(x) {
			return nil, fmt.Errorf("replacement %s: no item %s in an array of %d", ptr, tok, len(x))
		}
		if out[i], err = setAt(x[i], toks[1:], val, ptr); err != nil {
			return nil, err
		}
		return out, nil
	case nil:
		inner, err := setAt(nil, toks[1:], val, ptr)
		if err != nil {
			return nil, err
		}
		return map[string]any{tok: inner}, nil
	}
	return nil, fmt.Errorf("replacement %s: the payload has no object or array there", ptr)
}

// outputs works out a map of outputs.
func outputs(sc *scope, outs map[string]any) (map[string]any, error) {
	out := map[string]any{}
	names := slices.Sorted(maps.Keys(outs))
	for _, name := range names {
		v, err := sc.resolve(outs[name])
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		out[name] = v
	}
	return out, nil
}
