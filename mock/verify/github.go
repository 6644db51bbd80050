package verify

import (
	"fmt"
	"io"
	"strings"
)

// WriteGitHub writes the report as GitHub Actions workflow commands,
// then the summary: an ::error annotation for each failure and a
// ::warning for each advice, each at the line of file (the document, as
// the repository names it; "" for none) where the rule broken is (else
// the operation; a workflow's failure at the line of the Arazzo
// description, Failure.File), titled with the operation (or the
// workflow and step) and the rule, its message
// the check, what is wrong, where the rule is and the curl line. Values
// are escaped as GitHub's workflow commands want them: %, CR and LF in
// the message, and also : and , in the properties.
func (r *Report) WriteGitHub(w io.Writer, file string) error {
	var b strings.Builder
	for _, group := range []struct {
		command string
		fs      []*Failure
	}{{"error", r.Failures}, {"warning", r.Advice}} {
		for _, f := range group.fs {
			var props []string
			at := file
			if f.File != "" {
				at = f.File // the Arazzo description
			}
			if at != "" {
				props = append(props, "file="+escapeProperty(at))
				if f.Line > 0 {
					props = append(props, fmt.Sprintf("line=%d", f.Line))
				}
			}
			title := "plantmock verify: " + f.Operation + ": " + f.Rule
			if f.Workflow != "" {
				title = "plantmock verify: workflow " + f.Workflow + stepOf(f) + ": " + f.Rule
			}
			if f.Strength == Advice {
				title += " (advice)"
			}
			props = append(props, "title="+escapeProperty(title))
			msg := f.Check + ": " + f.Text
			if m := f.marked(); m != "" {
				msg += "\n" + m
			}
			if f.Schema != "" {
				msg += "\nrule: " + f.Schema
			}
			if f.Why != "" {
				msg += "\nwhy advice: " + f.Why
			}
			if f.Curl != "" {
				msg += "\n" + f.Curl
			}
			fmt.Fprintf(&b, "::%s %s::%s\n", group.command, strings.Join(props, ","), escapeData(msg))
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	return r.WriteSummary(w)
}

// stepOf is " step ID" for a failure at a step of a workflow.
func stepOf(f *Failure) string {
	if f.Step == "" {
		return ""
	}
	return " step " + f.Step
}

// escapeData escapes a workflow command's message: % first, then CR
// and LF.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value: as a
// message, and : and , too.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
