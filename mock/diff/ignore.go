package diff

import (
	"fmt"
	"strings"
)

// Ignore is one accepted change: the changes of its rule at its
// operation (and at its pointer, when it names one, in either document)
// are listed as ignored, with its reason, and fail at no level.
type Ignore struct {
	Rule string
	// Operation is "METHOD /path", "" for a change to the whole
	// document.
	Operation string
	// Pointer, when set, is the JSON pointer the change must have in
	// OLD or in NEW.
	Pointer string
	Reason  string
	// Line is the entry's line in its file.
	Line int
}

// ParseIgnores reads a file of accepted changes, one a line:
//
//	RULE METHOD /path [POINTER]: REASON
//	RULE - [POINTER]: REASON
//
// ("-" for a change to the whole document). Blank lines and lines that
// start with # are left out. A line without a rule, an operation or a
// reason is an error naming its line.
func ParseIgnores(data []byte) ([]Ignore, error) {
	var out []Ignore
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		head, reason, ok := strings.Cut(line, ": ")
		reason = strings.TrimSpace(reason)
		if !ok || reason == "" {
			return nil, fmt.Errorf("line %d: no reason: write RULE METHOD /path [POINTER]: REASON", i+1)
		}
		f := strings.Fields(head)
		e := Ignore{Reason: reason, Line: i + 1}
		switch {
		case len(f) >= 2 && f[1] == "-" && len(f) <= 3:
			e.Rule = f[0]
			if len(f) == 3 {
				e.Pointer = f[2]
			}
		case len(f) == 3 || len(f) == 4:
			e.Rule, e.Operation = f[0], f[1]+" "+f[2]
			if len(f) == 4 {
				e.Pointer = f[3]
			}
		default:
			return nil, fmt.Errorf("line %d: want RULE METHOD /path [POINTER]: REASON, or RULE - [POINTER]: REASON", i+1)
		}
		out = append(out, e)
	}
	return out, nil
}

// matches reports whether the entry accepts change c.
func (e *Ignore) matches(c *Change) bool {
	if e.Rule != c.Rule || e.Operation != c.Operation {
		return false
	}
	return e.Pointer == "" || c.Old != nil && c.Old.Pointer == e.Pointer || c.New != nil && c.New.Pointer == e.Pointer
}

// Ignore marks the changes the entries accept as ignored, with the
// reason of the first that matches, and returns the entries that match
// no change: a stale entry, or a mistyped one.
func (r *Report) Ignore(entries []Ignore) (unused []Ignore) {
	for i := range entries {
		used := false
		for j := range r.Changes {
			if entries[i].matches(&r.Changes[j]) {
				used = true
				if r.Changes[j].Ignored == "" {
					r.Changes[j].Ignored = entries[i].Reason
				}
			}
		}
		if !used {
			unused = append(unused, entries[i])
		}
	}
	return unused
}
