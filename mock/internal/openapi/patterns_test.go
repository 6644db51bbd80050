package openapi

import (
	"strings"
	"sync"
	"testing"
)

// TestPatternTurns validates values against a pattern of the backtracking
// engine from many goroutines at once, on the library's path (the schema
// has propertyNames, which the fast path does not check): each value's
// verdicts are its own.
func TestPatternTurns(t *testing.T) {
	doc, err := Load([]byte(`openapi: 3.1.0
info: {title: t, version: '1'}
paths: {}
components:
  schemas:
    S: {type: object, propertyNames: {maxLength: 8}, properties: {names: {type: array, items: {type: string, pattern: '^(\w+\s?)+(?<!\s)$'}}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	s := doc.Schemas["S"]
	// Words with one space between them and none at the end: the
	// lookbehind fails only once the words have been split every way,
	// and the pattern's superset without it takes the string.
	hostile := strings.Repeat("a", 30) + " "
	tests := []struct {
		name  string
		value map[string]any
		want  string
	}{
		{"valid", map[string]any{"names": []any{"aaa", "a"}}, ""},
		{"no match", map[string]any{"names": []any{"aaa", "b!"}}, `names[1]: "b!" does not match the pattern ^(\w+\s?)+(?<!\s)$`},
		{"hostile", map[string]any{"names": []any{hostile, "b" + hostile}},
			`names[0]: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa " could not be matched against the pattern ^(\w+\s?)+(?<!\s)$ within 3ms; ` +
				`names[1]: "baaaaaaaaaaaaaaaaaaaaaaaaaaaaaa " was not matched against the pattern ^(\w+\s?)+(?<!\s)$: an earlier string of the value took the time a value may spend on patterns`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // beside the other cases, and four at a time
			var wg sync.WaitGroup
			for range 4 {
				wg.Go(func() {
					var got []string
					for _, v := range s.ValidateRequest(tt.value) {
						got = append(got, v.String())
					}
					if g := strings.Join(got, "; "); g != tt.want {
						t.Errorf("%s\nwant %s", g, tt.want)
					}
				})
			}
			wg.Wait()
		})
	}
}

// TestSlashCaret: only a pattern that matches nothing, with ^ right
// after a slash, is taken for one.
func TestSlashCaret(t *testing.T) {
	for _, tt := range []struct {
		src string
		ok  bool
	}{
		{"/^[a-z0-9._]+$/", true},
		{"/^[a-z]$/i", true},
		{`.*/^[\d]{12}$/.*`, true},
		{"^arn:aws:ec2:[a-z]+:placement-group/^.{1,255}$", true},
		{`^a\/^b$`, true},
		{"/api/v1/", false},  // a path, matched as written
		{"/^a|b/", false},    // b/ matches
		{"^[a-z]+$", false},  // no slash
		{"^[/^]+$", false},   // in a class
		{`^[\]/^]+$`, false}, // in a class, after an escaped ]
		{`^a\\/^`, true},     // an escaped backslash, then /^
	} {
		t.Run(tt.src, func(t *testing.T) {
			if ok := slashCaret(tt.src); ok != tt.ok {
				t.Errorf("slashCaret(%q) = %v, want %v", tt.src, ok, tt.ok)
			}
		})
	}
}
