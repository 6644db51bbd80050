package diff_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/diff"
)

// TestParseIgnores reads entries with and without a pointer, for an
// operation and for the document, and refuses lines without a reason
// or an operation, naming the line.
func TestParseIgnores(t *testing.T) {
	got, err := diff.ParseIgnores([]byte("# accepted\n\nrequest-property-max-length-decreased POST /plants: names never went past 20\noperation-removed GET /v1/things:batch /paths/~1v1~1things:batch/get: retired\nsecurity-scheme-changed -: moved to basic\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []diff.Ignore{
		{Rule: "request-property-max-length-decreased", Operation: "POST /plants", Reason: "names never went past 20", Line: 3},
		{Rule: "operation-removed", Operation: "GET /v1/things:batch", Pointer: "/paths/~1v1~1things:batch/get", Reason: "retired", Line: 4},
		{Rule: "security-scheme-changed", Reason: "moved to basic", Line: 5},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("entries %+v\nwant %+v", got, want)
	}
	for _, tt := range []struct{ text, err string }{
		{"operation-removed GET /old\n", "line 1: no reason: write RULE METHOD /path [POINTER]: REASON"},
		{"\noperation-removed GET /old:  \n", "line 2: no reason: write RULE METHOD /path [POINTER]: REASON"},
		{"operation-removed: gone\n", "line 1: want RULE METHOD /path [POINTER]: REASON, or RULE - [POINTER]: REASON"},
		{"operation-removed GET /old /a /b: gone\n", "line 1: want RULE METHOD /path [POINTER]: REASON, or RULE - [POINTER]: REASON"},
	} {
		if _, err := diff.ParseIgnores([]byte(tt.text)); err == nil || err.Error() != tt.err {
			t.Errorf("%q: error %v, want %q", tt.text, err, tt.err)
		}
	}
}

// TestIgnore marks the changes entries accept, by rule and operation and
// by pointer, leaves the others failing, and returns the entries that
// match nothing.
func TestIgnore(t *testing.T) {
	const plant = "      type: object\n      properties:\n        name:\n          type: string\n          maxLength: 40\n          enum: [fern, moss]\n"
	tighter := strings.Replace(strings.Replace(plant, "maxLength: 40", "maxLength: 20", 1), "[fern, moss]", "[fern]", 1)
	r, err := diff.Compare([]byte(fmt.Sprintf(plants, "3.0.3", plant)), []byte(fmt.Sprintf(plants, "3.0.3", tighter)))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := diff.ParseIgnores([]byte(
		"request-property-max-length-decreased POST /plants: names never went past 20\n" +
			"request-property-enum-value-removed POST /plants /components/schemas/Plant/properties/name/enum: moss was never sold\n" +
			"request-property-enum-value-removed POST /plants /components/schemas/Plant/properties/kind/enum: a typo\n" +
			"operation-removed GET /plants: not removed\n"))
	if err != nil {
		t.Fatal(err)
	}
	unused := r.Ignore(entries)
	var got []string
	for _, c := range r.Changes {
		got = append(got, c.Rule+" ignored="+c.Ignored)
	}
	check(t, got, []string{
		"request-property-enum-value-removed ignored=moss was never sold",
		"request-property-max-length-decreased ignored=names never went past 20",
		"response-property-enum-value-removed ignored=",
		"response-property-max-length-decreased ignored=",
	})
	if len(unused) != 2 || unused[0].Line != 3 || unused[1].Line != 4 {
		t.Errorf("unused entries %+v, want lines 3 and 4", unused)
	}
	if r.Fails("client") || !r.Fails("provider") || !r.Fails("any") || r.Fails("none") {
		t.Errorf("fails at client %v, provider %v, any %v, none %v; want false, true, true, false",
			r.Fails("client"), r.Fails("provider"), r.Fails("any"), r.Fails("none"))
	}
}
