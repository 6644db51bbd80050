// Command plantmock serves an OpenAPI document (by default the Plant Store)
// as a validating, stateful mock.
//
//	plantmock [flags]                                  serve
//	plantmock check [--spec FILE] [--strict] [--scenarios DIR]  check without serving
//	plantmock health [--addr ADDR]                     exit 0 if a running mock is healthy
//	plantmock version                                  print the version
//
// Every flag can also be set with an environment variable PLANTMOCK_<NAME>
// (PLANTMOCK_ADDR, PLANTMOCK_SPEC; PLANTMOCK_TOKEN, PLANTMOCK_PROXY_ONLY,
// PLANTMOCK_MOCK_ONLY and PLANTMOCK_RECORD_REDACT with commas between
// values, ...); a flag wins over its variable.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/plantmock/plantmock/cmd/plantmock/internal/heapfloor" // lays the heap floor
	"github.com/plantmock/plantmock/internal/files"
	"github.com/plantmock/plantmock/mock"
)

// Exit codes.
const (
	exitOK    = 0
	exitError = 1 // the server failed while running
	exitUsage = 2 // bad flags or a document that cannot be served
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

type tokens []string

func (t *tokens) String() string { return strings.Join(*t, ",") }
func (t *tokens) Set(v string) error {
	*t = append(*t, v)
	return nil
}

// source is where the document and scenarios come from: the flags serve
// and check share.
type source struct {
	spec      string
	maxSpec   string // the largest document read, as parseSize reads it
	scenarios string
	strict    bool
}

func (src *source) define(fs *flag.FlagSet) {
	fs.StringVar(&src.spec, "spec", "", "OpenAPI 3.0 or 3.1 `file` to serve instead of the embedded Plant Store")
	fs.StringVar(&src.maxSpec, "max-spec", sizeText(mock.DefaultMaxSpecFile), "largest --spec document read, in bytes or with KiB/MiB/GiB")
	fs.BoolVar(&src.strict, "strict", false, "refuse a document with mistakes that would otherwise be left out with a warning (a parameter without a name, a schema keyword that is not valid JSON Schema)")
	fs.StringVar(&src.scenarios, "scenarios", "", "`directory` of scenario files (*.yaml) to load besides the shipped ones")
}

// options reads the document and scenario files into opts; it returns the
// name to use for the document in messages, and the scenario files that
// could not be parsed (the others are in opts).
func (src *source) options(opts *mock.Options) (name string, broken, err error) {
	name = "embedded Plant Store"
	opts.Strict = src.strict
	limit, err := parseSize(src.maxSpec)
	if err != nil {
		return name, nil, fmt.Errorf("--max-spec: %v", err)
	}
	if src.spec != "" {
		name = src.spec
		if opts.Spec, err = files.ReadPath(src.spec, limit); err != nil {
			if errors.Is(err, files.ErrTooLarge) {
				return name, nil, fmt.Errorf("cannot read --spec: %v (--max-spec raises the limit)", err)
			}
			return name, nil, fmt.Errorf("cannot read --spec: %v", err)
		}
	}
	if src.scenarios != "" {
		dir := files.DirFS(src.scenarios)
		if _, err := dir.ReadDir("."); err != nil {
			return name, nil, fmt.Errorf("cannot read --scenarios: %v", err)
		}
		scs, perr := mock.LoadScenarios(dir, ".")
		for _, sc := range scs {
			sc.File = filepath.Join(src.scenarios, sc.File)
		}
		if perr != nil {
			broken = errors.New(prefixPaths(perr, src.scenarios))
		}
		opts.Scenarios = scs
	}
	return name, broken, nil
}

// prefixPaths puts the scenario directory in front of the file names in
// LoadScenarios' messages, which are relative to it.
func prefixPaths(err error, dir string) string {
	dir = strings.TrimSuffix(dir, "/") + "/"
	lines := strings.Split(err.Error(), "\n")
	for i, l := range lines {
		lines[i] = dir + l
	}
	return strings.Join(lines, "\n")
}

// run is the whole program; it returns the exit code.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "check":
			return check(args[1:], getenv, stdout, stderr)
		case "health":
			return health(args[1:], getenv, stdout, stderr)
		case "report":
			return report(args[1:], getenv, stdout, stderr)
		case "version":
			fmt.Fprintf(stdout, "plantmock %s (%s)\n", mock.Version, runtime.Version())
			return exitOK
		}
	}
	lw := newLogWriter(stderr) // a request does not wait for its log line to be written
	defer lw.Close()
	stderr = lw
	fs := flag.NewFlagSet("plantmock", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var src source
	src.define(fs)
	var (
		addr      = fs.String("addr", "127.0.0.1:4010", "`host:port` to listen on (port 0 picks a free port)")
		scenario  = fs.String("scenario", "", "`name` of the scenario active for every request (X-Mock-Scenario overrides it)")
		seed      = fs.Int64("seed", 0, "seed for generated data; 0 picks a random one")
		maxBody   = fs.String("max-body", "1MiB", "largest request body accepted, in bytes or with KiB/MiB/GiB")
		logFormat = fs.String("log-format", "text", "log format: text or json")
		admin     = fs.Bool("admin", true, "serve the admin API under /__admin/")
		adminAddr = fs.String("admin-addr", "", "serve the admin API on this `host:port` instead of --addr")
		adminTok  = fs.String("admin-token", "", "bearer `token` every admin call needs")
		seedData  = fs.String("seed-data", "", "JSON `file` of resources to store at start: {\"/plants\": [...]}")
		cors      = fs.Bool("cors", true, "let browsers call the mock from any origin")
		maxSess   = fs.Int("max-sessions", mock.DefaultMaxSessions, "most X-Mock-Session sessions alive at once")
		maxRes    = fs.Int("max-resources", mock.DefaultMaxResources, "most resources stored in all sessions together")
		sessIdle  = fs.Duration("session-idle", mock.DefaultSessionIdle, "how long an unused session lives")
		storeURL  = fs.String("store", "", "keep state in Redis, shared by replicas: `redis://[user:password@]HOST:PORT/DB` (rediss:// for TLS); default: in memory")
		storePfx  = fs.String("store-prefix", "", "`prefix` of every Redis key (default \"plantmock:\" + the document's title and version)")
		storeWait = fs.Duration("store-wait", 0, "how long to wait at start for Redis to answer (0: fail at once)")
		storeTime = fs.Duration("store-timeout", mock.DefaultStoreTimeout, "deadline of each call to Redis; past it a request is answered 503")
		proxy     = fs.String("proxy", "", "forward what no scenario or Prefer answers to this real service `URL`, checking its answers against the document")
		proxyInv  = fs.String("proxy-invalid", "forward", "with --proxy, requests that break the document are: forward or refuse")
		record    = fs.String("record", "", "with --proxy, write what the real service answers to this `folder`: a scenario file per operation and seed-data.json")
		proxyTime = fs.Duration("proxy-timeout", mock.DefaultProxyTimeout, "with --proxy, how long an exchange with the real service may take (then 504)")
		hookTime  = fs.Duration("webhook-timeout", mock.DefaultWebhookTimeout, "how long one attempt to send a webhook or callback may take")
		hookRetry = fs.Int("webhook-retries", mock.DefaultWebhookRetries, "how many times a webhook or callback that failed (no connection, timeout, 5xx) is tried again")
		hookBack  = fs.Duration("webhook-backoff", mock.DefaultWebhookBackoff, "wait before the first retry of a webhook or callback; it doubles on each retry, with jitter")
		hookQueue = fs.Int("webhook-queue", mock.DefaultWebhookQueue, "most webhooks and callbacks under way at once; more are dropped with a log line")
		shutdown  = fs.Duration("shutdown-timeout", mock.ShutdownTimeout, "at shutdown, how long to wait for requests and then webhooks under way")
		journByte = fs.String("journal-bytes", "256MiB", "most bytes the journal keeps in all sessions together (each session an equal share), in bytes or with KiB/MiB/GiB")
		journCred = fs.String("journal-credentials", mock.CredentialsMasked, "how the journal keeps credentials (Authorization, cookies, API keys): masked (the scheme and the last 4 characters) or clear")
		watchOn   = fs.Bool("watch", false, "reload the --spec document, the --scenarios files and the --seed-data file when they change, keeping the store")
		toks      tokens
		hooks     tokens
		hookToks  tokens
		hookAllow tokens
		proxyOnly tokens
		mockOnly  tokens
		redact    tokens
		adminCORS tokens
		hostsOK   tokens
	)
	fs.Var(&adminCORS, "admin-cors", "let web pages of this `origin` (scheme://host[:port]) call the admin API (repeatable); by default only the dashboard can")
	fs.Var(&hostsOK, "allowed-host", "also answer admin calls sent to this host `name` (*.domain, or * for any; repeatable); by default IP addresses, localhost and the --addr host")
	fs.Var(&redact, "record-redact", "with --record, leave out this header, or write this body property as REDACTED (`name`; repeatable)")
	fs.Var(&proxyOnly, "proxy-only", "with --proxy, forward only this `operation` (\"GET /plants/{id}\"; repeatable); mock the others")
	fs.Var(&mockOnly, "mock-only", "with --proxy, mock this `operation` (repeatable); forward the others")
	fs.Var(&toks, "token", "accept only this bearer `token` (repeatable); default: any well-formed token")
	fs.Var(&hooks, "webhook", "send the document's webhook NAME to URL, in every session (`NAME=URL`; repeatable)")
	fs.Var(&hookToks, "webhook-token", "credential sent with webhook NAME, for the security it declares (`NAME=TOKEN`; repeatable)")
	fs.Var(&hookAllow, "webhook-allow", "`hosts` callbacks may be sent to: host, host:port, *.domain, loopback or * (comma-separated; default: loopback; the --webhook hosts always); link-local addresses only when named, never the mock's own listeners")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: plantmock [flags]\n       plantmock check [--spec FILE] [--strict] [--scenarios DIR] [--traffic HAR-FILE]\n       plantmock health [--addr HOST:PORT] [--admin-addr HOST:PORT] [--admin-token T]\n       plantmock report [--addr HOST:PORT] [--admin-addr HOST:PORT] [--admin-token T]\n       plantmock version\n\nServes an OpenAPI document as a validating, stateful mock.\nEvery flag can also be set with PLANTMOCK_<NAME> (e.g. PLANTMOCK_ADDR).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if code, ok := parse(fs, args, getenv, stderr); !ok {
		return code
	}
	var handler slog.Handler
	switch *logFormat {
	case "text", "json":
		handler = newLineHandler(stderr, *logFormat == "json")
	default:
		fmt.Fprintf(stderr, "plantmock: --log-format must be text or json, not %q\n", *logFormat)
		return exitUsage
	}
	limit, err := parseSize(*maxBody)
	if err != nil {
		fmt.Fprintf(stderr, "plantmock: --max-body: %v\n", err)
		return exitUsage
	}
	journalBytes, err := parseSize(*journByte)
	if err != nil {
		fmt.Fprintf(stderr, "plantmock: --journal-bytes: %v\n", err)
		return exitUsage
	}
	opts := mock.Options{Tokens: toks, Seed: *seed, MaxBody: limit, Logger: slog.New(handler), Scenario: *scenario,
		AdminToken: *adminTok, NoAdmin: !*admin || *adminAddr != "", CORS: *cors, LogRequests: true,
		MaxSessions: *maxSess, SessionIdle: *sessIdle, MaxResources: *maxRes, JournalCredentials: *journCred, JournalBytes: journalBytes,
		Store: *storeURL, StorePrefix: *storePfx, StoreWait: *storeWait, StoreTimeout: *storeTime,
		Proxy: *proxy, ProxyInvalid: *proxyInv, ProxyTimeout: *proxyTime, ProxyOnly: proxyOnly, MockOnly: mockOnly,
		Record: *record, RecordRedact: redact,
		WebhookTimeout: *hookTime, WebhookRetries: *hookRetry, WebhookBackoff: *hookBack, WebhookQueue: *hookQueue,
		ShutdownTimeout: *shutdown, AdminCORS: adminCORS, AllowedHosts: append(listenNames(*addr, *adminAddr), hostsOK...)}
	if *hookRetry == 0 {
		opts.WebhookRetries = -1 // none; 0 in Options is the default
	}
	if opts.Webhooks, err = subscribers(hooks, hookToks); err != nil {
		fmt.Fprintf(stderr, "plantmock: %v\n", err)
		return exitUsage
	}
	for _, a := range hookAllow {
		opts.WebhookAllow = append(opts.WebhookAllow, strings.Split(a, ",")...)
	}
	if *seedData != "" {
		if opts.SeedData, err = files.ReadPath(*seedData, mock.MaxSeedFile); err != nil {
			fmt.Fprintf(stderr, "plantmock: cannot read --seed-data: %v\n", err)
			return exitUsage
		}
	}
	srv, err := newServer(&src, opts, stderr)
	if err != nil {
		return exitUsage
	}
	defer srv.Close()
	if *watchOn {
		wt, err := newWatcher(srv, &src, *seedData, opts, opts.Logger)
		if err != nil {
			fmt.Fprintf(stderr, "plantmock: %v\n", err)
			return exitUsage
		}
		go wt.run(ctx)
	}
	var adminLn net.Listener
	if *admin && *adminAddr != "" {
		if adminLn, err = net.Listen("tcp", *adminAddr); err != nil {
			fmt.Fprintf(stderr, "plantmock: cannot listen on --admin-addr %s: %v\n", *adminAddr, err)
			return exitUsage
		}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "plantmock: cannot listen on %s: %v\n", *addr, err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "plantmock: serving %s on http://%s\n", srv.Title(), ln.Addr())
	errc := make(chan error, 2)
	if adminLn != nil {
		fmt.Fprintf(stdout, "plantmock: admin API on http://%s%s\n", adminLn.Addr(), mock.AdminPrefix)
		go func() { errc <- srv.ServeAdmin(ctx, adminLn) }()
	}
	code := exitOK
	if err := srv.Serve(ctx, ln); err != nil {
		fmt.Fprintf(stderr, "plantmock: %v\n", err)
		code = exitError
	}
	if adminLn != nil {
		if err := <-errc; err != nil {
			fmt.Fprintf(stderr, "plantmock: admin: %v\n", err)
			code = exitError
		}
	}
	return code
}

// newServer loads the document and scenarios and makes the mock; problems
// are written to stderr.
func newServer(src *source, opts mock.Options, stderr io.Writer) (*mock.Server, error) {
	name, broken, err := src.options(&opts)
	if err != nil {
		fmt.Fprintf(stderr, "plantmock: %v\n", err)
		return nil, err
	}
	srv, err := mock.New(opts)
	var se *mock.ScenarioError
	var ste *mock.StoreError
	var pe *mock.ProxyError
	var we *mock.WebhookError
	var oe *mock.OptionError
	switch {
	case errors.As(err, &ste) || errors.As(err, &pe) || errors.As(err, &we) || errors.As(err, &oe):
		fmt.Fprintf(stderr, "plantmock: --%v\n", err) // the flag's name starts the message
		return nil, err
	case err == nil && broken == nil:
		return srv, nil
	case err == nil || errors.As(err, &se):
		// Report unparsable files and scenarios that do not fit together.
		if srv != nil {
			srv.Close()
		}
		all := errors.Join(broken, err)
		fmt.Fprintf(stderr, "plantmock: scenarios do not fit %s:\n%v\n", name, all)
		return nil, all
	default:
		fmt.Fprintf(stderr, "plantmock: %s: %v\n", name, err)
		return nil, err
	}
}

// maxTrafficFile bounds the HAR file check --traffic reads.
const maxTrafficFile = 256 << 20

// check loads and checks the document and scenarios without serving, or
// judges recorded traffic against them.
func check(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("plantmock check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var src source
	src.define(fs)
	traffic := fs.String("traffic", "", "HAR `file` of recorded traffic to judge against the document (exit 1 when it breaks it)")
	if code, ok := parse(fs, args, getenv, stderr); !ok {
		return code
	}
	srv, err := newServer(&src, mock.Options{}, stderr)
	if err != nil {
		return exitUsage
	}
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
	mistakes := srv.Mistakes()
	if len(mistakes) == 0 {
		fmt.Fprintf(stdout, "plantmock: %s and scenarios %s are fine\n", srv.Title(), srv.ScenarioNames())
	} else {
		fmt.Fprintf(stdout, "plantmock: %s and scenarios %s are served, leaving out what these mistakes touch (--strict refuses them):\n", srv.Title(), srv.ScenarioNames())
	}
	for _, f := range mistakes {
		fmt.Fprintf(stdout, "plantmock: mistake: %s\n", f)
	}
	for _, w := range srv.Warnings() {
		fmt.Fprintf(stdout, "plantmock: caveat: %s\n", w)
	}
	return exitOK
}

// parse sets the flags from args, then the flags args did not set from
// the environment: a flag wins over its variable. When it reports false,
// the program ends with code.
func parse(fs *flag.FlagSet, args []string, getenv func(string) string, stderr io.Writer) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, false
		}
		return exitUsage, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q (see %s -h)\n", fs.Name(), fs.Arg(0), fs.Name())
		return exitUsage, false
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := fromEnv(fs, getenv, set); err != nil {
		fmt.Fprintf(stderr, "plantmock: %v\n", err)
		return exitUsage, false
	}
	return 0, true
}

// askAdmin is the part the commands that ask a running mock share: it
// reads their flags (the mock's address or admin address, its admin
// token) and calls GET path on its admin API. Without an answer, the
// problem is on stderr and code is the exit code.
func askAdmin(name, path string, args []string, getenv func(string) string, stderr io.Writer) (resp *http.Response, code int) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:4010", "`host:port` of the mock (its --admin-addr if it has one)")
	adminAddr := fs.String("admin-addr", "", "the mock's --admin-addr, which wins over --addr")
	token := fs.String("admin-token", "", "the mock's admin `token`")
	if code, ok := parse(fs, args, getenv, stderr); !ok {
		return nil, code
	}
	target := *addr
	if *adminAddr != "" {
		target = *adminAddr
	}
	host, port, err := net.SplitHostPort(target)
	if err != nil {
		fmt.Fprintf(stderr, "%s: bad address %q: %v\n", name, target, err)
		return nil, exitUsage
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	req, err := http.NewRequest("GET", "http://"+net.JoinHostPort(host, port)+path, nil)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return nil, exitUsage
	}
	if *token != "" {
		req.Header.Set("Authorization", "Bearer "+*token)
	}
	client := &http.Client{Timeout: 3 * time.Second}
	if resp, err = client.Do(req); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return nil, exitError
	}
	return resp, exitOK
}

// health asks a running mock's admin API whether it is healthy.
func health(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	resp, code := askAdmin("plantmock health", mock.AdminPrefix+"health", args, getenv, stderr)
	if resp == nil {
		return code
	}
	defer resp.Body.Close()
	var h struct{ Status, Version, Spec, Reason string }
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&h); err != nil || resp.StatusCode != http.StatusOK || h.Status != "ok" {
		why := h.Reason
		if why == "" {
			why = fmt.Sprintf("status %d %q", resp.StatusCode, h.Status)
		}
		fmt.Fprintf(stderr, "plantmock health: unhealthy: %s\n", why)
		return exitError
	}
	fmt.Fprintf(stdout, "plantmock health: ok, %s, plantmock %s\n", h.Spec, h.Version)
	return exitOK
}

// report prints a running mock's contract report; it exits 1 when an
// exchange broke the document.
func report(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	resp, code := askAdmin("plantmock report", mock.AdminPrefix+"contract", args, getenv, stderr)
	if resp == nil {
		return code
	}
	defer resp.Body.Close()
	var r mock.ContractReport
	if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<20)).Decode(&r); err != nil || resp.StatusCode != http.StatusOK {
		fmt.Fprintf(stderr, "plantmock report: the mock answered %d: %v\n", resp.StatusCode, err)
		return exitError
	}
	return printReport(&r, stdout)
}

// printReport prints a contract report and gives the exit code: 1 when
// an exchange broke the document.
func printReport(r *mock.ContractReport, stdout io.Writer) int {
	io.WriteString(stdout, r.Text())
	if !r.Clean("") {
		return exitError
	}
	return exitOK
}

// fromEnv sets every flag not in set that has a PLANTMOCK_<NAME> variable.
func fromEnv(fs *flag.FlagSet, getenv func(string) string, set map[string]bool) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		name := "PLANTMOCK_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		v := getenv(name)
		if v == "" || err != nil || set[f.Name] {
			return
		}
		vals := []string{v}
		if _, many := f.Value.(*tokens); many {
			vals = strings.Split(v, ",")
		}
		for _, x := range vals {
			if e := f.Value.Set(strings.TrimSpace(x)); e != nil {
				err = fmt.Errorf("%s=%q: %v", name, v, e)
			}
		}
	})
	return err
}

// subscribers reads --webhook NAME=URL and --webhook-token NAME=TOKEN,
// each split at its first "=" (webhook names may hold any other
// character).
func subscribers(hooks, toks []string) (map[string]mock.Subscriber, error) {
	if len(hooks) == 0 && len(toks) == 0 {
		return nil, nil
	}
	out := map[string]mock.Subscriber{}
	for _, h := range hooks {
		name, u, ok := strings.Cut(h, "=")
		if !ok || name == "" || u == "" {
			return nil, fmt.Errorf("--webhook %q: write it as NAME=URL", h)
		}
		sub := out[name]
		sub.URL = u
		out[name] = sub
	}
	for _, t := range toks {
		name, tok, ok := strings.Cut(t, "=")
		if !ok || name == "" {
			return nil, errors.New("--webhook-token: write it as NAME=TOKEN")
		}
		sub, known := out[name]
		if !known {
			return nil, fmt.Errorf("--webhook-token %s: no --webhook %s=URL to send it with", name, name)
		}
		sub.Token = tok
		out[name] = sub
	}
	return out, nil
}

// listenNames returns the host names (not addresses) of the listen
// addresses given, which the admin API answers calls to as it does to its
// IP addresses.
func listenNames(addrs ...string) []string {
	var names []string
	for _, a := range addrs {
		if host, _, err := net.SplitHostPort(a); err == nil && host != "" && net.ParseIP(host) == nil {
			names = append(names, host)
		}
	}
	return names
}

// sizeText writes a size as parseSize reads it, in MiB when it is a whole
// number of them.
func sizeText(n int64) string {
	if n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + "MiB"
	}
	return strconv.FormatInt(n, 10)
}

// parseSize reads 1048576, 512KiB, 1MiB or 1GiB.
func parseSize(s string) (int64, error) {
	mult := int64(1)
	num := s
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"B", 1}} {
		if strings.HasSuffix(s, u.suffix) {
			num, mult = strings.TrimSuffix(s, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if err != nil || n <= 0 || n > (1<<40)/mult {
		return 0, fmt.Errorf("%q is not a size (e.g. 1048576, 512KiB, 1MiB)", s)
	}
	return n * mult, nil
}
