package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/plantmock/plantmock/internal/files"
	"github.com/plantmock/plantmock/mock"
)

// maxTrafficFile bounds the HAR file check --traffic reads.
const maxTrafficFile = 256 << 20

// defineCheck defines check's flags and returns what loads and checks
// the document and scenarios without serving, or judges recorded traffic
// against them.
func defineCheck(fs *flag.FlagSet) runner {
	var src source
	src.define(fs)
	traffic := fs.String("traffic", "", "HAR `file` of recorded traffic to judge against the document (exit 1 when it breaks it)")
	return func(_ context.Context, set given, env environment, stdout, stderr io.Writer) int {
		warnUnknown(env, stderr)
		srv, err := newServer(&src, mock.Options{}, set, stderr)
		if err != nil {
			return exitUsage
		}
		defer srv.Close()
		if *traffic != "" {
			data, err := files.ReadPath(*traffic, maxTrafficFile)
			if err != nil {
				fmt.Fprintf(stderr, "plantmock check: cannot read --traffic: %v\n", err)
				return exitUsage
			}
			r, err := srv.CheckTraffic(data)
			if err != nil {
				fmt.Fprintf(stderr, "plantmock check: %s: %v\n", *traffic, err)
				return exitUsage
			}
			return printReport(r, stdout)
		}
		io.WriteString(stdout, checked(srv, src.title(srv)))
		return exitOK
	}
}

// checked is what check says of a document it loaded, named title:
// the mistakes left out and the caveats of serving it, a line each.
func checked(srv *mock.Server, title string) string {
	var sb strings.Builder
	mistakes := srv.Mistakes()
	if len(mistakes) == 0 {
		fmt.Fprintf(&sb, "plantmock: %s and scenarios %s are fine\n", title, scenarioList(srv.ScenarioNames()))
	} else {
		fmt.Fprintf(&sb, "plantmock: %s and scenarios %s are served, leaving out what these mistakes touch (--strict refuses them):\n", title, scenarioList(srv.ScenarioNames()))
	}
	for _, f := range mistakes {
		fmt.Fprintf(&sb, "plantmock: mistake: %s\n", f)
	}
	for _, w := range srv.Warnings() {
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
