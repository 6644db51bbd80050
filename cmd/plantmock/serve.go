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
	"sync"

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
	var src source
	src.define(fs)
	var (
		addr      = fs.String("addr", "127.0.0.1:4010", "`host:port` to listen on (port 0 picks a free port)")
		scenario  = fs.String("scenario", "", "`name` of the scenario active for every request (X-Mock-Scenario overrides it)")
		seed      = fs.Int64("seed", 0, "seed for generated data; 0 picks a random one")
		maxBody   = size(1 << 20)
		logFormat = newChoice("text", "json")
		admin     = fs.Bool("admin", true, "serve the admin API under /__admin/")
		adminAddr = fs.String("admin-addr", "", "serve the admin API on this `host:port` instead of --addr")
		adminTok  = fs.String("admin-token", "", "bearer `token` every admin call needs (the health call says more with it)")
		seedData  = fs.String("seed-data", "", "JSON `file` of resources to store at start: {\"/plants\": [...]}")
		cors      = fs.Bool("cors", true, "let browsers call the mock from any origin")
		streamFld = fs.Bool("stream-field", true, "where an operation answers JSON and a stream, a request body with \"stream\": true gets the stream whatever its Accept says")
		maxSess   = fs.Int("max-sessions", mock.DefaultMaxSessions, "most X-Mock-Session sessions alive at once")
		maxRes    = fs.Int("max-resources", mock.DefaultMaxResources, "most resources stored in all sessions together")
		sessIdle  = fs.Duration("session-idle", mock.DefaultSessionIdle, "how long an unused session lives")
		storeURL  = fs.String("store", "", "keep state in Redis, shared by replicas: `redis://[user:password@]HOST:PORT/DB` (rediss:// for TLS); default: in memory")
		storePfx  = fs.String("store-prefix", "", "with --store, the `prefix` of every Redis key (default \"plantmock:\" + the document's title and version)")
		storeWait = fs.Duration("store-wait", 0, "with --store, how long to wait at start for Redis to answer (0: fail at once)")
		storeTime = fs.Duration("store-timeout", mock.DefaultStoreTimeout, "with --store, the deadline of each call to Redis; past it a request is answered 503")
		proxy     = fs.String("proxy", "", "forward what no scenario or Prefer answers to this real service `URL`, checking its answers against the document")
		proxyInv  = newChoice("forward", "refuse")
		record    = fs.String("record", "", "with --proxy, write what the real service answers to this `folder`: a scenario file per operation and seed-data.json")
		proxyTime = fs.Duration("proxy-timeout", mock.DefaultProxyTimeout, "with --proxy, how long an exchange with the real service may take (then 504)")
		hookTime  = fs.Duration("webhook-timeout", mock.DefaultWebhookTimeout, "how long one attempt to send a webhook or callback may take")
		hookRetry = fs.Int("webhook-retries", mock.DefaultWebhookRetries, "how many times a webhook or callback that failed (no connection, timeout, 5xx) is tried again")
		hookBack  = fs.Duration("webhook-backoff", mock.DefaultWebhookBackoff, "wait before the first retry of a webhook or callback; it doubles on each retry, with jitter")
		hookQueue = fs.Int("webhook-queue", mock.DefaultWebhookQueue, "most webhooks and callbacks under way at once; more are dropped with a log line")
		shutdown  = fs.Duration("shutdown-timeout", mock.DefaultShutdownTimeout, "at shutdown, how long to wait for requests and then webhooks under way")
		journByte = size(256 << 20)
		journCred = newChoice(mock.CredentialsMasked, mock.CredentialsClear)
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
	fs.Var(&maxBody, "max-body", "largest request body accepted: a `size` in bytes or with KiB/MiB/GiB")
	fs.Var(logFormat, "log-format", "log `format`: text or json")
	fs.Var(proxyInv, "proxy-invalid", "with --proxy, what is done with requests that break the document, an `action`: forward or refuse")
	fs.Var(&journByte, "journal-bytes", "most bytes the journal keeps in all sessions together (each session an equal share): a `size` in bytes or with KiB/MiB/GiB")
	fs.Var(journCred, "journal-credentials", "how the journal keeps credentials (Authorization, cookies, API keys), its `mode`: masked (the scheme and the last 4 characters) or clear")
	fs.Var(&adminCORS, "admin-cors", "let web pages of this `origin` (scheme://host[:port]) call the admin API (repeatable); by default only the dashboard can")
	fs.Var(&hostsOK, "allowed-host", "also answer admin calls sent to this host `name` (*.domain, or * for any; repeatable); by default IP addresses, localhost and the --addr host")
	fs.Var(&redact, "record-redact", "with --record, leave out this header, or write this body property as REDACTED (`name`; repeatable)")
	fs.Var(&proxyOnly, "proxy-only", "with --proxy, forward only this `operation` (\"GET /plants/{id}\"; repeatable); mock the others")
	fs.Var(&mockOnly, "mock-only", "with --proxy, mock this `operation` (repeatable); forward the others")
	fs.Var(&toks, "token", "accept only this bearer `token` (repeatable); default: any well-formed token")
	fs.Var(&hooks, "webhook", "send the document's webhook NAME to URL, in every session (`NAME=URL`; repeatable)")
	fs.Var(&hookToks, "webhook-token", "with --webhook, the credential sent with webhook NAME, for the security it declares (`NAME=TOKEN`; repeatable)")
	fs.Var(&hookAllow, "webhook-allow", "`hosts` callbacks may be sent to: host, host:port, *.domain, loopback or * (comma-separated; default: loopback; the --webhook hosts always); link-local addresses only when named, never the mock's own listeners")

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
		handler := newLineHandler(stderr, logFormat.value == "json")
		var err error
		opts := mock.Options{
			Scenario: *scenario, Tokens: toks, Seed: *seed, CORS: *cors, IgnoreStreamField: !*streamFld,
			Limits:  mock.Limits{MaxBody: int64(maxBody), MaxResources: *maxRes, MaxSessions: *maxSess, SessionIdle: *sessIdle},
			Journal: mock.JournalOptions{Bytes: int64(journByte), Credentials: journCred.value},
			Admin: mock.AdminOptions{Token: *adminTok, CORS: adminCORS, Disabled: !*admin || *adminAddr != "",
				AllowedHosts: append(listenNames(*addr, *adminAddr), hostsOK...)},
			Store: mock.StoreOptions{URL: *storeURL, Prefix: *storePfx, Wait: *storeWait, Timeout: *storeTime},
			Proxy: mock.ProxyOptions{URL: *proxy, Invalid: proxyInv.value, Only: proxyOnly, MockOnly: mockOnly, Timeout: *proxyTime,
				Record: *record, RecordRedact: redact},
			Webhooks:        mock.WebhookOptions{Timeout: *hookTime, Retries: *hookRetry, Backoff: *hookBack, Queue: *hookQueue},
			ShutdownTimeout: *shutdown, LogRequests: true, Logger: slog.New(handler),
		}
		opts.Admin.MCP = mcpTools()
		if *hookRetry == 0 {
			opts.Webhooks.Retries = -1 // none; 0 in Options is the default
		}
		if opts.Webhooks.Subscribers, err = subscribers(hooks, hookToks, set); err != nil {
			commands()[0].usageError(stderr, err.Error())
			return exitUsage
		}
		for _, a := range hookAllow {
			opts.Webhooks.Allow = append(opts.Webhooks.Allow, strings.Split(a, ",")...)
		}
		var seeds []byte
		if *seedData != "" {
			if seeds, err = files.ReadPath(*seedData, mock.MaxSeedFile); err != nil {
				fmt.Fprintf(stderr, "plantmock: cannot read --seed-data: %v\n", err)
				return exitUsage
			}
		}
		srv, err := newServer(&src, opts, set, stderr)
		if err != nil {
			return exitUsage
		}
		defer srv.Close()
		if seeds != nil {
			// Seeded here rather than by New, so that the message names the file.
			if err := srv.SeedData(seeds); err != nil {
				fmt.Fprintf(stderr, "plantmock: --seed-data %s: %s\n", *seedData, strings.TrimPrefix(err.Error(), "seed data: "))
				return exitUsage
			}
		}
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
		errc := make(chan error, 2)
		if adminLn != nil {
			// The admin listener is served before the API answers
			// anything: a callback an early create caused would
			// otherwise be sent before the mock knew the admin address
			// for its own, and could reset it.
			serving := &accepting{Listener: adminLn, first: make(chan struct{})}
			go func() { errc <- srv.ServeAdmin(ctx, serving) }()
			select {
			case <-serving.first:
			case err := <-errc:
				fmt.Fprintf(stderr, "plantmock: admin: %v\n", err)
				return exitError
			}
		}
		fmt.Fprintf(stdout, "plantmock: serving %s on %s\n", src.title(srv), openURL(ln.Addr()))
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

// accepting is a listener that closes first when it is first asked to
// accept: by then, Serve and ServeAdmin have taken its address for one of
// the mock's own, which no webhook, callback or proxied request reaches.
type accepting struct {
	net.Listener
	first chan struct{}
	once  sync.Once
}

func (a *accepting) Accept() (net.Conn, error) {
	a.once.Do(func() { close(a.first) })
	return a.Listener.Accept()
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
