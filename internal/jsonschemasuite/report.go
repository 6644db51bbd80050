package main

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// result is what became of a case.
type result uint8

const (
	accepted   result = iota // a 2xx
	refused                  // a 400 or 422
	docRefused               // the mock refused the group's document
	failed                   // any other status, or no answer
)

// caseID names one case of the suite.
type caseID struct {
	File, Group, Case string
}

func (id caseID) String() string { return id.File + ": " + id.Group + " / " + id.Case }

// outcome is one case run.
type outcome struct {
	id     caseID
	valid  bool // the suite's verdict
	result result
	status int    // the answer's status, if there was one
	detail string // the first line of its body, or the error
}

// agrees reports whether plantmock did what the suite says.
func (o outcome) agrees() bool {
	return o.result == accepted && o.valid || o.result == refused && !o.valid
}

// String describes the outcome: "file: group / case: suite says valid,
// plantmock refused (422, {...})".
func (o outcome) String() string {
	verdict := "suite says invalid, "
	if o.valid {
		verdict = "suite says valid, "
	}
	switch o.result {
	case accepted, refused:
		what := "plantmock accepted ("
		if o.result == refused {
			what = "plantmock refused ("
		}
		what += strconv.Itoa(o.status)
		if o.detail != "" {
			what += ", " + o.detail
		}
		return o.id.String() + ": " + verdict + what + ")"
	case docRefused:
		return o.id.String() + ": " + verdict + "document refused: " + o.detail
	}
	if o.status != 0 {
		return fmt.Sprintf("%s: %serror: %d %s", o.id, verdict, o.status, o.detail)
	}
	return o.id.String() + ": " + verdict + "error: " + o.detail
}

// skipped is a group left out, and why.
type skipped struct {
	file, group string
	reasons     []string
	cases       int
}

// dialectReport is the run of one dialect.
type dialectReport struct {
	dir, openapi string
	outcomes     []outcome // every case run, in suite order
	skipped      []skipped // in suite order

	// Set by judge.
	agreed   int
	unlisted []outcome // disagreements deviations do not list
	listed   []outcome // disagreements they list
	errors   []outcome // cases that got no usable answer
}

// report is the whole run.
type report struct {
	dialects []*dialectReport
	reasons  map[caseID]string // of the listed deviations
	stale    []string          // listed deviations that no longer disagree, described
}

// ok reports whether the run passes: every disagreement is a listed
// deviation, every listed deviation still disagrees, and every case got
// an answer.
func (r *report) ok() bool {
	for _, d := range r.dialects {
		if len(d.unlisted) > 0 || len(d.errors) > 0 {
			return false
		}
	}
	return len(r.stale) == 0
}

// judge sorts the outcomes against the deviations.
func (r *report) judge(devs []deviation) error {
	r.reasons = map[caseID]string{}
	for _, dv := range devs {
		id := caseID{File: dv.File, Group: dv.Group, Case: dv.Case}
		if _, dup := r.reasons[id]; dup {
			return fmt.Errorf("deviations list %s twice", id)
		}
		r.reasons[id] = dv.Reason
	}
	ran := map[caseID]outcome{}
	files := map[string]bool{}
	for _, d := range r.dialects {
		for _, o := range d.outcomes {
			ran[o.id] = o
			files[o.id.File] = true
			_, listed := r.reasons[o.id]
			switch {
			case o.result == failed:
				d.errors = append(d.errors, o)
			case o.agrees():
				d.agreed++
			case listed:
				d.listed = append(d.listed, o)
			default:
				d.unlisted = append(d.unlisted, o)
			}
		}
	}
	for _, dv := range devs {
		id := caseID{File: dv.File, Group: dv.Group, Case: dv.Case}
		switch o, found := ran[id]; {
		case !files[id.File]:
			// A suite without the file (an older one, or a test's own):
			// nothing to say.
		case !found:
			r.stale = append(r.stale, id.String()+": names no case that was run")
		case o.agrees():
			r.stale = append(r.stale, id.String()+": agrees with the suite now")
		}
	}
	return nil
}

// write prints the report: per dialect the agreement, the skipped groups
// by reason, the disagreements and errors; then the stale deviations and
// the verdict.
func (r *report) write(w io.Writer, verbose bool) {
	for _, d := range r.dialects {
		fmt.Fprintf(w, "%s as OpenAPI %s\n", d.dir, d.openapi)
		fmt.Fprintf(w, "  agreement: %s\n", ratio(d.agreed, len(d.outcomes)))
		writeSkipped(w, d.skipped, verbose)
		section(w, "disagreements not in deviations", d.unlisted, nil)
		section(w, "deliberate deviations", d.listed, r.reasons)
		section(w, "errors", d.errors, nil)
		fmt.Fprintln(w)
	}
	if len(r.stale) > 0 {
		fmt.Fprintf(w, "stale deviations (%d):\n", len(r.stale))
		for _, s := range r.stale {
			fmt.Fprintf(w, "  %s\n", s)
		}
		fmt.Fprintln(w)
	}
	if r.ok() {
		listed := 0
		for _, d := range r.dialects {
			listed += len(d.listed)
		}
		fmt.Fprintf(w, "PASS: every disagreement is a listed deviation (%d listed)\n", listed)
		return
	}
	var unlisted, errors int
	for _, d := range r.dialects {
		unlisted += len(d.unlisted)
		errors += len(d.errors)
	}
	fmt.Fprintf(w, "FAIL: %s not in deviations, %s, %s\n",
		plural(unlisted, "disagreement"), plural(errors, "error"), plural(len(r.stale), "stale deviation"))
}

// writeSkipped prints how many groups and cases were skipped, then the
// count for each reason, most cases first; with verbose, every group.
func writeSkipped(w io.Writer, skips []skipped, verbose bool) {
	if len(skips) == 0 {
		return
	}
	type tally struct {
		reason        string
		groups, cases int
	}
	var tallies []*tally
	byReason := map[string]*tally{}
	total, several := 0, false
	for _, s := range skips {
		total += s.cases
		several = several || len(s.reasons) > 1
		for _, why := range s.reasons {
			t := byReason[why]
			if t == nil {
				t = &tally{reason: why}
				byReason[why] = t
				tallies = append(tallies, t)
			}
			t.groups++
			t.cases += s.cases
		}
	}
	slices.SortStableFunc(tallies, func(a, b *tally) int { return cmp.Compare(b.cases, a.cases) })
	note := ""
	if several {
		note = " (a group with several reasons counts under each)"
	}
	fmt.Fprintf(w, "  skipped: %s, %s%s\n", plural(len(skips), "group"), plural(total, "case"), note)
	for _, t := range tallies {
		fmt.Fprintf(w, "    %s: %s, %s\n", t.reason, plural(t.groups, "group"), plural(t.cases, "case"))
	}
	if verbose {
		fmt.Fprintf(w, "  skipped groups:\n")
		for _, s := range skips {
			fmt.Fprintf(w, "    %s: %s (%s): %s\n", s.file, s.group, plural(s.cases, "case"), strings.Join(s.reasons, "; "))
		}
	}
}

// section prints a titled list of outcomes, with their reasons if given;
// nothing when the list is empty.
func section(w io.Writer, title string, outs []outcome, reasons map[caseID]string) {
	if len(outs) == 0 {
		return
	}
	fmt.Fprintf(w, "  %s (%d):\n", title, len(outs))
	for _, o := range outs {
		if why, ok := reasons[o.id]; ok {
			fmt.Fprintf(w, "    %s [deviation: %s]\n", o, why)
		} else {
			fmt.Fprintf(w, "    %s\n", o)
		}
	}
}

// ratio formats "n of m (p%)", p rounded down so that 100% means all.
func ratio(n, m int) string {
	p := 0.0
	if m > 0 {
		p = math.Floor(1000*float64(n)/float64(m)) / 10
	}
	return fmt.Sprintf("%d of %d (%.1f%%)", n, m, p)
}

// plural formats "1 case", "2 cases".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
