package mock

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

// budgetDoc returns a document whose GET /x answers with schema x, with
// components, and whose GET /ok answers with its example; errors may have
// a declared shape (a default response with the schema errorSchema).
func budgetDoc(x, components, errorSchema string) string {
	def := ""
	if errorSchema != "" {
		def = `
        default:
          description: error
          content:
            application/json:
              schema: ` + errorSchema
	}
	return `openapi: 3.1.0
info: {title: budget, version: '1'}
paths:
  /x:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: ` + x + def + `
  /ok:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {ok: {type: boolean}}, example: {ok: true}}
components:
  schemas:
` + components
}

// fanOut is forty schemas, each requiring two properties of the next:
// the smallest value of S0 has 2^41-1 values, in 6 KB of document.
func fanOut() string {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "    S%d: {type: object, required: [a, b], properties: {a: {$ref: '#/components/schemas/S%d'}, b: {$ref: '#/components/schemas/S%d'}}}\n", i, i+1, i+1)
	}
	b.WriteString("    S40: {type: string}\n")
	return b.String()
}

// optionalFanOut is ten schemas, each with ten optional properties of
// the next: the smallest value of O0 is {}, but generation makes the
// optional properties too, down to a depth bound.
func optionalFanOut() string {
	var b strings.Builder
	for i := range 10 {
		fmt.Fprintf(&b, "    O%d: {type: object, properties: {", i)
		for p := range 10 {
			fmt.Fprintf(&b, "p%d: {$ref: '#/components/schemas/O%d'}, ", p, i+1)
		}
		b.WriteString("}}\n")
	}
	b.WriteString("    O10: {type: string}\n")
	return b.String()
}

// selfRequired is a schema that requires ten properties of itself.
const selfRequired = "    N: {type: object, required: [a, b, c, d, e, f, g, h, i, j], properties: {" +
	"a: {$ref: '#/components/schemas/N'}, b: {$ref: '#/components/schemas/N'}, c: {$ref: '#/components/schemas/N'}, " +
	"d: {$ref: '#/components/schemas/N'}, e: {$ref: '#/components/schemas/N'}, f: {$ref: '#/components/schemas/N'}, " +
	"g: {$ref: '#/components/schemas/N'}, h: {$ref: '#/components/schemas/N'}, i: {$ref: '#/components/schemas/N'}, " +
	"j: {$ref: '#/components/schemas/N'}}}\n"

// overBudget are documents no answer of GET /x can be made for within
// the generation budget, and the message of each one's 500.
var overBudget = []struct {
	name, spec, message string
	warnings            []string
}{
	{
		name: "fan-out",
		spec: budgetDoc("{$ref: '#/components/schemas/S0'}", fanOut(), ""),
		message: "could not generate data that matches the response schema: the value of #/components/schemas/S0 " +
			"takes more than 100000 values, over the budget of an answer",
		warnings: []string{
			"#/components/schemas/S24: its required properties and items make its smallest value 131071 values, over the 100000 an answer may have: answers that need it are refused",
		},
	},
	{
		name: "minLength",
		spec: budgetDoc("{$ref: '#/components/schemas/L'}", "    L: {type: string, minLength: 1000000000}\n", ""),
		message: "could not generate data that matches the response schema: the value of #/components/schemas/L " +
			"takes more than 8388608 bytes of strings, over the budget of an answer",
		warnings: []string{
			"#/components/schemas/L: minLength 1000000000 is over the 8388608 bytes of strings an answer may have: answers that need it are refused",
		},
	},
	{
		name: "minItems",
		spec: budgetDoc("{$ref: '#/components/schemas/L'}", "    L: {type: array, items: {type: string}, minItems: 1000000000}\n", ""),
		message: "could not generate data that matches the response schema: the value of #/components/schemas/L " +
			"takes more than 100000 values, over the budget of an answer",
		warnings: []string{
			"#/components/schemas/L: minItems 1000000000 is over the 100000 values an answer may have: answers that need it are refused",
		},
	},
	{
		name: "minItems in an object",
		spec: budgetDoc("{$ref: '#/components/schemas/O'}", "    O: {type: object, required: [l], properties: {l: {$ref: '#/components/schemas/L'}}}\n"+
			"    L: {type: array, items: {type: string}, minItems: 1000000000}\n", ""),
		message: "could not generate data that matches the response schema: the value of #/components/schemas/O " +
			"takes more than 100000 values, over the budget of an answer",
		warnings: []string{
			"#/components/schemas/L: minItems 1000000000 is over the 100000 values an answer may have: answers that need it are refused",
		},
	},
	{
		name: "minProperties",
		spec: budgetDoc("{$ref: '#/components/schemas/P'}", "    P: {type: object, minProperties: 1000000000}\n", ""),
		message: "could not generate data that matches the response schema: the value of #/components/schemas/P " +
			"takes more than 100000 values, over the budget of an answer",
		warnings: []string{
			"#/components/schemas/P: minProperties 1000000000 is over the 100000 values an answer may have: answers that need it are refused",
		},
	},
	{
		name: "ten required self-references",
		spec: budgetDoc("{$ref: '#/components/schemas/N'}", selfRequired, ""),
		message: "could not generate data that matches the response schema: the value of #/components/schemas/N " +
			"takes more than 100000 values, over the budget of an answer",
		warnings: []string{
			"#/components/schemas/N (line 22): the schema contains itself: it is validated by reference, and generated data stops at a depth bound",
			"#/components/schemas/N (line 22): the schema requires itself with no way out: no value of finite size satisfies it, so no answer can be made with it",
		},
	},
}

// TestGenerationBudget: an answer no value within the generation budget
// satisfies is a bounded 500 in the document's error shape, and the mock
// answers the next request.
func TestGenerationBudget(t *testing.T) {
	for _, c := range overBudget {
		t.Run(c.name, func(t *testing.T) {
			// The values run out first, however slow the machine.
			s, ts := newTestServer(t, Options{Spec: []byte(c.spec), Limits: Limits{GenerationTime: time.Hour}})
			body := `{"error":50000,"message":"` + c.message + `"}`
			check(t, s, ts, call{method: "GET", path: "/x", status: 500, wantHeader: jsonHeader(body), wantBody: body})
			check(t, s, ts, call{method: "GET", path: "/ok", status: 200, wantHeader: jsonHeader(`{"ok":true}`), wantBody: `{"ok":true}`})
		})
	}
}

// TestGenerationOptionalFanOut: a schema whose optional properties fan
// out gets a valid answer, of what it requires once a tenth of the value
// budget is spent, not a refusal after the whole budget: the answer has
// at most about 10,000 values.
func TestGenerationOptionalFanOut(t *testing.T) {
	// The values decide, however slow the machine.
	s, ts := newTestServer(t, Options{Spec: []byte(budgetDoc("{$ref: '#/components/schemas/O0'}", optionalFanOut(), "")), Limits: Limits{GenerationTime: time.Hour}})
	req, resp, body := send(t, ts, call{method: "GET", path: "/x"})
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("%d %s: %.200s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	assertConforms(t, s, req, resp, body)
	if n := bytes.Count(body, []byte("{")); n < 1_000 || n > 10_000+10 {
		t.Errorf("the answer has %d objects, want between 1,000 and about a tenth of the budget's 100,000 values", n)
	}
}

// TestGenerationTime: Limits.GenerationTime bounds an answer's
// generation: past it, the answer is the bounded 500 that says so.
func TestGenerationTime(t *testing.T) {
	s, ts := newTestServer(t, Options{Spec: []byte(budgetDoc("{$ref: '#/components/schemas/O0'}", optionalFanOut(), "")), Limits: Limits{GenerationTime: time.Nanosecond}})
	st, body := do(t, ts, "GET", "/x", "")
	if want := `{"error":50000,"message":"could not generate data that matches the response schema: the value of `; st != 500 || !strings.HasPrefix(body, want) || !strings.Contains(body, "takes more than 1ns, over the budget of an answer") {
		t.Errorf("%d %.300s\nwant 500 %s... takes more than 1ns, over the budget of an answer", st, body, want)
	}
	check(t, s, ts, call{method: "GET", path: "/ok", status: 200, wantHeader: jsonHeader(`{"ok":true}`), wantBody: `{"ok":true}`})
}

// BenchmarkGenerateOptionalFanOut measures the answer to the optional
// fan-out, request included.
func BenchmarkGenerateOptionalFanOut(b *testing.B) {
	_, ts := newTestServer(b, Options{Spec: []byte(budgetDoc("{$ref: '#/components/schemas/O0'}", optionalFanOut(), ""))})
	b.ReportAllocs()
	for b.Loop() {
		resp, err := ts.Client().Get(ts.URL + "/x")
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
}

// TestGenerationBudgetErrorShape: the 500 is in the error shape the
// document declares.
func TestGenerationBudgetErrorShape(t *testing.T) {
	spec := budgetDoc("{$ref: '#/components/schemas/L'}", "    L: {type: string, minLength: 1000000000}\n",
		"{type: object, required: [code, detail], properties: {code: {type: integer}, detail: {type: string}}}")
	s, ts := newTestServer(t, Options{Spec: []byte(spec)})
	body := `{"code":50000,"detail":"could not generate data that matches the response schema: the value of #/components/schemas/L takes more than 8388608 bytes of strings, over the budget of an answer"}`
	check(t, s, ts, call{method: "GET", path: "/x", status: 500, wantHeader: jsonHeader(body), wantBody: body})
}

// TestGenerationClientGone: generation stops when the request's context
// is done. The request is served in the test, with its context already
// cancelled: over a connection, when the client goes is a race. The
// schema's smallest value is small, so generation starts.
func TestGenerationClientGone(t *testing.T) {
	s, err := New(Options{Spec: []byte(budgetDoc("{$ref: '#/components/schemas/O0'}", optionalFanOut(), ""))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := httptest.NewRequestWithContext(ctx, "GET", "/x", nil)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	want := `{"error":50000,"message":"could not generate data that matches the response schema: the value of #/components/schemas/O0 was left unmade (it ended at #/components/schemas/O8): context canceled"}`
	if w.Code != 500 || w.Body.String() != want {
		t.Errorf("answer %d %s\nwant   500 %s", w.Code, w.Body, want)
	}
}

// TestGenerationBudgetWarnings: plantmock check warns, one line each,
// about the schemas whose smallest value is over the budget.
func TestGenerationBudgetWarnings(t *testing.T) {
	for _, c := range overBudget {
		t.Run(c.name, func(t *testing.T) {
			s, err := New(Options{Spec: []byte(c.spec)})
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Warnings(); !slices.Equal(got, c.warnings) {
				t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.warnings, "\n"))
			}
		})
	}
}

// BenchmarkGenerateOverBudget measures how fast and how cheaply an answer
// over the generation budget is refused, request and answer included.
func BenchmarkGenerateOverBudget(b *testing.B) {
	for _, c := range overBudget {
		b.Run(strings.ReplaceAll(c.name, " ", "_"), func(b *testing.B) {
			_, ts := newTestServer(b, Options{Spec: []byte(c.spec)})
			b.ReportAllocs()
			for b.Loop() {
				resp, err := ts.Client().Get(ts.URL + "/x")
				if err != nil {
					b.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusInternalServerError {
					b.Fatalf("status %d", resp.StatusCode)
				}
			}
		})
	}
}

// TestGenerationBudgetCreate: completing a created resource with what
// the answer requires is held to the budget too, and nothing is stored.
func TestGenerationBudgetCreate(t *testing.T) {
	spec := `openapi: 3.1.0
info: {title: budget, version: '1'}
paths:
  /things:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, required: [id], properties: {id: {type: integer}}}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Thing'}
  /things/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Thing'}
components:
  schemas:
    Thing: {type: object, required: [id, tree], properties: {id: {type: integer}, tree: {$ref: '#/components/schemas/S0'}}}
` + fanOut()
	s, ts := newTestServer(t, Options{Spec: []byte(spec)})
	body := `{"error":50000,"message":"could not generate data that matches the response schema: the value of #/components/schemas/S0 ` +
		`takes more than 100000 values, over the budget of an answer"}`
	check(t, s, ts, call{method: "POST", path: "/things", header: map[string]string{"Content-Type": "application/json"}, body: `{"id":1}`,
		status: 500, wantHeader: jsonHeader(body), wantBody: body})
	if n := stored(s, "/things"); n != 0 {
		t.Errorf("%d resources stored, want none", n)
	}
}
