package verify

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// JUnit XML, as GitHub, GitLab and Jenkins read it: a test suite per
// operation (per workflow, for the steps of Arazzo workflows), a test
// case per check, a failure element per failure of the
// check (its rule, text, where it stands against a previous version of
// the document, schema pointer and curl line). A check that saw
// only advice is skipped, with the advice as the reason; the rules no
// answer can keep are a suite of skipped cases of their own.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string         `xml:"name,attr"`
	Classname string         `xml:"classname,attr"`
	Failures  []junitFailure `xml:"failure"`
	Skipped   *junitSkipped  `xml:"skipped"`
}

type junitSkipped struct {
	Message string `xml:"message,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// impossibleSuite names the suite of the rules no answer can keep.
const impossibleSuite = "the document: rules no answer can keep"

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the report as JUnit XML. The checks of a dry run
// are written as skipped test cases, and so are those that saw only
// advice (its rule and why it is advice as the reason) and the rules
// of the document no answer can keep (Impossible).
func (r *Report) WriteJUnit(w io.Writer) error {
	out := junitSuites{Name: fmt.Sprintf("plantmock verify %s against %s %s", r.Target, r.Title, r.Version)}
	at := map[string]int{}
	for _, c := range r.Checks {
		suite := c.Operation
		if c.Workflow != "" {
			suite = "workflow " + c.Workflow // its steps together
		}
		i, ok := at[suite]
		if !ok {
			i = len(out.Suites)
			at[suite] = i
			out.Suites = append(out.Suites, junitSuite{Name: suite})
		}
		s := &out.Suites[i]
		tc := junitCase{Name: c.Title(), Classname: c.Operation}
		if r.DryRun {
			tc.Skipped = &junitSkipped{Message: "dry run: not sent"}
		}
		for _, f := range c.Failures {
			var text strings.Builder
			text.WriteString(f.Text + "\n")
			if m := f.marked(); m != "" {
				text.WriteString(m + "\n")
			}
			if f.Schema != "" {
				text.WriteString("rule: " + f.Schema + "\n")
			}
			if f.File != "" {
				fmt.Fprintf(&text, "at: %s:%d\n", f.File, f.Line)
			}
			if c.Curl != "" {
				text.WriteString(c.Curl + "\n")
			}
			tc.Failures = append(tc.Failures, junitFailure{Message: f.Text, Type: f.Rule, Text: text.String()})
		}
		if len(tc.Failures) == 0 && len(c.Advice) > 0 {
			var msgs, text []string
			for _, f := range c.Advice {
				msgs = append(msgs, "advice: "+f.Text)
				text = append(text, adviceText(f, c.Curl))
			}
			tc.Skipped = &junitSkipped{Message: strings.Join(msgs, "; "), Text: strings.Join(text, "\n")}
		}
		s.Tests++
		out.Tests++
		switch {
		case len(tc.Failures) > 0:
			s.Failures++
			out.Failures++
		case tc.Skipped != nil:
			s.Skipped++
			out.Skipped++
		}
		s.Cases = append(s.Cases, tc)
	}
	if len(r.Impossible) > 0 {
		s := junitSuite{Name: impossibleSuite}
		for _, u := range r.Impossible {
			ptr, why, _ := strings.Cut(u, ": ")
			s.Cases = append(s.Cases, junitCase{Name: "impossible: " + ptr, Classname: impossibleSuite,
				Skipped: &junitSkipped{Message: "impossible: " + why}})
			s.Tests++
			s.Skipped++
		}
		out.Tests += s.Tests
		out.Skipped += s.Skipped
		out.Suites = append(out.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// adviceText is what a skipped case says of one advice: the rule, what
// is wrong, where the rule is, why it is advice, the curl line.
func adviceText(f *Failure, curl string) string {
	var b strings.Builder
	b.WriteString("advice [" + f.Rule + "]: " + f.Text + "\n")
	if f.Schema != "" {
		b.WriteString("rule: " + f.Schema + "\n")
	}
	b.WriteString("why advice: " + f.Why + "\n")
	b.WriteString(curl + "\n")
	return b.String()
}
