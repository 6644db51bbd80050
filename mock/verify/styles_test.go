package verify_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock"
	"github.com/plantmock/plantmock/mock/verify"
)

// stylesSpec has a parameter in each style (matrix and label paths,
// spaceDelimited, pipeDelimited, deepObject and form queries, a simple
// header, a form cookie) and a body with arrays of scalars.
const stylesSpec = `openapi: 3.1.0
info: {title: Styles, version: '1'}
paths:
  /stock/{skus}:
    parameters:
      - {name: skus, in: path, required: true, style: matrix, schema: {type: array, minItems: 2, maxItems: 3, items: {type: string, pattern: '^[A-Z]{3}-[0-9]{3}$'}}}
    get:
      parameters:
        - {name: days, in: query, required: true, style: spaceDelimited, explode: false, schema: {type: array, minItems: 2, maxItems: 3, items: {type: integer, minimum: 1, maximum: 31}}}
        - {name: kinds, in: query, style: pipeDelimited, explode: false, schema: {type: array, minItems: 2, items: {type: string, enum: [seed, bulb]}}}
        - {name: filter, in: query, style: deepObject, explode: true, schema: {type: object, required: [min, channel], properties: {min: {type: integer, minimum: 1, maximum: 99}, channel: {type: string, enum: [web, store]}}}}
        - {name: tags, in: query, schema: {type: array, minItems: 2, items: {type: string, pattern: '^[a-z]{2,8}$'}}}
        - {name: X-Fields, in: header, schema: {type: array, minItems: 2, items: {type: string, enum: [a, b]}}}
        - {name: region, in: cookie, schema: {type: string, enum: [eu, us]}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object}}}}
        '400': {description: bad, content: {application/json: {schema: {type: object}}}}
  /bins/{bin}:
    get:
      parameters:
        - {name: bin, in: path, required: true, style: label, explode: true, schema: {type: object, required: [row, col], properties: {row: {type: integer, minimum: 1, maximum: 9}, col: {type: string, pattern: '^[A-H]$'}}}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object}}}}
        '400': {description: bad, content: {application/json: {schema: {type: object}}}}
  /notes:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [labels]
              properties:
                labels: {type: array, minItems: 1, items: {type: string, pattern: '^[a-z]+$'}}
                meta: {type: object, properties: {scores: {type: array, minItems: 1, items: {type: integer, minimum: 0, maximum: 10}}}}
      responses:
        '201': {description: ok, content: {application/json: {schema: {type: object}}}}
        '400': {description: bad, content: {application/json: {schema: {type: object}}}}
`

// styleNegatives are the negatives of a value in one parameter or array
// item that verify makes of stylesSpec, each with a pattern of what the
// request sends: the value broken, written in the parameter's style.
var styleNegatives = map[string]string{
	"GET /stock/{skus} parameter path.skus out of range (matrix)":                                       `/stock/;skus=[A-Z]{3}-[0-9]{3}(,[A-Z]{3}-[0-9]{3}){3}\?|/stock/;skus=[A-Z]{3}-[0-9]{3}\?`,
	"GET /stock/{skus} parameter path.skus[0] breaking its pattern (matrix)":                            `/stock/;skus=[^,?]+,[A-Z]{3}-[0-9]{3}`,
	"GET /stock/{skus} wrong type of parameter query.days[0] (spaceDelimited)":                          `[?&]days=not-a-integer(%20[0-9]+)+(&|')`,
	"GET /stock/{skus} parameter query.days out of range (spaceDelimited)":                              `[?&]days=[0-9]+(%20[0-9]+){3}(&|')|[?&]days=[0-9]+(&|')`,
	"GET /stock/{skus} parameter query.days[0] out of range (spaceDelimited)":                           `[?&]days=(0|32)(%20[0-9]+)+(&|')`,
	"GET /stock/{skus} value of parameter query.kinds[0] outside its enum (pipeDelimited)":              `[?&]kinds=not-in-enum-kinds(\|(seed|bulb))+(&|')`,
	"GET /stock/{skus} wrong type of parameter query.filter.min (deepObject, exploded)":                 `[?&]filter\[channel\]=(web|store)&filter\[min\]=not-a-integer(&|')`,
	"GET /stock/{skus} value of parameter query.filter.channel outside its enum (deepObject, exploded)": `[?&]filter\[channel\]=not-in-enum-channel&filter\[min\]=[0-9]+(&|')`,
	"GET /stock/{skus} parameter query.filter.min out of range (deepObject, exploded)":                  `[?&]filter\[channel\]=(web|store)&filter\[min\]=(0|100)(&|')`,
	"GET /stock/{skus} parameter query.tags[0] breaking its pattern":                                    `[?&]tags=[^&']+&tags=[a-z]{2,8}(&|')`,
	"GET /stock/{skus} value of parameter header.X-Fields[0] outside its enum":                          `-H 'X-Fields: not-in-enum-X-Fields(,(a|b))+'`,
	"GET /stock/{skus} value of parameter cookie.region outside its enum":                               `-H 'Cookie: region=not-in-enum-region'`,
	"GET /bins/{bin} wrong type of parameter path.bin.row (label, exploded)":                            `/bins/\.col=[A-H]\.row=not-a-integer'`,
	"GET /bins/{bin} parameter path.bin.row out of range (label, exploded)":                             `/bins/\.col=[A-H]\.row=(0|10)'`,
	"GET /bins/{bin} parameter path.bin.col breaking its pattern (label, exploded)":                     `/bins/\.col=[^.]+\.row=[1-9]'`,
	"POST /notes wrong type of labels[0] (a scalar array item)":                                         `"labels":\[12345[,\]]`,
	"POST /notes item labels[0] breaking its pattern (a scalar array item)":                             `"labels":\["[^"]*[^a-z"][^"]*"[,\]]`,
	"POST /notes item meta.scores[0] out of range (a scalar array item)":                                `"scores":\[(-1|11)[,\]]`,
}

// TestParamStyles verifies services of stylesSpec at seeds 1 to 5: the
// mock, which refuses each broken value with 400, and a service that
// takes everything. verify sends a negative for each parameter, in its
// style, and for the first scalar item of each array of the body, each
// as its pattern says; the mock gets no failure, the lax service one
// for each.
func TestParamStyles(t *testing.T) {
	m, err := mock.New(mock.Options{Spec: []byte(stylesSpec), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	lax := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusCreated)
		}
		io.WriteString(w, `{}`)
	})
	tests := []struct {
		name    string
		service http.Handler
		status  int // of each negative of styleNegatives
	}{
		{"mock", m, http.StatusBadRequest},
		{"lax service", lax, 0},
	}
	for _, tt := range tests {
		for seed := uint64(1); seed <= 5; seed++ {
			t.Run(fmt.Sprintf("%s/seed %d", tt.name, seed), func(t *testing.T) {
				srv := httptest.NewServer(tt.service)
				defer srv.Close()
				rep, err := verify.Run(context.Background(), []byte(stylesSpec), srv.URL, verify.Options{Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				if len(rep.Unmade) > 0 {
					t.Errorf("unmade: %q", rep.Unmade)
				}
				seen := map[string]bool{}
				for _, c := range rep.Checks {
					title := c.Operation + " " + c.Name
					want, ok := styleNegatives[title]
					if c.Kind != "negative" || !ok {
						continue
					}
					seen[title] = true
					if !regexp.MustCompile(want).MatchString(c.Curl) {
						t.Errorf("%s: sent\n%s\nwant it to match %s", title, c.Curl, want)
					}
					if tt.status != 0 && c.Status != tt.status {
						t.Errorf("%s: status %d, want %d", title, c.Status, tt.status)
					}
				}
				for title := range styleNegatives {
					if !seen[title] {
						t.Errorf("no negative %q", title)
					}
				}
				var failed []string
				for _, f := range rep.Failures {
					if tt.status != 0 {
						t.Errorf("%s\n%s", f, f.Curl)
						continue
					}
					if f.Rule == "accepted invalid input" && !strings.Contains(f.Check, "credentials") {
						failed = append(failed, f.Operation+" "+strings.TrimPrefix(f.Check, "negative: "))
					}
				}
				if tt.status == 0 {
					for title := range styleNegatives {
						if !slices.Contains(failed, title) {
							t.Errorf("the lax service's acceptance of %q is not a failure", title)
						}
					}
				}
			})
		}
	}
}
