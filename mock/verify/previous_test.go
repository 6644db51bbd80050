package verify_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/verify"
)

// shopV1 and shopV2 are two versions of a document: v2 wants a hex
// with each colour, a label with each size and a lang to ask a colour
// in, and adds GET /stock; both want
// a unit to ask a size in.
const (
	shopV1 = `openapi: 3.1.0
info: {title: Shop, version: '1'}
paths:
  /colour:
    get:
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}}
  /size:
    get:
      parameters: [{name: unit, in: query, required: true, schema: {type: string, enum: [cm]}}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object, required: [cm], properties: {cm: {type: integer}}}}}}
`
	shopV2 = `openapi: 3.1.0
info: {title: Shop, version: '2'}
paths:
  /colour:
    get:
      parameters: [{name: lang, in: query, required: true, schema: {type: string, enum: [en]}}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object, required: [name, hex], properties: {name: {type: string}, hex: {type: string}}}}}}
        '400': {description: refused}
  /size:
    get:
      parameters: [{name: unit, in: query, required: true, schema: {type: string, enum: [cm]}}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object, required: [cm, label], properties: {cm: {type: integer}, label: {type: string}}}}}}
  /stock:
    get:
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object, required: [count], properties: {count: {type: integer}}}}}}
`
)

// shopV1Service keeps shopV1 on /colour (no hex, any lang taken) and
// breaks both versions on /size (cm is text, any unit taken) and v2 on
// /stock.
func shopV1Service(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/colour":
		fmt.Fprint(w, `{"name":"red"}`)
	case "/size":
		fmt.Fprint(w, `{"cm":"ten"}`)
	case "/stock":
		fmt.Fprint(w, `{"count":"many"}`)
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

// TestAgainstPrevious checks that each failure of a run against a
// previous version is judged again by it: new where the service keeps
// the previous version (and where it lacks the operation), old where
// it breaks it the same way; in the summary, the JSON and JUnit.
func TestAgainstPrevious(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(shopV1Service))
	defer srv.Close()
	rep, err := verify.Run(context.Background(), []byte(shopV2), srv.URL, verify.Options{Previous: []byte(shopV1)})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := rep.WriteSummary(&b); err != nil {
		t.Fatal(err)
	}
	if got := strings.ReplaceAll(b.String(), srv.URL, "http://service"); got != againstPreviousSummary {
		t.Errorf("summary:\n%s\nwant:\n%s", got, againstPreviousSummary)
	}

	js, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var read struct {
		Previous json.RawMessage
		Failures []struct {
			Operation, Rule, AgainstPrevious string
		}
	}
	if err := json.Unmarshal(js, &read); err != nil {
		t.Fatal(err)
	}
	if want := `{"title":"Shop","version":"1","failures":8,"new":5}`; string(read.Previous) != want {
		t.Errorf("JSON previous: %s, want %s", read.Previous, want)
	}
	var marks []string
	for _, f := range read.Failures {
		marks = append(marks, f.Operation+" "+f.Rule+": "+f.AgainstPrevious)
	}
	if got, want := strings.Join(marks, "; "), "GET /colour body: new; GET /colour accepted invalid input: new; GET /colour accepted invalid input: new; "+
		"GET /size body: old; GET /size body: new; GET /size accepted invalid input: old; GET /size accepted invalid input: old; GET /stock body: new"; got != want {
		t.Errorf("JSON failures: %s\nwant %s", got, want)
	}

	var x strings.Builder
	if err := rep.WriteJUnit(&x); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<failure message="status 200: body.cm: expected integer, got string" type="body">status 200: body.cm: expected integer, got string&#xA;already failing against the previous version&#xA;rule: #/paths/~1size/get/responses/200/content/application~1json/schema/properties/cm/type&#xA;curl -sS -i &#39;` + srv.URL + `/size?unit=cm&#39;&#xA;</failure>`,
		`<failure message="status 200: body.count: expected integer, got string" type="body">status 200: body.count: expected integer, got string&#xA;new with this version of the document: the previous version lacks GET /stock&#xA;rule: #/paths/~1stock/get/responses/200/content/application~1json/schema/properties/count/type&#xA;curl -sS -i &#39;` + srv.URL + `/stock&#39;&#xA;</failure>`,
	} {
		if !strings.Contains(x.String(), want) {
			t.Errorf("JUnit:\n%s\nwant in it:\n%s", x.String(), want)
		}
	}

	var g strings.Builder
	if err := rep.WriteGitHub(&g, "shop.yaml"); err != nil {
		t.Fatal(err)
	}
	if want := "::error file=shop.yaml,line=14,title=plantmock verify%3A GET /size%3A body::positive: required only: status 200: body.label: required property is missing%0Anew with this version of the document%0A"; !strings.Contains(g.String(), want) {
		t.Errorf("GitHub:\n%s\nwant in it:\n%s", g.String(), want)
	}
}

// TestAgainstNoPrevious checks that a run without a previous version
// marks nothing and counts nothing.
func TestAgainstNoPrevious(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(shopV1Service))
	defer srv.Close()
	rep, err := verify.Run(context.Background(), []byte(shopV2), srv.URL, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Previous != nil || len(rep.Failures) != 8 || strings.Contains(string(js), "revious") {
		t.Errorf("a run without Options.Previous: Previous %v, %d failures, JSON %s", rep.Previous, len(rep.Failures), js)
	}
}

// TestAgainstPreviousUnreadable checks that a previous version that is
// no OpenAPI document stops the run before any request, saying why.
func TestAgainstPreviousUnreadable(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("request %s %s sent", r.Method, r.URL)
	}))
	defer srv.Close()
	for _, tc := range []struct{ name, previous, want string }{
		{"not YAML", "{", "verify: the previous document: not a JSON or YAML document: line 1: expected a quoted key"},
		{"not OpenAPI", "title: notes\n", "verify: the previous document: not an OpenAPI document: no openapi field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := verify.Run(context.Background(), []byte(shopV2), srv.URL, verify.Options{Previous: []byte(tc.previous)})
			if err == nil || err.Error() != tc.want {
				t.Errorf("Run: %v, %v; want the error %q", rep, err, tc.want)
			}
		})
	}
}

// againstPreviousSummary is the summary of TestAgainstPrevious's run.
const againstPreviousSummary = `verify http://service against Shop 2

GET /colour: 3 of 4 checks failed
  FAIL positive: required only [body]
    status 200: body.hex: required property is missing
    new with this version of the document
    rule: #/paths/~1colour/get/responses/200/content/application~1json/schema/required
    curl -sS -i 'http://service/colour?lang=en'
  FAIL negative: missing required parameter query.lang [accepted invalid input]
    status 200: the request was not refused, but query.lang: required parameter is missing
    new with this version of the document
    curl -sS -i 'http://service/colour'
  FAIL negative: value of parameter query.lang outside its enum [accepted invalid input]
    status 200: the request was not refused, but query.lang: value is not one of the allowed values
    new with this version of the document
    rule: #/paths/~1colour/get/parameters/0/schema/enum
    curl -sS -i 'http://service/colour?lang=not-in-enum-lang'

GET /size: 3 of 4 checks failed
  FAIL positive: required only [body]
    status 200: body.cm: expected integer, got string
    already failing against the previous version
    rule: #/paths/~1size/get/responses/200/content/application~1json/schema/properties/cm/type
    curl -sS -i 'http://service/size?unit=cm'
  FAIL positive: required only [body]
    status 200: body.label: required property is missing
    new with this version of the document
    rule: #/paths/~1size/get/responses/200/content/application~1json/schema/required
    curl -sS -i 'http://service/size?unit=cm'
  FAIL negative: missing required parameter query.unit [accepted invalid input]
    status 200: the request was not refused, but query.unit: required parameter is missing
    already failing against the previous version
    curl -sS -i 'http://service/size'
  FAIL negative: value of parameter query.unit outside its enum [accepted invalid input]
    status 200: the request was not refused, but query.unit: value is not one of the allowed values
    already failing against the previous version
    rule: #/paths/~1size/get/parameters/0/schema/enum
    curl -sS -i 'http://service/size?unit=not-in-enum-unit'

GET /stock: 1 of 2 checks failed
  FAIL positive: required only [body]
    status 200: body.count: expected integer, got string
    new with this version of the document: the previous version lacks GET /stock
    rule: #/paths/~1stock/get/responses/200/content/application~1json/schema/properties/count/type
    curl -sS -i 'http://service/stock'

coverage: operations 3/3, declared statuses 3/4, request media types 0/0
5 of 8 failures are new against the previous version (Shop 1)
FAILED: 10 checks, 8 failures, 0 advice (10 requests)
`

// TestAgainstPreviousRules runs one operation against a service that
// refuses every request with an undeclared 400, under two versions of
// its document, and holds each failure's mark to whether the previous
// version is broken by the same exchange the same way: a valid request
// refused is old where OLD takes it as valid too, new where OLD calls
// it invalid (it required more), in JSON and in a form.
func TestAgainstPreviousRules(t *testing.T) {
	const doc = `openapi: 3.1.0
info: {title: Keys, version: 'VERSION'}
paths:
  /keys:
    post:
      requestBody:
        required: true
        content:
          MEDIA:
            schema: {type: object, required: REQUIRED, properties: {name: {type: string}, code: {type: string}}}
      responses:
        '201': {description: made}
`
	version := func(v, required, media string) []byte {
		return []byte(strings.NewReplacer("VERSION", v, "REQUIRED", required, "MEDIA", media).Replace(doc))
	}
	const json, form = "application/json", "application/x-www-form-urlencoded"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error":"no"}`)
	}))
	defer srv.Close()
	for _, tc := range []struct {
		name     string
		old, new []byte
		want     string // the marks, "rule: mark; ..."
	}{
		{"valid in both", version("1", "[name]", json), version("2", "[name]", json), "status: old; valid input refused: old"},
		{"OLD required more", version("1", "[name, code]", json), version("2", "[name]", json), "status: old; valid input refused: new"},
		// A form is read as the mock reads it.
		{"a form valid in both", version("1", "[name]", form), version("2", "[name]", form), "status: old; valid input refused: old"},
		{"a form OLD required more of", version("1", "[name, code]", form), version("2", "[name]", form), "status: old; valid input refused: new"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := verify.Run(context.Background(), tc.new, srv.URL, verify.Options{Previous: tc.old})
			if err != nil {
				t.Fatal(err)
			}
			var marks []string
			for _, f := range rep.Failures {
				marks = append(marks, f.Rule+": "+f.AgainstPrevious)
			}
			if got := strings.Join(marks, "; "); got != tc.want {
				t.Errorf("marks %s, want %s", got, tc.want)
			}
		})
	}
}
