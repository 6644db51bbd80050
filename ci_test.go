package plantmock

import (
	"os"
	"regexp"
	"testing"
)

// TestCIInstallsItsTools checks that .ci/run installs with apt every
// program its steps use that a fresh machine may lack: with CI set, a
// test that needs one fails without it (issue 61: a fresh machine had
// no C compiler for -race, no npm for the OpenAPI 3.2 schema and the
// MCP client).
func TestCIInstallsItsTools(t *testing.T) {
	run, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range []struct{ command, pkg string }{
		{"redis-server", "redis-server"},
		{"chromium", "chromium"},
		{`"${CC:-gcc}"`, "gcc"},
		{"node", "nodejs"},
		{"npm", "npm"},
		{"python3", "python3"},
		{"curl", "curl"},
	} {
		line := regexp.MustCompile(`(?m)^command -v ` + regexp.QuoteMeta(tool.command) +
			` >/dev/null \|\|.* missing="\$missing [^"]*\b` + regexp.QuoteMeta(tool.pkg) + `\b`)
		if !line.Match(run) {
			t.Errorf(".ci/run does not install %s (package %s) when it is missing", tool.command, tool.pkg)
		}
	}
}
