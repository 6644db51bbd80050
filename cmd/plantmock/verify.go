package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/textproto"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/plantmock/plantmock/internal/files"
	"github.com/plantmock/plantmock/mock"
	"github.com/plantmock/plantmock/mock/verify"
)

// exitFailures is verify's exit code when the service breaks the
// document.
const exitFailures = 1

// defineVerify defines verify's flags and returns what verifies the
// service at --target against the document.
func defineVerify(fs *flag.FlagSet) runner { return defineVerifyWith(fs, files.ReadDocument) }

// defineVerifyWith is defineVerify reading --spec and --workflows with
// read: the MCP endpoint's verify reads the served document and the
// description it is given instead of files, and keeps every other
// check of the flags.
func defineVerifyWith(fs *flag.FlagSet, read func(name string, max int64) ([]byte, error)) runner {
	var f verifyFlags
	f.define(fs)
	return func(ctx context.Context, _ given, env environment, stdout, stderr io.Writer) int {
		warnUnknown(env, stderr)
		usage := func(problem string) int {
			fmt.Fprintf(stderr, "plantmock verify: %s; run plantmock verify --help\n", problem)
			return exitUsage
		}
		opts, err := f.options()
		if err != nil {
			return usage(err.Error())
		}
		var data []byte
		if f.spec != "" {
			if data, err = read(f.spec, int64(f.maxSpec)); err != nil {
				return usage(specProblem(err))
			}
		}
		if f.previous != "" {
			if opts.Previous, err = read(f.previous, int64(f.maxSpec)); err != nil {
				return usage(fmt.Sprintf("cannot read --against-previous: %v", err))
			}
		}
		if f.setup != "" {
			file, _, _ := strings.Cut(f.setup, "#")
			if opts.Setup.Description, err = files.ReadPath(file, int64(f.maxSpec)); err != nil {
				return usage(fmt.Sprintf("cannot read --setup: %v", err))
			}
		}
		if f.workflows != "" {
			flows, err := read(f.workflows, int64(f.maxSpec))
			if err != nil {
				return usage(fmt.Sprintf("cannot read --workflows: %v", err))
			}
			opts.Workflows.Description = flows
		}
		rep, err := verify.Run(ctx, data, f.target, opts)
		if err != nil {
			fmt.Fprintf(stderr, "plantmock verify: %s\n", strings.TrimPrefix(err.Error(), "verify: "))
			if ctx.Err() != nil {
				return exitFailures
			}
			return exitUsage
		}
		return f.report(rep, stdout, stderr)
	}
}

// verifyFlags are verify's flags.
type verifyFlags struct {
	target, spec, auth, rate, junit, jsonOut string
	workflows                                string
	setup, previous                          string
	maxSpec                                  size
	headers, creds, only, skip, inputs       tokens
	noDestructive, dryRun, assertFormats     bool
	maxRequests, streamItems                 int
	duration, timeout, streamTime            time.Duration
	seed                                     uint64
	format                                   *choice
}

// define defines verify's flags on fs: what to verify, what to send,
// how far to go, and where the report goes.
func (f *verifyFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&f.target, "target", "", "base `URL` of the service to verify (required), e.g. http://127.0.0.1:8080/api")
	fs.StringVar(&f.spec, "spec", "", "OpenAPI 3.0, 3.1 or 3.2 `file` the service keeps; by default the embedded Plant Store")
	f.maxSpec = size(mock.DefaultMaxSpecFile)
	fs.Var(&f.maxSpec, "max-spec", "largest --spec document read: a `size` in bytes or with KiB/MiB/GiB")
	fs.StringVar(&f.auth, "auth", "", "credentials sent with every request, as `'SCHEME VALUE'`: 'bearer TOKEN', 'basic USER:PASSWORD', or any other scheme as it is")
	fs.Var(&f.headers, "header", "`'NAME: VALUE'` sent with every request, replacing what verify would send (repeatable)")
	fs.Var(&f.creds, "credential", "credentials of one security scheme, as `SCHEME=VALUE` (SCHEME a key of components.securitySchemes): a bearer token, basic or digest USER:PASSWORD, an API key, an OAuth 2 client's CLIENT_ID:SECRET (a token is fetched at its client credentials flow's tokenUrl); SCHEME[SCOPE,...]=VALUE for credentials that hold those scopes only, each sent once where an operation asks another, which must be refused (repeatable)")
	fs.Var(&f.only, "only", "verify only this `operation`, by operationId or as 'METHOD /path' (repeatable)")
	fs.Var(&f.skip, "skip", "leave out this `operation`, by operationId or as 'METHOD /path' (repeatable)")
	fs.StringVar(&f.workflows, "workflows", "", "run the workflows of this Arazzo 1.0 or 1.1 `file` instead of the checks of every operation, each step's answer judged by --spec")
	fs.StringVar(&f.previous, "against-previous", "", "the previous version of --spec, an OpenAPI `file`: each failure is judged again against it and marked new (it keeps the previous version there) or already failing")
	fs.StringVar(&f.setup, "setup", "", "make fixtures before the checks: a `file` listing requests (setup: [{operation, parameters, body, outputs}]) or an Arazzo description whose workflows run (FILE#WORKFLOW for one); their outputs are the values of the path parameters of their names")
	fs.Var(&f.inputs, "input", "a workflow input for --workflows, as `NAME=VALUE` (VALUE read as JSON where it is, unless the input is a string; repeatable)")
	fs.BoolVar(&f.noDestructive, "no-destructive", false, "leave out DELETE, PUT and PATCH operations")
	fs.BoolVar(&f.dryRun, "dry-run", false, "list the requests as curl lines without sending them")
	fs.IntVar(&f.maxRequests, "max-requests", 0, "stop after this many requests; 0 means no bound")
	fs.StringVar(&f.rate, "rate", "", "send at most this many requests, evenly spaced, as `N/s` or N/m; by default no bound")
	fs.DurationVar(&f.duration, "duration", 0, "stop once this much time has passed; 0 means no bound")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the generated values: the same seed and document send the same requests")
	fs.BoolVar(&f.assertFormats, "assert-formats", false, "hold the service to formats (date, uuid, email, ...): a value breaking one is a failure, not advice")
	fs.DurationVar(&f.timeout, "timeout", verify.DefaultTimeout, "longest an answer may take; a slower one is a failure")
	fs.IntVar(&f.streamItems, "stream-items", verify.DefaultStreamItems, "read at most this many items of a stream (server-sent events, JSON Lines, ...) and judge those")
	fs.DurationVar(&f.streamTime, "stream-time", verify.DefaultStreamTime, "read a stream for at most this long after its headers and judge what came")
	fs.StringVar(&f.junit, "junit", "", "write the checks as JUnit XML to this `file`")
	fs.StringVar(&f.jsonOut, "json", "", "write the report as JSON to this `file`")
	f.format = newChoice("text", "github", "json")
	fs.Var(f.format, "format", "what stdout gets: text (the summary), github (an annotation per failure and advice at the document's line, then the summary) or json (the report)")
}

// options checks the flags and turns them into verify's options; an
// error is a usage problem, in the words verify prints.
func (f *verifyFlags) options() (verify.Options, error) {
	switch {
	case f.target == "":
		return verify.Options{}, errors.New("--target is required: the base URL of the service to verify")
	case f.maxRequests < 0:
		return verify.Options{}, fmt.Errorf("--max-requests %d: want 0 or more", f.maxRequests)
	case f.timeout <= 0:
		return verify.Options{}, fmt.Errorf("--timeout %s: want a duration over 0", f.timeout)
	case f.streamItems <= 0:
		return verify.Options{}, fmt.Errorf("--stream-items %d: want 1 or more", f.streamItems)
	case f.streamTime <= 0:
		return verify.Options{}, fmt.Errorf("--stream-time %s: want a duration over 0", f.streamTime)
	case f.duration < 0:
		return verify.Options{}, fmt.Errorf("--duration %s: want 0 or more", f.duration)
	}
	perSecond, err := parseRate(f.rate)
	if err != nil {
		return verify.Options{}, fmt.Errorf("--rate %q: %v", f.rate, err)
	}
	opts := verify.Options{Only: f.only, Skip: f.skip, NoDestructive: f.noDestructive, DryRun: f.dryRun,
		MaxRequests: f.maxRequests, Rate: perSecond, Duration: f.duration, Seed: f.seed, Timeout: f.timeout, AssertFormats: f.assertFormats, Header: http.Header{},
		StreamItems: f.streamItems, StreamTime: f.streamTime}
	if err := f.credentials(&opts); err != nil {
		return verify.Options{}, err
	}
	if len(f.inputs) > 0 && f.workflows == "" {
		return verify.Options{}, errors.New("--input is for the workflows of --workflows, and there is none")
	}
	if f.setup != "" {
		file, workflow, _ := strings.Cut(f.setup, "#")
		opts.Setup = &verify.Setup{File: file, Workflow: workflow}
	}
	if f.workflows != "" {
		opts.Workflows = &verify.Workflows{File: f.workflows, Spec: f.spec, Inputs: map[string]string{}}
		for _, in := range f.inputs {
			name, value, ok := strings.Cut(in, "=")
			if !ok || name == "" {
				return verify.Options{}, fmt.Errorf("--input %q: want NAME=VALUE", in)
			}
			opts.Workflows.Inputs[name] = value
		}
	}
	return opts, nil
}

// credentials adds --header, --credential and --auth to opts.
func (f *verifyFlags) credentials(opts *verify.Options) error {
	for _, h := range f.headers {
		name, value, ok := strings.Cut(h, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return fmt.Errorf("--header %q: want 'NAME: VALUE'", h)
		}
		opts.Header.Add(textproto.CanonicalMIMEHeaderKey(name), strings.TrimSpace(value))
	}
	for _, c := range f.creds {
		name, value, ok := strings.Cut(c, "=")
		if !ok || name == "" || value == "" {
			return fmt.Errorf("--credential %q: want SCHEME=VALUE or SCHEME[SCOPE,...]=VALUE", c)
		}
		if scheme, scopes, scoped := strings.Cut(name, "["); scoped {
			list, closed := strings.CutSuffix(scopes, "]")
			if scheme == "" || !closed {
				return fmt.Errorf("--credential %q: want SCHEME[SCOPE,...]=VALUE", c)
			}
			sc := verify.ScopedCredential{Scheme: scheme, Value: value}
			for _, s := range strings.Split(list, ",") {
				if s = strings.TrimSpace(s); s != "" {
					sc.Scopes = append(sc.Scopes, s)
				}
			}
			opts.Scoped = append(opts.Scoped, sc)
			continue
		}
		if opts.Credentials == nil {
			opts.Credentials = map[string]string{}
		}
		if _, dup := opts.Credentials[name]; dup {
			return fmt.Errorf("--credential %q: %s is given twice", c, name)
		}
		opts.Credentials[name] = value
	}
	if f.auth != "" {
		a, err := authorization(f.auth)
		if err != nil {
			return fmt.Errorf("--auth: %v", err)
		}
		opts.Header.Set("Authorization", a)
	}
	return nil
}

// report writes the report to stdout in --format, and to the --junit
// and --json files, and returns verify's exit code.
func (f *verifyFlags) report(rep *verify.Report, stdout, stderr io.Writer) int {
	switch f.format.String() {
	case "github":
		rep.WriteGitHub(stdout, f.spec) // a workflow's failure names its file
	case "json":
		writeJSON(stdout, rep)
	default:
		rep.WriteSummary(stdout)
	}
	if f.junit != "" {
		if err := writeFile(f.junit, rep.WriteJUnit); err != nil {
			fmt.Fprintf(stderr, "plantmock verify: --junit: %v\n", err)
			return exitFailures
		}
	}
	if f.jsonOut != "" {
		err := writeFile(f.jsonOut, func(w io.Writer) error { return writeJSON(w, rep) })
		if err != nil {
			fmt.Fprintf(stderr, "plantmock verify: --json: %v\n", err)
			return exitFailures
		}
	}
	if !rep.OK() {
		return exitFailures
	}
	return exitOK
}

// authorization turns --auth's 'SCHEME VALUE' into an Authorization
// header: bearer and basic by their RFC's, any other scheme as given.
func authorization(a string) (string, error) {
	scheme, value, ok := strings.Cut(strings.TrimSpace(a), " ")
	value = strings.TrimSpace(value)
	if !ok || value == "" {
		return "", errors.New("want 'SCHEME VALUE', e.g. 'bearer TOKEN' or 'basic USER:PASSWORD'")
	}
	switch strings.ToLower(scheme) {
	case "bearer":
		return "Bearer " + value, nil
	case "basic":
		if !strings.Contains(value, ":") {
			return "", errors.New("basic wants USER:PASSWORD")
		}
		return "Basic " + base64.StdEncoding.EncodeToString([]byte(value)), nil
	}
	return scheme + " " + value, nil
}

// parseRate reads --rate's N/s or N/m as requests a second; "" is 0,
// no bound.
func parseRate(r string) (float64, error) {
	if r == "" {
		return 0, nil
	}
	n, unit, ok := strings.Cut(r, "/")
	per := map[string]float64{"s": 1, "m": 60}[unit]
	v, err := strconv.ParseFloat(n, 64)
	if !ok || per == 0 || err != nil || !(v > 0) || math.IsInf(v, 0) {
		return 0, errors.New("want N/s or N/m with N over 0, e.g. 10/s")
	}
	return v / per, nil
}

// writeFile writes a file with write, whole or not at all.
func writeFile(name string, write func(io.Writer) error) error {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	return os.WriteFile(name, b.Bytes(), 0o644)
}

// writeJSON writes the report as indented JSON.
func writeJSON(w io.Writer, rep *verify.Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}
