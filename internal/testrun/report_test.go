package main

import (
	"strings"
	"testing"
)

// ev writes one event of go test -json.
func ev(action, pkg, test, output string) string {
	s := `{"Action":"` + action + `","Package":"` + pkg + `"`
	if test != "" {
		s += `,"Test":"` + test + `"`
	}
	if output != "" {
		s += `,"Output":` + strings.ReplaceAll(`"`+strings.ReplaceAll(output, "\n", `\n`)+`"`, "\t", `\t`)
	}
	return s + "}\n"
}

// TestReport checks what the report prints for the events of a go test
// run: result lines, failed tests' output, and skips by reason.
func TestReport(t *testing.T) {
	skip := func(pkg, test, why string) string {
		return ev("run", pkg, test, "") + ev("output", pkg, test, "=== RUN   "+test+"\n") +
			ev("output", pkg, test, "    a_test.go:3: "+why+"\n") +
			ev("output", pkg, test, "--- SKIP: "+test+" (0.00s)\n") + ev("skip", pkg, test, "")
	}
	pass := func(pkg, test string) string {
		return ev("run", pkg, test, "") + ev("output", pkg, test, "=== RUN   "+test+"\n") +
			ev("output", pkg, test, "    a_test.go:9: a log line\n") +
			ev("output", pkg, test, "--- PASS: "+test+" (0.00s)\n") + ev("pass", pkg, test, "")
	}
	ok := func(pkg string) string {
		return ev("output", pkg, "", "PASS\n") + ev("output", pkg, "", "ok  \t"+pkg+"\t0.1s\n") + ev("pass", pkg, "", "")
	}
	redis := "redis-server not found: apt-get install redis-server"
	tests := []struct {
		name, events, want string
		skipped            int
	}{
		{"all pass", pass("p", "TestA") + ok("p"), "ok  \tp\t0.1s\nskipped: none\n", 0},
		{"no test files", ev("output", "q", "", "?   \tq\t[no test files]\n") + ev("skip", "q", "", ""),
			"?   \tq\t[no test files]\nskipped: none\n", 0},
		{"skips grouped by reason",
			skip("example.com/m/p", "TestA", redis) + skip("example.com/m/p", "TestB", redis) + skip("example.com/m/r", "TestC", redis) + skip("example.com/m/r", "TestD", redis) +
				skip("s", "TestSuite/sub", "no JSON Schema Test Suite: set PLANTMOCK_JSONSCHEMA_SUITE") + ok("p"),
			"ok  \tp\t0.1s\nskipped: 5 tests, by the reason each gave:\n" +
				"  no JSON Schema Test Suite: set PLANTMOCK_JSONSCHEMA_SUITE: TestSuite/sub (s)\n" +
				"  redis-server not found: apt-get install redis-server: TestA (./p), TestB (./p), TestC (./r) and 1 more\n", 5},
		{"a skip without a reason",
			ev("run", "p", "TestE", "") + ev("output", "p", "TestE", "--- SKIP: TestE (0.00s)\n") + ev("skip", "p", "TestE", ""),
			"skipped: 1 test, by the reason each gave:\n  no reason given: TestE (p)\n", 1},
		{"a failed test's output, without its RUN line",
			pass("p", "TestA") + ev("run", "p", "TestF", "") + ev("output", "p", "TestF", "=== RUN   TestF\n") +
				ev("output", "p", "TestF", "    a_test.go:5: bad\n") + ev("output", "p", "TestF", "--- FAIL: TestF (0.00s)\n") +
				ev("fail", "p", "TestF", "") + ev("output", "p", "", "FAIL\n") + ev("output", "p", "", "FAIL\tp\t0.1s\n") + ev("fail", "p", "", ""),
			"    a_test.go:5: bad\n--- FAIL: TestF (0.00s)\nFAIL\tp\t0.1s\nskipped: none\n", 0},
		{"a test binary that died",
			ev("run", "p", "TestP", "") + ev("output", "p", "TestP", "panic: boom\n") +
				ev("output", "p", "", "FAIL\tp\t0.1s\n") + ev("fail", "p", "", ""),
			"FAIL\tp\t0.1s\npanic: boom\nskipped: none\n", 0},
		{"a build error",
			`{"ImportPath":"p [p.test]","Action":"build-output","Output":"p/a.go:1:1: expected 'package'\n"}` + "\n" +
				`{"ImportPath":"p [p.test]","Action":"build-fail"}` + "\n" +
				ev("output", "p", "", "FAIL\tp [build failed]\n") + ev("fail", "p", "", ""),
			"p/a.go:1:1: expected 'package'\nFAIL\tp [build failed]\nskipped: none\n", 0},
		{"a line that is not an event", "go: downloading x v1.0.0\n", "go: downloading x v1.0.0\nskipped: none\n", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			r := newReport(&out, "example.com/m")
			if err := r.read(strings.NewReader(tc.events)); err != nil {
				t.Fatal(err)
			}
			if n := r.summary(); n != tc.skipped {
				t.Errorf("summary says %d skipped, want %d", n, tc.skipped)
			}
			if out.String() != tc.want {
				t.Errorf("printed\n%q\nwant\n%q", out.String(), tc.want)
			}
		})
	}
}
