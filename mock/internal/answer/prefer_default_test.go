package answer_test

import (
	"testing"

	"github.com/plantmock/plantmock/mock/internal/answer"
)

// TestParsePreferDefault reads a default preference as a Prefer header
// is written, and refuses at once what no request could make right: an
// item without a value, a name plantmock does not know, a bad value.
func TestParsePreferDefault(t *testing.T) {
	for _, tt := range []struct {
		name, text, want, err string
	}{
		{"none", "", "", ""},
		{"one", "dynamic=true", "dynamic=true", ""},
		{"several, spaced and in capitals", " Dynamic=true,seed=7 , code=404;x=1", "Dynamic=true, seed=7, code=404;x=1", ""},
		{"empty items are left out", "dynamic=true,,", "dynamic=true", ""},
		{"no value", "dynamic", "", `"dynamic" is not name=value (dynamic=true)`},
		{"an empty value", "code=", "", `"code=" is not name=value (dynamic=true)`},
		{"a misspelt name", "dynamc=true", "", `"dynamc" is no preference plantmock knows (code, example, dynamic, seed, stream-items, stream-interval, stream-drop, stream-ids, stream-done)`},
		{"return=minimal, which the header may ignore", "return=minimal", "", `"return" is no preference plantmock knows (code, example, dynamic, seed, stream-items, stream-interval, stream-drop, stream-ids, stream-done)`},
		{"a code that is no status", "code=abc", "", "code=abc is not an HTTP status"},
		{"a seed that is no integer", "dynamic=true, seed=x", "", "seed=x is not an integer"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := answer.ParsePreferDefault(tt.text)
			switch {
			case tt.err != "" && (err == nil || err.Error() != tt.err):
				t.Errorf("ParsePreferDefault(%q) = error %v, want %q", tt.text, err, tt.err)
			case tt.err == "" && (err != nil || d.String() != tt.want):
				t.Errorf("ParsePreferDefault(%q) = %q, %v; want %q", tt.text, d.String(), err, tt.want)
			}
		})
	}
}

// TestPreferDefaultApply checks the precedence: a name the request's
// Prefer header gives wins over the default's, the default's others
// still apply, and applied lists those.
func TestPreferDefaultApply(t *testing.T) {
	for _, tt := range []struct {
		name, def string
		header    []string
		want      answer.Preference
		applied   string
		problem   string
	}{
		{"no default, no header", "", nil, answer.Preference{}, "", ""},
		{"no default", "", []string{"code=400"}, answer.Preference{Code: 400}, "", ""},
		{"the default alone", "dynamic=true, stream-items=3", nil, answer.Preference{Dynamic: true, Items: 3}, "dynamic=true, stream-items=3", ""},
		{"the header's names win", "dynamic=true, stream-done=true, example=busy", []string{"Dynamic=false", "stream-done=false"},
			answer.Preference{Example: "busy", HasDone: true}, "example=busy", ""},
		{"the header adds to the default", "dynamic=true", []string{"code=404; x=1, return=minimal"}, answer.Preference{Code: 404, Dynamic: true}, "dynamic=true", ""},
		{"the header gives every name", "code=404", []string{"code=400"}, answer.Preference{Code: 400}, "", ""},
		{"the header's own mistake", "dynamic=true", []string{"code=abc"}, answer.Preference{}, "", "Prefer: code=abc is not an HTTP status"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := answer.ParsePreferDefault(tt.def)
			if err != nil {
				t.Fatal(err)
			}
			got, applied, p := d.Apply(tt.header)
			switch {
			case tt.problem != "" && (p == nil || p.Message != tt.problem):
				t.Errorf("Apply(%q) = problem %v, want %q", tt.header, p, tt.problem)
			case tt.problem == "" && (p != nil || got != tt.want || applied != tt.applied):
				t.Errorf("Apply(%q) = %+v, %q, %v; want %+v, %q", tt.header, got, applied, p, tt.want, tt.applied)
			}
		})
	}
}
