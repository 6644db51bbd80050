package verify

import (
	"context"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/plantmock/plantmock"
	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/verify/internal/arazzo"
)

// Workflows are Arazzo workflows for Run to run (Options.Workflows).
type Workflows struct {
	// Description is the Arazzo description (1.0 or 1.1), YAML or JSON.
	Description []byte
	// File and Spec are the names of the description and of the OpenAPI
	// document, for the report: the lines of failures are in File, and
	// a source description whose url names another file than Spec is
	// said to be read as the document all the same.
	File, Spec string
	// Inputs are the workflows' inputs by name, as text: each workflow
	// declaring an input of that name gets it, as JSON where the text is
	// and the input's schema does not say string.
	Inputs map[string]string
}

// workflows runs the workflows of d: each step's request made from the
// step's parameters and body (a required parameter or body the step
// does not give is generated, as for any check), sent as a check of
// kind "workflow" whose answer is judged by the document, and each
// workflow that fails a failure at the step it failed at.
func (r *runner) workflows(ctx context.Context, d *arazzo.Document, w *Workflows, only string) error {
	s := &stepSender{r: r, source: r.noteSources(d, w)}
	r.rep.WorkflowsFile = w.File
	if r.opts.DryRun {
		for _, wf := range d.Workflows {
			r.rep.Workflows = append(r.rep.Workflows, &WorkflowRun{ID: wf.ID, Steps: []string{}, NotRun: "a dry run sends nothing, and a workflow's steps need the answers of those before them"})
		}
		return nil
	}
	results, err := arazzo.Run(ctx, d, s, arazzo.Options{Inputs: w.Inputs, Only: only})
	for _, res := range results {
		run := &WorkflowRun{ID: res.Workflow, OK: res.OK, Step: res.Step, Outputs: res.Outputs, Steps: []string{}}
		for _, st := range res.Steps {
			name := st.Step
			if st.Attempt > 1 {
				name += fmt.Sprintf(" (try %d)", st.Attempt)
			}
			run.Steps = append(run.Steps, name)
		}
		r.rep.Workflows = append(r.rep.Workflows, run)
		if res.OK {
			continue
		}
		run.Rule, run.Reason, run.Line = res.Rule, res.Reason, res.Line
		text := fmt.Sprintf("workflow %s failed at step %s: %s", res.Workflow, res.Step, res.Reason)
		if res.Step == "" {
			text = fmt.Sprintf("workflow %s failed: %s", res.Workflow, res.Reason)
		}
		f := &Failure{Rule: res.Rule, Text: text, Strength: Fail, Line: res.Line, File: w.File, Workflow: res.Workflow, Step: res.Step}
		if res.Call >= 0 && res.Call < len(s.checks) && s.checks[res.Call] != nil {
			r.rep.file(s.checks[res.Call], []*Failure{f}, r.rep.seen)
			continue
		}
		// Seen in no answer: a check of the workflow's own.
		c := &Check{Operation: "workflow " + res.Workflow, Kind: "workflow", Name: res.Workflow, Workflow: res.Workflow, Step: res.Step, Failures: []*Failure{f}}
		if res.Step != "" {
			c.Name += " step " + res.Step
		}
		r.rep.add(c, r.rep.seen)
	}
	return err
}

// noteSources notes which source description the steps' operations are
// looked up in (the first OpenAPI one: the document verify was given)
// and returns its name.
func (r *runner) noteSources(d *arazzo.Document, w *Workflows) string {
	spec := w.Spec
	if spec == "" {
		spec = "the embedded Plant Store"
	}
	var used string
	for _, src := range d.Sources {
		switch {
		case src.Type != "" && src.Type != "openapi":
			r.rep.Notes = append(r.rep.Notes, fmt.Sprintf("source description %s (%s, %s) is not read: steps that name it fail", src.Name, src.Type, src.URL))
		case used != "":
			r.rep.Notes = append(r.rep.Notes, fmt.Sprintf("source description %s (%s) is not read: only the first OpenAPI one, %s, is the document verify was given; steps that name %s fail", src.Name, src.URL, used, src.Name))
		default:
			used = src.Name
			note := fmt.Sprintf("source description %s (%s) is read as the document verify was given, %s", src.Name, src.URL, spec)
			if w.Spec == "" || path.Base(src.URL) != path.Base(w.Spec) {
				note += fmt.Sprintf(": its url names another document than %s, whose operations the steps are looked up in", spec)
			}
			r.rep.Notes = append(r.rep.Notes, note)
		}
	}
	return used
}

// stepSender sends the steps' requests as checks of the run.
type stepSender struct {
	r      *runner
	source string // the source description the document is
	// checks are the checks of the calls in order, nil for a call that
	// sent nothing.
	checks []*Check
}

var _ arazzo.Sender = (*stepSender)(nil)

// Send sends a step's request and returns its exchange.
func (s *stepSender) Send(ctx context.Context, c *arazzo.Call) (*arazzo.Exchange, error) {
	r := s.r
	s.checks = append(s.checks, nil)
	op, err := s.operation(c)
	if err != nil {
		return nil, &arazzo.Unsent{Reason: err.Error()}
	}
	seed := r.opts.Seed*0x9e3779b97f4a7c15 + uint64(len(s.checks))<<20
	call, err := exercise.Make(op, seed)
	if err != nil {
		return nil, &arazzo.Unsent{Reason: err.Error()}
	}
	call.InvalidParams = true // the step says what to send, valid or not
	var extra []arazzo.Value
	for _, p := range c.Params {
		if param(op, p.In, p.Name) != nil {
			call.Values[p.In+"."+p.Name] = p.Value
		} else {
			extra = append(extra, p)
		}
	}
	var raw []byte // a body sent as the step gives it
	if c.HasBody {
		if op.Body != nil && c.ContentType != "" {
			call.Media = op.Body.Media(c.ContentType)
		} else if op.Body != nil && call.Media == nil {
			call.Media = op.Body.JSON()
		}
		text, isText := c.Body.(string)
		switch {
		case call.Media == nil || isText && !openapi.IsJSON(bareType(call.Media.Type)):
			call.Media, raw = nil, []byte(jsonText(c.Body, isText, text))
		default:
			call.Body = c.Body
		}
	}
	req, body, err := r.prepare(call)
	if err != nil {
		return nil, &arazzo.Unsent{Reason: err.Error()}
	}
	if raw != nil {
		body = raw
		ct := c.ContentType
		if ct == "" {
			ct = "application/json"
		}
		req.Header.Set("Content-Type", ct)
	}
	if err := addExtra(req, extra); err != nil {
		return nil, &arazzo.Unsent{Reason: err.Error()}
	}
	name := c.Workflow + " step " + c.Step
	if c.Attempt > 1 {
		name += fmt.Sprintf(" (try %d)", c.Attempt)
	}
	sent, err := r.send(ctx, op, "workflow", name, req, body, r.judgeStep(op))
	if err != nil {
		return nil, err
	}
	chk := r.rep.Checks[len(r.rep.Checks)-1]
	chk.Workflow, chk.Step = c.Workflow, c.Step
	s.checks[len(s.checks)-1] = chk
	if sent.err != nil {
		return nil, &arazzo.Unsent{Reason: "no answer: " + oneLine(sent.err.Error(), 200)}
	}
	return exchange(call, sent), nil
}

// operation finds the operation a step names in the document.
func (s *stepSender) operation(c *arazzo.Call) (*openapi.Operation, error) {
	if c.Source != "" && c.Source != s.source {
		return nil, fmt.Errorf("source description %s is not the document verify was given (the first OpenAPI source description, %s)", c.Source, s.source)
	}
	if op := findOperation(s.r.doc, c.OperationID, c.OperationPath); op != nil {
		return op, nil
	}
	if c.OperationID != "" {
		return nil, fmt.Errorf("no operation of the document has operationId %s", c.OperationID)
	}
	return nil, fmt.Errorf("no operation of the document is at %s", c.OperationPath)
}

// findOperation finds the operation of an operationId, or at a JSON
// pointer (/paths/~1things/get), in doc; nil for none.
func findOperation(doc *openapi.Document, id, ptr string) *openapi.Operation {
	if u, err := url.PathUnescape(ptr); err == nil {
		ptr = u // {id} may be written %7Bid%7D in a URI's fragment
	}
	for _, op := range doc.Operations {
		if id != "" && op.ID == id {
			return op
		}
		if ptr != "" && opPointer(op) == "#"+ptr {
			return op
		}
	}
	return nil
}

// WorkflowProblem is a mistake LintWorkflows finds in an Arazzo
// description.
type WorkflowProblem struct {
	// Line is the line of the workflow or step it is in, 0 when unknown.
	Line int
	Text string
}

// LintWorkflows checks an Arazzo description (1.0 or 1.1, YAML or JSON)
// against the OpenAPI document spec (the embedded Plant Store when
// empty) without sending anything: every mistake Run would refuse the
// description for, a step whose operation the document does not have,
// and a $steps.ID.outputs.NAME naming no step or no output of it. It
// returns the problems in the order of the description, none where it
// is fine; the error says why the document cannot be read.
func LintWorkflows(description, spec []byte) ([]WorkflowProblem, error) {
	if len(spec) == 0 {
		spec = []byte(plantmock.OpenAPI)
	}
	doc, err := openapi.Load(spec)
	if err != nil {
		return nil, fmt.Errorf("verify: the document: %w", err)
	}
	has := func(id, ptr string) bool { return findOperation(doc, id, ptr) != nil }
	var out []WorkflowProblem
	for _, p := range arazzo.Lint(description, has) {
		out = append(out, WorkflowProblem{Line: p.Line, Text: p.Text})
	}
	return out, nil
}

// judgeStep judges an answer to a workflow's step by the document:
// exercise.Judge's rules (no 5xx, the status, Content-Type, body and
// headers declared). Whether the status is the one the step wants is
// for its success criteria to say: a step may send what the service
// must refuse.
func (r *runner) judgeStep(op *openapi.Operation) func(*sent) []*Failure {
	return func(s *sent) []*Failure { return r.judged(op, s) }
}

// judged is what exercise.Judge finds wrong with an answer of op, but
// the rules no answer can keep; a 5xx is one failure, not also an
// undeclared status.
func (r *runner) judged(op *openapi.Operation, s *sent) []*Failure {
	probs := r.keepable(exercise.Judge(r.doc, op, s.resp, s.answer))
	if i := slices.IndexFunc(probs, func(p exercise.Problem) bool { return p.Kind == "5xx" }); i >= 0 {
		probs = probs[i : i+1]
	}
	var out []*Failure
	for _, p := range probs {
		out = append(out, &Failure{Rule: p.Kind, Text: p.Text, Schema: p.Schema})
	}
	return out
}

// addExtra adds the parameters the operation does not declare (an
// Authorization header, say) to the request as they are.
func addExtra(req *http.Request, extra []arazzo.Value) error {
	for _, p := range extra {
		v := jsonText(p.Value, false, "")
		if s, ok := p.Value.(string); ok {
			v = s
		}
		switch p.In {
		case "header":
			req.Header.Set(p.Name, v)
		case "query":
			q := req.URL.Query()
			q.Add(p.Name, v)
			req.URL.RawQuery = q.Encode()
		case "cookie":
			req.AddCookie(&http.Cookie{Name: p.Name, Value: v})
		default:
			return fmt.Errorf("parameter %s: the operation declares no %s parameter of that name", p.Name, p.In)
		}
	}
	return nil
}

// jsonText is a body or value as text: text where it is a string,
// else its JSON.
func jsonText(v any, isText bool, text string) string {
	if isText {
		return text
	}
	return string(jsonx.Marshal(v))
}

// bareType is a media type without its parameters, lower case.
func bareType(ct string) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return strings.ToLower(ct)
	}
	return mt
}

// exchange is a sent step as the workflow's expressions read it.
func exchange(c *exercise.Call, s *sent) *arazzo.Exchange {
	x := &arazzo.Exchange{URL: s.req.URL.String(), Method: s.req.Method, Status: s.resp.StatusCode,
		RequestHeader: s.req.Header, Query: s.req.URL.Query(), Path: map[string]string{}, Header: s.resp.Header}
	for k, v := range c.Values {
		if name, ok := strings.CutPrefix(k, "path."); ok {
			x.Path[name] = jsonText(v, false, "")
			if str, isStr := v.(string); isStr {
				x.Path[name] = str
			}
		}
	}
	x.RequestBody = bodyValue(s.req.Header.Get("Content-Type"), s.body)
	x.Body = bodyValue(s.resp.Header.Get("Content-Type"), s.answer)
	return x
}

// bodyValue is a body as expressions read it: a JSON value where it is
// JSON, else its text; nil for none.
func bodyValue(ct string, b []byte) any {
	if len(b) == 0 {
		return nil
	}
	if openapi.IsJSON(bareType(ct)) {
		if v, err := jsonx.Decode(b); err == nil {
			return v
		}
	}
	return string(b)
}
