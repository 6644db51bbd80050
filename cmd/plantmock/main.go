// Command plantmock serves an OpenAPI document (by default the Plant Store)
// as a validating, stateful mock.
//
//	plantmock [flags]                  serve
//	plantmock check [flags]            check without serving, or judge recorded traffic
//	plantmock health [flags]           exit 0 if a running mock is healthy
//	plantmock report [flags]           print a running mock's contract report
//	plantmock mcp [flags]              serve, and speak MCP for a coding agent on stdin and stdout
//	plantmock version                  print the version
//	plantmock help [command]           a command's description, flags and exit codes
//
// Every flag can also be set with an environment variable PLANTMOCK_<NAME>
// (PLANTMOCK_ADDR, PLANTMOCK_SPEC; PLANTMOCK_TOKEN, PLANTMOCK_PROXY_ONLY,
// PLANTMOCK_MOCK_ONLY and PLANTMOCK_RECORD_REDACT with commas between
// values, ...); a flag wins over its variable.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

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
	os.Exit(run(ctx, os.Args[1:], os.Environ(), os.Stdout, os.Stderr))
}

// run is the whole program; it returns the exit code. environ is the
// environment as os.Environ gives it.
func run(ctx context.Context, args []string, environ []string, stdout, stderr io.Writer) int {
	c := commands()[0]
	if len(args) > 0 {
		if o := lookup(args[0]); o != nil {
			c, args = o, args[1:]
		}
	}
	return c.main(ctx, args, newEnvironment(environ), stdout, stderr)
}

// source is where the document and scenarios come from: the flags serve
// and check share.
type source struct {
	specs     tokens // --spec values: FILE, BASE=FILE or NAME:BASE=FILE
	spec      string // the one --spec FILE, for messages; "" for none or several
	maxSpec   size   // the largest document read
	scenarios string
	strict    bool
}

func (src *source) define(fs *flag.FlagSet) {
	fs.Var(&src.specs, "spec", "OpenAPI 3.0, 3.1 or 3.2 `file` to serve instead of the embedded Plant Store; repeat it to serve several documents side by side, each at the path of its first server URL, or at BASE with BASE=FILE (/billing=billing.yaml), named NAME with NAME:BASE=FILE (billing:/billing=billing.yaml)")
	src.maxSpec = mock.DefaultMaxSpecFile
	fs.Var(&src.maxSpec, "max-spec", "largest --spec document read: a `size` in bytes or with KiB/MiB/GiB")
	fs.BoolVar(&src.strict, "strict", false, "refuse a document with mistakes that would otherwise be left out with a warning (a parameter without a name, a schema keyword that is not valid JSON Schema)")
	fs.StringVar(&src.scenarios, "scenarios", "", "`directory` of scenario files (*.yaml) to load besides the shipped ones")
}

// title names the served document in messages: its title and version,
// else (a document without info) its file.
func (src *source) title(srv *mock.Server) string {
	if t := srv.Title(); t != "" {
		return t
	}
	return src.spec
}

// options reads the document and scenario files into opts; it returns the
// name to use for the document in messages, and the scenario files that
// could not be parsed (the others are in opts).
func (src *source) options(opts *mock.Options) (name string, broken, err error) {
	name = "embedded Plant Store"
	opts.Strict = src.strict
	specs, err := src.parsed()
	if err != nil {
		return name, nil, err
	}
	if len(specs) == 1 && specs[0].Base == "" {
		src.spec, name = specs[0].File, specs[0].File
		if opts.Spec, err = src.read(specs[0].File); err != nil {
			return name, nil, err
		}
	} else if len(specs) > 0 {
		names := make([]string, len(specs))
		opts.Documents = make([]mock.Document, len(specs))
		for i, sp := range specs {
			names[i] = sp.File
			opts.Documents[i] = mock.Document{Name: sp.Name, Base: sp.Base, Source: sp.File}
			if opts.Documents[i].Spec, err = src.read(sp.File); err != nil {
				return sp.File, nil, err
			}
		}
		name = strings.Join(names, ", ")
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

// specValue is one --spec value: a document's file and, where the value
// is written BASE=FILE or NAME:BASE=FILE, the base path it is mounted
// at and its name (see mock.SplitSpec).
type specValue struct{ Name, Base, File string }

// parsed returns the --spec values read.
func (src *source) parsed() ([]specValue, error) {
	out := make([]specValue, len(src.specs))
	for i, v := range src.specs {
		name, base, file, err := mock.SplitSpec(v)
		if err != nil {
			return nil, fmt.Errorf("--spec: %v", err)
		}
		out[i] = specValue{Name: name, Base: base, File: file}
	}
	return out, nil
}

// read reads a --spec file.
func (src *source) read(file string) ([]byte, error) {
	b, err := files.ReadDocument(file, int64(src.maxSpec))
	if err != nil {
		return nil, errors.New(specProblem(err))
	}
	return b, nil
}

// specProblem says why a --spec file could not be read, and what to do
// about a file too large or empty.
func specProblem(err error) string {
	switch {
	case errors.Is(err, files.ErrTooLarge):
		return fmt.Sprintf("cannot read --spec: %v (--max-spec raises the limit)", err)
	case errors.Is(err, files.ErrEmpty):
		return fmt.Sprintf("cannot read --spec: %v (leave --spec out for the embedded Plant Store)", err)
	}
	return fmt.Sprintf("cannot read --spec: %v", err)
}

// files returns the --spec files.
func (src *source) files() []string {
	specs, _ := src.parsed()
	out := make([]string, len(specs))
	for i, sp := range specs {
		out[i] = sp.File
	}
	return out
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

// newServer loads the document and scenarios and makes the mock; problems
// are written to stderr, naming an option as set says it was given.
func newServer(src *source, opts mock.Options, set given, stderr io.Writer) (*mock.Server, error) {
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
	case errors.As(err, &oe):
		commands()[0].usageError(stderr, fmt.Sprintf("%s: %v", set.name(oe.Name), oe.Err))
		return nil, err
	case errors.As(err, &ste) || errors.As(err, &pe) || errors.As(err, &we):
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
		if len(opts.Documents) > 0 {
			name = "--spec" // the message names the documents' files
		}
		fmt.Fprintf(stderr, "plantmock: %s: %v\n", name, err)
		return nil, err
	}
}

// subscribers reads --webhook NAME=URL and --webhook-token NAME=TOKEN,
// each split at its first "=" (webhook names may hold any other
// character); its errors name them as set says they were given.
func subscribers(hooks, toks []string, set given) (map[string]mock.Subscriber, error) {
	if len(hooks) == 0 && len(toks) == 0 {
		return nil, nil
	}
	out := map[string]mock.Subscriber{}
	for _, h := range hooks {
		name, u, ok := strings.Cut(h, "=")
		if !ok || name == "" || u == "" {
			return nil, fmt.Errorf("%s %q: write it as NAME=URL", set.name("webhook"), h)
		}
		sub := out[name]
		sub.URL = u
		out[name] = sub
	}
	for _, t := range toks {
		name, tok, ok := strings.Cut(t, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("%s: write it as NAME=TOKEN", set.name("webhook-token"))
		}
		sub, known := out[name]
		if !known {
			return nil, fmt.Errorf("%s %s: no --webhook %s=URL to send it with", set.name("webhook-token"), name, name)
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
