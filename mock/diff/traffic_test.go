package diff_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/plantmock/plantmock/mock"
	"github.com/plantmock/plantmock/mock/diff"
	"github.com/plantmock/plantmock/mock/internal/journal"
)

// weighed compares shop with a NEW that takes the bearer scheme as
// basic, drops the view "short" and removes DELETE /plants/{plantId},
// and weighs the report with six recorded exchanges: judged against OLD,
// s6 broke it; against NEW, s1 is refused its credentials, s2 its view,
// s3 its route (sent under the servers' base path, which OLD's router
// takes off), s4's answer is forbidden by no change of the documents,
// and s6 breaks NEW too.
func weighed(t *testing.T) *diff.Report {
	t.Helper()
	base := shop + "servers: [{url: /api}]\n"
	n := strings.Replace(base, "scheme: bearer", "scheme: basic", 1)
	n = strings.Replace(n, "enum: [short, full]", "enum: [full]", 1)
	n = strings.Replace(n, "    delete:\n      security: [{bearer: []}]\n      responses:\n        \"204\":\n          description: gone\n", "", 1)
	r, err := diff.Compare([]byte(base), []byte(n))
	if err != nil {
		t.Fatal(err)
	}
	const get = "GET /plants/{plantId}"
	s6 := journal.Judged{Source: "s6", Method: "GET", Path: "/api/plants/1", Status: 404, Operation: get,
		Violations: []journal.Violation{{Direction: "response", Path: "response", Reason: "404 has no body"}}}
	old := &journal.ContractReport{
		Operations: []journal.OperationReport{{Operation: get, Exchanges: 5}, {Operation: "DELETE /plants/{plantId}", Exchanges: 1}},
		Traffic:    &journal.Traffic{Exchanges: 6, Broken: []journal.Judged{s6}},
	}
	new := &journal.ContractReport{
		Operations: []journal.OperationReport{{Operation: get, Exchanges: 5}, {Operation: "", Exchanges: 1}},
		Traffic: &journal.Traffic{Exchanges: 6, Broken: []journal.Judged{
			{Source: "s1", Method: "GET", Path: "/api/plants/1", Status: 200, Operation: get,
				Violations: []journal.Violation{{Direction: "request", Path: "security", Reason: "missing credentials"}}},
			{Source: "s2", Method: "GET", Path: "/api/plants/1", Status: 200, Operation: get,
				Violations: []journal.Violation{{Direction: "request", Path: "query.view", Reason: "value is not one of the allowed values",
					Schema: "#/paths/~1plants~1{plantId}/get/parameters/1/schema/enum"}}},
			{Source: "s3", Method: "DELETE", Path: "/api/plants/7", Status: 204,
				Violations: []journal.Violation{{Direction: "request", Path: "route", Reason: "no path matches /api/plants/7"}}},
			{Source: "s4", Method: "GET", Path: "/api/plants/2", Status: 200, Operation: get,
				Violations: []journal.Violation{{Direction: "response", Path: "id", Reason: "expected string, got integer",
					Schema: "#/paths/~1plants~1{plantId}/get/responses/200/content/application~1json/schema/type"}}},
			s6,
		}},
	}
	r.Weigh(old, new)
	return r
}

// TestWeigh: each exchange OLD accepted and NEW breaks is explained by
// the change at the value it broke (a schema keyword), of its
// operation's side (credentials: the document's scheme), or by the
// removal of the operation its route went to, under a base path; one no
// change explains is listed with no rules; one OLD refused already is
// not listed. Each change counts the exchanges of its operation and
// those it explains.
func TestWeigh(t *testing.T) {
	r := weighed(t)
	var got []string
	for _, b := range r.Traffic.Broken {
		got = append(got, b.Source+": "+strings.Join(b.Rules, ", "))
	}
	want := []string{"s1: security-scheme-changed", "s2: request-parameter-enum-value-removed", "s3: operation-removed", "s4: "}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("broken:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if r.Traffic.Exchanges != 6 || r.Traffic.Accepted != 5 {
		t.Errorf("%d exchanges, %d accepted; want 6, 5", r.Traffic.Exchanges, r.Traffic.Accepted)
	}
	got = got[:0]
	for _, c := range r.Changes {
		got = append(got, c.Rule+": "+fmtEvidence(c.Traffic))
	}
	want = []string{"security-scheme-changed: 1 of 6", "request-parameter-enum-value-removed: 1 of 5", "operation-removed: 1 of 1"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("evidence:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !r.Fails("traffic") {
		t.Error("Fails(traffic) = false with s4 explained by no change")
	}
}

// fmtEvidence writes evidence as "BROKEN of REACHED", "nil" for none.
func fmtEvidence(e *diff.Evidence) string {
	if e == nil {
		return "nil"
	}
	return fmt.Sprintf("%d of %d", e.Broken, e.Reached)
}

// TestWeighedOutputs holds each format to what it writes of the
// traffic: the JSON's traffic members, the Markdown's column and table,
// and the GitHub annotations' lines, an exchange no change explains an
// ::error at --fail-on traffic.
func TestWeighedOutputs(t *testing.T) {
	r := weighed(t)
	var b strings.Builder
	if err := r.WriteJSON(&b, "old.yaml", "new.yaml"); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Changes []struct {
			Traffic json.RawMessage `json:"traffic"`
		} `json:"changes"`
		Traffic json.RawMessage `json:"traffic"`
	}
	if err := json.Unmarshal([]byte(b.String()), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range doc.Changes {
		got = append(got, compact(t, c.Traffic))
	}
	got = append(got, compact(t, doc.Traffic))
	want := []string{`{"reached":6,"broken":1}`, `{"reached":5,"broken":1}`, `{"reached":1,"broken":1}`,
		`{"exchanges":6,"accepted":5,"broken":[` +
			`{"source":"s1","method":"GET","path":"/api/plants/1","status":200,"operation":"GET /plants/{plantId}","violations":[{"path":"security","reason":"missing credentials","direction":"request"}],"rules":["security-scheme-changed"]},` +
			`{"source":"s2","method":"GET","path":"/api/plants/1","status":200,"operation":"GET /plants/{plantId}","violations":[{"path":"query.view","reason":"value is not one of the allowed values","direction":"request","schema":"#/paths/~1plants~1{plantId}/get/parameters/1/schema/enum"}],"rules":["request-parameter-enum-value-removed"]},` +
			`{"source":"s3","method":"DELETE","path":"/api/plants/7","status":204,"violations":[{"path":"route","reason":"no path matches /api/plants/7","direction":"request"}],"rules":["operation-removed"]},` +
			`{"source":"s4","method":"GET","path":"/api/plants/2","status":200,"operation":"GET /plants/{plantId}","violations":[{"path":"id","reason":"expected string, got integer","direction":"response","schema":"#/paths/~1plants~1{plantId}/get/responses/200/content/application~1json/schema/type"}],"rules":[]}]}`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("json:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	const (
		summary = "3 changes from old.yaml to new.yaml: 3 break clients, 0 break providers, 0 compatible; traffic: of 6 recorded exchanges OLD accepted 5; NEW breaks 4 of them (1 explained by no change)"
		scheme  = "security scheme bearer takes http basic, no longer http bearer: a client of OLD sends credentials the old way"
		view    = `parameter view: enum value "short" was removed; a request OLD accepted may be refused`
		removed = "NEW no longer declares DELETE /plants/{plantId}: a client of OLD that calls it is refused"
	)
	b.Reset()
	if err := r.WriteMarkdown(&b, "old.yaml", "new.yaml"); err != nil {
		t.Fatal(err)
	}
	markdown := "### plantmock diff\n\n" + summary + ".\n\n" +
		"| Level | Operation | Rule | Where | Reason | Traffic |\n| --- | --- | --- | --- | --- | --- |\n" +
		"| breaks clients |  | `security-scheme-changed` | new.yaml line 6 | " + scheme + " | 1 of 6 recorded exchanges breaks on it |\n" +
		"| breaks clients | `GET /plants/{plantId}` | `request-parameter-enum-value-removed` | new.yaml line 19 | " + view + " | 1 of 5 recorded exchanges of GET /plants/{plantId} breaks on it |\n" +
		"| breaks clients | `DELETE /plants/{plantId}` | `operation-removed` | old.yaml (OLD) line 35 | " + removed + " | 1 of 1 recorded exchange of DELETE /plants/{plantId} breaks on it |\n" +
		"\n#### Recorded exchanges OLD accepted that NEW breaks\n\n| Exchange | Changes | Violations |\n| --- | --- | --- |\n" +
		"| s1: GET /api/plants/1 -> 200 | security-scheme-changed | request security: missing credentials |\n" +
		"| s2: GET /api/plants/1 -> 200 | request-parameter-enum-value-removed | request query.view: value is not one of the allowed values |\n" +
		"| s3: DELETE /api/plants/7 -> 204 | operation-removed | request route: no path matches /api/plants/7 |\n" +
		"| s4: GET /api/plants/2 -> 200 | explained by no change | response id: expected string, got integer |\n"
	if b.String() != markdown {
		t.Errorf("markdown:\n%s\nwant\n%s", b.String(), markdown)
	}

	for _, on := range []string{"traffic", "client"} {
		b.Reset()
		if err := r.WriteGitHub(&b, "old.yaml", "new.yaml", on); err != nil {
			t.Fatal(err)
		}
		unexplained := "warning"
		if on == "traffic" {
			unexplained = "error"
		}
		github := "::error file=new.yaml,line=6,title=plantmock diff%3A security-scheme-changed (breaks clients)::" + scheme + "%0Atraffic: 1 of 6 recorded exchanges breaks on it\n" +
			"::error file=new.yaml,line=19,title=plantmock diff%3A GET /plants/{plantId}%3A request-parameter-enum-value-removed (breaks clients)::" + view + "%0Atraffic: 1 of 5 recorded exchanges of GET /plants/{plantId} breaks on it\n" +
			"::error file=old.yaml,line=35,title=plantmock diff%3A DELETE /plants/{plantId}%3A operation-removed (breaks clients)::" + removed + "%0Atraffic: 1 of 1 recorded exchange of DELETE /plants/{plantId} breaks on it\n" +
			"::" + unexplained + " title=plantmock diff%3A recorded exchange::s4: GET /api/plants/2 -> 200: NEW breaks it, explained by no change%0Aresponse id: expected string, got integer\n" +
			"plantmock diff: " + summary + "\n"
		if b.String() != github {
			t.Errorf("github at %s:\n%s\nwant\n%s", on, b.String(), github)
		}
	}
}

// compact writes a JSON value without spaces.
func compact(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestWeighNoTraffic: traffic that reaches no operation of a change, or
// none that breaks on it, says so of each change.
func TestWeighNoTraffic(t *testing.T) {
	r := weighed(t)
	none := &journal.ContractReport{Traffic: &journal.Traffic{}}
	r.Weigh(none, none)
	var b strings.Builder
	if err := r.WriteText(&b, "old.yaml", "new.yaml"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"  traffic: no exchange was recorded\n",
		"  traffic: no recorded exchange reaches GET /plants/{plantId}\n",
		"  traffic: no recorded exchange reaches DELETE /plants/{plantId}\n",
		"; traffic: of 0 recorded exchanges OLD accepted 0; NEW breaks 0 of them\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "recorded exchanges OLD accepted that NEW breaks") {
		t.Errorf("text lists exchanges where none broke:\n%s", b.String())
	}
	if r.Fails("traffic") {
		t.Error("Fails(traffic) with no exchange broken")
	}
	seen := &journal.ContractReport{Operations: []journal.OperationReport{{Operation: "GET /plants/{plantId}", Exchanges: 3}}, Traffic: &journal.Traffic{Exchanges: 3}}
	r.Weigh(seen, seen)
	if got, want := r.Changes[1].Traffic, (diff.Evidence{Reached: 3}); *got != want {
		t.Errorf("evidence %+v, want %+v", *got, want)
	}
}

// TestWeighParameters: a parameter's violation of no schema (one
// missing) is explained by the change of that parameter alone, not by
// those of the operation's other parameters; a header's in any case.
func TestWeighParameters(t *testing.T) {
	n := strings.Replace(shop, "enum: [short, full]", "enum: [full]", 1)
	n = strings.Replace(n, "        - name: view\n", "        - {name: q, in: query, required: true, schema: {type: string}}\n        - {name: X-Shop, in: header, required: true, schema: {type: string}}\n        - name: view\n", 1)
	r, err := diff.Compare([]byte(shop), []byte(n))
	if err != nil {
		t.Fatal(err)
	}
	const get = "GET /plants/{plantId}"
	missing := func(source, path string) journal.Judged {
		return journal.Judged{Source: source, Method: "GET", Path: "/plants/1", Status: 200, Operation: get,
			Violations: []journal.Violation{{Direction: "request", Path: path, Reason: "required parameter is missing"}}}
	}
	r.Weigh(&journal.ContractReport{Traffic: &journal.Traffic{Exchanges: 2}},
		&journal.ContractReport{Traffic: &journal.Traffic{Exchanges: 2, Broken: []journal.Judged{missing("s1", "query.q"), missing("s2", "header.x-shop")}}})
	var got []string
	for _, b := range r.Traffic.Broken {
		got = append(got, b.Source+": "+strings.Join(b.Rules, ", "))
	}
	if want := "s1: request-parameter-added-required\ns2: request-parameter-added-required"; strings.Join(got, "\n") != want {
		t.Errorf("broken:\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
	for _, c := range r.Changes {
		if c.Traffic.Broken != map[string]int{"request-parameter-added-required": 1}[c.Rule] {
			t.Errorf("%s %s: %d broken", c.Rule, c.New.Pointer, c.Traffic.Broken)
		}
	}
}

// TestWeighHooks: recorded traffic holds the requests clients send, so
// a change to a callback's body is neither told of the operation's
// exchanges nor explains them, though both bodies are one component.
func TestWeighHooks(t *testing.T) {
	const doc = `openapi: 3.1.0
info: {title: Hooks, version: "1"}
paths:
  /subscriptions:
    post:
      requestBody:
        content:
          application/json: {schema: {$ref: '#/components/schemas/Sale'}}
      responses:
        "201": {description: subscribed}
      callbacks:
        sold:
          '{$request.body#/url}':
            post:
              requestBody:
                content:
                  application/json: {schema: {$ref: '#/components/schemas/Sale'}}
              responses:
                "200": {description: received}
components:
  schemas:
    Sale:
      type: object
      properties:
        id: {type: string, maxLength: 40}
`
	r, err := diff.Compare([]byte(doc), []byte(strings.Replace(doc, "maxLength: 40", "maxLength: 20", 1)))
	if err != nil {
		t.Fatal(err)
	}
	const post = "POST /subscriptions"
	ops := []journal.OperationReport{{Operation: post, Exchanges: 2}}
	r.Weigh(&journal.ContractReport{Operations: ops, Traffic: &journal.Traffic{Exchanges: 2}},
		&journal.ContractReport{Operations: ops, Traffic: &journal.Traffic{Exchanges: 2, Broken: []journal.Judged{
			{Source: "s1", Method: "POST", Path: "/subscriptions", Status: 201, Operation: post,
				Violations: []journal.Violation{{Direction: "request", Path: "id", Reason: "longer than the maximum length 20",
					Schema: "#/components/schemas/Sale/properties/id/maxLength"}}},
		}}})
	var got []string
	for _, b := range r.Traffic.Broken {
		got = append(got, b.Source+": "+strings.Join(b.Rules, ", "))
	}
	for _, c := range r.Changes {
		got = append(got, c.Rule+": "+fmtEvidence(c.Traffic))
	}
	want := []string{
		"s1: request-property-max-length-decreased",
		"request-property-max-length-decreased: 1 of 2",
		"callback-request-property-max-length-decreased: nil",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestWeighStatuses: an answer's violation of no schema is explained by
// a change of the response of its status alone, not by one of another
// status of the operation.
func TestWeighStatuses(t *testing.T) {
	n := strings.Replace(shop, "            application/xml:\n              schema: {type: object}\n", "", 1)
	n = strings.Replace(n, "        \"404\":\n          description: none\n", "", 1)
	r, err := diff.Compare([]byte(shop), []byte(n))
	if err != nil {
		t.Fatal(err)
	}
	answer := func(source string, status int, reason string) journal.Judged {
		return journal.Judged{Source: source, Method: "GET", Path: "/plants/1", Status: status, Operation: "GET /plants/{plantId}",
			Violations: []journal.Violation{{Direction: "response", Path: "response", Reason: reason}}}
	}
	r.Weigh(&journal.ContractReport{Traffic: &journal.Traffic{Exchanges: 2}},
		&journal.ContractReport{Traffic: &journal.Traffic{Exchanges: 2, Broken: []journal.Judged{
			answer("s1", 404, "status 404 is not declared"), answer("s2", 200, "application/xml is not declared")}}})
	var got []string
	for _, b := range r.Traffic.Broken {
		got = append(got, b.Source+": "+strings.Join(b.Rules, ", "))
	}
	if want := "s1: response-status-removed\ns2: response-media-type-removed"; strings.Join(got, "\n") != want {
		t.Errorf("broken:\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
}

// recorded serves a mock of spec on a loopback listener, lets send send
// it requests, and returns a file of every journal entry, a JSON line
// each, as --journal-file writes them (the journal itself keeps 1,000).
func recorded(t *testing.T, spec []byte, send func(url string)) string {
	t.Helper()
	var mu sync.Mutex // guards lines, written on the requests' goroutines
	var lines bytes.Buffer
	srv, err := mock.New(mock.Options{Spec: spec, Observe: func(e mock.Entry) {
		b, err := json.Marshal(e)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			t.Error(err)
		}
		lines.Write(append(b, '\n'))
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ts := httptest.NewServer(srv)
	send(ts.URL)
	ts.Close() // every answer written, and observed
	file := filepath.Join(t.TempDir(), "journal.jsonl")
	mu.Lock()
	defer mu.Unlock()
	if err := os.WriteFile(file, lines.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// weigh judges the traffic in file against a mock of old and one of
// new, and weighs r with it.
func weigh(t *testing.T, r *diff.Report, old, new []byte, file string) {
	t.Helper()
	var judged [2]*mock.ContractReport
	for i, spec := range [][]byte{old, new} {
		m, err := mock.New(mock.Options{Spec: spec})
		if err != nil {
			t.Fatal(err)
		}
		judged[i], err = m.CheckTraffic(file)
		m.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	r.Weigh(judged[0], judged[1])
}

// weighedCreate compares old with new and weighs the report with one
// create, POST /plants with body, recorded from a mock of old, which
// must answer 201. It returns what the traffic showed: each exchange NEW
// breaks with its rules and first violation, then the evidence of each
// change that breaks either side.
func weighedCreate(t *testing.T, old, new []byte, body string) []string {
	t.Helper()
	r, err := diff.Compare(old, new)
	if err != nil {
		t.Fatal(err)
	}
	file := recorded(t, old, func(url string) {
		resp, err := http.Post(url+"/plants", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 201 {
			t.Fatalf("status %d, want 201", resp.StatusCode)
		}
	})
	weigh(t, r, old, new, file)
	var got []string
	for _, b := range r.Traffic.Broken {
		got = append(got, fmt.Sprintf("%s %s -> %d: %s: %s", b.Method, b.Path, b.Status, strings.Join(b.Rules, ", "), b.Violations[0]))
	}
	for _, c := range r.Changes {
		if c.Traffic != nil {
			got = append(got, show(c)+": "+fmtEvidence(c.Traffic))
		}
	}
	return got
}

// TestWeighRequiredPropertyAdded: a body without a property NEW
// requires is refused at its object's required keyword, not at the
// property; the change that added it explains the exchange, on each
// side.
func TestWeighRequiredPropertyAdded(t *testing.T) {
	const plant = "      type: object\n      required: [name]\n      properties:\n        name: {type: string}\n"
	old := []byte(fmt.Sprintf(plants, "3.1.0", plant))
	now := []byte(fmt.Sprintf(plants, "3.1.0", edit(t, edit(t, plant, "required: [name]", "required: [name, kind]"),
		"name: {type: string}\n", "name: {type: string}\n        kind: {type: string}\n")))
	check(t, weighedCreate(t, old, now, `{"name":"fern"}`), []string{
		"POST /plants -> 201: request-required-property-added, response-required-property-added: request kind: required property is missing",
		"POST /plants request-required-property-added breaks-clients request old=- new=/components/schemas/Plant/properties/kind:26: 1 of 1",
		"POST /plants response-required-property-added breaks-providers response old=- new=/components/schemas/Plant/properties/kind:26: 1 of 1",
	})
}

// alternatives is a document whose POST /plants takes anyOf and
// answers oneOf of Fern and Moss, two components; Any and Open take any
// object.
const alternatives = `openapi: 3.1.0
info: {title: Plants, version: "1"}
paths:
  /plants:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              anyOf:
                - $ref: '#/components/schemas/Fern'
                - $ref: '#/components/schemas/Moss'
      responses:
        "201":
          description: made
          content:
            application/json:
              schema:
                oneOf:
                  - $ref: '#/components/schemas/Fern'
                  - $ref: '#/components/schemas/Moss'
components:
  schemas:
    Fern: {type: object, required: [fronds], properties: {fronds: {type: integer}}}
    Moss: {type: object, required: [patch], properties: {patch: {type: string}}}
    Any: {type: object}
    Open: {type: object}
`

// TestWeighAlternatives: a request that matches no alternative left,
// and an answer that matches two of oneOf's, are refused at the anyOf
// or oneOf keyword, while each alternative (a component here) is placed
// where it is written; the change of the alternative explains them.
// Two alternatives added each count the answer, and their rule is
// listed once.
func TestWeighAlternatives(t *testing.T) {
	now := []byte(edit(t, edit(t, alternatives, "                - $ref: '#/components/schemas/Moss'\n", ""),
		"                  - $ref: '#/components/schemas/Moss'\n", "                  - $ref: '#/components/schemas/Moss'\n                  - $ref: '#/components/schemas/Any'\n                  - $ref: '#/components/schemas/Open'\n"))
	check(t, weighedCreate(t, []byte(alternatives), now, `{"patch":"north wall"}`), []string{
		"POST /plants -> 201: request-body-alternative-removed, response-body-alternative-added: request body: matches none of the anyOf alternatives",
		"POST /plants request-body-alternative-removed breaks-clients request old=/components/schemas/Moss:26 new=-: 1 of 1",
		"POST /plants response-body-alternative-added breaks-clients response old=- new=/components/schemas/Any:28: 1 of 1",
		"POST /plants response-body-alternative-added breaks-clients response old=- new=/components/schemas/Open:29: 1 of 1",
	})
}

// TestWeighNoAlternativeLeft: an answer that matches none of oneOf's
// alternatives is refused at oneOf, which names no keyword in them; the
// changes to the schemas under the value (here a required property
// added to each alternative, both components) explain it, each counting
// it.
func TestWeighNoAlternativeLeft(t *testing.T) {
	kind := func(doc, name, required string) string {
		return edit(t, doc, "    "+name+": {type: object, required: ["+required+"], properties: {",
			"    "+name+": {type: object, required: ["+required+", kind], properties: {kind: {type: string}, ")
	}
	now := []byte(kind(kind(alternatives, "Fern", "fronds"), "Moss", "patch"))
	// The request has a kind: NEW takes it. OLD's answer, a Fern or a
	// Moss it makes up, has none.
	check(t, weighedCreate(t, []byte(alternatives), now, `{"patch":"north wall","kind":"moss"}`), []string{
		"POST /plants -> 201: response-required-property-added: response body: matches none of the oneOf alternatives",
		"POST /plants request-required-property-added breaks-clients request old=- new=/components/schemas/Fern/properties/kind:25: 0 of 1",
		"POST /plants request-required-property-added breaks-clients request old=- new=/components/schemas/Moss/properties/kind:26: 0 of 1",
		"POST /plants response-required-property-added breaks-providers response old=- new=/components/schemas/Fern/properties/kind:25: 1 of 1",
		"POST /plants response-required-property-added breaks-providers response old=- new=/components/schemas/Moss/properties/kind:26: 1 of 1",
	})
}
