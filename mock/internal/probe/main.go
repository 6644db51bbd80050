// Command probe sends one valid request to every operation of an OpenAPI
// document served by a running plantmock, and checks the answers: a valid
// request must never get a 5xx, and every answer must be one the document
// declares (status, Content-Type, body, headers). Requests are made and
// answers checked with package exercise: parameters by their style, bodies
// in a declared media type, from their schemas (and checked against them
// before sending), credentials for a security requirement.
//
//	go run ./mock/internal/probe -spec api.json -url http://127.0.0.1:4010
//
// It prints how many operations it probed and their statuses, then one
// line per operation it could not make a valid request for ("no valid
// request could be made: "), per 5xx ("5xx: ") and per problem of an
// answer ("undeclared: "). It exits 1 when any answer is a 5xx or not
// declared, or the mock cannot be reached; with -strict, an operation it
// could not make a valid request for fails it too.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/plantmock/plantmock/internal/files"
	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

func main() {
	spec := flag.String("spec", "", "the OpenAPI `file` the mock serves")
	base := flag.String("url", "http://127.0.0.1:4010", "the mock's base `URL`")
	verbose := flag.Bool("v", false, "print every request and its status")
	strict := flag.Bool("strict", false, "fail also when a valid request cannot be made for some operation")
	flag.Parse()
	if *spec == "" {
		fmt.Fprintln(os.Stderr, "usage: probe -spec FILE [-url URL] [-v] [-strict]")
		os.Exit(2)
	}
	// No limit of its own: the document is the one the mock it probes
	// read, under the mock's --max-spec.
	data, err := files.ReadPath(*spec, 1<<40)
	if err != nil {
		fmt.Fprintln(os.Stderr, "probe:", err)
		os.Exit(2)
	}
	doc, err := openapi.Load(data)
	if err != nil {
		fmt.Fprintln(os.Stderr, "probe:", err)
		os.Exit(2)
	}
	os.Exit(run(doc, strings.TrimRight(*base, "/"), *verbose, *strict, os.Stdout))
}

func run(doc *openapi.Document, base string, verbose, strict bool, out io.Writer) int {
	client := &http.Client{Timeout: 10 * time.Second,
		// The answer checked is the mock's own, redirects included.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	byStatus := map[int]int{}
	var failures, undeclared, unmade []string
	for i, op := range doc.Operations {
		req, err := exercise.Request(doc, op, base, uint64(i))
		if err != nil {
			unmade = append(unmade, err.Error())
			continue
		}
		resp, err := client.Do(exercise.Outgoing(req))
		if err != nil {
			fmt.Fprintf(out, "%s: %v\n", op.Name, err)
			return 1
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
		resp.Body.Close()
		if err != nil {
			fmt.Fprintf(out, "%s: %v\n", op.Name, err)
			return 1
		}
		byStatus[resp.StatusCode]++
		if verbose {
			fmt.Fprintf(out, "%d %s %s\n", resp.StatusCode, req.Method, req.URL.RequestURI())
		}
		where := fmt.Sprintf("%s (%s %s)", op.Name, req.Method, req.URL.RequestURI())
		for _, p := range exercise.Check(doc, op, resp, body) {
			if strings.HasPrefix(p, "a 5xx answer") {
				failures = append(failures, fmt.Sprintf("%s: %d %s", where, resp.StatusCode, clip(bytes.TrimSpace(body))))
			} else {
				undeclared = append(undeclared, where+": "+p)
			}
		}
	}
	var codes []int
	for c := range byStatus {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	fmt.Fprintf(out, "probed %d of %d operations:", len(doc.Operations)-len(unmade), len(doc.Operations))
	for _, c := range codes {
		fmt.Fprintf(out, " %d×%d", byStatus[c], c)
	}
	fmt.Fprintln(out)
	for _, u := range unmade {
		fmt.Fprintln(out, "no valid request could be made:", u)
	}
	for _, f := range failures {
		fmt.Fprintln(out, "5xx:", f)
	}
	for _, u := range undeclared {
		fmt.Fprintln(out, "undeclared:", u)
	}
	if len(failures) > 0 || len(undeclared) > 0 || (strict && len(unmade) > 0) {
		return 1
	}
	return 0
}

// clip shortens a body for a report line.
func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:297]) + "..."
	}
	return string(b)
}
