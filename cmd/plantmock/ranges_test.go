package main

import "testing"

// TestFlagRanges: a numeric or duration flag refuses a value outside its
// range with one line naming it and exit 2, by the command line and by
// the environment; it was accepted silently (issue 61: --max-sessions -3
// and --webhook-retries -1 served). The sizes refuse 0 and below with
// their own words (TestRefusals), and verify's flags are checked in
// TestVerifyUsage.
func TestFlagRanges(t *testing.T) {
	serve := func(flag, value, want string, more ...string) refusal {
		return refusal{name: flag + " " + value, args: append([]string{"--addr", "127.0.0.1:0", flag, value}, more...),
			want: "plantmock: " + flag + " " + value + ": want " + want + "; run plantmock --help\n"}
	}
	tests := []refusal{
		serve("--max-sessions", "-3", "1 or more"),
		serve("--max-sessions", "0", "1 or more"),
		serve("--max-resources", "0", "1 or more"),
		serve("--session-idle", "0s", "a duration over 0"),
		serve("--store-wait", "-1s", "0 or more", "--store", "redis://127.0.0.1:1"),
		serve("--store-timeout", "0s", "a duration over 0", "--store", "redis://127.0.0.1:1"),
		serve("--proxy-timeout", "-5s", "a duration over 0", "--proxy", "http://127.0.0.1:1"),
		serve("--webhook-timeout", "0s", "a duration over 0"),
		serve("--webhook-retries", "-1", "0 or more"),
		serve("--webhook-backoff", "0s", "a duration over 0"),
		serve("--webhook-queue", "0", "1 or more"),
		serve("--shutdown-timeout", "0s", "a duration over 0"),
		{name: "from the environment", args: []string{"--addr", "127.0.0.1:0"}, env: []string{"PLANTMOCK_MAX_SESSIONS=-3"},
			want: "plantmock: PLANTMOCK_MAX_SESSIONS -3: want 1 or more; run plantmock --help\n"},
		{name: "mcp", args: []string{"mcp", "--addr", "127.0.0.1:0", "--webhook-retries", "-1"},
			want: "plantmock: --webhook-retries -1: want 0 or more; run plantmock --help\n"},
	}
	runRefusals(t, tests)
}
