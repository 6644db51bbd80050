package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/plantmock/plantmock/internal/files"
	"github.com/plantmock/plantmock/mock"
	"github.com/plantmock/plantmock/mock/diff"
)

// exitBreaks is diff's exit code when a change fails at --fail-on.
const exitBreaks = 1

// defineDiff defines diff's flags and returns what compares the
// documents OLD and NEW, its arguments.
func defineDiff(fs *flag.FlagSet) runner {
	format := newChoice("text", "json", "github", "markdown")
	fs.Var(format, "format", "how to write the changes: `text`, json, github (GitHub Actions annotations at NEW's lines) or markdown (for a pull request's comment)")
	failOn := newChoice("client", "provider", "any", "traffic", "none")
	fs.Var(failOn, "fail-on", "the changes that exit 1: `client` (those that break clients), provider (those that break providers), any (every change), traffic (a recorded exchange OLD accepted that NEW breaks, with --traffic) or none")
	var traffic tokens
	fs.Var(&traffic, "traffic", "`file` of recorded traffic to judge against OLD and NEW: HAR, the journal of GET /__admin/requests or of --journal-file, or a --record folder or file; repeatable")
	ignore := fs.String("ignore", "", "`file` of accepted changes, one a line as RULE METHOD /path [POINTER]: REASON (RULE - ...: REASON for the document): listed as ignored, failing at no level")
	maxSpec := size(mock.DefaultMaxSpecFile)
	fs.Var(&maxSpec, "max-spec", "largest document read: a `size` in bytes or with KiB/MiB/GiB")
	return func(_ context.Context, _ given, env environment, stdout, stderr io.Writer) int {
		warnUnknown(env, stderr)
		c := lookup("diff")
		if fs.NArg() != 2 {
			c.usageError(stderr, "want two documents: plantmock diff OLD NEW")
			return exitUsage
		}
		if failOn.value == "traffic" && len(traffic) == 0 {
			c.usageError(stderr, "--fail-on traffic needs --traffic FILE")
			return exitUsage
		}
		oldName, newName := fs.Arg(0), fs.Arg(1)
		var docs [2][]byte
		for i, name := range []string{oldName, newName} {
			data, err := files.ReadDocument(name, int64(maxSpec))
			if err != nil {
				fmt.Fprintf(stderr, "plantmock diff: cannot read %s: %v\n", [2]string{"OLD", "NEW"}[i], err)
				return exitUsage
			}
			docs[i] = data
		}
		var entries []diff.Ignore
		if *ignore != "" {
			data, err := files.ReadPath(*ignore, int64(maxSpec))
			if err == nil {
				entries, err = diff.ParseIgnores(data)
			}
			if err != nil {
				fmt.Fprintf(stderr, "plantmock diff: --ignore %s: %v\n", *ignore, err)
				return exitUsage
			}
		}
		r, err := diff.Compare(docs[0], docs[1])
		if err != nil {
			var le *diff.LoadError
			if errors.As(err, &le) {
				name := oldName
				if le.New {
					name = newName
				}
				fmt.Fprintf(stderr, "plantmock diff: %s: %v\n", name, le.Err)
			} else {
				fmt.Fprintf(stderr, "plantmock diff: %v\n", err)
			}
			return exitUsage
		}
		if len(traffic) > 0 {
			if err := weigh(r, docs, oldName, newName, traffic); err != nil {
				fmt.Fprintf(stderr, "plantmock diff: %v\n", err)
				return exitUsage
			}
		}
		for _, e := range r.Ignore(entries) {
			fmt.Fprintf(stderr, "plantmock diff: --ignore %s:%d: %s %s matches no change\n", *ignore, e.Line, e.Rule, opOrDocument(e.Operation))
		}
		switch format.value {
		case "json":
			err = r.WriteJSON(stdout, oldName, newName)
		case "github":
			err = r.WriteGitHub(stdout, oldName, newName, failOn.value)
		case "markdown":
			err = r.WriteMarkdown(stdout, oldName, newName)
		default:
			err = r.WriteText(stdout, oldName, newName)
		}
		if err != nil {
			fmt.Fprintf(stderr, "plantmock diff: %v\n", err)
			return exitUsage
		}
		if r.Fails(failOn.value) {
			return exitBreaks
		}
		return exitOK
	}
}

// opOrDocument names an ignore entry's operation, "-" for the document.
func opOrDocument(op string) string {
	if op == "" {
		return "-"
	}
	return op
}

// weigh judges the traffic recorded in the files at paths against OLD
// and NEW, served each by a mock of its own that nothing reaches, and
// weighs the report with it (see diff.Report.Weigh).
func weigh(r *diff.Report, docs [2][]byte, oldName, newName string, paths []string) error {
	var judged [2]*mock.ContractReport
	for i, name := range []string{oldName, newName} {
		srv, err := mock.New(mock.Options{Spec: docs[i]})
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		judged[i], err = srv.CheckTraffic(paths...)
		srv.Close()
		if err != nil {
			return fmt.Errorf("cannot read --traffic: %v", err)
		}
	}
	r.Weigh(judged[0], judged[1])
	return nil
}
