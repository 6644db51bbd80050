package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock"
)

// The documents of docs/diff.md's run: NEW lowers a bound, removes an
// enum value and an operation.
const (
	diffOld = "../../examples/diff/old.yaml"
	diffNew = "../../examples/diff/new.yaml"
)

// tempFile writes text to a file of a temporary folder and returns its
// name.
func tempFile(t *testing.T, name, text string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(f, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestDiffUsage: plantmock diff refuses bad flags and arguments, and
// documents it cannot read or load, with one line on stderr and exit 2.
func TestDiffUsage(t *testing.T) {
	swagger := tempFile(t, "swagger.yaml", "swagger: '2.0'\n")
	noReason := tempFile(t, "ignore", "operation-removed DELETE /plants/{plantId}\n")
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"no documents", []string{"diff"}, "plantmock diff: want two documents: plantmock diff OLD NEW; run plantmock diff --help\n"},
		{"one document", []string{"diff", diffOld}, "plantmock diff: want two documents: plantmock diff OLD NEW; run plantmock diff --help\n"},
		{"three documents", []string{"diff", diffOld, diffNew, diffNew}, "plantmock diff: unexpected argument \"" + diffNew + "\"; run plantmock diff --help\n"},
		{"bad format", []string{"diff", "--format", "html", diffOld, diffNew}, "plantmock diff: --format \"html\": want text, json, github or markdown; run plantmock diff --help\n"},
		{"bad fail-on", []string{"diff", "--fail-on", "clients", diffOld, diffNew}, "plantmock diff: --fail-on \"clients\": want client, provider, any, traffic or none; run plantmock diff --help\n"},
		{"fail on traffic without traffic", []string{"diff", "--fail-on", "traffic", diffOld, diffNew}, "plantmock diff: --fail-on traffic needs --traffic FILE; run plantmock diff --help\n"},
		{"missing traffic", []string{"diff", "--traffic", "/nonexistent/requests.json", diffOld, diffNew}, "plantmock diff: cannot read --traffic: stat /nonexistent/requests.json: no such file or directory\n"},
		{"traffic not recorded traffic", []string{"diff", "--traffic", swagger, diffOld, diffNew}, "plantmock diff: cannot read --traffic: " + swagger + ": not recorded traffic (a HAR 1.2 archive, the journal of GET /__admin/requests or of --journal-file, or a scenario file or folder of --record): not a JSON object\n"},
		{"missing OLD", []string{"diff", "/nonexistent/old.yaml", diffNew}, "plantmock diff: cannot read OLD: open /nonexistent/old.yaml: no such file or directory\n"},
		{"missing NEW", []string{"diff", diffOld, "/nonexistent/new.yaml"}, "plantmock diff: cannot read NEW: open /nonexistent/new.yaml: no such file or directory\n"},
		{"NEW not loadable", []string{"diff", diffOld, swagger}, "plantmock diff: " + swagger + ": a Swagger 2.0 document: convert it to OpenAPI 3 (for instance with swagger2openapi)\n"},
		{"OLD not loadable", []string{"diff", swagger, diffNew}, "plantmock diff: " + swagger + ": a Swagger 2.0 document: convert it to OpenAPI 3 (for instance with swagger2openapi)\n"},
		{"missing ignore file", []string{"diff", "--ignore", "/nonexistent/ignore", diffOld, diffNew}, "plantmock diff: --ignore /nonexistent/ignore: open /nonexistent/ignore: no such file or directory\n"},
		{"ignore entry without a reason", []string{"diff", "--ignore", noReason, diffOld, diffNew}, "plantmock diff: --ignore " + noReason + ": line 1: no reason: write RULE METHOD /path [POINTER]: REASON\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runIn(tt.args)
			if code != 2 || stdout != "" || stderr != tt.stderr {
				t.Errorf("exit %d, stdout %q, stderr %q\nwant exit 2, stderr %q", code, stdout, stderr, tt.stderr)
			}
		})
	}
}

// TestDiffExits: --fail-on chooses the changes that exit 1, and changes
// an ignore file accepts fail at no level; an entry that matches nothing
// is warned about on stderr.
func TestDiffExits(t *testing.T) {
	same := []string{diffOld, diffOld}
	accepted := tempFile(t, "accepted", strings.Join([]string{
		"# the breaks of 2.0, accepted",
		"request-property-max-length-decreased POST /plants: names never went past 20",
		"request-property-enum-value-removed POST /plants /components/schemas/Plant/properties/light/enum: partial was never sold",
		"operation-removed DELETE /plants/{plantId}: plants are kept now",
		"operation-removed GET /plants: there is no such operation",
		"",
	}, "\n"))
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no change", same, 0, ""},
		{"no change, fail on any", append([]string{"--fail-on", "any"}, same...), 0, ""},
		{"breaks clients", []string{diffOld, diffNew}, 1, ""},
		{"breaks providers", []string{"--fail-on", "provider", diffOld, diffNew}, 1, ""},
		{"fail on none", []string{"--fail-on", "none", diffOld, diffNew}, 0, ""},
		{"clients' breaks ignored", []string{"--ignore", accepted, diffOld, diffNew}, 0,
			"plantmock diff: --ignore " + accepted + ":5: operation-removed GET /plants matches no change\n"},
		{"providers' breaks not ignored", []string{"--ignore", accepted, "--fail-on", "provider", diffOld, diffNew}, 1,
			"plantmock diff: --ignore " + accepted + ":5: operation-removed GET /plants matches no change\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runIn(append([]string{"diff"}, tt.args...))
			if code != tt.code || stderr != tt.stderr {
				t.Errorf("exit %d, stderr %q; want exit %d, stderr %q", code, stderr, tt.code, tt.stderr)
			}
		})
	}
}

// TestDiffFormats runs docs/diff.md's documents through each format and
// holds stdout to what each writes, whole: the request's breaks at
// NEW's lines, the response's, and the operation NEW removed at OLD's.
func TestDiffFormats(t *testing.T) {
	const (
		maxLength = "/components/schemas/Plant/properties/name/maxLength"
		enum      = "/components/schemas/Plant/properties/light/enum"
		nameReq   = "request body (application/json) property name: maxLength went from 40 to 20; a request OLD accepted may be refused"
		lightReq  = `request body (application/json) property light: enum value "partial" was removed; a request OLD accepted may be refused`
		nameResp  = "response 201 (application/json) property name: maxLength went from 40 to 20; a provider of OLD may send values NEW forbids"
		lightResp = `response 201 (application/json) property light: enum value "partial" was removed; a provider of OLD may send values NEW forbids`
		removed   = "NEW no longer declares DELETE /plants/{plantId}: a client of OLD that calls it is refused"
	)
	summary := "5 changes from " + diffOld + " to " + diffNew + ": 3 break clients, 2 break providers, 0 compatible"
	text := "breaks clients: POST /plants: request-property-max-length-decreased\n  " + nameReq + "\n" +
		"  old: " + diffOld + ":42 " + maxLength + "\n  new: " + diffNew + ":30 " + maxLength + "\n" +
		"breaks clients: POST /plants: request-property-enum-value-removed\n  " + lightReq + "\n" +
		"  old: " + diffOld + ":45 " + enum + "\n  new: " + diffNew + ":33 " + enum + "\n" +
		"breaks providers: POST /plants: response-property-max-length-decreased\n  " + nameResp + "\n" +
		"  old: " + diffOld + ":42 " + maxLength + "\n  new: " + diffNew + ":30 " + maxLength + "\n" +
		"breaks providers: POST /plants: response-property-enum-value-removed\n  " + lightResp + "\n" +
		"  old: " + diffOld + ":45 " + enum + "\n  new: " + diffNew + ":33 " + enum + "\n" +
		"breaks clients: DELETE /plants/{plantId}: operation-removed\n  " + removed + "\n" +
		"  old: " + diffOld + ":24 /paths/~1plants~1{plantId}/delete\n" +
		"plantmock diff: " + summary + "\n"
	github := "::error file=" + diffNew + ",line=30,title=plantmock diff%3A POST /plants%3A request-property-max-length-decreased (breaks clients)::" + nameReq + "\n" +
		"::error file=" + diffNew + ",line=33,title=plantmock diff%3A POST /plants%3A request-property-enum-value-removed (breaks clients)::" + lightReq + "\n" +
		"::warning file=" + diffNew + ",line=30,title=plantmock diff%3A POST /plants%3A response-property-max-length-decreased (breaks providers)::" + nameResp + "\n" +
		"::warning file=" + diffNew + ",line=33,title=plantmock diff%3A POST /plants%3A response-property-enum-value-removed (breaks providers)::" + lightResp + "\n" +
		"::error file=" + diffOld + ",line=24,title=plantmock diff%3A DELETE /plants/{plantId}%3A operation-removed (breaks clients)::" + removed + "\n" +
		"plantmock diff: " + summary + "\n"
	markdown := "### plantmock diff\n\n" + summary + ".\n\n| Level | Operation | Rule | Where | Reason |\n| --- | --- | --- | --- | --- |\n" +
		"| breaks clients | `POST /plants` | `request-property-max-length-decreased` | " + diffNew + " line 30 | " + nameReq + " |\n" +
		"| breaks clients | `POST /plants` | `request-property-enum-value-removed` | " + diffNew + " line 33 | " + lightReq + " |\n" +
		"| breaks providers | `POST /plants` | `response-property-max-length-decreased` | " + diffNew + " line 30 | " + nameResp + " |\n" +
		"| breaks providers | `POST /plants` | `response-property-enum-value-removed` | " + diffNew + " line 33 | " + lightResp + " |\n" +
		"| breaks clients | `DELETE /plants/{plantId}` | `operation-removed` | " + diffOld + " (OLD) line 24 | " + removed + " |\n"
	tests := []struct {
		name   string
		args   []string
		stdout string
	}{
		{"text", nil, text},
		{"github", []string{"--format", "github"}, github},
		{"markdown", []string{"--format", "markdown"}, markdown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runIn(append(append([]string{"diff"}, tt.args...), diffOld, diffNew))
			if code != 1 || stdout != tt.stdout || stderr != "" {
				t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant exit 1, stdout:\n%s", code, stderr, stdout, tt.stdout)
			}
		})
	}
}

// TestDiffJSON holds --format json to its whole text, for a pair with
// a change ignored and one not, and no changes at all.
func TestDiffJSON(t *testing.T) {
	const doc = "openapi: 3.1.0\ninfo: {title: T, version: \"1\"}\npaths:\n  /plants:\n    get:\n      parameters:\n        - {name: q, in: query, schema: {type: string, maxLength: 40}}\n      responses:\n        \"200\": {description: ok}\n"
	old := tempFile(t, "old.yaml", doc)
	new := tempFile(t, "new.yaml", strings.Replace(strings.Replace(doc, "maxLength: 40", "maxLength: 20", 1), "\"200\"", "\"404\": {description: none}\n        \"200\"", 1))
	accepted := tempFile(t, "accepted", "request-parameter-max-length-decreased GET /plants: no query went past 20\n")
	code, stdout, stderr := runIn([]string{"diff", "--format", "json", "--ignore", accepted, old, new})
	want := `{
  "old": "` + old + `",
  "new": "` + new + `",
  "changes": [
    {
      "rule": "request-parameter-max-length-decreased",
      "level": "breaks-clients",
      "side": "request",
      "operation": "GET /plants",
      "old": {
        "pointer": "/paths/~1plants/get/parameters/0/schema/maxLength",
        "line": 7
      },
      "new": {
        "pointer": "/paths/~1plants/get/parameters/0/schema/maxLength",
        "line": 7
      },
      "reason": "parameter q: maxLength went from 40 to 20; a request OLD accepted may be refused",
      "ignored": "no query went past 20"
    },
    {
      "rule": "response-status-added",
      "level": "compatible",
      "side": "response",
      "operation": "GET /plants",
      "new": {
        "pointer": "/paths/~1plants/get/responses/404",
        "line": 9
      },
      "reason": "NEW may answer 404: a client of OLD handles a status it does not know by its class (RFC 9110, section 15)"
    }
  ]
}
`
	if code != 0 || stdout != want || stderr != "" {
		t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant exit 0, stdout:\n%s", code, stderr, stdout, want)
	}
	code, stdout, _ = runIn([]string{"diff", "--format", "json", old, old})
	if want := "{\n  \"old\": \"" + old + "\",\n  \"new\": \"" + old + "\",\n  \"changes\": []\n}\n"; code != 0 || stdout != want {
		t.Errorf("no changes: exit %d, stdout:\n%s\nwant exit 0, stdout:\n%s", code, stdout, want)
	}
}

// TestDiffBreaksRequestProperty is the "done when": a new bound,
// an enum value removed and a new required property of a request body
// each exit 1 and name the rule and NEW's line.
func TestDiffBreaksRequestProperty(t *testing.T) {
	old, err := os.ReadFile(diffOld)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, from, to, head, at string
	}{
		{"bound", "          type: string\n          maxLength: 40\n        light:", "          type: string\n          maxLength: 40\n          minLength: 3\n        light:",
			"breaks clients: POST /plants: request-property-min-length-added", ":43 /components/schemas/Plant/properties/name/minLength"},
		{"enum value", "[shade, partial, sun]", "[shade, sun]",
			"breaks clients: POST /plants: request-property-enum-value-removed", ":45 /components/schemas/Plant/properties/light/enum"},
		{"required property", "required: [name]", "required: [name, light]",
			"breaks clients: POST /plants: request-property-became-required", ":38 /components/schemas/Plant/required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			edited := strings.Replace(string(old), tt.from, tt.to, 1)
			if edited == string(old) {
				t.Fatalf("%q is not in %s", tt.from, diffOld)
			}
			new := tempFile(t, "new.yaml", edited)
			code, stdout, _ := runIn([]string{"diff", diffOld, new})
			if code != 1 || !strings.HasPrefix(stdout, tt.head+"\n") || !strings.Contains(stdout, "  new: "+new+tt.at+"\n") {
				t.Errorf("exit %d, stdout:\n%s\nwant exit 1, first %q, new at %q", code, stdout, tt.head, tt.at)
			}
		})
	}
}

// recordJournal serves OLD with a mock of its own on a loopback
// listener, sends it requests (method, path and JSON body, "" for none),
// and returns the file its journal, GET /__admin/requests, is saved in.
func recordJournal(t *testing.T, requests [][3]string) string {
	t.Helper()
	spec, err := os.ReadFile(diffOld)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Options{Spec: spec})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { ts.Close(); srv.Close() })
	for _, r := range requests {
		req, err := http.NewRequest(r[0], ts.URL+r[1], strings.NewReader(r[2]))
		if err != nil {
			t.Fatal(err)
		}
		if r[2] != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	resp, err := http.Get(ts.URL + "/__admin/requests")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	journal, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /__admin/requests: %d, %v", resp.StatusCode, err)
	}
	return tempFile(t, "requests.json", string(journal))
}

// TestDiffTraffic: a journal recorded from a mock of OLD, replayed by
// diff --traffic, names exactly the requests NEW refuses and the answers
// it forbids, each with the changes that explain it; a request OLD
// refused already is not listed, one both accept is not either.
// --fail-on traffic exits 1 on them, unless the changes that explain
// them are ignored.
func TestDiffTraffic(t *testing.T) {
	requests := recordJournal(t, [][3]string{
		{"POST", "/plants", `{"name":"Monstera deliciosa variegata","light":"partial"}`}, // NEW: name too long, light gone
		{"POST", "/plants", `{"name":"fern","light":"sun"}`},                             // fine in both
		{"POST", "/plants", `{"name":"ivy","light":"partial"}`},                          // NEW: light gone
		{"POST", "/plants", `{"light":"sun"}`},                                           // OLD refused it already
		{"DELETE", "/plants/abc", ""},                                                    // NEW: no such operation
	})
	code, stdout, stderr := runIn([]string{"diff", "--traffic", requests, diffOld, diffNew})
	for _, want := range []string{
		"request-property-max-length-decreased\n  request body (application/json) property name: maxLength went from 40 to 20; a request OLD accepted may be refused\n" +
			"  old: " + diffOld + ":42 /components/schemas/Plant/properties/name/maxLength\n  new: " + diffNew + ":30 /components/schemas/Plant/properties/name/maxLength\n" +
			"  traffic: 1 of 4 recorded exchanges of POST /plants breaks on it\n",
		"request-property-enum-value-removed\n", "  traffic: 2 of 4 recorded exchanges of POST /plants break on it\n",
		"operation-removed\n", "  traffic: 1 of 1 recorded exchange of DELETE /plants/{plantId} breaks on it\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	tail := "recorded exchanges OLD accepted that NEW breaks:\n" +
		"  " + requests + ": seq 1: POST /plants -> 201: request-property-max-length-decreased, request-property-enum-value-removed, response-property-max-length-decreased, response-property-enum-value-removed\n" +
		"    request light: value is not one of the allowed values\n" +
		"    request name: longer than the maximum length 20\n" +
		"    response light: value is not one of the allowed values\n" +
		"    response name: longer than the maximum length 20\n" +
		"  " + requests + ": seq 3: POST /plants -> 201: request-property-enum-value-removed, response-property-enum-value-removed\n" +
		"    request light: value is not one of the allowed values\n" +
		"    response light: value is not one of the allowed values\n" +
		"  " + requests + ": seq 5: DELETE /plants/abc -> 204: operation-removed\n" +
		"    request route: no path of the OpenAPI document matches /plants/abc\n" +
		"plantmock diff: 5 changes from " + diffOld + " to " + diffNew + ": 3 break clients, 2 break providers, 0 compatible; " +
		"traffic: of 5 recorded exchanges OLD accepted 4; NEW breaks 3 of them\n"
	if code != 1 || stderr != "" || !strings.HasSuffix(stdout, tail) {
		t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant exit 1, ending:\n%s", code, stderr, stdout, tail)
	}
	bodies := "request-property-max-length-decreased POST /plants: names never went past 20\n" +
		"request-property-enum-value-removed POST /plants: partial was never sold\n" +
		"response-property-max-length-decreased POST /plants: names never went past 20\n" +
		"response-property-enum-value-removed POST /plants: partial was never sold\n"
	someAccepted := tempFile(t, "bodies", bodies)
	allAccepted := tempFile(t, "all", bodies+"operation-removed DELETE /plants/{plantId}: plants are kept now\n")
	for _, tt := range []struct {
		name string
		args []string
		code int
	}{
		{"fail on traffic", []string{"--fail-on", "traffic", diffOld, diffNew}, 1},
		{"the removed operation's break left", []string{"--fail-on", "traffic", "--ignore", someAccepted, diffOld, diffNew}, 1},
		{"every break accepted", []string{"--fail-on", "traffic", "--ignore", allAccepted, diffOld, diffNew}, 0},
		{"OLD against itself", []string{"--fail-on", "traffic", diffOld, diffOld}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if code, stdout, stderr := runIn(append([]string{"diff", "--traffic", requests}, tt.args...)); code != tt.code || stderr != "" {
				t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant exit %d", code, stderr, stdout, tt.code)
			}
		})
	}
}
