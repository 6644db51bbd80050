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

	"github.com/plantmock/plantmock/internal/files"
	"github.com/plantmock/plantmock/mock"
	"github.com/plantmock/plantmock/mock/verify"
)

// exitFailures is verify's exit code when the service breaks the
// document.
const exitFailures = 1

// defineVerify defines verify's flags and returns what verifies the
// service at --target against the document.
func defineVerify(fs *flag.FlagSet) runner { return defineVerifyWith(fs, files.ReadPath) }

// defineVerifyWith is defineVerify reading --spec with read: the MCP
// endpoint's verify reads the served document instead of a file, and
// keeps every other check of the flags.
func defineVerifyWith(fs *flag.FlagSet, read func(name string, max int64) ([]byte, error)) runner {
	target := fs.String("target", "", "base `URL` of the service to verify (required), e.g. http://127.0.0.1:8080/api")
	spec := fs.String("spec", "", "OpenAPI 3.0, 3.1 or 3.2 `file` the service keeps; by default the embedded Plant Store")
	maxSpec := size(mock.DefaultMaxSpecFile)
	fs.Var(&maxSpec, "max-spec", "largest --spec document read: a `size` in bytes or with KiB/MiB/GiB")
	auth := fs.String("auth", "", "credentials sent with every request, as `'SCHEME VALUE'`: 'bearer TOKEN', 'basic USER:PASSWORD', or any other scheme as it is")
	var headers, creds, only, skip tokens
	fs.Var(&headers, "header", "`'NAME: VALUE'` sent with every request, replacing what verify would send (repeatable)")
	fs.Var(&creds, "credential", "credentials of one security scheme, as `SCHEME=VALUE` (SCHEME a key of components.securitySchemes): a bearer token, basic or digest USER:PASSWORD, an API key (repeatable)")
	fs.Var(&only, "only", "verify only this `operation`, by operationId or as 'METHOD /path' (repeatable)")
	fs.Var(&skip, "skip", "leave out this `operation`, by operationId or as 'METHOD /path' (repeatable)")
	noDestructive := fs.Bool("no-destructive", false, "leave out DELETE, PUT and PATCH operations")
	dryRun := fs.Bool("dry-run", false, "list the requests as curl lines without sending them")
	maxRequests := fs.Int("max-requests", 0, "stop after this many requests; 0 means no bound")
	rate := fs.String("rate", "", "send at most this many requests, evenly spaced, as `N/s` or N/m; by default no bound")
	duration := fs.Duration("duration", 0, "stop once this much time has passed; 0 means no bound")
	seed := fs.Uint64("seed", 1, "seed of the generated values: the same seed and document send the same requests")
	assertFormats := fs.Bool("assert-formats", false, "hold the service to formats (date, uuid, email, ...): a value breaking one is a failure, not advice")
	timeout := fs.Duration("timeout", verify.DefaultTimeout, "longest an answer may take; a slower one is a failure")
	streamItems := fs.Int("stream-items", verify.DefaultStreamItems, "read at most this many items of a stream (server-sent events, JSON Lines, ...) and judge those")
	streamTime := fs.Duration("stream-time", verify.DefaultStreamTime, "read a stream for at most this long after its headers and judge what came")
	junit := fs.String("junit", "", "write the checks as JUnit XML to this `file`")
	jsonOut := fs.String("json", "", "write the report as JSON to this `file`")
	format := newChoice("text", "github", "json")
	fs.Var(format, "format", "what stdout gets: text (the summary), github (an annotation per failure and advice at the document's line, then the summary) or json (the report)")
	return func(ctx context.Context, _ given, env environment, stdout, stderr io.Writer) int {
		warnUnknown(env, stderr)
		usage := func(format string, args ...any) int {
			fmt.Fprintf(stderr, "plantmock verify: %s; run plantmock verify --help\n", fmt.Sprintf(format, args...))
			return exitUsage
		}
		if *target == "" {
			return usage("--target is required: the base URL of the service to verify")
		}
		if *maxRequests < 0 {
			return usage("--max-requests %d: want 0 or more", *maxRequests)
		}
		if *timeout <= 0 {
			return usage("--timeout %s: want a duration over 0", *timeout)
		}
		if *streamItems <= 0 {
			return usage("--stream-items %d: want 1 or more", *streamItems)
		}
		if *streamTime <= 0 {
			return usage("--stream-time %s: want a duration over 0", *streamTime)
		}
		if *duration < 0 {
			return usage("--duration %s: want 0 or more", *duration)
		}
		perSecond, err := parseRate(*rate)
		if err != nil {
			return usage("--rate %q: %v", *rate, err)
		}
		opts := verify.Options{Only: only, Skip: skip, NoDestructive: *noDestructive, DryRun: *dryRun,
			MaxRequests: *maxRequests, Rate: perSecond, Duration: *duration, Seed: *seed, Timeout: *timeout, AssertFormats: *assertFormats, Header: http.Header{},
			StreamItems: *streamItems, StreamTime: *streamTime}
		for _, h := range headers {
			name, value, ok := strings.Cut(h, ":")
			name = strings.TrimSpace(name)
			if !ok || name == "" || strings.ContainsAny(name, " \t") {
				return usage("--header %q: want 'NAME: VALUE'", h)
			}
			opts.Header.Add(textproto.CanonicalMIMEHeaderKey(name), strings.TrimSpace(value))
		}
		for _, c := range creds {
			name, value, ok := strings.Cut(c, "=")
			if !ok || name == "" || value == "" {
				return usage("--credential %q: want SCHEME=VALUE", c)
			}
			if opts.Credentials == nil {
				opts.Credentials = map[string]string{}
			}
			if _, dup := opts.Credentials[name]; dup {
				return usage("--credential %q: %s is given twice", c, name)
			}
			opts.Credentials[name] = value
		}
		if *auth != "" {
			a, err := authorization(*auth)
			if err != nil {
				return usage("--auth: %v", err)
			}
			opts.Header.Set("Authorization", a)
		}
		var data []byte
		if *spec != "" {
			var err error
			if data, err = read(*spec, int64(maxSpec)); err != nil {
				return usage("cannot read --spec: %v", err)
			}
		}
		rep, err := verify.Run(ctx, data, *target, opts)
		if err != nil {
			fmt.Fprintf(stderr, "plantmock verify: %s\n", strings.TrimPrefix(err.Error(), "verify: "))
			if ctx.Err() != nil {
				return exitFailures
			}
			return exitUsage
		}
		switch format.String() {
		case "github":
			rep.WriteGitHub(stdout, *spec)
		case "json":
			writeJSON(stdout, rep)
		default:
			rep.WriteSummary(stdout)
		}
		if *junit != "" {
			if err := writeFile(*junit, rep.WriteJUnit); err != nil {
				fmt.Fprintf(stderr, "plantmock verify: --junit: %v\n", err)
				return exitFailures
			}
		}
		if *jsonOut != "" {
			err := writeFile(*jsonOut, func(w io.Writer) error { return writeJSON(w, rep) })
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
