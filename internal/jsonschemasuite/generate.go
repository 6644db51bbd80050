package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/plantmock/plantmock/internal/jsonschemasuite/cases"
	"github.com/plantmock/plantmock/mock"
)

// defaultSeeds is how many seeds (1, 2, ...) a schema's value is
// generated with.
const defaultSeeds = 5

// genConfig is what a generation run needs.
type genConfig struct {
	suite   string // the suite checkout
	seeds   int    // values are generated with seeds 1..seeds
	floor   float64
	verbose bool // also list every failure
}

// genFailure is one seed whose value the schema refused, or that got no
// value.
type genFailure struct {
	seed int // 0 when the mock refused the document

	detail string // the answer's status and first line, or the refusal
}

// genOutcome is one schema of the suite: the seeds that failed, if any.
type genOutcome struct {
	file, group string
	failures    []genFailure
}

// genDialectReport is the generation run of one dialect.
type genDialectReport struct {
	dir, openapi string
	outcomes     []genOutcome // of the schemas with a valid instance, in suite order
	skipped      int          // groups not run: the dialect's reasons, or no valid instance
}

// good returns how many schemas got a valid value with every seed.
func (d *genDialectReport) good() int {
	n := 0
	for _, o := range d.outcomes {
		if len(o.failures) == 0 {
			n++
		}
	}
	return n
}

// share returns the percentage of schemas that got a valid value with
// every seed (100 when there are none).
func (d *genDialectReport) share() float64 {
	if len(d.outcomes) == 0 {
		return 100
	}
	return 100 * float64(d.good()) / float64(len(d.outcomes))
}

// genReport is a whole generation run.
type genReport struct {
	seeds    int
	dialects []*genDialectReport
}

// ok reports whether every dialect's share reaches floor.
func (r *genReport) ok(floor float64) bool {
	for _, d := range r.dialects {
		if d.share() < floor {
			return false
		}
	}
	return true
}

// generate runs the generation check on every dialect of the suite in
// cfg, writes the report to out and returns it.
//
// Each group whose schema has at least one valid instance among its cases
// becomes a document like the validation run's, with one more operation,
// GET /case, answered by 200 with an application/json body of the same
// schema. For each seed the mock is asked for a generated answer
// (Prefer: dynamic=true, seed=N), which it checks against the schema
// before sending, and the answer is then sent back as the body of PUT
// /case, which the same schema checks again. A seed passes when the GET
// is answered with 200 and the PUT with 204.
func generate(ctx context.Context, cfg genConfig, out io.Writer) (*genReport, error) {
	rep := &genReport{seeds: cfg.seeds}
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
		dr, err := generateDialect(ctx, client, d, files, cfg.seeds)
		if err != nil {
			return nil, err
		}
		rep.dialects = append(rep.dialects, dr)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rep.write(out, cfg.floor, cfg.verbose)
	return rep, nil
}

// genJob is one schema to generate values for.
type genJob struct {
	out genOutcome
	doc []byte
}

// generateDialect runs the schemas of files, of dialect d, with a valid
// instance, several at a time, and gathers the outcomes in suite order.
func generateDialect(ctx context.Context, client *http.Client, d cases.Dialect, files []cases.File, seeds int) (*genDialectReport, error) {
	dr := &genDialectReport{dir: d.Dir, openapi: d.OpenAPI}
	var jobs []*genJob
	for _, f := range files {
		for _, g := range f.Groups {
			if !hasValid(g) {
				dr.skipped++
				continue
			}
			schema, err := cases.DecodeJSON(g.Schema)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", f.Name, g.Description, err)
			}
			schemas, skip := d.Prepare(schema)
			if skip != nil {
				dr.skipped++
				continue
			}
			jobs = append(jobs, &genJob{out: genOutcome{file: f.Name, group: g.Description}, doc: cases.AnswerDocument(d.OpenAPI, schemas)})
		}
	}
	todo := make(chan *genJob)
	var wg sync.WaitGroup
	for range 2 * runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for j := range todo {
				j.out.failures = generateGroup(ctx, client, j.doc, seeds)
			}
		})
	}
	for _, j := range jobs {
		todo <- j
	}
	close(todo)
	wg.Wait()
	for _, j := range jobs {
		dr.outcomes = append(dr.outcomes, j.out)
	}
	return dr, nil
}

// hasValid reports whether a group has a case the suite says is valid.
func hasValid(g cases.Group) bool {
	for _, c := range g.Tests {
		if *c.Valid {
			return true
		}
	}
	return false
}

// generateGroup serves a document with a mock of its own and checks the
// answer of every seed; it returns the seeds that failed.
func generateGroup(ctx context.Context, client *http.Client, doc []byte, seeds int) []genFailure {
	srv, err := mock.New(mock.Options{Spec: doc, Seed: 1, NoShippedScenarios: true, Admin: mock.AdminOptions{Disabled: true}, Journal: mock.JournalOptions{Size: -1}})
	if err != nil {
		return []genFailure{{seed: 0, detail: "document refused: " + oneLine(err.Error())}}
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	var fails []genFailure
	for seed := 1; seed <= seeds; seed++ {
		if why := generateOne(ctx, client, ts.URL+cases.Path, seed); why != "" {
			fails = append(fails, genFailure{seed: seed, detail: why})
		}
	}
	return fails
}

// generateOne asks for the generated answer of seed and sends it back;
// it returns what went wrong, or "".
func generateOne(ctx context.Context, client *http.Client, url string, seed int) string {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err.Error()
	}
	req.Header.Set("Prefer", "dynamic=true, seed="+strconv.Itoa(seed))
	resp, err := client.Do(req)
	if err != nil {
		return oneLine(err.Error())
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	resp.Body.Close()
	if err != nil {
		return oneLine(err.Error())
	}
	if resp.StatusCode != http.StatusOK {
		line, _ := bufio.NewReader(bytes.NewReader(body)).ReadString('\n')
		return fmt.Sprintf("answered %d: %s", resp.StatusCode, oneLine(line))
	}
	switch res, status, detail := send(ctx, client, url, body); res {
	case accepted:
		return ""
	case refused:
		return fmt.Sprintf("the answer %s was refused (%d, %s)", clipBody(body), status, detail)
	default:
		return fmt.Sprintf("the answer %s got %d: %s", clipBody(body), status, detail)
	}
}

// clipBody returns a body on one line, cut to a readable length.
func clipBody(body []byte) string {
	s := oneLine(string(body))
	if r := []rune(s); len(r) > 120 {
		s = string(r[:120]) + "…"
	}
	return s
}

// write prints the report: per dialect and per file the share of schemas
// whose every value was valid, and with verbose every failure.
func (r *genReport) write(w io.Writer, floor float64, verbose bool) {
	for _, d := range r.dialects {
		fmt.Fprintf(w, "%s as OpenAPI %s, seeds 1..%d\n", d.dir, d.openapi, r.seeds)
		fmt.Fprintf(w, "  generated values valid for every seed: %s of the schemas with a valid instance\n", ratio(d.good(), len(d.outcomes)))
		if d.skipped > 0 {
			fmt.Fprintf(w, "  not run: %s (no valid instance, or skipped as the validation run skips them)\n", plural(d.skipped, "group"))
		}
		var files []string
		byFile := map[string][2]int{} // good, all
		for _, o := range d.outcomes {
			c, seen := byFile[o.file]
			if !seen {
				files = append(files, o.file)
			}
			c[1]++
			if len(o.failures) == 0 {
				c[0]++
			}
			byFile[o.file] = c
		}
		for _, f := range files {
			c := byFile[f]
			fmt.Fprintf(w, "    %s: %s\n", f, ratio(c[0], c[1]))
		}
		if verbose {
			for _, o := range d.outcomes {
				for _, f := range o.failures {
					if f.seed == 0 {
						fmt.Fprintf(w, "  FAIL %s: %s: %s\n", o.file, o.group, f.detail)
						continue
					}
					fmt.Fprintf(w, "  FAIL %s: %s, seed %d: %s\n", o.file, o.group, f.seed, f.detail)
				}
			}
		}
		fmt.Fprintln(w)
	}
	if r.ok(floor) {
		fmt.Fprintf(w, "PASS: every dialect's share is at least %.1f%%\n", floor)
		return
	}
	fmt.Fprintf(w, "FAIL: a dialect's share is under %.1f%%\n", floor)
}
