package verify

import (
	"strings"
	"testing"
)

// TestSummaryCounts checks the summary's counts read as English: one
// check, one request, one failure; two checks (issue 61: "1 checks").
func TestSummaryCounts(t *testing.T) {
	one := func() []*Check { return []*Check{{Operation: "GET /plants"}} }
	tests := []struct {
		name    string
		report  Report
		line    string // the operation's line
		verdict string
	}{
		{"one check passed", Report{Checks: one(), Requests: 1},
			"GET /plants: 1 check passed", "ok: 1 check, no failure, 0 advice (1 request)"},
		{"two checks passed", Report{Checks: append(one(), one()...), Requests: 2},
			"GET /plants: 2 checks passed", "ok: 2 checks, no failure, 0 advice (2 requests)"},
		{"one check failed", Report{Checks: []*Check{{Operation: "GET /plants", Failures: []*Failure{{}}}}, Failures: []*Failure{{}}, Requests: 1},
			"GET /plants: 1 of 1 check failed", "FAILED: 1 check, 1 failure, 0 advice (1 request)"},
		{"one request planned", Report{Checks: one(), DryRun: true},
			"GET /plants: 1 request", "dry run: 1 request, none sent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := tt.report.WriteSummary(&b); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
			if len(lines) < 3 || lines[2] != tt.line || lines[len(lines)-1] != tt.verdict {
				t.Errorf("summary:\n%s\nwant the lines %q and, last, %q", b.String(), tt.line, tt.verdict)
			}
		})
	}
}
