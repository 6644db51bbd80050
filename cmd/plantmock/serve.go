package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"github.com/plantmock/plantmock/internal/accepting"
	"github.com/plantmock/plantmock/internal/files"
	"github.com/plantmock/plantmock/mock"
)

// needs lists the flags that mean something only beside another: given
// without it, they are refused rather than ignored.
var needs = []struct{ flag, on string }{
	{"proxy-invalid", "proxy"}, {"proxy-only", "proxy"}, {"mock-only", "proxy"}, {"proxy-timeout", "proxy"}, {"record", "proxy"},
	{"record-redact", "record"},
	{"store-prefix", "store"}, {"store-wait", "store"}, {"store-timeout", "store"},
}

// defineServe defines the mock's flags and returns what serves with them.
func defineServe(fs *flag.FlagSet) runner { return defineServeWith(fs, nil) }

// defineMCP defines the mcp command: the mock's flags, and what serves
// with them while it speaks MCP on standard input and output.
func defineMCP(fs *flag.FlagSet) runner { return defineServeWith(fs, os.Stdin) }

// defineServeWith defines the mock's flags and returns what serves with
// them; with stdin, it also speaks MCP on stdin and stdout until the
// client closes stdin, then stops, and writes its own lines to stderr.
func defineServeWith(fs *flag.FlagSet, stdin io.ReadCloser) runner {
	var f serveFlags
	f.define(fs)
	return func(ctx context.Context, set given, env environment, stdout, stderr io.Writer) int {
		var mcpOut io.Writer
		stop := func() {}
		if stdin != nil {
			// The client closing stdin stops the mock, its listeners all.
			mcpOut, stdout = stdout, stderr
			ctx, stop = context.WithCancel(ctx)
			defer stop()
		}
		warnUnknown(env, stderr)
		for _, n := range needs {
			if set[n.flag] != "" && set[n.on] == "" {
				commands()[0].usageError(stderr, fmt.Sprintf("%s needs --%s", set[n.flag], n.on))
				return exitUsage
			}
		}
		lw := newLogWriter(stderr) // a request does not wait for its log line to be written
		defer lw.Close()
		stderr = lw
		opts, err := f.options(set, slog.New(newLineHandler(stderr, f.logFormat.value == "json")))
		if err != nil {
			commands()[0].usageError(stderr, err.Error())
			return exitUsage
		}
		if f.journFile != "" {
			jf, err := openJournalFile(f.journFile, int64(f.journMax), opts.Logger)
			if err != nil {
				fmt.Fprintf(stderr, "plantmock: cannot open --journal-file: %v\n", err)
				return exitUsage
			}
			defer jf.Close() // after the mock's Close, deferred below
			opts.Observe = jf.observe
		}
		srv := f.start(ctx, opts, set, stderr)
		if srv == nil {
			return exitUsage
		}
		defer srv.Close()
		adminLn, ln, ok := f.listen(stderr)
		if !ok {
			return exitUsage
		}
		errc := make(chan error, 2)
		if adminLn != nil && !serveAdminFirst(ctx, srv, adminLn, errc, stderr) {
			return exitError
		}
		fmt.Fprintf(stdout, "plantmock: serving %s on %s\n", f.src.title(srv), openURL(ln.Addr()))
		if adminLn != nil {
			fmt.Fprintf(stdout, "plantmock: admin API on %s%s\n", openURL(adminLn.Addr()), mock.AdminPrefix)
		}
		code := exitOK
		mcpDone := make(chan error, 1)
		if stdin != nil {
			go func() {
				err := mock.ServeMCP(ctx, srv, opts.Admin.MCP, stdin, nopCloser{mcpOut})
				stop() // the client is gone: so is the mock
				mcpDone <- err
			}()
		}
		if err := srv.Serve(ctx, ln); err != nil {
			fmt.Fprintf(stderr, "plantmock: %v\n", err)
			code = exitError
		}
		if stdin != nil {
			if err := <-mcpDone; err != nil {
				fmt.Fprintf(stderr, "plantmock: mcp: %v\n", err)
				code = exitError
			}
		}
		if adminLn != nil {
			if err := <-errc; err != nil {
				fmt.Fprintf(stderr, "plantmock: admin: %v\n", err)
				code = exitError
			}
		}
		return code
	}
}

// serveFlags are the mock's flags, which serve and mcp share.
type serveFlags struct {
	src                                                     source
	addr, scenario, seedData, adminAddr, adminTok, previous string
	storeURL, storePfx, proxy, record, journFile            string
	seed                                                    int64
	maxBody, journBytes                                     size
	journMax                                                bound
	logFormat, proxyInv, journCred                          *choice
	admin, cors, streamFld, watch                           bool
	maxSess, maxRes, hookRetry, hookQueue                   int
	sessIdle, storeWait, storeTime, proxyTime               time.Duration
	hookTime, hookBack, shutdown                            time.Duration
	toks, adminCORS, hostsOK, prefer                        tokens
	proxyOnly, mockOnly, redact, hooks, hookToks, hookAllow tokens
}

// define defines the mock's flags on fs, a group at a time.
func (f *serveFlags) define(fs *flag.FlagSet) {
	f.src.define(fs)
	f.defineServing(fs)
	f.defineAdmin(fs)
	f.defineState(fs)
	f.defineProxy(fs)
	f.defineWebhooks(fs)
}

// defineServing defines the flags of what is served, where and how.
func (f *serveFlags) defineServing(fs *flag.FlagSet) {
	fs.StringVar(&f.addr, "addr", "127.0.0.1:4010", "`host:port` to listen on (port 0 picks a free port)")
	fs.StringVar(&f.scenario, "scenario", "", "`name` of the scenario active for every request (X-Mock-Scenario overrides it)")
	fs.BoolVar(&f.cors, "cors", true, "let browsers call the mock from any origin")
	fs.BoolVar(&f.streamFld, "stream-field", true, "where an operation answers JSON and a stream, a request body with \"stream\": true gets the stream whatever its Accept says")
	fs.DurationVar(&f.shutdown, "shutdown-timeout", mock.DefaultShutdownTimeout, "at shutdown, how long to wait for requests and then webhooks under way")
	fs.BoolVar(&f.watch, "watch", false, "reload the --spec document, the --scenarios files and the --seed-data file when they change, keeping the store")
	fs.StringVar(&f.previous, "previous-spec", "", "the version of the one --spec document clients use now (`file`): a request --spec refuses and it accepts is answered as --spec says, its journal entry's drift saying so")
	f.maxBody = size(1 << 20)
	fs.Var(&f.maxBody, "max-body", "largest request body accepted: a `size` in bytes or with KiB/MiB/GiB")
	f.logFormat = newChoice("text", "json")
	fs.Var(f.logFormat, "log-format", "log `format`: text or json")
	fs.Var(&f.prefer, "prefer", "`preferences` every request to the API has, as a Prefer header writes them (dynamic=true, seed=7; repeatable); a request's own Prefer header wins, name by name")
	fs.Var(&f.toks, "token", "accept only this bearer `token` (repeatable); default: any well-formed token")
}

// defineAdmin defines the flags of the admin API.
func (f *serveFlags) defineAdmin(fs *flag.FlagSet) {
	fs.BoolVar(&f.admin, "admin", true, "serve the admin API under /__admin/")
	fs.StringVar(&f.adminAddr, "admin-addr", "", "serve the admin API on this `host:port` instead of --addr")
	fs.StringVar(&f.adminTok, "admin-token", "", "bearer `token` every admin call needs (the health call says more with it)")
	fs.Var(&f.adminCORS, "admin-cors", "let web pages of this `origin` (scheme://host[:port]) call the admin API (repeatable); by default only the dashboard can")
	fs.Var(&f.hostsOK, "allowed-host", "also answer admin calls sent to this host `name` (*.domain, or * for any; repeatable); by default IP addresses, localhost and the --addr host")
}

// defineState defines the flags of what the mock keeps: generated data,
// sessions, the store and the journal.
func (f *serveFlags) defineState(fs *flag.FlagSet) {
	fs.Int64Var(&f.seed, "seed", 0, "seed for generated data; 0 picks a random one")
	fs.StringVar(&f.seedData, "seed-data", "", "JSON `file` of resources to store at start: {\"/plants\": [...]}")
	fs.IntVar(&f.maxSess, "max-sessions", mock.DefaultMaxSessions, "most X-Mock-Session sessions alive at once")
	fs.IntVar(&f.maxRes, "max-resources", mock.DefaultMaxResources, "most resources stored in all sessions together")
	fs.DurationVar(&f.sessIdle, "session-idle", mock.DefaultSessionIdle, "how long an unused session lives")
	fs.StringVar(&f.storeURL, "store", "", "keep state in Redis, shared by replicas: `redis://[user:password@]HOST:PORT/DB` (rediss:// for TLS); default: in memory")
	fs.StringVar(&f.storePfx, "store-prefix", "", "with --store, the `prefix` of every Redis key (default \"plantmock:\" + the document's title and version)")
	fs.DurationVar(&f.storeWait, "store-wait", 0, "with --store, how long to wait at start for Redis to answer (0: fail at once)")
	fs.DurationVar(&f.storeTime, "store-timeout", mock.DefaultStoreTimeout, "with --store, the deadline of each call to Redis; past it a request is answered 503")
	f.journBytes = size(256 << 20)
	fs.Var(&f.journBytes, "journal-bytes", "most bytes the journal keeps in all sessions together (each session an equal share): a `size` in bytes or with KiB/MiB/GiB")
	f.journCred = newChoice(mock.CredentialsMasked, mock.CredentialsClear)
	fs.Var(f.journCred, "journal-credentials", "how the journal keeps credentials (Authorization, cookies, API keys), its `mode`: masked (the scheme and the last 4 characters) or clear")
	fs.StringVar(&f.journFile, "journal-file", "", "also append every journal entry, of every session, to this `file` (created with mode 0600; a JSON object a line, as GET /__admin/requests writes each), for check --traffic and diff --traffic")
	f.journMax = bound(100 << 20)
	fs.Var(&f.journMax, "journal-file-max", "once --journal-file would pass this `size` (in bytes or with KiB/MiB/GiB), it is moved to FILE.1 (replacing it) and a new one started; 0 for no bound")
}

// defineProxy defines the flags of forwarding to a real service and
// recording its answers.
func (f *serveFlags) defineProxy(fs *flag.FlagSet) {
	fs.StringVar(&f.proxy, "proxy", "", "forward what no scenario or Prefer answers to this real service `URL`, checking its answers against the document")
	f.proxyInv = newChoice("forward", "refuse")
	fs.Var(f.proxyInv, "proxy-invalid", "with --proxy, what is done with requests that break the document, an `action`: forward or refuse")
	fs.Var(&f.proxyOnly, "proxy-only", "with --proxy, forward only this `operation` (\"GET /plants/{id}\"; repeatable); mock the others")
	fs.Var(&f.mockOnly, "mock-only", "with --proxy, mock this `operation` (repeatable); forward the others")
	fs.DurationVar(&f.proxyTime, "proxy-timeout", mock.DefaultProxyTimeout, "with --proxy, how long an exchange with the real service may take (then 504)")
	fs.StringVar(&f.record, "record", "", "with --proxy, write what the real service answers to this `folder`: a scenario file per operation and seed-data.json")
	fs.Var(&f.redact, "record-redact", "with --record, leave out this header, or write this body property as REDACTED (`name`; repeatable)")
}

// defineWebhooks defines the flags of sending webhooks and callbacks.
func (f *serveFlags) defineWebhooks(fs *flag.FlagSet) {
	fs.Var(&f.hooks, "webhook", "send the document's webhook NAME to URL, in every session (`NAME=URL`; repeatable)")
	fs.Var(&f.hookToks, "webhook-token", "with --webhook, the credential sent with webhook NAME, for the security it declares (`NAME=TOKEN`; repeatable)")
	fs.Var(&f.hookAllow, "webhook-allow", "`hosts` callbacks may be sent to: host, host:port, *.domain, loopback or * (comma-separated; default: loopback; the --webhook hosts always); link-local addresses only when named, never the mock's own listeners")
	fs.DurationVar(&f.hookTime, "webhook-timeout", mock.DefaultWebhookTimeout, "how long one attempt to send a webhook or callback may take")
	fs.IntVar(&f.hookRetry, "webhook-retries", mock.DefaultWebhookRetries, "how many times a webhook or callback that failed (no connection, timeout, 5xx) is tried again")
	fs.DurationVar(&f.hookBack, "webhook-backoff", mock.DefaultWebhookBackoff, "wait before the first retry of a webhook or callback; it doubles on each retry, with jitter")
	fs.IntVar(&f.hookQueue, "webhook-queue", mock.DefaultWebhookQueue, "most webhooks and callbacks under way at once; more are dropped with a log line")
}

// options turns the flags into the mock's options, logging to logger;
// an error is a usage problem of the webhook flags.
func (f *serveFlags) options(set given, logger *slog.Logger) (mock.Options, error) {
	if err := f.inRange(set); err != nil {
		return mock.Options{}, err
	}
	opts := mock.Options{
		Scenario: f.scenario, Tokens: f.toks, Seed: f.seed, CORS: f.cors, IgnoreStreamField: !f.streamFld,
		Prefer:  strings.Join(f.prefer, ", "),
		Limits:  mock.Limits{MaxBody: int64(f.maxBody), MaxResources: f.maxRes, MaxSessions: f.maxSess, SessionIdle: f.sessIdle},
		Journal: mock.JournalOptions{Bytes: int64(f.journBytes), Credentials: f.journCred.value},
		Admin: mock.AdminOptions{Token: f.adminTok, CORS: f.adminCORS, Disabled: !f.admin || f.adminAddr != "",
			AllowedHosts: append(listenNames(f.addr, f.adminAddr), f.hostsOK...)},
		Store: mock.StoreOptions{URL: f.storeURL, Prefix: f.storePfx, Wait: f.storeWait, Timeout: f.storeTime},
		Proxy: mock.ProxyOptions{URL: f.proxy, Invalid: f.proxyInv.value, Only: f.proxyOnly, MockOnly: f.mockOnly, Timeout: f.proxyTime,
			Record: f.record, RecordRedact: f.redact},
		Webhooks:        mock.WebhookOptions{Timeout: f.hookTime, Retries: f.hookRetry, Backoff: f.hookBack, Queue: f.hookQueue},
		ShutdownTimeout: f.shutdown, LogRequests: true, Logger: logger,
	}
	opts.Admin.MCP = mcpTools()
	opts.Admin.MCP.MaxDocument = int64(f.src.maxSpec)
	if f.hookRetry == 0 {
		opts.Webhooks.Retries = -1 // none; 0 in Options is the default
	}
	var err error
	if f.previous != "" {
		if specs, _ := f.src.parsed(); len(specs) > 1 || len(specs) == 1 && specs[0].Base != "" {
			return opts, fmt.Errorf("%s goes with one document, --spec FILE, not several or one at a base path", set.name("previous-spec"))
		}
		if opts.PreviousSpec, err = files.ReadDocument(f.previous, int64(f.src.maxSpec)); err != nil {
			return opts, fmt.Errorf("cannot read %s: %v", set.name("previous-spec"), err)
		}
	}
	if opts.Webhooks.Subscribers, err = subscribers(f.hooks, f.hookToks, set); err != nil {
		return opts, err
	}
	for _, a := range f.hookAllow {
		opts.Webhooks.Allow = append(opts.Webhooks.Allow, strings.Split(a, ",")...)
	}
	return opts, nil
}

// inRange refuses a numeric or duration flag outside its range, naming
// it as set says it was given. A count of 0 or a duration of 0 would be
// read by mock.Options as its default, so only the flags whose 0 means
// something (--webhook-retries: none; --store-wait: fail at once;
// --seed: a random one) take it; see docs/flags.md.
func (f *serveFlags) inRange(set given) error {
	for _, c := range []struct {
		flag  string
		value any
		bad   bool
		want  string
	}{
		{"max-sessions", f.maxSess, f.maxSess < 1, "1 or more"},
		{"max-resources", f.maxRes, f.maxRes < 1, "1 or more"},
		{"session-idle", f.sessIdle, f.sessIdle <= 0, "a duration over 0"},
		{"store-wait", f.storeWait, f.storeWait < 0, "0 or more"},
		{"store-timeout", f.storeTime, f.storeTime <= 0, "a duration over 0"},
		{"proxy-timeout", f.proxyTime, f.proxyTime <= 0, "a duration over 0"},
		{"webhook-timeout", f.hookTime, f.hookTime <= 0, "a duration over 0"},
		{"webhook-retries", f.hookRetry, f.hookRetry < 0, "0 or more"},
		{"webhook-backoff", f.hookBack, f.hookBack <= 0, "a duration over 0"},
		{"webhook-queue", f.hookQueue, f.hookQueue < 1, "1 or more"},
		{"shutdown-timeout", f.shutdown, f.shutdown <= 0, "a duration over 0"},
	} {
		if c.bad {
			return fmt.Errorf("%s %v: want %s", set.name(c.flag), c.value, c.want)
		}
	}
	return nil
}

// start makes the mock of opts, seeds it with --seed-data and, with
// --watch, watches its files. It returns nil when it cannot, said on
// stderr.
func (f *serveFlags) start(ctx context.Context, opts mock.Options, set given, stderr io.Writer) *mock.Server {
	var seeds []byte
	if f.seedData != "" {
		var err error
		if seeds, err = files.ReadPath(f.seedData, mock.MaxSeedFile); err != nil {
			fmt.Fprintf(stderr, "plantmock: cannot read --seed-data: %v\n", err)
			return nil
		}
	}
	srv, err := newServer(&f.src, opts, set, stderr)
	if err != nil {
		return nil
	}
	if seeds != nil {
		// Seeded here rather than by New, so that the message names the file.
		if err := srv.SeedData(seeds); err != nil {
			fmt.Fprintf(stderr, "plantmock: --seed-data %s: %s\n", f.seedData, strings.TrimPrefix(err.Error(), "seed data: "))
			srv.Close()
			return nil
		}
	}
	if f.watch {
		wt, err := newWatcher(srv, &f.src, f.seedData, opts, opts.Logger)
		if err != nil {
			fmt.Fprintf(stderr, "plantmock: %v\n", err)
			srv.Close()
			return nil
		}
		go wt.run(ctx)
	}
	return srv
}

// listen listens on --admin-addr (with the admin API on; nil otherwise)
// and --addr, and reports false when it cannot, said on stderr.
func (f *serveFlags) listen(stderr io.Writer) (adminLn, ln net.Listener, ok bool) {
	var err error
	if f.admin && f.adminAddr != "" {
		if adminLn, err = net.Listen("tcp", f.adminAddr); err != nil {
			fmt.Fprintf(stderr, "plantmock: cannot listen on --admin-addr %s: %v\n", f.adminAddr, err)
			return nil, nil, false
		}
	}
	if ln, err = net.Listen("tcp", f.addr); err != nil {
		fmt.Fprintf(stderr, "plantmock: cannot listen on %s: %v\n", f.addr, err)
		return nil, nil, false
	}
	return adminLn, ln, true
}

// serveAdminFirst serves the admin API on adminLn, sending how it ended
// to errc, and returns once it accepts; false when it failed first.
//
// The admin listener is served before the API answers anything: a
// callback an early create caused would otherwise be sent before the
// mock knew the admin address for its own, and could reset it.
func serveAdminFirst(ctx context.Context, srv *mock.Server, adminLn net.Listener, errc chan error, stderr io.Writer) bool {
	serving := accepting.New(adminLn)
	go func() { errc <- srv.ServeAdmin(ctx, serving) }()
	select {
	case <-serving.First():
		return true
	case err := <-errc:
		fmt.Fprintf(stderr, "plantmock: admin: %v\n", err)
		return false
	}
}

// openURL is the URL a user can open for a listener's address: one on
// every interface (0.0.0.0, [::]) is reached at localhost, and says so.
func openURL(a net.Addr) string {
	ta, ok := a.(*net.TCPAddr)
	if ok && ta.IP.IsUnspecified() {
		return fmt.Sprintf("http://localhost:%d (every interface)", ta.Port)
	}
	return "http://" + a.String()
}
