package verify

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ReportVersion is the version of the Report's JSON form: a new one
// only when a field changes meaning or goes; fields may be added within
// a version.
const ReportVersion = 2

// Report is what Run found.
type Report struct {
	// ReportVersion is the version of the JSON form, ReportVersion.
	ReportVersion int `json:"reportVersion"`
	// Title and Version are the document's.
	Title   string `json:"title"`
	Version string `json:"version"`
	// Target is the service's base URL.
	Target string `json:"target"`
	// Checks are the requests made, in the order they were sent, each
	// with what was wrong with its answer.
	Checks []*Check `json:"checks"`
	// Failures are the distinct problems found, each once, in the order
	// they were first seen: the same problem in the answers of several
	// checks of one operation (a wrong type in every answer) is one
	// failure.
	Failures []*Failure `json:"failures"`
	// Advice are the distinct problems found whose rule is advice (an
	// annotation, a SHOULD, a choice the document leaves open), each
	// once as Failures are: they do not make the run fail.
	Advice []*Failure `json:"advice"`
	// Unmade lists the operations (or cases) no valid request could be
	// made for, and why.
	Unmade []string `json:"unmade,omitempty"`
	// Fixtures are the outputs of the set-up's workflows (Options.Setup)
	// that succeeded, by name: the values of the path parameters of
	// those names.
	Fixtures map[string]any `json:"fixtures,omitempty"`
	// Order lists the sequences (see docs/verify.md) in the order they
	// ran, parents first, each with the items it made first:
	// "POST /genres/{genreId}/books, after PUT /genres/{genreId} for
	// genreId". Empty when no sequence has parents.
	Order []string `json:"order,omitempty"`
	// Impossible lists the document's rules an answer broke that no
	// answer can keep (a oneOf two of whose alternatives accept the same
	// values), each once: problems of the document, not failures of the
	// service.
	Impossible []string `json:"impossible,omitempty"`
	// Requests is how many requests were sent.
	Requests int `json:"requests"`
	// Coverage is how much of the document the requests exercised.
	Coverage Coverage `json:"coverage"`
	// Stopped says why the run stopped before its end, "" when it did
	// not.
	Stopped string `json:"stopped,omitempty"`
	// DryRun is true when no request was sent.
	DryRun bool `json:"dryRun,omitempty"`
	// Workflows are the Arazzo workflows run (Options.Workflows), in
	// the order of the description, each with how it went; Notes say
	// which document their source descriptions were read as.
	Workflows []*WorkflowRun `json:"workflows,omitempty"`
	Notes     []string       `json:"notes,omitempty"`
	// WorkflowsFile is the Arazzo description's name (Workflows.File).
	WorkflowsFile string `json:"workflowsFile,omitempty"`
	// Previous, for a run judged against a previous version of the
	// document (Options.Previous), says which one and how many failures
	// come with the new version; nil otherwise.
	Previous *Previous `json:"previous,omitempty"`
}

// WorkflowRun is how one Arazzo workflow went.
type WorkflowRun struct {
	ID string `json:"workflowId"`
	OK bool   `json:"ok"`
	// Steps are the steps run, in order: "read", "poll (try 2)".
	Steps []string `json:"steps"`
	// Step is the step it failed at ("" for none, or for the workflow
	// itself: an input missing, a workflow it depends on failed); Rule,
	// Reason and Line (in the Arazzo description) say why.
	Step   string `json:"step,omitempty"`
	Rule   string `json:"rule,omitempty"`
	Reason string `json:"reason,omitempty"`
	Line   int    `json:"line,omitempty"`
	// Outputs are the workflow's outputs, where it succeeded.
	Outputs map[string]any `json:"outputs,omitempty"`
	// NotRun says why it was not run (a dry run).
	NotRun string `json:"notRun,omitempty"`
	// Setup is set for a workflow of the set-up (Options.Setup).
	Setup bool `json:"setup,omitempty"`
}

// Check is one request of the run and its answer.
type Check struct {
	// Operation is the operation's name, "POST /plants".
	Operation string `json:"operation"`
	// Kind is "positive", "negative" or "stateful"; Name says what the
	// request is: "example", "required only", "missing required
	// property name", "read after create".
	Kind string `json:"kind"`
	Name string `json:"name"`
	// Curl is a command line that sends the same request.
	Curl string `json:"curl"`
	// Status is the answer's status; 0 when none came (or the request
	// was not sent).
	Status int `json:"status,omitempty"`
	// Workflow and Step name the Arazzo workflow and step that sent the
	// request (Kind "workflow"), "" for the other checks.
	Workflow string `json:"workflow,omitempty"`
	Step     string `json:"step,omitempty"`
	// Failures are the problems of the answer, each also in
	// Report.Failures (once for all the checks it was seen in); Advice
	// those that are advice, each also in Report.Advice.
	Failures []*Failure `json:"-"`
	Advice   []*Failure `json:"-"`
}

// Title is the check's kind and name, "negative: wrong type of name".
func (c *Check) Title() string { return c.Kind + ": " + c.Name }

// Failure is one way the service breaks the document.
type Failure struct {
	// Operation is the operation's name; Check the title of the first
	// check that saw it, Curl that check's request, or a smaller one
	// that fails the same way: the check's request shrunk, whose own
	// curl line is then Unshrunk.
	Operation string `json:"operation"`
	Check     string `json:"check"`
	Curl      string `json:"curl"`
	Unshrunk  string `json:"unshrunk,omitempty"`
	// Rule names the rule broken: "5xx", "status", "content-type",
	// "body", "header", "writeOnly", "timeout", "no answer", "valid
	// input refused", "accepted invalid input", "error status", "error
	// shape", "state", "unsupported method" (a method a path does not
	// declare, not refused with 405) or "allow" (the Allow header of
	// that 405); for an Arazzo workflow, "criterion" (a step's success
	// criteria not met) or "workflow" (the workflow could not go on).
	Rule string `json:"rule"`
	// Text says what is wrong and what the document declares.
	Text string `json:"text"`
	// Schema is where in the document the broken rule is, a JSON
	// pointer fragment; "" when no schema is at fault.
	Schema string `json:"schema,omitempty"`
	// Also lists the other checks that saw the same problem.
	Also []string `json:"also,omitempty"`
	// Strength is Fail or Advice; Why says why a problem is advice.
	Strength string `json:"strength"`
	Why      string `json:"why,omitempty"`
	// Line is the line of the document where the rule is (else the
	// operation), 0 when the document is not YAML or JSON verify can
	// read again.
	Line int `json:"line,omitempty"`
	// Workflow and Step name the Arazzo workflow and the step it failed
	// at; File is the file Line is in when it is not the document (the
	// Arazzo description, for rules "criterion" and "workflow").
	Workflow string `json:"workflow,omitempty"`
	Step     string `json:"step,omitempty"`
	File     string `json:"file,omitempty"`
	// AgainstPrevious, for a failure of a run judged against a previous
	// version of the document (Options.Previous), is Introduced where
	// that version is kept on this point (or lacks the operation), else
	// Inherited; "" for advice and for a run without one.
	AgainstPrevious string `json:"againstPrevious,omitempty"`
	// previousLacks is set where the previous version lacks the
	// operation.
	previousLacks bool
}

// String writes the failure on one line: operation, check, rule, text
// and schema pointer; advice starts with "advice: ".
func (f *Failure) String() string {
	s := fmt.Sprintf("%s: %s: %s: %s", f.Operation, f.Check, f.Rule, f.Text)
	if f.Strength == Advice {
		s = "advice: " + s
	}
	if f.Schema != "" {
		s += " (" + f.Schema + ")"
	}
	return s
}

// key is what makes two failures the same problem: the operation and the
// rule, and the schema keyword broken, or else the text.
func (f *Failure) key() string {
	if f.Schema != "" {
		return f.Strength + "\x00" + f.Operation + "\x00" + f.Rule + "\x00" + f.Schema
	}
	return f.Strength + "\x00" + f.Operation + "\x00" + f.Rule + "\x00" + f.Text
}

// Coverage counts what the run exercised out of what the document
// declares.
type Coverage struct {
	// Operations answered, of those selected.
	Operations         int `json:"operations"`
	OperationsDeclared int `json:"operationsDeclared"`
	// Statuses: declared responses (an exact status, a range or
	// default, per operation) that some answer was judged by.
	Statuses         int `json:"statuses"`
	StatusesDeclared int `json:"statusesDeclared"`
	// MediaTypes: declared request media types (per operation) a valid
	// request was sent in.
	MediaTypes         int `json:"mediaTypes"`
	MediaTypesDeclared int `json:"mediaTypesDeclared"`
}

// String writes the coverage line.
func (c Coverage) String() string {
	return fmt.Sprintf("operations %d/%d, declared statuses %d/%d, request media types %d/%d",
		c.Operations, c.OperationsDeclared, c.Statuses, c.StatusesDeclared, c.MediaTypes, c.MediaTypesDeclared)
}

// MarshalJSON writes the report as JSON, with its lists empty ([])
// where nothing is in them, never null: a reader that counts the
// failures or the advice need not tell the two apart.
func (r Report) MarshalJSON() ([]byte, error) {
	type plain Report // without the method, so that Marshal does not recurse
	p := plain(r)
	p.Checks = orEmpty(p.Checks)
	p.Failures = orEmpty(p.Failures)
	p.Advice = orEmpty(p.Advice)
	return json.Marshal(p)
}

// orEmpty returns s, or an empty slice where s is nil.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// OK reports whether the run found no failure.
func (r *Report) OK() bool { return len(r.Failures) == 0 }

// add records a check and its problems, the advice apart from the
// failures, merging each into one seen before with the same key.
func (r *Report) add(c *Check, seen map[string]*Failure) {
	r.Checks = append(r.Checks, c)
	all := c.Failures
	c.Failures = nil
	r.file(c, all, seen)
}

// file records problems of a check recorded before, as add does.
func (r *Report) file(c *Check, all []*Failure, seen map[string]*Failure) {
	for _, f := range all {
		f.Operation, f.Check = c.Operation, c.Title()
		if f.Curl == "" {
			f.Curl = c.Curl // else the request shrunk
		}
		if prev, ok := seen[f.key()]; ok {
			if prev.Check != f.Check && !contains(prev.Also, f.Check) {
				prev.Also = append(prev.Also, f.Check)
			}
			f = prev
		} else {
			seen[f.key()] = f
			if f.Strength == Advice {
				r.Advice = append(r.Advice, f)
			} else {
				r.Failures = append(r.Failures, f)
			}
		}
		if f.Strength == Advice {
			c.Advice = append(c.Advice, f)
		} else {
			c.Failures = append(c.Failures, f)
		}
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// oneLine shortens s to one line of at most n bytes, for a message.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n-3] + "..."
	}
	return s
}
