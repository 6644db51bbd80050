package main

import (
	"bytes"
	"context"
	"net"
	"os/exec"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// runIn runs the program in this process and returns its exit code,
// stdout and stderr. Only commands that end before serving may run so.
func runIn(args []string, environ ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, environ, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestHelp checks plantmock help, help COMMAND and COMMAND --help: each
// prints the command's usage, description, flags and exit codes on
// stdout and exits 0; an unknown command is one line on stderr, exit 2.
func TestHelp(t *testing.T) {
	_, top, _ := runIn([]string{"help"})
	for _, want := range []string{
		"Usage: plantmock [flags]\n\nServes an OpenAPI 3.0, 3.1 or 3.2 document",
		"\nCommands:\n  check    load a document and scenarios without serving, or judge recorded traffic\n  health   ask a running mock whether it is healthy\n  report   print a running mock's contract report\n  verify   test a running service against the document\n  diff     say what a new version of a document breaks\n  mcp      serve a mock and speak MCP for a coding agent on stdin and stdout\n  version  print plantmock's version, commit and Go version\n  help     print this help, or a command's\n",
		"\n  --spec file\n",
		"\nExit codes:\n  0  stopped by SIGINT or SIGTERM, requests under way answered\n  1  the server failed while running\n  2  bad flags or variables, or a document, scenarios or seed data that cannot be served\n",
	} {
		if !strings.Contains(top, want) {
			t.Errorf("plantmock help lacks %q:\n%s", want, top)
		}
	}
	versionHelp := "Usage: plantmock version\n\nPrints plantmock's version, the commit it was built from, and the Go version that built it.\n\nExit codes:\n  0  always\n"
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // the whole of it
		stderr string
	}{
		{"help", []string{"help"}, 0, top, ""},
		{"--help", []string{"--help"}, 0, top, ""},
		{"-h", []string{"-h"}, 0, top, ""},
		{"help serve", []string{"help", "serve"}, 0, top, ""},
		{"help version", []string{"help", "version"}, 0, versionHelp, ""},
		{"version --help", []string{"version", "--help"}, 0, versionHelp, ""},
		{"help of help", []string{"help", "help"}, 0, "Usage: plantmock help [command]\n\nPrints plantmock's help, or a command's: what it does, its flags and its exit codes.\n\nExit codes:\n  0  the help was printed\n  2  no such command\n", ""},
		{"unknown command", []string{"help", "nope"}, 2, "", "plantmock help: no command \"nope\"; run plantmock help --help\n"},
		{"two commands", []string{"help", "check", "health"}, 2, "", "plantmock help: unexpected argument \"health\"; run plantmock help --help\n"},
		{"version with an argument", []string{"version", "now"}, 2, "", "plantmock version: unexpected argument \"now\"; run plantmock version --help\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runIn(tt.args)
			if code != tt.code || stdout != tt.stdout || stderr != tt.stderr {
				t.Errorf("exit %d, stdout %q, stderr %q\nwant exit %d, stdout %q, stderr %q", code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
			}
		})
	}
	// Each command's help has its flags and exit codes, the same either way.
	for _, c := range []struct{ name, flag, exits string }{
		{"check", "\n  --traffic file\n", "\nExit codes:\n  0  the document can be served (and the traffic keeps the contract, the workflows fit it)\n  1  the traffic breaks the document\n  2  bad flags, or a document, scenarios or workflows that cannot be served\n"},
		{"health", "\n  --admin-token token\n", "\nExit codes:\n  0  healthy\n  1  unhealthy, or no answer\n  2  bad flags\n"},
		{"report", "\n  --admin-addr string\n", "\nExit codes:\n  0  no exchange broke the document\n  1  an exchange broke it, or the mock did not answer\n  2  bad flags\n"},
	} {
		_, viaHelp, _ := runIn([]string{"help", c.name})
		code, viaFlag, _ := runIn([]string{c.name, "--help"})
		if code != 0 || viaHelp != viaFlag || !strings.HasPrefix(viaHelp, "Usage: plantmock "+c.name+" ") || !strings.Contains(viaHelp, c.flag) || !strings.HasSuffix(viaHelp, c.exits) {
			t.Errorf("%s --help (exit %d):\n%s\nplantmock help %s:\n%s", c.name, code, viaFlag, c.name, viaHelp)
		}
	}
	// Every command's help names its flags as messages and docs do,
	// --name, never with Go's one dash.
	for _, c := range commands() {
		_, help, _ := runIn([]string{"help", c.name})
		if c.name == "" {
			_, help, _ = runIn([]string{"--help"})
		}
		if one := regexp.MustCompile(`(?m)^  -[^-].*$`).FindString(help); one != "" {
			t.Errorf("%s --help names a flag with one dash: %q", c.prog(), one)
		}
	}
}

// TestVariables checks the environment: a variable's bad value is one
// line naming it, and a PLANTMOCK_ variable that sets no flag of any
// command is a warning.
func TestVariables(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		environ []string
		code    int
		stdout  string
		stderr  string
	}{
		{"not a number", nil, []string{"PLANTMOCK_MAX_SESSIONS=abc"}, 2, "", "plantmock: PLANTMOCK_MAX_SESSIONS=\"abc\": want a whole number; run plantmock --help\n"},
		{"not a boolean", []string{"check"}, []string{"PLANTMOCK_STRICT=maybe"}, 2, "", "plantmock check: PLANTMOCK_STRICT=\"maybe\": want true or false; run plantmock check --help\n"},
		{"not a size", nil, []string{"PLANTMOCK_MAX_BODY=lots"}, 2, "", "plantmock: PLANTMOCK_MAX_BODY=\"lots\": want a size in bytes, or with KiB, MiB or GiB (e.g. 1048576, 512KiB, 1MiB); run plantmock --help\n"},
		{"not a size for verify", []string{"verify", "--target", "http://127.0.0.1:1"}, []string{"PLANTMOCK_MAX_SPEC=huge"}, 2, "", "plantmock verify: PLANTMOCK_MAX_SPEC=\"huge\": want a size in bytes, or with KiB, MiB or GiB (e.g. 1048576, 512KiB, 1MiB); run plantmock verify --help\n"},
		{"not one of the words", nil, []string{"PLANTMOCK_LOG_FORMAT=xml"}, 2, "", "plantmock: PLANTMOCK_LOG_FORMAT=\"xml\": want text or json; run plantmock --help\n"},
		{"a variable that needs another", nil, []string{"PLANTMOCK_PROXY_ONLY=GET /plants"}, 2, "", "plantmock: PLANTMOCK_PROXY_ONLY needs --proxy; run plantmock --help\n"},
		{"an option's value", nil, []string{"PLANTMOCK_ADMIN_CORS=*"}, 2, "", "plantmock: PLANTMOCK_ADMIN_CORS: \"*\" is not an origin: write it as scheme://host[:port], as browsers send it in Origin; run plantmock --help\n"},
		{"a proxy's URL", nil, []string{"PLANTMOCK_PROXY=ftp://x"}, 2, "", "plantmock: PLANTMOCK_PROXY: \"ftp://x\" is not an http:// or https:// URL; run plantmock --help\n"},
		{"a webhook's form", nil, []string{"PLANTMOCK_WEBHOOK=nope"}, 2, "", "plantmock: PLANTMOCK_WEBHOOK \"nope\": write it as NAME=URL; run plantmock --help\n"},
		{"a preference", nil, []string{"PLANTMOCK_PREFER=dynamic=true,dynamc=false"}, 2, "", "plantmock: PLANTMOCK_PREFER: \"dynamc\" is no preference plantmock knows (code, example, dynamic, seed, stream-items, stream-interval, stream-drop, stream-ids, stream-done); run plantmock --help\n"},
		{"a token's value", nil, []string{"PLANTMOCK_TOKEN=ok,a b"}, 2, "", "plantmock: PLANTMOCK_TOKEN: \"a b\" is not a valid bearer token (RFC 6750 token68); run plantmock --help\n"},
		{"unknown", []string{"check"}, []string{"PLANTMOCK_SESION=a", "PLANTMOCK_STORE=redis://x", "PLANTMOCK_JSONSCHEMA_SUITE=/x", "OTHER=1"}, 0,
			"plantmock: OpenAPI Plant Store 1.0.0 and scenarios first-call-fails, first-create-fails, flaky, slow, store-busy, tag-policy are fine\n",
			"plantmock: warning: PLANTMOCK_SESION sets no flag of plantmock (see plantmock --help); it is ignored\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runIn(tt.args, tt.environ...)
			if code != tt.code || stdout != tt.stdout || stderr != tt.stderr {
				t.Errorf("exit %d, stdout %q, stderr %q\nwant exit %d, stdout %q, stderr %q", code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
			}
		})
	}
}

// TestVersion checks what plantmock version says of a build.
func TestVersion(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	goVersion := runtime.Version()
	tests := []struct {
		name   string
		bi     *debug.BuildInfo
		commit string // the release's, set with the linker
		want   string
	}{
		{"no build info", nil, "", goVersion},
		{"from a clean tree", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", "0123456789abcdef0123", "vcs.modified", "false")}, "", "commit 0123456789ab, " + goVersion},
		{"from a changed tree", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", "0123456789abcdef0123", "vcs.modified", "true")}, "", "commit 0123456789ab with changes, " + goVersion},
		{"from the module proxy", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}}, "", "module v0.1.0, " + goVersion},
		{"without version control", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "", goVersion},
		{"a release without version control", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "fedcba9876543210fedc", "commit fedcba987654, " + goVersion},
		{"a release with version control", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", "0123456789abcdef0123", "vcs.modified", "true")}, "0123456789abcdef0123", "commit 0123456789ab with changes, " + goVersion},
		{"a release without build info", nil, "fedcba9876543210fedc", "commit fedcba987654, " + goVersion},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := buildText(tt.bi, tt.commit); got != tt.want {
				t.Errorf("buildText = %q, want %q", got, tt.want)
			}
		})
	}
	out, err := exec.Command(plantmockBinary(t), "version").Output()
	if err != nil || !regexp.MustCompile(`^plantmock 0\.1\.0 \(((commit [0-9a-f]{12}( with changes)?|module v\S+), )?go\S+\)\n$`).Match(out) {
		t.Errorf("plantmock version: %v %q", err, out)
	}
}

// TestOpenURL checks the address the start-up line gives: one a user can
// open.
func TestOpenURL(t *testing.T) {
	for addr, want := range map[string]string{
		"0.0.0.0:4010":   "http://localhost:4010 (every interface)",
		"[::]:4010":      "http://localhost:4010 (every interface)",
		"127.0.0.1:4010": "http://127.0.0.1:4010",
		"[::1]:80":       "http://[::1]:80",
	} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := openURL(a); got != want {
			t.Errorf("openURL(%s) = %q, want %q", addr, got, want)
		}
	}
}
