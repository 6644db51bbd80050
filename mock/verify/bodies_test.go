package verify_test

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/verify"
)

// memosSpec declares a create whose examples, in JSON and in XML, carry
// the readOnly id.
const memosSpec = `openapi: 3.0.3
info: {title: Memos, version: '1'}
paths:
  /memos:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Memo'}
            example: {id: 7, text: hello}
          application/xml:
            schema: {$ref: '#/components/schemas/Memo'}
            example: {id: 7, text: hello}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Memo'}}}}
        '400': {description: refused, content: {text/plain: {schema: {type: string}}}}
components:
  schemas:
    Memo:
      type: object
      xml: {name: memo}
      required: [text]
      properties:
        id: {type: integer, readOnly: true}
        text: {type: string}
`

// memos serves memosSpec, refusing a body that carries an id; with
// lenient, it reads a body in any media type as JSON (or XML).
func memos(lenient bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/memos" {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		data, _ := io.ReadAll(r.Body)
		var in struct {
			ID   *int    `json:"id" xml:"id"`
			Text *string `json:"text" xml:"text"`
		}
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		var err error
		switch {
		case mt == "application/xml" || lenient && strings.HasPrefix(string(data), "<"):
			err = xml.Unmarshal(data, &in)
		case mt == "application/json" || lenient:
			err = json.Unmarshal(data, &in)
		default:
			refuse(w, "not a media type of the create")
			return
		}
		switch {
		case err != nil || in.Text == nil:
			refuse(w, "not a memo")
		case in.ID != nil:
			refuse(w, "a memo's id is the service's to give ("+mt+")")
		default:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusCreated)
			json.NewEncoder(w).Encode(map[string]any{"id": 1, "text": *in.Text})
		}
	}
}

// refuse answers 400 with why.
func refuse(w http.ResponseWriter, why string) {
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(http.StatusBadRequest)
	io.WriteString(w, why)
}

// TestBodiesReadOnlyAndUndeclaredType: a service that refuses the
// examples for their readOnly id, in JSON and in XML alike, gets advice,
// not a failure, each with its why; one that also accepts a body in a
// media type the operation does not declare gets advice for that too.
func TestBodiesReadOnlyAndUndeclaredType(t *testing.T) {
	const (
		whyReadOnly = "the request carries the readOnly property id, which a client SHOULD NOT send: a service may refuse it"
		whyUndecl   = "neither OpenAPI nor RFC 9110 obliges a service to refuse a body in a media type the operation does not declare"
		undeclared  = "accepted invalid input\tnegative: undeclared media type application/x-plantmock-undeclared\tstatus 201: the request was not refused, but Content-Type: application/x-plantmock-undeclared is not a declared request media type"
		jsonExample = "valid input refused\tpositive: example in application/json\tstatus 400 to a request the document calls valid: a memo's id is the service's to give (application/json)"
		xmlExample  = "valid input refused\tpositive: example in application/xml\tstatus 400 to a request the document calls valid: a memo's id is the service's to give (application/xml)"
		memoCreate  = "POST /memos"
	)
	tests := []struct {
		name    string
		lenient bool
		advice  []string
	}{
		{"strict", false, []string{jsonExample, xmlExample}},
		{"lenient", true, []string{jsonExample, xmlExample, undeclared}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(memos(tt.lenient))
			defer srv.Close()
			rep, err := verify.Run(context.Background(), []byte(memosSpec), srv.URL, verify.Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range rep.Failures {
				t.Errorf("failure %s\n%s", f, f.Curl)
			}
			var got []string
			for _, f := range rep.Advice {
				got = append(got, f.Rule+"\t"+f.Check+"\t"+f.Text)
				want := whyReadOnly
				if f.Rule == "accepted invalid input" {
					want = whyUndecl
				}
				if f.Operation != memoCreate || f.Strength != verify.Advice || !strings.HasPrefix(f.Why, want) {
					t.Errorf("%s: strength %s, why %q; want %q", f, f.Strength, f.Why, want)
				}
			}
			if !slices.Equal(got, tt.advice) {
				t.Errorf("advice\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.advice, "\n"))
			}
		})
	}
}

// TestReportJSONLists: a report's lists are written as [] when empty,
// never null.
func TestReportJSONLists(t *testing.T) {
	data, err := json.Marshal(verify.Report{ReportVersion: verify.ReportVersion})
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"reportVersion":2,"title":"","version":"","target":"","checks":[],"failures":[],"advice":[],"requests":0,` +
		`"coverage":{"operations":0,"operationsDeclared":0,"statuses":0,"statusesDeclared":0,"mediaTypes":0,"mediaTypesDeclared":0}}`
	if string(data) != want {
		t.Errorf("got  %s\nwant %s", data, want)
	}
	ptr, err := json.Marshal(&verify.Report{ReportVersion: verify.ReportVersion})
	if err != nil || string(ptr) != want {
		t.Errorf("by pointer: %s, %v", ptr, err)
	}
}
