package main

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseExceptions(t *testing.T) {
	head := "# diff\n\n" + exceptionsHeading + "\n\n| Pair | oasdiff | plantmock | Why |\n| --- | --- | --- | --- |\n"
	tests := []struct {
		name string
		doc  string
		want map[string]decision
		err  string
	}{
		{"no section", "# diff\n", map[string]decision{}, ""},
		{"rows, up to the next heading", head +
			"| `webhook` | breaks clients | no break | pending: webhooks |\n" +
			"| `xml` | no break | breaks clients | plantmock right: an object is elements |\n\n## Next\n| `other` | x |\n",
			map[string]decision{
				"webhook": {oasdiff: true, why: "pending: webhooks"},
				"xml":     {plantmock: true, why: "plantmock right: an object is elements"},
			}, ""},
		{"a row without verdicts", head + "| `webhook` | pending |\n", nil, "is not"},
		{"the same verdict twice", head + "| `a` | no break | no break | why |\n", nil, "same verdict"},
		{"listed twice", head + "| `a` | no break | breaks clients | x |\n| `a` | no break | breaks clients | y |\n", nil, "twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseExceptions(tt.doc)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
	if k := (decision{why: "pending: webhooks"}).kind(); k != "pending" {
		t.Errorf("kind = %q, want pending", k)
	}
}
