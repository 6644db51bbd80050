package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/plantmock/plantmock/internal/jsonschemasuite/cases"
	"github.com/plantmock/plantmock/mock"
)

// config is what a run needs.
type config struct {
	suite      string      // the suite checkout
	deviations []deviation // the disagreements kept on purpose
	verbose    bool        // also list the skipped groups
}

// run checks every dialect of the suite in cfg against plantmock, writes
// the report to out and returns it. An error means the suite could not be
// read (or ctx ended); disagreements are in the report.
func run(ctx context.Context, cfg config, out io.Writer) (*report, error) {
	rep := &report{}
	client := &http.Client{
		Transport: &http.Transport{MaxIdleConnsPerHost: 2, DisableCompression: true},
		Timeout:   30 * time.Second,
	}
	defer client.CloseIdleConnections()
	for _, d := range cases.Dialects() {
		files, err := cases.ReadDialect(cfg.suite, d.Dir)
		if err != nil {
			return nil, err
		}
		dr, err := runDialect(ctx, client, d, files)
		if err != nil {
			return nil, err
		}
		rep.dialects = append(rep.dialects, dr)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := rep.judge(cfg.deviations); err != nil {
		return nil, err
	}
	rep.write(out, cfg.verbose)
	return rep, nil
}

// job is one group to run: its document, or why it is skipped.
type job struct {
	file  string
	group cases.Group
	doc   []byte
	skip  []string
	out   []outcome
}

// runDialect checks the groups of files, of dialect d, several at a time,
// and gathers the outcomes in suite order.
func runDialect(ctx context.Context, client *http.Client, d cases.Dialect, files []cases.File) (*dialectReport, error) {
	dr := &dialectReport{dir: d.Dir, openapi: d.OpenAPI}
	var jobs []*job
	for _, f := range files {
		for _, g := range f.Groups {
			schema, err := cases.DecodeJSON(g.Schema)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", f.Name, g.Description, err)
			}
			j := &job{file: f.Name, group: g}
			var schemas map[string]any
			if schemas, j.skip = d.Prepare(schema); j.skip == nil {
				j.doc = cases.Document(d.OpenAPI, schemas)
			}
			jobs = append(jobs, j)
		}
	}
	todo := make(chan *job)
	var wg sync.WaitGroup
	for range 2 * runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for j := range todo {
				j.out = runGroup(ctx, client, j)
			}
		})
	}
	for _, j := range jobs {
		if j.skip == nil {
			todo <- j
		}
	}
	close(todo)
	wg.Wait()
	for _, j := range jobs {
		if j.skip != nil {
			dr.skipped = append(dr.skipped, skipped{file: j.file, group: j.group.Description, reasons: j.skip, cases: len(j.group.Tests)})
			continue
		}
		dr.outcomes = append(dr.outcomes, j.out...)
	}
	return dr, nil
}

// runGroup serves a group's document with a mock of its own and sends it
// every case of the group.
func runGroup(ctx context.Context, client *http.Client, j *job) []outcome {
	out := make([]outcome, len(j.group.Tests))
	for i, c := range j.group.Tests {
		out[i] = outcome{id: caseID{File: j.file, Group: j.group.Description, Case: c.Description}, valid: *c.Valid}
	}
	srv, err := mock.New(mock.Options{Spec: j.doc, Seed: 1, NoShippedScenarios: true, Admin: mock.AdminOptions{Disabled: true}, Journal: mock.JournalOptions{Size: -1}})
	if err != nil {
		for i := range out {
			out[i].result, out[i].detail = docRefused, oneLine(err.Error())
		}
		return out
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	for i, c := range j.group.Tests {
		out[i].result, out[i].status, out[i].detail = send(ctx, client, ts.URL+cases.Path, c.Data)
	}
	return out
}

// send PUTs data to url and says what became of it: accepted (2xx),
// refused (400 or 422), or failed (anything else), with the status and
// the first line of the answer's body, or the error.
func send(ctx context.Context, client *http.Client, url string, data json.RawMessage) (result, int, string) {
	var body bytes.Buffer
	if err := json.Compact(&body, data); err != nil {
		return failed, 0, "the case's data is not JSON: " + err.Error()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, &body)
	if err != nil {
		return failed, 0, err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return failed, 0, oneLine(err.Error())
	}
	defer resp.Body.Close()
	line, _ := bufio.NewReader(io.LimitReader(resp.Body, 64<<10)).ReadString('\n')
	io.Copy(io.Discard, resp.Body) // so that the connection is reused
	return classify(resp.StatusCode), resp.StatusCode, oneLine(line)
}

// classify maps a status to what it says of the body.
func classify(status int) result {
	switch {
	case status >= 200 && status < 300:
		return accepted
	case status == http.StatusBadRequest || status == http.StatusUnprocessableEntity:
		return refused
	}
	return failed
}

// oneLine returns s on one line, cut to a readable length.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 240 {
		s = string(r[:240]) + "…"
	}
	return s
}
