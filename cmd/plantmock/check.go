package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/plantmock/plantmock/internal/files"
	"github.com/plantmock/plantmock/mock"
	"github.com/plantmock/plantmock/mock/verify"
)

// defineCheck defines check's flags and returns what loads and checks
// the document and scenarios without serving, or judges recorded traffic
// against them.
func defineCheck(fs *flag.FlagSet) runner {
	var src source
	src.define(fs)
	var traffic tokens
	fs.Var(&traffic, "traffic", "`file` of recorded traffic to judge against the document (exit 1 when it breaks it): HAR, the journal of GET /__admin/requests or of --journal-file, or a --record folder or file; repeatable")
	workflows := fs.String("workflows", "", "Arazzo 1.0 or 1.1 `file` whose workflows to lint against the document, sending nothing (exit 2 when it has mistakes)")
	return func(_ context.Context, set given, env environment, stdout, stderr io.Writer) int {
		warnUnknown(env, stderr)
		if *workflows != "" && len(traffic) > 0 {
			lookup("check").usageError(stderr, "--workflows and --traffic exclude each other")
			return exitUsage
		}
		srv, err := newServer(&src, mock.Options{}, set, stderr)
		if err != nil {
			return exitUsage
		}
		defer srv.Close()
		if *workflows != "" {
			return lintWorkflows(&src, *workflows, src.title(srv), stdout, stderr)
		}
		if len(traffic) > 0 {
			r, err := srv.CheckTraffic(traffic...)
			if err != nil {
				fmt.Fprintf(stderr, "plantmock check: cannot read --traffic: %v\n", err)
				return exitUsage
			}
			return printReport(r, stdout)
		}
		io.WriteString(stdout, checked(srv, src.title(srv)))
		return exitOK
	}
}

// lintWorkflows lints the Arazzo description in file against the one
// document of src, named title: each mistake on stderr as FILE:LINE:
// text and exit 2, or a line on stdout that they fit.
func lintWorkflows(src *source, file, title string, stdout, stderr io.Writer) int {
	if src.spec == "" && len(src.specs) > 0 {
		lookup("check").usageError(stderr, "--workflows checks against one document: give one --spec FILE")
		return exitUsage
	}
	flows, err := files.ReadPath(file, int64(src.maxSpec))
	if err != nil {
		fmt.Fprintf(stderr, "plantmock check: cannot read --workflows: %v\n", err)
		return exitUsage
	}
	var spec []byte
	if src.spec != "" {
		if spec, err = src.read(src.spec); err != nil {
			fmt.Fprintf(stderr, "plantmock check: %v\n", err)
			return exitUsage
		}
	}
	probs, err := verify.LintWorkflows(flows, spec)
	if err != nil {
		fmt.Fprintf(stderr, "plantmock check: %v\n", err)
		return exitUsage
	}
	if len(probs) == 0 {
		fmt.Fprintf(stdout, "plantmock: the workflows of %s fit %s\n", file, title)
		return exitOK
	}
	fmt.Fprintf(stderr, "plantmock: the workflows of %s do not fit %s:\n", file, title)
	for _, p := range probs {
		if p.Line > 0 {
			fmt.Fprintf(stderr, "%s:%d: %s\n", file, p.Line, p.Text)
		} else {
			fmt.Fprintf(stderr, "%s: %s\n", file, p.Text)
		}
	}
	return exitUsage
}

// checked is what check says of a document it loaded, named title:
// the mistakes left out and the caveats of serving it, a line each.
func checked(srv *mock.Server, title string) string {
	var sb strings.Builder
	mistakes, caveats := srv.Mistakes(), srv.Warnings()
	scenarios := scenarioList(srv.ScenarioNames())
	switch {
	case len(mistakes) > 0:
		fmt.Fprintf(&sb, "plantmock: %s and scenarios %s are served, leaving out what these mistakes touch (--strict refuses them):\n", title, scenarios)
	case len(caveats) > 0:
		fmt.Fprintf(&sb, "plantmock: %s and scenarios %s are served with these caveats (--strict refuses them):\n", title, scenarios)
	default:
		fmt.Fprintf(&sb, "plantmock: %s and scenarios %s are fine\n", title, scenarios)
	}
	for _, f := range mistakes {
		fmt.Fprintf(&sb, "plantmock: mistake: %s\n", f)
	}
	for _, w := range caveats {
		fmt.Fprintf(&sb, "plantmock: caveat: %s\n", w)
	}
	return sb.String()
}

// scenarioList writes scenario names for a line of output: separated by
// commas, "(none)" when there are none.
func scenarioList(names []string) string {
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}
