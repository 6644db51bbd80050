package verify_test

import (
	"bytes"
	"context"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/verify"
	"github.com/plantmock/plantmock/mock/verify/internal/planted"
)

// annotation is GitHub's workflow command syntax for an annotation, as
// its documentation gives it: ::error file={name},line={line},title={title}::{message},
// where a property value has %, CR, LF, : and , escaped (%25, %0D, %0A,
// %3A, %2C) and the message %, CR and LF.
var annotation = regexp.MustCompile(`^::(error|warning) file=([^,:\r\n]*),line=([1-9][0-9]*),title=([^,:\r\n]*)::([^\r\n]*)$`)

// unescape reverses GitHub's escapes; false when s holds a % that is
// not one of them.
func unescape(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+3 > len(s) {
			return "", false
		}
		switch s[i : i+3] {
		case "%25":
			b.WriteByte('%')
		case "%0D":
			b.WriteByte('\r')
		case "%0A":
			b.WriteByte('\n')
		case "%3A":
			b.WriteByte(':')
		case "%2C":
			b.WriteByte(',')
		default:
			return "", false
		}
		i += 2
	}
	return b.String(), true
}

// TestGitHubAnnotations verifies the planted provider with a read that
// disagrees (a failure) and one that leaks writeOnly (advice), through
// a target whose path has a % in it and a document file whose name has
// a , and a :: each annotation must follow GitHub's syntax, read back to
// what the report says, and point at the document's line of the rule;
// the summary follows them, ending with its verdict.
func TestGitHubAnnotations(t *testing.T) {
	spec := string(planted.Spec())
	lineOf := func(text string) int {
		i := strings.Index(spec, text)
		if i < 0 {
			t.Fatalf("planted.yaml has no %q", text)
		}
		return strings.Count(spec[:i], "\n") + 1
	}
	tests := []struct {
		bug     planted.Bug
		command string
		title   string
		line    int
	}{
		{planted.ReadDisagrees, "error", "plantmock verify: GET /items/{id}: state", lineOf("name: {type: string, minLength: 1}")},
		{planted.LeakedWriteOnly, "warning", "plantmock verify: POST /items: writeOnly (advice)", lineOf("secret: {type: string, writeOnly: true}")},
	}
	const file = "api/planted,v1:2.yaml"
	for _, tt := range tests {
		t.Run(tt.bug.Name(), func(t *testing.T) {
			p := planted.New(tt.bug)
			srv := httptest.NewServer(p)
			defer srv.Close()
			defer p.Close()
			rep, err := verify.Run(context.Background(), planted.Spec(), srv.URL, verify.Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			// The same report, its curl lines as through a path with a %.
			for _, f := range append(rep.Failures, rep.Advice...) {
				f.Curl = strings.Replace(f.Curl, srv.URL, srv.URL+"/100%25", 1)
			}
			var b bytes.Buffer
			if err := rep.WriteGitHub(&b, file); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
			if len(lines) < 2 || lines[len(lines)-1] != rep.Verdict() {
				t.Fatalf("output does not end with the verdict:\n%s", b.String())
			}
			m := annotation.FindStringSubmatch(lines[0])
			if m == nil {
				t.Fatalf("not an annotation: %q", lines[0])
			}
			if strings.HasPrefix(lines[1], "::") {
				t.Errorf("more than one annotation:\n%s", b.String())
			}
			gotFile, ok1 := unescape(m[2])
			title, ok2 := unescape(m[4])
			msg, ok3 := unescape(m[5])
			line, _ := strconv.Atoi(m[3])
			f := append(rep.Failures, rep.Advice...)[0]
			want := f.Check + ": " + f.Text + "\nrule: " + f.Schema
			if f.Why != "" {
				want += "\nwhy advice: " + f.Why
			}
			want += "\n" + f.Curl
			if !ok1 || !ok2 || !ok3 || m[1] != tt.command || gotFile != file || line != tt.line || title != tt.title || msg != want {
				t.Errorf("annotation %q reads as %s %q line %d %q %q\nwant %s %q line %d %q %q", lines[0], m[1], gotFile, line, title, msg, tt.command, file, tt.line, tt.title, want)
			}
			if !strings.Contains(m[5], "/100%2525") {
				t.Errorf("the %% of the curl line is not escaped: %q", m[5])
			}
		})
	}
}
