package peersuite

import "testing"

// TestSection: the section runs from its heading's line to the next
// heading of any level, or the end; a heading only a line's part does
// not count.
func TestSection(t *testing.T) {
	doc := "# Doc\n\n## Where\n\n| a |\n| b |\n\n### Next\ntext\n"
	for _, c := range []struct {
		heading, want string
		ok            bool
	}{
		{"## Where", "\n| a |\n| b |\n", true},
		{"### Next", "text\n", true},
		{"## Nowhere", "", false},
		{"Where", "", false},
	} {
		if got, ok := Section(doc, c.heading); got != c.want || ok != c.ok {
			t.Errorf("Section(%q) = %q, %v; want %q, %v", c.heading, got, ok, c.want, c.ok)
		}
	}
}
