package diff

import (
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown writes the report as Markdown for a pull request's
// comment: a heading that counts the changes, then a table of them, one
// row a change with its level, operation, rule, place (in NEW, else in
// OLD) and reason.
func (r *Report) WriteMarkdown(w io.Writer, oldName, newName string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### plantmock diff\n\n%s.\n", cell(r.Summary(oldName, newName)))
	if len(r.Changes) > 0 {
		b.WriteString("\n| Level | Operation | Rule | Where | Reason |\n| --- | --- | --- | --- | --- |\n")
	}
	for i := range r.Changes {
		c := &r.Changes[i]
		level := c.Level.Words()
		if c.Ignored != "" {
			level = "ignored (" + level + "): " + c.Ignored
		}
		op := ""
		if c.Operation != "" {
			op = "`" + c.Operation + "`"
		}
		at := ""
		if l, inNew := c.place(); l != nil {
			file := oldName + " (OLD)"
			if inNew {
				file = newName
			}
			at = file
			if l.Line > 0 {
				at += fmt.Sprintf(" line %d", l.Line)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | `%s` | %s | %s |\n", cell(level), cell(op), c.Rule, cell(at), cell(c.Reason))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cell escapes text for a table's cell: | and line ends.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\r", " ", "\n", " ").Replace(s)
}
