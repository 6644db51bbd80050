package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/plantmock/plantmock/mock"
)

// mockServer serves the Plant Store with the mock, counting requests.
func mockServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	m, err := mock.New(mock.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		m.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// TestVerifyUsage: plantmock verify refuses bad flags with one line on
// stderr and exit 2, before sending anything.
func TestVerifyUsage(t *testing.T) {
	srv, n := mockServer(t)
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"no target", []string{"verify"}, "plantmock verify: --target is required: the base URL of the service to verify; run plantmock verify --help\n"},
		{"target not a URL", []string{"verify", "--target", "localhost:4010"}, "plantmock verify: target \"localhost:4010\" is not an http or https URL without query\n"},
		{"header without a colon", []string{"verify", "--target", srv.URL, "--header", "X-Tenant 7"}, "plantmock verify: --header \"X-Tenant 7\": want 'NAME: VALUE'; run plantmock verify --help\n"},
		{"auth without a value", []string{"verify", "--target", srv.URL, "--auth", "bearer"}, "plantmock verify: --auth: want 'SCHEME VALUE', e.g. 'bearer TOKEN' or 'basic USER:PASSWORD'; run plantmock verify --help\n"},
		{"unknown operation", []string{"verify", "--target", srv.URL, "--only", "listPlants"}, "plantmock verify: no operation is named \"listPlants\" (name one by its operationId or as \"METHOD /path\")\n"},
		{"negative budget", []string{"verify", "--target", srv.URL, "--max-requests", "-1"}, "plantmock verify: --max-requests -1: want 0 or more; run plantmock verify --help\n"},
		{"missing document", []string{"verify", "--target", srv.URL, "--spec", "/nonexistent/api.yaml"}, "plantmock verify: cannot read --spec: open /nonexistent/api.yaml: no such file or directory; run plantmock verify --help\n"},
		{"rate without a unit", []string{"verify", "--target", srv.URL, "--rate", "10"}, "plantmock verify: --rate \"10\": want N/s or N/m with N over 0, e.g. 10/s; run plantmock verify --help\n"},
		{"rate of none", []string{"verify", "--target", srv.URL, "--rate", "0/s"}, "plantmock verify: --rate \"0/s\": want N/s or N/m with N over 0, e.g. 10/s; run plantmock verify --help\n"},
		{"rate per hour", []string{"verify", "--target", srv.URL, "--rate", "10/h"}, "plantmock verify: --rate \"10/h\": want N/s or N/m with N over 0, e.g. 10/s; run plantmock verify --help\n"},
		{"negative duration", []string{"verify", "--target", srv.URL, "--duration", "-1s"}, "plantmock verify: --duration -1s: want 0 or more; run plantmock verify --help\n"},
		{"no stream items", []string{"verify", "--target", srv.URL, "--stream-items", "0"}, "plantmock verify: --stream-items 0: want 1 or more; run plantmock verify --help\n"},
		{"no stream time", []string{"verify", "--target", srv.URL, "--stream-time", "0s"}, "plantmock verify: --stream-time 0s: want a duration over 0; run plantmock verify --help\n"},
		{"credential without a value", []string{"verify", "--target", srv.URL, "--credential", "bearerAuth"}, "plantmock verify: --credential \"bearerAuth\": want SCHEME=VALUE or SCHEME[SCOPE,...]=VALUE; run plantmock verify --help\n"},
		{"scopes not closed", []string{"verify", "--target", srv.URL, "--credential", "bearerAuth[read=t"}, "plantmock verify: --credential \"bearerAuth[read=t\": want SCHEME[SCOPE,...]=VALUE; run plantmock verify --help\n"},
		{"scoped credential of no scheme", []string{"verify", "--target", srv.URL, "--credential", "apiKey[read]=k"}, "plantmock verify: credentials for \"apiKey\": the document declares no such security scheme (it declares bearerAuth)\n"},
		{"credential twice", []string{"verify", "--target", srv.URL, "--credential", "bearerAuth=a", "--credential", "bearerAuth=b"}, "plantmock verify: --credential \"bearerAuth=b\": bearerAuth is given twice; run plantmock verify --help\n"},
		{"credential of no scheme", []string{"verify", "--target", srv.URL, "--credential", "apiKey=k"}, "plantmock verify: credentials for \"apiKey\": the document declares no such security scheme (it declares bearerAuth)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runIn(tt.args)
			if code != exitUsage || stdout != "" || stderr != tt.stderr {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, stdout, stderr, tt.stderr)
			}
		})
	}
	if got := n.Load(); got != 0 {
		t.Errorf("%d requests sent on usage errors", got)
	}
}

// TestVerifyMock: verify against the mock serving the same document
// exits 0 with a clean summary, and writes JUnit XML and JSON that read
// back with the same counts.
func TestVerifyMock(t *testing.T) {
	srv, n := mockServer(t)
	dir := t.TempDir()
	junit, js := filepath.Join(dir, "verify.xml"), filepath.Join(dir, "verify.json")
	code, stdout, stderr := runIn([]string{"verify", "--target", srv.URL, "--auth", "bearer s3cret", "--junit", junit, "--json", js})
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q\n%s", code, stderr, stdout)
	}
	sent := n.Load()
	for _, want := range []string{
		"verify " + srv.URL + " against OpenAPI Plant Store 1.0.0\n",
		"\nPOST /plants: 10 checks passed\n",
		"\ncoverage: operations 1/1, declared statuses 2/2, request media types 1/1\n",
		"\nok: 10 checks, no failure, 0 advice (10 requests)\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	if sent != 10 {
		t.Errorf("%d requests reached the service, the summary says 9", sent)
	}
	var suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name     string     `xml:"name,attr"`
				Failures []struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	data, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(data, &suites); err != nil {
		t.Fatalf("the JUnit file does not read back: %v\n%s", err, data)
	}
	if suites.Tests != 10 || suites.Failures != 0 || len(suites.Suites) != 1 || suites.Suites[0].Name != "POST /plants" || len(suites.Suites[0].Cases) != 10 {
		t.Errorf("JUnit: %+v", suites)
	}
	var rep struct {
		Requests int `json:"requests"`
		Failures []any
		Checks   []struct {
			Name string `json:"name"`
			Curl string `json:"curl"`
		} `json:"checks"`
	}
	data, err = os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Requests != 10 || len(rep.Failures) != 0 || len(rep.Checks) != 10 {
		t.Errorf("JSON: %+v", rep)
	}
	for _, c := range rep.Checks {
		switch c.Name {
		case "missing credentials of bearerAuth":
			if strings.Contains(c.Curl, "Authorization") {
				t.Errorf("the check without credentials sent some: %s", c.Curl)
			}
		case "malformed credentials of bearerAuth":
			if !strings.Contains(c.Curl, "-H 'Authorization: Bearer'") {
				t.Errorf("the check of malformed credentials does not show them: %s", c.Curl)
			}
		default:
			if strings.Contains(c.Curl, "s3cret") || !strings.Contains(c.Curl, "-H 'Authorization: ***'") {
				t.Errorf("curl line shows the credentials or lacks them: %s", c.Curl)
			}
		}
	}
}

// TestVerifyFailures: a service that breaks the document exits 1; the
// summary names each failure with its rule and a curl line, and the
// JUnit file counts the failed checks.
func TestVerifyFailures(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusAccepted)
		w.Write([]byte(`{"name": 7}`))
	}))
	defer srv.Close()
	junit := filepath.Join(t.TempDir(), "verify.xml")
	code, stdout, stderr := runIn([]string{"verify", "--target", srv.URL, "--junit", junit})
	if code != exitFailures || stderr != "" {
		t.Fatalf("exit %d, stderr %q\n%s", code, stderr, stdout)
	}
	for _, want := range []string{
		"\nPOST /plants: 7 of 10 checks failed (3 advice, below)\n",
		"  FAIL positive: required only [status]\n    status 202 is not declared (POST /plants declares 200, 400)\n    also in: positive: all properties\n    shrunk: the smallest request found that fails the same way, sent twice:\n    curl -sS -i -X POST '" + srv.URL + "/plants' -H 'Authorization: Bearer token' -H 'Content-Type: application/json' --data-binary '{\"id\":2091,\"name\":\"\"}'\n",
		"  FAIL negative: missing required property name [accepted invalid input]\n    status 202: the request was not refused, but name: required property is missing\n    rule: #/components/schemas/Plant/required\n",
		"  FAIL negative: malformed JSON [accepted invalid input]\n    status 202: the request was not refused, but body: the body is not JSON\n    curl -sS -i -X POST '" + srv.URL + "/plants' -H 'Authorization: Bearer token' -H 'Content-Type: application/json' --data-binary '{\"malformed\": '\n",
		"  FAIL negative: missing credentials of bearerAuth [accepted invalid input]\n    status 202: the request was not refused, but header.Authorization: no credentials for security scheme bearerAuth\n    rule: #/components/securitySchemes/bearerAuth\n",
		"  FAIL negative: missing credentials of bearerAuth [accepted invalid input]\n    status 202: the request was not refused, but header.Authorization: no credentials for security scheme bearerAuth\n    rule: #/components/securitySchemes/bearerAuth\n    also in: negative: malformed credentials of bearerAuth\n",
		"\ncoverage: operations 1/1, declared statuses 0/2, request media types 1/1\nFAILED: 10 checks, 5 failures, 3 advice (15 requests)\n",
		"\nadvice (not failures: the exit code does not count them):\n  ADVICE POST /plants: negative: undeclared media type application/x-plantmock-undeclared [accepted invalid input]\n",
		"\n  ADVICE POST /plants: negative: property id breaking its format [accepted invalid input]\n",
		"\n  ADVICE POST /plants: negative: unsupported method GET [unsupported method]\n    status 202: the service took GET /plants, a method the path does not declare (it declares POST)\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	data, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Skipped  int `xml:"skipped,attr"`
	}
	if err := xml.Unmarshal(data, &suites); err != nil || suites.Tests != 10 || suites.Failures != 7 || suites.Skipped != 3 {
		t.Errorf("JUnit %+v (%v)", suites, err)
	}
}

// TestVerifyDryRun: --dry-run lists the requests and sends none, and
// --max-requests stops a run at its budget.
func TestVerifyDryRun(t *testing.T) {
	srv, n := mockServer(t)
	code, stdout, stderr := runIn([]string{"verify", "--target", srv.URL, "--dry-run"})
	if code != exitOK || stderr != "" || n.Load() != 0 {
		t.Fatalf("exit %d, stderr %q, %d requests sent\n%s", code, stderr, n.Load(), stdout)
	}
	for _, want := range []string{"\nPOST /plants: 10 requests\n  positive: required only\n    curl -sS -i -X POST '" + srv.URL + "/plants' ", "\ndry run: 10 requests, none sent\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("dry run lacks %q:\n%s", want, stdout)
		}
	}
	code, stdout, _ = runIn([]string{"verify", "--target", srv.URL, "--max-requests", "3"})
	if code != exitOK || n.Load() != 3 || !strings.Contains(stdout, "\nstopped after 3 requests (the request budget)\n") {
		t.Errorf("exit %d, %d requests sent\n%s", code, n.Load(), stdout)
	}
}

// TestVerifyCredential: --credential sends a scheme's credentials in
// place of made-up ones, and the curl lines hide them: the mock that
// accepts only its own token finds the service clean with them and
// refuses the made-up token without.
func TestVerifyCredential(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		code    int
		summary string
	}{
		{"given", []string{"--credential", "bearerAuth=s3cret"}, exitOK, "\nPOST /plants: 11 checks passed\n"},
		{"from the environment", nil, exitOK, "\nPOST /plants: 11 checks passed\n"},
		{"made up", []string{"--credential", "bearerAuth=wr0ng"}, exitFailures, "  FAIL positive: required only [status]\n    status 401 is not declared (POST /plants declares 200, 400)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := mock.New(mock.Options{Seed: 1, Tokens: []string{"s3cret"}})
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(m)
			defer srv.Close()
			js := filepath.Join(t.TempDir(), "verify.json")
			var env []string
			if tt.args == nil {
				env = []string{"PLANTMOCK_CREDENTIAL=bearerAuth=s3cret"}
			}
			code, stdout, stderr := runIn(append([]string{"verify", "--target", srv.URL, "--json", js}, tt.args...), env...)
			if code != tt.code || stderr != "" || !strings.Contains(stdout, tt.summary) {
				t.Fatalf("exit %d, stderr %q; want %d and %q in\n%s", code, stderr, tt.code, tt.summary, stdout)
			}
			data, err := os.ReadFile(js)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(data), "s3cret") || strings.Contains(string(data), "wr0ng") {
				t.Errorf("the report shows the credentials:\n%s", data)
			}
		})
	}
}

// TestVerifyBudget: --rate paces a run that sends every request, and
// --duration stops one whose time ran out, with exit 0 and a line that
// says so.
func TestVerifyBudget(t *testing.T) {
	srv, n := mockServer(t)
	code, stdout, stderr := runIn([]string{"verify", "--target", srv.URL, "--rate", "1000/s"})
	if code != exitOK || stderr != "" || n.Load() != 10 || !strings.HasSuffix(stdout, "\nok: 10 checks, no failure, 0 advice (10 requests)\n") {
		t.Errorf("--rate: exit %d, stderr %q, %d requests\n%s", code, stderr, n.Load(), stdout)
	}
	done := make(chan struct{}) // closed when the test ends
	stuck := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // the server sees the client leave only once the body is read
		select {
		case <-r.Context().Done():
		case <-done:
		}
	}))
	defer stuck.Close()
	defer close(done)
	code, stdout, stderr = runIn([]string{"verify", "--target", stuck.URL, "--duration", "300ms"})
	if want := "\nstopped after 1 request (the time budget, 300ms)\nok: 0 checks, no failure, 0 advice (1 request)\n"; code != exitOK || stderr != "" || !strings.HasSuffix(stdout, want) {
		t.Errorf("--duration: exit %d, stderr %q; want 0 and %q\n%s", code, stderr, want, stdout)
	}
}

// TestAuthorization: --auth turns 'SCHEME VALUE' into an Authorization
// header.
func TestAuthorization(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"bearer abc.def", "Bearer abc.def", ""},
		{"Bearer  abc ", "Bearer abc", ""},
		{"basic user:pass", "Basic dXNlcjpwYXNz", ""},
		{"basic user", "", "basic wants USER:PASSWORD"},
		{"Token xyz", "Token xyz", ""},
		{"abc", "", "want 'SCHEME VALUE', e.g. 'bearer TOKEN' or 'basic USER:PASSWORD'"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := authorization(tt.in)
			if got != tt.want || (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
				t.Errorf("authorization(%q) = %q, %v; want %q, %q", tt.in, got, err, tt.want, tt.err)
			}
		})
	}
}

// TestVerifyFormat: --format github writes an annotation per failure
// and advice, at the document's line, then the summary; --format json
// writes the versioned report; both exit 1 for a service that breaks
// the document, and an unknown format is a usage error.
func TestVerifyFormat(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusAccepted)
		w.Write([]byte(`{"name": 7}`))
	}))
	defer srv.Close()
	const spec = "../../openapi.yaml"
	doc, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	// The status rule is the operation's: POST /plants.
	post := strings.Count(string(doc[:strings.Index(string(doc), "\n    post:")+1]), "\n") + 1
	tests := []struct {
		format string
		code   int
		check  func(t *testing.T, stdout string)
	}{
		{"github", exitFailures, func(t *testing.T, stdout string) {
			lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			first := fmt.Sprintf("::error file=../../openapi.yaml,line=%d,title=plantmock verify%%3A POST /plants%%3A status::positive: required only: status 202 is not declared (POST /plants declares 200, 400)%%0Acurl -sS -i -X POST '%s/plants' ", post, srv.URL)
			errors, warnings := 0, 0
			for _, l := range lines {
				errors += boolCount(strings.HasPrefix(l, "::error "))
				warnings += boolCount(strings.HasPrefix(l, "::warning "))
			}
			if !strings.HasPrefix(lines[0], first) || errors != 5 || warnings != 3 || lines[len(lines)-1] != "FAILED: 10 checks, 5 failures, 3 advice (15 requests)" {
				t.Errorf("%d errors, %d warnings, want 5 and 3, the first starting %q:\n%s", errors, warnings, first, stdout)
			}
		}},
		{"json", exitFailures, func(t *testing.T, stdout string) {
			var rep struct {
				ReportVersion int               `json:"reportVersion"`
				Failures      []json.RawMessage `json:"failures"`
				Advice        []json.RawMessage `json:"advice"`
			}
			if err := json.Unmarshal([]byte(stdout), &rep); err != nil || rep.ReportVersion != 2 || len(rep.Failures) != 5 || len(rep.Advice) != 3 {
				t.Errorf("JSON %+v (%v):\n%s", rep, err, stdout)
			}
		}},
		{"xml", exitUsage, func(t *testing.T, stdout string) {
			if stdout != "" {
				t.Errorf("stdout %q", stdout)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			code, stdout, stderr := runIn([]string{"verify", "--target", srv.URL, "--spec", spec, "--format", tt.format})
			if code != tt.code || (code == exitUsage) != (stderr != "") {
				t.Fatalf("exit %d, stderr %q; want %d", code, stderr, tt.code)
			}
			tt.check(t, stdout)
		})
	}
}

func boolCount(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestVerifyAgainstPrevious: --against-previous marks each failure new
// or already failing and counts the new ones, in the summary and the
// JSON; a previous document that cannot be read is a usage error.
func TestVerifyAgainstPrevious(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			w.Header().Set("Allow", "GET")
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"cm":"ten"}`))
	}))
	defer srv.Close()
	const doc = `openapi: 3.1.0
info: {title: Sizes, version: 'VERSION'}
paths:
  /size:
    get:
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object, required: [REQUIRED], properties: {cm: {type: integer}, label: {type: string}}}}}}
`
	dir := t.TempDir()
	write := func(name, content string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	oldDoc := write("old.yaml", strings.NewReplacer("VERSION", "1", "REQUIRED", "cm").Replace(doc))
	newDoc := write("new.yaml", strings.NewReplacer("VERSION", "2", "REQUIRED", "cm, label").Replace(doc))
	notOpenAPI := write("notes.yaml", "title: notes\n")
	jsonOut := filepath.Join(dir, "report.json")

	code, stdout, stderr := runIn([]string{"verify", "--target", srv.URL, "--spec", newDoc, "--against-previous", oldDoc, "--json", jsonOut})
	if code != exitFailures || stderr != "" {
		t.Fatalf("exit %d, stderr %q\n%s", code, stderr, stdout)
	}
	want := "\nGET /size: 1 of 2 checks failed\n" +
		"  FAIL positive: required only [body]\n    status 200: body.cm: expected integer, got string\n    already failing against the previous version\n" +
		"    rule: #/paths/~1size/get/responses/200/content/application~1json/schema/properties/cm/type\n    curl -sS -i '" + srv.URL + "/size'\n" +
		"  FAIL positive: required only [body]\n    status 200: body.label: required property is missing\n    new with this version of the document\n" +
		"    rule: #/paths/~1size/get/responses/200/content/application~1json/schema/required\n    curl -sS -i '" + srv.URL + "/size'\n" +
		"\ncoverage: operations 1/1, declared statuses 1/1, request media types 0/0\n" +
		"1 of 2 failures is new against the previous version (Sizes 1)\n" +
		"FAILED: 2 checks, 2 failures, 0 advice (2 requests)\n"
	if !strings.HasSuffix(stdout, want) {
		t.Errorf("summary:\n%s\nwant it to end:\n%s", stdout, want)
	}
	data, err := os.ReadFile(jsonOut)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Previous struct {
			Title, Version string
			Failures, New  int
		}
		Failures []struct{ AgainstPrevious string }
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%+v", rep); got != "{Previous:{Title:Sizes Version:1 Failures:2 New:1} Failures:[{AgainstPrevious:old} {AgainstPrevious:new}]}" {
		t.Errorf("JSON report read back: %s", got)
	}

	for _, tt := range []struct{ name, previous, stderr string }{
		{"missing", filepath.Join(dir, "none.yaml"), "plantmock verify: cannot read --against-previous: open " + filepath.Join(dir, "none.yaml") + ": no such file or directory; run plantmock verify --help\n"},
		{"not OpenAPI", notOpenAPI, "plantmock verify: the previous document: not an OpenAPI document: no openapi field\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runIn([]string{"verify", "--target", srv.URL, "--spec", newDoc, "--against-previous", tt.previous})
			if code != exitUsage || stdout != "" || stderr != tt.stderr {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, stdout, stderr, tt.stderr)
			}
		})
	}
}
