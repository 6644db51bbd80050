package openapi

import (
	"sync"
	"testing"
)

// TestLaterCompileLeavesMistakesOut checks a schema first compiled after
// Load (a component nothing validated at load refers to): its keyword at
// fault is left out of the validator as at load, while requests may be
// reading the model, which stays as it is (go test -race holds that).
func TestLaterCompileLeavesMistakesOut(t *testing.T) {
	doc, err := Load([]byte(`openapi: 3.0.3
info: {title: later, version: '1'}
paths: {}
components:
  schemas:
    Lonely: {type: string, pattern: 12, maxLength: 3}
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Mistakes) != 0 {
		t.Errorf("Mistakes = %q, want none: nothing at load compiles Lonely", doc.Mistakes)
	}
	s := doc.Schemas["Lonely"]
	var wg sync.WaitGroup
	for _, tt := range []struct {
		value any
		want  int // violations
	}{{"abc", 0}, {"abcd", 1}, {"xyz", 0}, {7, 1}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = s.Pattern, s.Structural // the model, read as a request would
			if got := s.Validate(tt.value); len(got) != tt.want {
				t.Errorf("Validate(%v) = %v, want %d violations", tt.value, got, tt.want)
			}
		}()
	}
	wg.Wait()
}
