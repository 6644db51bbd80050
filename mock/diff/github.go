package diff

import (
	"fmt"
	"io"
	"strings"
)

// WriteGitHub writes the report as GitHub Actions workflow commands, one
// a change, annotated at its line in NEW (in OLD when NEW does not have
// it; files named oldName and newName as the repository names them): an
// ::error for a change that fails at on (see Change.Fails), a ::warning
// for another that breaks clients or providers, a ::notice for the
// others and the ignored ones; weighed against traffic, each message
// says what the traffic showed of its change, and each recorded exchange
// OLD accepted that NEW breaks and no change explains is annotated too
// (an ::error at on "traffic", else a ::warning); then the line that
// counts them. Values are escaped as GitHub's workflow commands want
// them.
func (r *Report) WriteGitHub(w io.Writer, oldName, newName, on string) error {
	var b strings.Builder
	for i := range r.Changes {
		c := &r.Changes[i]
		command := "notice"
		switch {
		case c.Fails(on):
			command = "error"
		case c.Ignored == "" && c.Level != Compatible:
			command = "warning"
		}
		var props []string
		if l, inNew := c.place(); l != nil {
			file := oldName
			if inNew {
				file = newName
			}
			props = append(props, "file="+escapeProperty(file))
			if l.Line > 0 {
				props = append(props, fmt.Sprintf("line=%d", l.Line))
			}
		}
		title := "plantmock diff: "
		if c.Operation != "" {
			title += c.Operation + ": "
		}
		title += c.Rule + " (" + c.Level.Words() + ")"
		if c.Ignored != "" {
			title += " ignored"
		}
		props = append(props, "title="+escapeProperty(title))
		msg := c.Reason
		if c.Ignored != "" {
			msg += "\nignored: " + c.Ignored
		}
		if c.Traffic != nil {
			msg += "\ntraffic: " + c.Traffic.words(c.Operation)
		}
		fmt.Fprintf(&b, "::%s %s::%s\n", command, strings.Join(props, ","), escapeData(msg))
	}
	if r.Traffic != nil {
		command := "warning"
		if on == "traffic" {
			command = "error"
		}
		for i := range r.Traffic.Broken {
			x := &r.Traffic.Broken[i]
			if len(x.Rules) > 0 {
				continue
			}
			msg := x.exchange() + ": NEW breaks it, explained by no change"
			for _, v := range x.Violations {
				msg += "\n" + v.String()
			}
			fmt.Fprintf(&b, "::%s title=%s::%s\n", command, escapeProperty("plantmock diff: recorded exchange"), escapeData(msg))
		}
	}
	fmt.Fprintf(&b, "plantmock diff: %s\n", r.Summary(oldName, newName))
	_, err := io.WriteString(w, b.String())
	return err
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
