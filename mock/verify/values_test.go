package verify_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plantmock/plantmock/mock/verify"
)

// bedsSpec is a document whose one operation bounds a number, matches a
// pattern and asserts a format, in its parameters and in its body.
const bedsSpec = `openapi: 3.0.3
info: {title: Beds, version: "1"}
paths:
  /beds/{code}:
    put:
      parameters:
        - {name: code, in: path, required: true, schema: {type: string, pattern: '^[a-z]{3,8}$'}}
        - {name: depth, in: query, required: true, schema: {type: integer, minimum: 1, maximum: 9}}
        - {name: X-Day, in: header, required: true, schema: {type: string, format: date}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [size, label, planted]
              additionalProperties: false
              properties:
                size: {type: integer, minimum: 1, maximum: 20}
                label: {type: string, pattern: '^[A-Z][a-z]+$'}
                planted: {type: string, format: date}
      responses:
        '204': {description: stored}
        '400':
          description: refused
          content:
            application/json:
              schema:
                type: object
                required: [message]
                properties: {message: {type: string}}
`

// bedsProvider serves bedsSpec, checking each rule by hand but the one
// it lets through: "size", "label", "planted" (a body property's bound,
// pattern or format), "depth", "code" or "day" (a parameter's).
type bedsProvider struct{ lets string }

var (
	codeRule  = regexp.MustCompile(`^[a-z]{3,8}$`)
	labelRule = regexp.MustCompile(`^[A-Z][a-z]+$`)
)

func (p bedsProvider) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPut {
		w.Header().Set("Allow", "PUT")
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	if why := p.refuse(r); why != "" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]string{"message": why})
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// refuse says what is wrong with r, "" for nothing.
func (p bedsProvider) refuse(r *http.Request) string {
	code, found := strings.CutPrefix(r.URL.Path, "/beds/")
	if !found || r.Method != http.MethodPut {
		return "no such operation"
	}
	if !codeRule.MatchString(code) && p.lets != "code" {
		return "code"
	}
	depth, err := strconv.Atoi(r.URL.Query().Get("depth"))
	if err != nil || (depth < 1 || depth > 9) && p.lets != "depth" {
		return "depth"
	}
	day := r.Header.Get("X-Day")
	if _, err := time.Parse(time.DateOnly, day); day == "" || err != nil && p.lets != "day" {
		return "X-Day"
	}
	if r.Header.Get("Content-Type") != "application/json" {
		return "Content-Type"
	}
	var body struct {
		Size    *int    `json:"size"`
		Label   *string `json:"label"`
		Planted *string `json:"planted"`
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil || body.Size == nil || body.Label == nil || body.Planted == nil {
		return "body"
	}
	if (*body.Size < 1 || *body.Size > 20) && p.lets != "size" {
		return "size"
	}
	if !labelRule.MatchString(*body.Label) && p.lets != "label" {
		return "label"
	}
	if _, err := time.Parse(time.DateOnly, *body.Planted); err != nil && p.lets != "planted" {
		return "planted"
	}
	return ""
}

// TestValueMistakes verifies a provider that lets one value through
// unchecked at a time: out of range, breaking its pattern, breaking its
// format, in the body and in a parameter. verify must report that
// value's check, once, and nothing else; checking everything, the
// provider must be found without a failure, each of those checks sent.
func TestValueMistakes(t *testing.T) {
	const where = "#/paths/~1beds~1{code}/put/"
	const body = where + "requestBody/content/application~1json/schema/properties/"
	tests := []struct {
		lets   string
		check  string
		schema string
	}{
		{"size", "negative: property size out of range", body + "size/minimum"},
		{"label", "negative: property label breaking its pattern", body + "label/pattern"},
		{"planted", "negative: property planted breaking its format", body + "planted/format"},
		{"depth", "negative: parameter query.depth out of range", where + "parameters/1/schema/minimum"},
		{"code", "negative: parameter path.code breaking its pattern", where + "parameters/0/schema/pattern"},
		{"day", "negative: parameter header.X-Day breaking its format", where + "parameters/2/schema/format"},
	}
	t.Run("nothing let through", func(t *testing.T) {
		srv := httptest.NewServer(bedsProvider{})
		defer srv.Close()
		rep, err := verify.Run(context.Background(), []byte(bedsSpec), srv.URL, verify.Options{Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rep.Failures {
			t.Errorf("a failure without a bug: %s\n%s", f, f.Curl)
		}
		sent := map[string]bool{}
		for _, c := range rep.Checks {
			sent[c.Title()] = true
		}
		for _, tt := range tests {
			if !sent[tt.check] {
				t.Errorf("no check %q", tt.check)
			}
		}
	})
	for _, tt := range tests {
		for _, assert := range []bool{false, true} {
			name := tt.lets
			if assert {
				name += " with AssertFormats"
			}
			t.Run(name, func(t *testing.T) {
				srv := httptest.NewServer(bedsProvider{lets: tt.lets})
				defer srv.Close()
				rep, err := verify.Run(context.Background(), []byte(bedsSpec), srv.URL, verify.Options{Seed: 3, AssertFormats: assert})
				if err != nil {
					t.Fatal(err)
				}
				// A format broken is advice, unless formats are asserted.
				found, other, strength := rep.Failures, rep.Advice, verify.Fail
				if strings.HasSuffix(tt.schema, "/format") && !assert {
					found, other, strength = rep.Advice, rep.Failures, verify.Advice
				}
				if len(found) != 1 || len(other) != 0 {
					for _, f := range append(found, other...) {
						t.Log(f)
					}
					t.Fatalf("%d %s, %d of the other strength; want 1 and 0", len(found), strength, len(other))
				}
				f := found[0]
				if f.Operation != "PUT /beds/{code}" || f.Check != tt.check || f.Rule != "accepted invalid input" || f.Schema != tt.schema || f.Strength != strength || !strings.Contains(f.Text, "status 204: the request was not refused") {
					t.Errorf("found %s (check %q, schema %s, %s)\nwant %q (%s, %s)", f, f.Check, f.Schema, f.Strength, tt.check, tt.schema, strength)
				}
				if wantOK := strength == verify.Advice; rep.OK() != wantOK {
					t.Errorf("OK() = %v, want %v", rep.OK(), wantOK)
				}
			})
		}
	}
}
