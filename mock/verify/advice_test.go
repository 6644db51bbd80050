package verify_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/plantmock/plantmock/mock/verify"
)

// loansSpec is a 3.1 document whose service (loans) keeps every rule
// but those that are advice: it refuses a readOnly id sent in a request,
// takes any bookId as a uuid, answers a due date that is no date, and
// answers its deprecated operation with an undeclared 410. DIALECT is
// replaced by each case's jsonSchemaDialect line.
const loansSpec = `openapi: 3.1.0
DIALECT
info: {title: Loans, version: '1'}
paths:
  /loans:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Loan'}
            example: {id: 7, bookId: 3fa85f64-5717-4562-b3fc-2c963f66afa6}
      responses:
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Loan'}}}}
        '400': {description: refused}
  /old:
    get:
      deprecated: true
      responses: {'200': {description: ok}}
components:
  schemas:
    Loan:
      type: object
      required: [bookId]
      properties:
        id: {type: integer, readOnly: true}
        bookId: {type: string, format: uuid}
        due: {type: string, format: date}
    Dialect:
      $id: https://example.com/format-asserting
      $vocabulary:
        https://json-schema.org/draft/2020-12/vocab/core: true
        https://json-schema.org/draft/2020-12/vocab/format-assertion: true
`

// loans serves loansSpec.
func loans(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/old" && r.Method != http.MethodGet, r.URL.Path == "/loans" && r.Method != http.MethodPost:
		w.Header().Set("Allow", map[string]string{"/old": "GET", "/loans": "POST"}[r.URL.Path])
		w.WriteHeader(http.StatusMethodNotAllowed)
	case r.URL.Path == "/old":
		w.WriteHeader(http.StatusGone)
	case r.URL.Path == "/loans" && r.Method == http.MethodPost:
		var in map[string]any
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if mt != "application/json" || json.NewDecoder(r.Body).Decode(&in) != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		book, ok := in["bookId"].(string)
		if _, sentID := in["id"]; !ok || sentID {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]any{"id": 1, "bookId": book, "due": "next week"})
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

// TestAdvice verifies loans: each rule it breaks is advice, reported
// apart from the failures, with why, and the run is OK; where the
// dialect asserts formats, or AssertFormats is set, the formats broken
// are failures.
func TestAdvice(t *testing.T) {
	const (
		due      = "#/components/schemas/Loan/properties/due/format"
		bookID   = "#/components/schemas/Loan/properties/bookId/format"
		readOnly = "valid input refused\tPOST /loans\tpositive: example\t"
		gone     = "status\tGET /old\tpositive: required only\t"
	)
	tests := []struct {
		name     string
		dialect  string
		assert   bool
		advice   []string // rule, operation, check, schema
		failures []string
	}{
		{"3.1, dialect not asserting", "", false,
			[]string{readOnly, "body\tPOST /loans\tpositive: required only\t" + due, "accepted invalid input\tPOST /loans\tnegative: property bookId breaking its format\t" + bookID, gone}, nil},
		{"dialect asserting formats", "jsonSchemaDialect: https://example.com/format-asserting", false,
			[]string{readOnly, gone}, []string{"body\tPOST /loans\tpositive: required only\t" + due, "accepted invalid input\tPOST /loans\tnegative: property bookId breaking its format\t" + bookID}},
		{"AssertFormats", "", true,
			[]string{readOnly, gone}, []string{"body\tPOST /loans\tpositive: required only\t" + due, "accepted invalid input\tPOST /loans\tnegative: property bookId breaking its format\t" + bookID}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(loans))
			defer srv.Close()
			spec := strings.Replace(loansSpec, "DIALECT", tt.dialect, 1)
			rep, err := verify.Run(context.Background(), []byte(spec), srv.URL, verify.Options{Seed: 1, AssertFormats: tt.assert})
			if err != nil {
				t.Fatal(err)
			}
			keys := func(fs []*verify.Failure, strength string) []string {
				var out []string
				for _, f := range fs {
					if f.Strength != strength {
						t.Errorf("%s: strength %q, want %q", f, f.Strength, strength)
					}
					if (f.Why != "") != (strength == verify.Advice) {
						t.Errorf("%s: why %q", f, f.Why)
					}
					out = append(out, f.Rule+"\t"+f.Operation+"\t"+f.Check+"\t"+f.Schema)
				}
				slices.Sort(out)
				return out
			}
			slices.Sort(tt.advice)
			slices.Sort(tt.failures)
			if got := keys(rep.Advice, verify.Advice); !slices.Equal(got, tt.advice) {
				t.Errorf("advice\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.advice, "\n"))
			}
			if got := keys(rep.Failures, verify.Fail); !slices.Equal(got, tt.failures) {
				t.Errorf("failures\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.failures, "\n"))
			}
			if rep.OK() != (len(tt.failures) == 0) {
				t.Errorf("OK() = %v with %d failures", rep.OK(), len(rep.Failures))
			}
			var sum bytes.Buffer
			if err := rep.WriteSummary(&sum); err != nil {
				t.Fatal(err)
			}
			last := "ok: "
			if len(tt.failures) > 0 {
				last = "FAILED: "
			}
			lines := strings.Split(strings.TrimSuffix(sum.String(), "\n"), "\n")
			if !strings.HasPrefix(lines[len(lines)-1], last) || !strings.Contains(sum.String(), "\nadvice (not failures: the exit code does not count them):\n  ADVICE POST /loans: positive: example [valid input refused]\n") ||
				!strings.Contains(sum.String(), "    why advice: the request carries the readOnly property id, which a client SHOULD NOT send: a service may refuse it\n") {
				t.Errorf("summary:\n%s", sum.String())
			}
		})
	}
}

// junitReport is the part of a JUnit file the tests read.
type junitReport struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Skipped  int `xml:"skipped,attr"`
	Suites   []struct {
		Name  string `xml:"name,attr"`
		Cases []struct {
			Name     string     `xml:"name,attr"`
			Failures []struct{} `xml:"failure"`
			Skipped  *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// junitOf writes rep as JUnit and reads it back.
func junitOf(t *testing.T, rep *verify.Report) junitReport {
	t.Helper()
	var b bytes.Buffer
	if err := rep.WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	var j junitReport
	if err := xml.Unmarshal(b.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	return j
}

// skipped returns the skipped cases of a JUnit report, as "suite: case:
// message".
func (j junitReport) skipped() []string {
	var out []string
	for _, s := range j.Suites {
		for _, c := range s.Cases {
			if c.Skipped != nil {
				out = append(out, s.Name+": "+c.Name+": "+c.Skipped.Message)
			}
		}
	}
	return out
}

// TestJUnitSkipped: in JUnit, a check that saw only advice is a skipped
// case whose message is the advice, and each rule no answer can keep
// (Impossible) is a skipped case of a suite of its own; the JSON form
// lists both, versioned.
func TestJUnitSkipped(t *testing.T) {
	t.Run("advice", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(loans))
		defer srv.Close()
		rep, err := verify.Run(context.Background(), []byte(strings.Replace(loansSpec, "DIALECT", "", 1)), srv.URL, verify.Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		j := junitOf(t, rep)
		want := []string{
			"POST /loans: positive: example: advice: status 400 to a request the document calls valid: ",
			"POST /loans: positive: required only: advice: status 201: body.due: not a valid date",
			"POST /loans: positive: all properties: advice: status 201: body.due: not a valid date",
			"POST /loans: negative: property bookId breaking its format: advice: status 201: the request was not refused, but bookId",
			"GET /old: positive: required only: advice: status 410 is not declared (GET /old declares 200)",
		}
		got := j.skipped()
		if j.Failures != 0 || j.Skipped != len(want) || len(got) != len(want) || len(rep.Advice) != len(want)-1 {
			t.Fatalf("JUnit: %d failures, %d skipped: %q; want 0 and %d", j.Failures, j.Skipped, got, len(want))
		}
		for _, w := range want {
			if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, w) }) {
				t.Errorf("no skipped case starting %q in\n%s", w, strings.Join(got, "\n"))
			}
		}
		data, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		var back struct {
			ReportVersion int               `json:"reportVersion"`
			Failures      []json.RawMessage `json:"failures"`
			Advice        []struct {
				Strength string `json:"strength"`
				Why      string `json:"why"`
				Line     int    `json:"line"`
			} `json:"advice"`
		}
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		if back.ReportVersion != verify.ReportVersion || len(back.Failures) != 0 || len(back.Advice) != len(rep.Advice) || back.Advice[0].Strength != "advice" || back.Advice[0].Why == "" || back.Advice[0].Line == 0 {
			t.Errorf("JSON: %s", data)
		}
	})
	t.Run("impossible", func(t *testing.T) {
		spec, err := os.ReadFile("testdata/twins.yaml")
		if err != nil {
			t.Fatal(err)
		}
		rep := verifyMocked(t, spec)
		j := junitOf(t, rep)
		want := []string{"the document: rules no answer can keep: impossible: #/paths/~1notes/get/responses/401/content/application~1json/schema/oneOf: impossible: oneOf alternatives 0 and 1 accept the same values, so no answer can keep it: answers are not judged by it"}
		if got := j.skipped(); j.Failures != 0 || !slices.Equal(got, want) {
			t.Errorf("JUnit: %d failures, skipped\n%q\nwant\n%q", j.Failures, got, want)
		}
		data, _ := json.Marshal(rep)
		var back struct {
			Impossible []string `json:"impossible"`
		}
		if err := json.Unmarshal(data, &back); err != nil || len(back.Impossible) != 1 {
			t.Errorf("JSON impossible: %s (%v)", data, err)
		}
	})
}
