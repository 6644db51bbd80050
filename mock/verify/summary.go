package verify

import (
	"fmt"
	"io"
	"strings"
)

// WriteSummary writes the report for a person: per operation, how many
// checks passed, then each failure with the check that saw it, the rule
// broken and where the document states it, and a curl line that sends
// the request again; then the operations no valid request could be made
// for, the coverage line and the totals.
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
			fmt.Fprintf(&b, "\n%s: %d requests\n", op, len(cs))
			for _, c := range cs {
				fmt.Fprintf(&b, "  %s\n    %s\n", c.Title(), c.Curl)
			}
			continue
		case failed == 0:
			fmt.Fprintf(&b, "\n%s: %d checks passed\n", op, len(cs))
			continue
		}
		fmt.Fprintf(&b, "\n%s: %d of %d checks failed\n", op, failed, len(cs))
		for _, f := range r.Failures {
			if f.Operation != op {
				continue
			}
			fmt.Fprintf(&b, "  FAIL %s [%s]\n", f.Check, f.Rule)
			fmt.Fprintf(&b, "    %s\n", f.Text)
			if f.Schema != "" {
				fmt.Fprintf(&b, "    rule: %s\n", f.Schema)
			}
			if len(f.Also) > 0 {
				fmt.Fprintf(&b, "    also in: %s\n", strings.Join(f.Also, "; "))
			}
			fmt.Fprintf(&b, "    %s\n", f.Curl)
		}
	}
	if len(r.Unmade) > 0 {
		fmt.Fprintf(&b, "\nno valid request could be made for:\n")
		for _, u := range r.Unmade {
			fmt.Fprintf(&b, "  %s\n", u)
		}
	}
	if len(r.Impossible) > 0 {
		fmt.Fprintf(&b, "\nthe document asks what no answer can do (not judged):\n")
		for _, u := range r.Impossible {
			fmt.Fprintf(&b, "  %s\n", u)
		}
	}
	fmt.Fprintf(&b, "\ncoverage: %s\n", r.Coverage)
	if r.Stopped != "" {
		fmt.Fprintf(&b, "%s\n", r.Stopped)
	}
	switch {
	case r.DryRun:
		fmt.Fprintf(&b, "dry run: %d requests, none sent\n", len(r.Checks))
	default:
		fmt.Fprintf(&b, "%d requests, %d checks, %d failures\n", r.Requests, len(r.Checks), len(r.Failures))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
