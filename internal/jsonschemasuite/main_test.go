package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/internal/jsonschemasuite/cases"
)

func TestCLI(t *testing.T) {
	agree := filepath.Join("testdata", "agree")
	disagree := filepath.Join("testdata", "disagree")
	usage := "usage: jsonschemasuite -suite DIR, or set PLANTMOCK_JSONSCHEMA_SUITE=DIR, DIR a checkout of github.com/json-schema-org/JSON-Schema-Test-Suite\n"
	tests := []struct {
		name       string
		args       []string
		env        string
		code       int
		stderr     string // exactly, or its start with prefix
		prefix     bool
		stdoutLast string // the last line of the report, if one is written
	}{
		{name: "no suite", code: exitUsage, stderr: usage},
		{name: "flag", args: []string{"-suite", agree}, code: exitOK,
			stdoutLast: "PASS: every disagreement is a listed deviation (0 listed)"},
		{name: "variable", env: agree, code: exitOK,
			stdoutLast: "PASS: every disagreement is a listed deviation (0 listed)"},
		{name: "flag over variable", args: []string{"-suite", agree}, env: disagree, code: exitOK,
			stdoutLast: "PASS: every disagreement is a listed deviation (0 listed)"},
		{name: "disagreements", env: disagree, code: exitFail,
			stdoutLast: "FAIL: 3 disagreements not in deviations, 0 errors, 0 stale deviations"},
		{name: "not a suite", args: []string{"-suite", "testdata"}, code: exitUsage,
			stderr: "jsonschemasuite: testdata holds no tests/draft2020-12/*.json: is it a checkout of the JSON Schema Test Suite?\n"},
		{name: "an argument", args: []string{"-suite", agree, "extra"}, code: exitUsage,
			stderr: "jsonschemasuite: unexpected argument \"extra\"\n"},
		{name: "generation", args: []string{"-suite", agree, "-generate", "-seeds", "2", "-floor", "100"}, code: exitOK,
			stdoutLast: "PASS: every dialect's share is at least 100.0%"},
		{name: "generation under the floor", args: []string{"-suite", disagree, "-generate", "-seeds", "1", "-floor", "60"}, code: exitFail,
			stdoutLast: "FAIL: a dialect's share is under 60.0%"},
		{name: "no seeds", args: []string{"-suite", agree, "-generate", "-seeds", "0"}, code: exitUsage,
			stderr: "jsonschemasuite: -seeds must be at least 1\n"},
		{name: "unknown flag", args: []string{"-list"}, code: exitUsage,
			stderr: "flag provided but not defined: -list\n", prefix: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			getenv := func(name string) string {
				if name == cases.Env {
					return tt.env
				}
				return ""
			}
			code := cli(context.Background(), tt.args, getenv, &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit code %d, want %d; stderr: %s", code, tt.code, stderr.String())
			}
			if got := stderr.String(); got != tt.stderr && !(tt.prefix && strings.HasPrefix(got, tt.stderr)) {
				t.Errorf("stderr %q, want %q", got, tt.stderr)
			}
			lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
			if last := lines[len(lines)-1]; last != tt.stdoutLast {
				t.Errorf("last line of stdout %q, want %q", last, tt.stdoutLast)
			}
		})
	}
}
