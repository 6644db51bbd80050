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
// gives: check_document, which loads a document as check does, and
// verify_service, which runs verify with the flags it is given and
// every check of them verify makes.
func mcpTools() mock.MCPTools {
	return mock.MCPTools{Check: checkDocument, Verify: verifyServed}
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

// verifyServed runs verify with args against doc, with no variable of
// the environment: what the agent gives is all it takes.
func verifyServed(ctx context.Context, args []string, doc []byte) (int, string, string) {
	c := lookup("verify")
	fs := c.flagSet()
	run := defineVerifyWith(fs, func(string, int64) ([]byte, error) { return doc, nil })
	var out, errs strings.Builder
	env := newEnvironment(nil)
	set, code, ok := c.parse(fs, append([]string{"--spec", servedSpec}, args...), env, &out, &errs)
	if ok {
		code = run(ctx, set, env, &out, &errs)
	}
	return code, out.String(), errs.String()
}

// nopCloser is a writer that closing leaves open: standard output,
// which the log and the exit still need.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
