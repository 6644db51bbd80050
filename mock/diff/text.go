package diff

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteText writes the report for a terminal: each change as a line of
// its level, operation and rule, then its reason and where it is in
// OLD and NEW (files named oldName and newName), then a line that counts
// them.
func (r *Report) WriteText(w io.Writer, oldName, newName string) error {
	var b strings.Builder
	for i := range r.Changes {
		c := &r.Changes[i]
		head := c.Level.Words()
		if c.Ignored != "" {
			head = "ignored (" + head + ")"
		}
		if c.Operation != "" {
			head += ": " + c.Operation
		}
		fmt.Fprintf(&b, "%s: %s\n  %s\n", head, c.Rule, c.Reason)
		if c.Old != nil {
			fmt.Fprintf(&b, "  old: %s\n", where(oldName, c.Old))
		}
		if c.New != nil {
			fmt.Fprintf(&b, "  new: %s\n", where(newName, c.New))
		}
		if c.Ignored != "" {
			fmt.Fprintf(&b, "  ignored: %s\n", c.Ignored)
		}
		if c.Traffic != nil {
			fmt.Fprintf(&b, "  traffic: %s\n", c.Traffic.words(c.Operation))
		}
	}
	if r.Traffic != nil && len(r.Traffic.Broken) > 0 {
		fmt.Fprintf(&b, "recorded exchanges OLD accepted that NEW breaks:\n")
		for i := range r.Traffic.Broken {
			x := &r.Traffic.Broken[i]
			fmt.Fprintf(&b, "  %s: %s\n", x.exchange(), x.why())
			for _, v := range x.Violations {
				fmt.Fprintf(&b, "    %s\n", v)
			}
		}
	}
	fmt.Fprintf(&b, "plantmock diff: %s\n", r.Summary(oldName, newName))
	_, err := io.WriteString(w, b.String())
	return err
}

// where writes a location in file: "new.yaml:31 /components/...".
func where(file string, l *Location) string {
	if l.Line > 0 {
		return fmt.Sprintf("%s:%d %s", file, l.Line, l.Pointer)
	}
	return file + " " + l.Pointer
}

// Summary is the report's last line: how many changes from oldName to
// newName, by level, and how many are ignored ("2 changes from old.yaml
// to new.yaml: 1 breaks clients, 1 breaks providers, 0 compatible"),
// then, when the report is weighed, what the traffic showed.
func (r *Report) Summary(oldName, newName string) string {
	s := r.counts(oldName, newName)
	if r.Traffic != nil {
		s += "; traffic: " + r.Traffic.summary()
	}
	return s
}

// counts counts the changes from oldName to newName by level, and those
// ignored.
func (r *Report) counts(oldName, newName string) string {
	if len(r.Changes) == 0 {
		return fmt.Sprintf("no changes from %s to %s", oldName, newName)
	}
	clients, ci := r.Count(BreaksClients)
	providers, pi := r.Count(BreaksProviders)
	compatible, oi := r.Count(Compatible)
	s := fmt.Sprintf("%s from %s to %s: %d %s clients, %d %s providers, %d compatible",
		plural(len(r.Changes), "change"), oldName, newName, clients, verb(clients), providers, verb(providers), compatible)
	if ignored := ci + pi + oi; ignored > 0 {
		s += fmt.Sprintf(" (%d ignored)", ignored)
	}
	return s
}

// plural writes n things: "1 change", "2 changes".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// verb is "breaks" after 1, "break" after any other count.
func verb(n int) string {
	if n == 1 {
		return "breaks"
	}
	return "break"
}

// WriteJSON writes the report as one JSON object: the files compared
// and the changes, each with its rule, level, side, operation, where it
// is in OLD and NEW, its reason, when ignored, why, and, when weighed
// against traffic, what the traffic showed of it; then that traffic.
func (r *Report) WriteJSON(w io.Writer, oldName, newName string) error {
	changes := r.Changes
	if changes == nil {
		changes = []Change{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(struct {
		Old     string   `json:"old"`
		New     string   `json:"new"`
		Changes []Change `json:"changes"`
		Traffic *Traffic `json:"traffic,omitempty"`
	}{oldName, newName, changes, r.Traffic})
}
