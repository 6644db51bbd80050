package main

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// runSuite runs the suite in testdata/<name> with devs and returns the
// report and what it printed.
func runSuite(tb testing.TB, name string, devs []deviation) (*report, string) {
	tb.Helper()
	var out bytes.Buffer
	rep, err := run(context.Background(), config{suite: filepath.Join("testdata", name), deviations: devs}, &out)
	if err != nil {
		tb.Fatalf("run %s: %v", name, err)
	}
	return rep, out.String()
}

// ids returns the case IDs of outcomes.
func ids(outs []outcome) []caseID {
	out := make([]caseID, len(outs))
	for i, o := range outs {
		out[i] = o.id
	}
	return out
}

func TestRunAgrees(t *testing.T) {
	rep, out := runSuite(t, "agree", nil)
	want := `draft2020-12 as OpenAPI 3.1.0
  agreement: 7 of 7 (100.0%)
  skipped: 2 groups, 3 cases
    needs remote refs: 1 group, 2 cases
    $schema names another dialect: 1 group, 1 case

draft4 as OpenAPI 3.0.3
  agreement: 5 of 5 (100.0%)
  skipped: 3 groups, 5 cases (a group with several reasons counts under each)
    type null: 1 group, 2 cases
    items array: 1 group, 2 cases
    keyword additionalItems: 1 group, 2 cases
    keyword patternProperties: 1 group, 1 case

PASS: every disagreement is a listed deviation (0 listed)
`
	if out != want {
		t.Errorf("report:\n%s\nwant:\n%s", out, want)
	}
	if !rep.ok() {
		t.Error("ok() = false, want true")
	}
	// Every case ran against plantmock and got the answer the suite wants.
	results := map[result]int{}
	for _, d := range rep.dialects {
		for _, o := range d.outcomes {
			results[o.result]++
			if o.result == accepted && o.status != 204 || o.result == refused && o.status != 422 {
				t.Errorf("%s: status %d", o.id, o.status)
			}
		}
	}
	if results[accepted] != 4 || results[refused] != 8 || len(results) != 2 {
		t.Errorf("results %v, want 4 accepted and 8 refused", results)
	}
}

func TestRunVerbose(t *testing.T) {
	var out bytes.Buffer
	if _, err := run(context.Background(), config{suite: filepath.Join("testdata", "agree"), verbose: true}, &out); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"    draft2020-12/plants.json: a plant from the remotes (2 cases): needs remote refs\n",
		"    draft4/pots.json: name and height pairs (2 cases): items array; keyword additionalItems\n",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("verbose report lacks %q:\n%s", line, out.String())
		}
	}
}

// The disagree suite has one case marked valid against its own schema,
// and a group whose schema no loader accepts (a schema that refers to
// itself with no way out).
var (
	wrongCase = caseID{File: "draft2020-12/wrong.json", Group: "short plant names", Case: "one letter, wrongly marked valid"}
	badWord   = caseID{File: "draft2020-12/wrong.json", Group: "a schema that refers to itself", Case: "a word"}
	badNumber = caseID{File: "draft2020-12/wrong.json", Group: "a schema that refers to itself", Case: "a number"}
	agreeing  = caseID{File: "draft2020-12/wrong.json", Group: "short plant names", Case: "two letters"}
)

func listed(reason string, ids ...caseID) []deviation {
	devs := make([]deviation, len(ids))
	for i, id := range ids {
		devs[i] = deviation{File: id.File, Group: id.Group, Case: id.Case, Reason: reason}
	}
	return devs
}

func TestRunDisagreements(t *testing.T) {
	tests := []struct {
		name        string
		devs        []deviation
		ok          bool
		unlisted    []caseID
		listed      []caseID
		stale       []string
		verdictLine string
		reportAlso  []string
		reportLacks []string
	}{{
		name:        "none listed",
		unlisted:    []caseID{wrongCase, badWord, badNumber},
		verdictLine: "FAIL: 3 disagreements not in deviations, 0 errors, 0 stale deviations",
		reportAlso: []string{
			"  disagreements not in deviations (3):\n",
			"    draft2020-12/wrong.json: short plant names / one letter, wrongly marked valid: suite says valid, plantmock refused (422, {",
			"    draft2020-12/wrong.json: a schema that refers to itself / a word: suite says valid, document refused: ",
			"    draft2020-12/wrong.json: a schema that refers to itself / a number: suite says invalid, document refused: ",
		},
	}, {
		name:        "all listed",
		devs:        listed("kept on purpose", wrongCase, badWord, badNumber),
		ok:          true,
		listed:      []caseID{wrongCase, badWord, badNumber},
		verdictLine: "PASS: every disagreement is a listed deviation (3 listed)",
		reportAlso: []string{
			"  deliberate deviations (3):\n",
			"    draft2020-12/wrong.json: short plant names / one letter, wrongly marked valid: suite says valid, plantmock refused (422, {",
			"}) [deviation: kept on purpose]\n",
		},
		reportLacks: []string{"disagreements not in deviations"},
	}, {
		name:        "one unlisted",
		devs:        listed("kept on purpose", badWord, badNumber),
		unlisted:    []caseID{wrongCase},
		listed:      []caseID{badWord, badNumber},
		verdictLine: "FAIL: 1 disagreement not in deviations, 0 errors, 0 stale deviations",
	}, {
		name:        "a listed case agrees",
		devs:        listed("kept on purpose", wrongCase, badWord, badNumber, agreeing),
		listed:      []caseID{wrongCase, badWord, badNumber},
		stale:       []string{"draft2020-12/wrong.json: short plant names / two letters: agrees with the suite now"},
		verdictLine: "FAIL: 0 disagreements not in deviations, 0 errors, 1 stale deviation",
		reportAlso:  []string{"stale deviations (1):\n  draft2020-12/wrong.json: short plant names / two letters: agrees with the suite now\n"},
	}, {
		name: "a listed case is not in the suite",
		devs: append(listed("kept on purpose", wrongCase, badWord, badNumber),
			deviation{File: "draft4/right.json", Group: "pot sizes", Case: "a pot that is gone", Reason: "renamed"}),
		listed:      []caseID{wrongCase, badWord, badNumber},
		stale:       []string{"draft4/right.json: pot sizes / a pot that is gone: names no case that was run"},
		verdictLine: "FAIL: 0 disagreements not in deviations, 0 errors, 1 stale deviation",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, out := runSuite(t, "disagree", tt.devs)
			if rep.ok() != tt.ok {
				t.Errorf("ok() = %v, want %v", rep.ok(), tt.ok)
			}
			d2020, d4 := rep.dialects[0], rep.dialects[1]
			if d2020.agreed != 1 || len(d2020.outcomes) != 4 || d4.agreed != 2 || len(d4.outcomes) != 2 {
				t.Errorf("agreement %d of %d and %d of %d, want 1 of 4 and 2 of 2",
					d2020.agreed, len(d2020.outcomes), d4.agreed, len(d4.outcomes))
			}
			if got := ids(d2020.unlisted); !slices.Equal(got, tt.unlisted) {
				t.Errorf("unlisted %v, want %v", got, tt.unlisted)
			}
			if got := ids(d2020.listed); !slices.Equal(got, tt.listed) {
				t.Errorf("listed %v, want %v", got, tt.listed)
			}
			if len(d2020.errors)+len(d4.errors)+len(d4.unlisted)+len(d4.listed) != 0 {
				t.Errorf("errors %v %v, draft4 disagreements %v %v, want none", d2020.errors, d4.errors, d4.unlisted, d4.listed)
			}
			if !slices.Equal(rep.stale, tt.stale) {
				t.Errorf("stale %q, want %q", rep.stale, tt.stale)
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if last := lines[len(lines)-1]; last != tt.verdictLine {
				t.Errorf("verdict %q, want %q", last, tt.verdictLine)
			}
			for _, s := range tt.reportAlso {
				if !strings.Contains(out, s) {
					t.Errorf("report lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tt.reportLacks {
				if strings.Contains(out, s) {
					t.Errorf("report has %q:\n%s", s, out)
				}
			}
		})
	}
}

// The outcomes say exactly what plantmock did with each case.
func TestRunOutcomes(t *testing.T) {
	rep, _ := runSuite(t, "disagree", nil)
	byID := map[caseID]outcome{}
	for _, o := range rep.dialects[0].outcomes {
		byID[o.id] = o
	}
	if o := byID[wrongCase]; o.result != refused || o.status != 422 || !o.valid ||
		!strings.HasPrefix(o.detail, `{"error":40004,`) {
		t.Errorf("wrongly marked case: %+v, want refused with 422 and a body of error 40004", o)
	}
	if o := byID[agreeing]; o.result != accepted || o.status != 204 || o.detail != "" || !o.agrees() {
		t.Errorf("agreeing case: %+v, want accepted with 204 and no body", o)
	}
	for _, id := range []caseID{badWord, badNumber} {
		if o := byID[id]; o.result != docRefused || o.status != 0 || o.detail == "" {
			t.Errorf("%s: %+v, want the document refused, with the error", id, o)
		}
	}
}

func TestRunDuplicateDeviation(t *testing.T) {
	devs := listed("kept on purpose", wrongCase, wrongCase)
	_, err := run(context.Background(), config{suite: filepath.Join("testdata", "disagree"), deviations: devs}, &bytes.Buffer{})
	want := "deviations list draft2020-12/wrong.json: short plant names / one letter, wrongly marked valid twice"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}

func TestRunNoSuite(t *testing.T) {
	_, err := run(context.Background(), config{suite: t.TempDir()}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "holds no tests/draft2020-12/*.json") {
		t.Errorf("err = %v, want one saying the folder holds no tests", err)
	}
}

func TestClassify(t *testing.T) {
	for status, want := range map[int]result{
		200: accepted, 201: accepted, 204: accepted,
		400: refused, 422: refused,
		401: failed, 404: failed, 405: failed, 409: failed, 415: failed, 500: failed, 302: failed,
	} {
		if got := classify(status); got != want {
			t.Errorf("classify(%d) = %d, want %d", status, got, want)
		}
	}
}

func TestOutcomeString(t *testing.T) {
	id := caseID{File: "draft4/pots.json", Group: "pot sizes", Case: "a vat"}
	tests := []struct {
		o    outcome
		want string
	}{
		{outcome{id: id, valid: false, result: accepted, status: 204},
			"draft4/pots.json: pot sizes / a vat: suite says invalid, plantmock accepted (204)"},
		{outcome{id: id, valid: true, result: refused, status: 422, detail: `{"error":40004}`},
			`draft4/pots.json: pot sizes / a vat: suite says valid, plantmock refused (422, {"error":40004})`},
		{outcome{id: id, valid: true, result: docRefused, detail: "circular"},
			"draft4/pots.json: pot sizes / a vat: suite says valid, document refused: circular"},
		{outcome{id: id, valid: true, result: failed, status: 500, detail: "boom"},
			"draft4/pots.json: pot sizes / a vat: suite says valid, error: 500 boom"},
		{outcome{id: id, valid: false, result: failed, detail: "connection refused"},
			"draft4/pots.json: pot sizes / a vat: suite says invalid, error: connection refused"},
	}
	for _, tt := range tests {
		if got := tt.o.String(); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}

func TestRatio(t *testing.T) {
	for _, tt := range []struct {
		n, m int
		want string
	}{
		{0, 0, "0 of 0 (0.0%)"},
		{1, 3, "1 of 3 (33.3%)"},
		{1999, 2000, "1999 of 2000 (99.9%)"}, // not rounded up to 100
		{5, 5, "5 of 5 (100.0%)"},
	} {
		if got := ratio(tt.n, tt.m); got != tt.want {
			t.Errorf("ratio(%d, %d) = %q, want %q", tt.n, tt.m, got, tt.want)
		}
	}
}
