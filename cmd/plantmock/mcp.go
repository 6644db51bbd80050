package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/plantmock/plantmock/mock"
)

// mcpTools are the tools of the MCP endpoint that the command line
// gives: check_document, which loads a document as check does;
// verify_service, which runs verify with the flags it is given and
// every check of them verify makes; and run_workflow, which runs verify
// --workflows with the description it is given.
func mcpTools() mock.MCPTools {
	return mock.MCPTools{Check: checkDocument, Verify: verifyServed, Workflows: runWorkflowsServed}
}

// checkDocument loads a document as check does and returns what check
// prints; a document that cannot be served is an error saying why.
func checkDocument(_ context.Context, doc []byte, strict bool) (string, error) {
	var logs bytes.Buffer
	srv, err := mock.New(mock.Options{Spec: doc, Strict: strict, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		return "", fmt.Errorf("plantmock: the document cannot be served: %v", err)
	}
	defer srv.Close()
	title := srv.Title()
	if title == "" {
		title = "the document"
	}
	return checked(srv, title), nil
}

// servedSpec stands for the served document in verify's --spec.
const servedSpec = "(the served document)"

// givenWorkflows stands for the description run_workflow is given in
// verify's --workflows.
const givenWorkflows = "(the workflows given)"

// verifyServed runs verify with args against doc, with no variable of
// the environment: what the agent gives is all it takes.
func verifyServed(ctx context.Context, args []string, doc []byte) (int, string, string) {
	return runWorkflowsServed(ctx, args, doc, nil)
}

// runWorkflowsServed runs verify with args against doc, and with
// --workflows flows where there are flows; it reads no file.
func runWorkflowsServed(ctx context.Context, args []string, doc, flows []byte) (int, string, string) {
	c := lookup("verify")
	fs := c.flagSet()
	run := defineVerifyWith(fs, func(name string, _ int64) ([]byte, error) {
		switch name {
		case servedSpec:
			return doc, nil
		case givenWorkflows:
			return flows, nil
		}
		return nil, fmt.Errorf("%s: no file is read here", name)
	})
	var out, errs strings.Builder
	env := newEnvironment(nil)
	head := []string{"--spec", servedSpec}
	if flows != nil {
		head = append(head, "--workflows", givenWorkflows)
	}
	set, code, ok := c.parse(fs, append(head, args...), env, &out, &errs)
	if ok {
		code = run(ctx, set, env, &out, &errs)
	}
	return code, out.String(), errs.String()
}

// nopCloser is a writer that closing leaves open: standard output,
// which the log and the exit still need.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
