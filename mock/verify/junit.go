package verify

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// JUnit XML, as GitHub, GitLab and Jenkins read it: a test suite per
// operation, a test case per check, a failure element per failure of the
// check (its rule, text, schema pointer and curl line).

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string         `xml:"name,attr"`
	Classname string         `xml:"classname,attr"`
	Failures  []junitFailure `xml:"failure"`
	Skipped   *struct{}      `xml:"skipped"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the report as JUnit XML. The checks of a dry run
// are written as skipped test cases.
func (r *Report) WriteJUnit(w io.Writer) error {
	out := junitSuites{Name: fmt.Sprintf("plantmock verify %s against %s %s", r.Target, r.Title, r.Version)}
	at := map[string]int{}
	for _, c := range r.Checks {
		i, ok := at[c.Operation]
		if !ok {
			i = len(out.Suites)
			at[c.Operation] = i
			out.Suites = append(out.Suites, junitSuite{Name: c.Operation})
		}
		s := &out.Suites[i]
		tc := junitCase{Name: c.Title(), Classname: c.Operation}
		if r.DryRun {
			tc.Skipped = &struct{}{}
		}
		for _, f := range c.Failures {
			var text strings.Builder
			text.WriteString(f.Text + "\n")
			if f.Schema != "" {
				text.WriteString("rule: " + f.Schema + "\n")
			}
			text.WriteString(c.Curl + "\n")
			tc.Failures = append(tc.Failures, junitFailure{Message: f.Text, Type: f.Rule, Text: text.String()})
		}
		s.Tests++
		out.Tests++
		if len(tc.Failures) > 0 {
			s.Failures++
			out.Failures++
		}
		s.Cases = append(s.Cases, tc)
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
