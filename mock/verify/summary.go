package verify

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// WriteSummary writes the report for a person: per operation, how many
// checks passed, then each failure with the check that saw it, the rule
// broken and where the document states it, and a curl line that sends
// the request again; then the advice, each with why it is not a
// failure; then the operations no valid request could be made for, the
// rules no answer can keep, the coverage line, and last one line that
// says at a glance whether the service keeps the document. A run
// judged against a previous version of the document marks each failure
// new or already failing, and says before that last line how many are
// new.
func (r *Report) WriteSummary(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "verify %s against %s %s\n", r.Target, r.Title, r.Version)
	var order []string
	checks := map[string][]*Check{}
	for _, c := range r.Checks {
		if _, ok := checks[c.Operation]; !ok {
			order = append(order, c.Operation)
		}
		checks[c.Operation] = append(checks[c.Operation], c)
	}
	for _, op := range order {
		cs := checks[op]
		failed := 0
		for _, c := range cs {
			if len(c.Failures) > 0 {
				failed++
			}
		}
		switch {
		case r.DryRun:
			fmt.Fprintf(&b, "\n%s: %s\n", op, plural(len(cs), "request"))
			for _, c := range cs {
				fmt.Fprintf(&b, "  %s\n    %s\n", c.Title(), c.Curl)
			}
			continue
		case failed == 0:
			fmt.Fprintf(&b, "\n%s: %s passed%s\n", op, plural(len(cs), "check"), advised(r.Advice, op))
			continue
		}
		fmt.Fprintf(&b, "\n%s: %d of %s failed%s\n", op, failed, plural(len(cs), "check"), advised(r.Advice, op))
		for _, f := range r.Failures {
			if f.Operation == op {
				writeProblem(&b, "FAIL", f)
			}
		}
	}
	if len(r.Advice) > 0 {
		fmt.Fprintf(&b, "\nadvice (not failures: the exit code does not count them):\n")
		for _, f := range r.Advice {
			writeProblem(&b, "ADVICE "+f.Operation+":", f)
		}
	}
	if len(r.Unmade) > 0 {
		fmt.Fprintf(&b, "\nno valid request could be made for:\n")
		for _, u := range r.Unmade {
			fmt.Fprintf(&b, "  %s\n", u)
		}
	}
	if len(r.Fixtures) > 0 {
		fmt.Fprintf(&b, "\nfixtures the set-up made (path values):")
		for _, k := range slices.Sorted(maps.Keys(r.Fixtures)) {
			fmt.Fprintf(&b, " %s=%v", k, r.Fixtures[k])
		}
		b.WriteString("\n")
	}
	if len(r.Order) > 0 {
		fmt.Fprintf(&b, "\nsequences, parents first:\n")
		for _, o := range r.Order {
			fmt.Fprintf(&b, "  %s\n", o)
		}
	}
	if len(r.Impossible) > 0 {
		fmt.Fprintf(&b, "\nthe document asks what no answer can do (not judged):\n")
		for _, u := range r.Impossible {
			fmt.Fprintf(&b, "  %s\n", u)
		}
	}
	writeWorkflows(&b, r)
	fmt.Fprintf(&b, "\ncoverage: %s\n", r.Coverage)
	if r.Stopped != "" {
		fmt.Fprintf(&b, "%s\n", r.Stopped)
	}
	if r.Previous != nil && !r.DryRun {
		fmt.Fprintf(&b, "%s\n", r.Previous)
	}
	b.WriteString(r.Verdict() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Verdict is the summary's last line: "ok", or "FAILED" with the
// failures, then the checks, advice and requests.
func (r *Report) Verdict() string {
	switch {
	case r.DryRun:
		return fmt.Sprintf("dry run: %s, none sent", plural(len(r.Checks), "request"))
	case r.OK():
		return fmt.Sprintf("ok: %s, no failure, %d advice (%s)", plural(len(r.Checks), "check"), len(r.Advice), plural(r.Requests, "request"))
	}
	return fmt.Sprintf("FAILED: %s, %s, %d advice (%s)", plural(len(r.Checks), "check"), plural(len(r.Failures), "failure"), len(r.Advice), plural(r.Requests, "request"))
}

// plural counts a noun: "1 check", "2 checks", "0 checks".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// advised says how many distinct advice an operation got, for its
// line: "" for none.
func advised(advice []*Failure, op string) string {
	n := 0
	for _, f := range advice {
		if f.Operation == op {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d advice, below)", n)
}

// writeProblem writes a failure or advice: its check and rule, what is
// wrong, where the rule is, why it is advice, the other checks that saw
// it, and the curl line.
func writeProblem(b *strings.Builder, label string, f *Failure) {
	fmt.Fprintf(b, "  %s %s [%s]\n", label, f.Check, f.Rule)
	fmt.Fprintf(b, "    %s\n", f.Text)
	if m := f.marked(); m != "" {
		fmt.Fprintf(b, "    %s\n", m)
	}
	if f.Schema != "" {
		fmt.Fprintf(b, "    rule: %s\n", f.Schema)
	}
	if f.Why != "" {
		fmt.Fprintf(b, "    why advice: %s\n", f.Why)
	}
	if len(f.Also) > 0 {
		fmt.Fprintf(b, "    also in: %s\n", strings.Join(f.Also, "; "))
	}
	if f.Unshrunk != "" {
		b.WriteString("    shrunk: the smallest request found that fails the same way, sent twice:\n")
	}
	if f.Curl != "" {
		fmt.Fprintf(b, "    %s\n", f.Curl)
	}
}

// writeWorkflows writes how each Arazzo workflow went, and the notes of
// the run.
func writeWorkflows(b *strings.Builder, r *Report) {
	if len(r.Workflows) == 0 {
		return
	}
	fmt.Fprintf(b, "\nworkflows (%s):\n", r.WorkflowsFile)
	for _, w := range r.Workflows {
		name := w.ID
		if w.Setup {
			name = "set-up " + w.ID
		}
		switch {
		case w.NotRun != "":
			fmt.Fprintf(b, "  %s: not run: %s\n", name, w.NotRun)
		case w.OK:
			fmt.Fprintf(b, "  %s: ok (%s)\n", name, strings.Join(w.Steps, ", "))
		case w.Step == "":
			fmt.Fprintf(b, "  %s: FAILED (line %d): %s: %s\n", name, w.Line, w.Rule, w.Reason)
		default:
			fmt.Fprintf(b, "  %s: FAILED at step %s (line %d): %s: %s\n", name, w.Step, w.Line, w.Rule, w.Reason)
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(b, "  note: %s\n", n)
	}
}
