package diff

import (
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown writes the report as Markdown for a pull request's
// comment: a heading that counts the changes, then a table of them, one
// row a change with its level, operation, rule, place (in NEW, else in
// OLD) and reason; weighed against traffic, a column says what the
// traffic showed of each change, and a second table lists the recorded
// exchanges OLD accepted that NEW breaks.
func (r *Report) WriteMarkdown(w io.Writer, oldName, newName string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### plantmock diff\n\n%s.\n", cell(r.Summary(oldName, newName)))
	if len(r.Changes) > 0 {
		b.WriteString("\n| Level | Operation | Rule | Where | Reason |")
		if r.Traffic != nil {
			b.WriteString(" Traffic |")
		}
		b.WriteString("\n| --- | --- | --- | --- | --- |")
		if r.Traffic != nil {
			b.WriteString(" --- |")
		}
		b.WriteString("\n")
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
		fmt.Fprintf(&b, "| %s | %s | `%s` | %s | %s |", cell(level), cell(op), c.Rule, cell(at), cell(c.Reason))
		switch {
		case c.Traffic != nil:
			fmt.Fprintf(&b, " %s |", cell(c.Traffic.words(c.Operation)))
		case r.Traffic != nil:
			b.WriteString(" |")
		}
		b.WriteString("\n")
	}
	if r.Traffic != nil && len(r.Traffic.Broken) > 0 {
		b.WriteString("\n#### Recorded exchanges OLD accepted that NEW breaks\n\n| Exchange | Changes | Violations |\n| --- | --- | --- |\n")
		for i := range r.Traffic.Broken {
			x := &r.Traffic.Broken[i]
			vs := make([]string, len(x.Violations))
			for j, v := range x.Violations {
				vs[j] = cell(v.String())
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", cell(x.exchange()), cell(x.why()), strings.Join(vs, "<br>"))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cell escapes text for a table's cell: | and line ends.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\r", " ", "\n", " ").Replace(s)
}
