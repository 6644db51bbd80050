package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"
)

// A command is one of plantmock's commands, as its help shows it. The
// mock itself is the command without a name.
type command struct {
	name    string // "" for serving
	args    string // what follows the name in its usage line
	summary string // one line, for the list of commands
	about   string // what it does, for its help
	exits   string // its exit codes, one per line
	maxArgs int    // how many arguments it takes besides flags
	// define defines the command's flags on fs and returns what runs it
	// once they are parsed; set names the flags given, on the command
	// line or in the environment.
	define func(fs *flag.FlagSet) runner
}

// A runner runs a command whose flags are parsed.
type runner func(ctx context.Context, set given, env environment, stdout, stderr io.Writer) int

// given holds the flags set, each by how it was given: "--addr" on the
// command line, "PLANTMOCK_ADDR" in the environment.
type given map[string]string

// name is how the flag was given, for messages: "--flag" when it was not.
func (g given) name(flag string) string {
	if n := g[flag]; n != "" {
		return n
	}
	return "--" + flag
}

// main runs the command with args, the arguments after its name.
func (c *command) main(ctx context.Context, args []string, env environment, stdout, stderr io.Writer) int {
	fs := c.flagSet()
	run := c.define(fs)
	set, code, ok := c.parse(fs, args, env, stdout, stderr)
	if !ok {
		return code
	}
	return run(ctx, set, env, stdout, stderr)
}

// commands returns plantmock's commands, serving first.
func commands() []*command {
	return []*command{
		{name: "", args: "[flags]", summary: "serve an OpenAPI document as a validating, stateful mock",
			about:  "Serves an OpenAPI 3.0, 3.1 or 3.2 document (--spec; by default the embedded Plant Store) as a\nvalidating, stateful mock until SIGINT or SIGTERM.",
			exits:  "0  stopped by SIGINT or SIGTERM, requests under way answered\n1  the server failed while running\n2  bad flags or variables, or a document, scenarios or seed data that cannot be served",
			define: defineServe},
		{name: "check", args: "[--spec FILE] [--strict] [--scenarios DIR] [--traffic FILE]... [--workflows FILE]", summary: "load a document and scenarios without serving, or judge recorded traffic",
			about:  "Loads the document and scenarios as the mock would and lists the mistakes it would leave\nout and the caveats of serving it. With --traffic, judges recorded traffic (HAR, the mock's\njournal, a --record folder) against the document instead, and prints the contract report\nand each exchange that breaks it. With --workflows, lints an Arazzo description against the\ndocument instead, sending nothing.",
			exits:  "0  the document can be served (and the traffic keeps the contract, the workflows fit it)\n1  the traffic breaks the document\n2  bad flags, or a document, scenarios or workflows that cannot be served",
			define: defineCheck},
		{name: "health", args: "[--addr HOST:PORT] [--admin-addr HOST:PORT] [--admin-token T]", summary: "ask a running mock whether it is healthy",
			about:  "Asks the mock at --addr (or its --admin-addr) whether it is healthy, for container health\nchecks without a shell. The health call needs no admin token; with it, the answer says more.",
			exits:  "0  healthy\n1  unhealthy, or no answer\n2  bad flags",
			define: func(fs *flag.FlagSet) runner { return askAdmin(fs, health) }},
		{name: "report", args: "[--addr HOST:PORT] [--admin-addr HOST:PORT] [--admin-token T]", summary: "print a running mock's contract report",
			about:  "Prints what the exchanges a running mock has seen did to the contract: per operation, the\nrequests and answers that broke the document, and where.",
			exits:  "0  no exchange broke the document\n1  an exchange broke it, or the mock did not answer\n2  bad flags",
			define: func(fs *flag.FlagSet) runner { return askAdmin(fs, report) }},
		{name: "verify", args: "--target URL [--spec FILE] [flags]", summary: "test a running service against the document",
			about:  "Sends the service at --target valid requests for every operation of the document (its\nexamples, then generated values), invalid ones that must be refused, and create-read-delete\nsequences, and judges every answer by the document. Prints the failures grouped by operation,\neach with the rule it breaks and a curl line that sends the request again. See docs/verify.md.",
			exits:  "0  every answer sent keeps the document (or --dry-run), also when --max-requests or --duration ended the run\n1  an answer breaks it, or the service did not answer\n2  bad flags, or a document that cannot be read",
			define: defineVerify},
		{name: "diff", args: "[flags] OLD NEW", summary: "say what a new version of a document breaks",
			about: "Compares two versions of an OpenAPI 3.0, 3.1 or 3.2 document, OLD and NEW, each read as the\nmock reads it: their operations, security, parameters, request bodies, responses, headers,\nmedia types and schemas. Each change is listed with its rule, whether it breaks clients,\nbreaks providers or is compatible, and where it is in both documents. See docs/diff.md.",
			exits: "0  no change fails at --fail-on\n1  a change fails at --fail-on (by default: one breaks clients)\n2  bad flags or ignore file, or a document that cannot be read or loaded", maxArgs: 2,
			define: defineDiff},
		{name: "mcp", args: "[flags]", summary: "serve a mock and speak MCP for a coding agent on stdin and stdout",
			about:  "Serves the mock as plantmock does, with the same flags, and speaks the Model Context Protocol\non standard input and output for the coding agent that started it: its tools list the\noperations, explain requests, read the journal, say why a request was refused, switch\nscenarios, and run check and verify. The mock's HTTP listener serves meanwhile; its own\nlines and logs go to stderr. It stops when the agent closes stdin. See docs/mcp.md.",
			exits:  "0  the agent closed stdin, or SIGINT or SIGTERM\n1  the server or the protocol failed while running\n2  bad flags or variables, or a document, scenarios or seed data that cannot be served",
			define: defineMCP},
		{name: "version", summary: "print plantmock's version, commit and Go version",
			about:  "Prints plantmock's version, the commit it was built from, and the Go version that built it.",
			exits:  "0  always",
			define: func(*flag.FlagSet) runner { return version }},
		{name: "help", args: "[command]", summary: "print this help, or a command's",
			about: "Prints plantmock's help, or a command's: what it does, its flags and its exit codes.",
			exits: "0  the help was printed\n2  no such command", maxArgs: 1,
			define: defineHelp},
	}
}

// lookup returns the command of a name; nil when there is none.
func lookup(name string) *command {
	for _, c := range commands() {
		if c.name == name && name != "" {
			return c
		}
	}
	return nil
}

// prog is how the command is called: "plantmock" or "plantmock check".
func (c *command) prog() string {
	if c.name == "" {
		return "plantmock"
	}
	return "plantmock " + c.name
}

// flagSet returns the command's flags, to be defined. parse reports
// their errors: the flag package prints nothing.
func (c *command) flagSet() *flag.FlagSet {
	fs := flag.NewFlagSet(c.prog(), flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// help writes the command's help: its usage, what it does, its flags
// and its exit codes.
func (c *command) help(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintf(w, "Usage: %s\n\n%s\n", strings.TrimSpace(c.prog()+" "+c.args), c.about)
	if c.name == "" {
		fmt.Fprintf(w, "\nCommands:\n")
		for _, o := range commands()[1:] {
			fmt.Fprintf(w, "  %-8s %s\n", o.name, o.summary)
		}
		fmt.Fprintf(w, "Run plantmock help COMMAND for a command's flags.\n")
	}
	if fs != nil {
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintf(w, "\nFlags (each can also be set with PLANTMOCK_<NAME>, e.g. PLANTMOCK_ADDR; a flag wins):\n")
			var flags strings.Builder
			fs.SetOutput(&flags)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
			io.WriteString(w, oneDash.ReplaceAllString(flags.String(), "  --"))
		}
	}
	fmt.Fprintf(w, "\nExit codes:\n")
	for _, l := range strings.Split(c.exits, "\n") {
		fmt.Fprintf(w, "  %s\n", l)
	}
}

// oneDash is how the flag package names a flag in its defaults, with
// one dash; the help names it --name, as every message and page does.
var oneDash = regexp.MustCompile(`(?m)^  -`)

// parse sets the flags from args, then the flags args did not set from
// the environment: a flag wins over its variable. It returns the flags
// set either way, each by how it was given. When it reports false, the
// program ends with code: the help was asked for (0), or a flag, an
// argument or a variable is wrong (2), said in one line on stderr.
func (c *command) parse(fs *flag.FlagSet, args []string, env environment, stdout, stderr io.Writer) (set given, code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			c.help(fs, stdout)
			return nil, exitOK, false
		}
		c.usageError(stderr, flagError(fs, err))
		return nil, exitUsage, false
	}
	if fs.NArg() > c.maxArgs {
		c.usageError(stderr, c.stray(fs.Arg(c.maxArgs)))
		return nil, exitUsage, false
	}
	set = given{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = "--" + f.Name })
	if err := fromEnv(fs, env, set); err != nil {
		c.usageError(stderr, err.Error())
		return nil, exitUsage, false
	}
	return set, 0, true
}

// stray says what is wrong with an argument the command does not take:
// a command's name after the mock's flags, or serve, which is no command.
func (c *command) stray(arg string) string {
	if c.name == "" {
		if o := lookup(arg); o != nil {
			return fmt.Sprintf("unexpected argument %q: a command comes before its flags (%s)", arg, strings.TrimSpace(o.prog()+" "+o.args))
		}
		if arg == "serve" {
			return `unexpected argument "serve": plantmock serves with no command (plantmock [flags])`
		}
	}
	return fmt.Sprintf("unexpected argument %q", arg)
}

// usageError writes the one line of a usage problem.
func (c *command) usageError(stderr io.Writer, problem string) {
	fmt.Fprintf(stderr, "%s: %s; run %s --help\n", c.prog(), problem, c.prog())
}

// badValue matches the flag package's error for a value a flag refused.
var badValue = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-(\S+): (.*)$`)

// flagError says in words what is wrong with the flags, naming the flag.
func flagError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if m := badValue.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("--%s %q: %s", m[2], m[1], valueProblem(fs.Lookup(m[2]), m[3]))
	}
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return fmt.Sprintf("unknown flag --%s", strings.TrimPrefix(name, "-"))
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		name = strings.TrimPrefix(name, "-")
		if want := expected(fs.Lookup(name)); want != "" {
			return fmt.Sprintf("--%s needs a value: %s", name, want)
		}
		return fmt.Sprintf("--%s needs a value", name)
	}
	return msg
}

// valueProblem says why a flag refused a value: what it expects, when
// the flag package's reason is only that it could not parse it.
func valueProblem(f *flag.Flag, reason string) string {
	if want := expected(f); want != "" && (reason == "parse error" || reason == "value out of range") {
		return "want " + want
	}
	return reason
}

// expected says what values a flag of the standard kinds takes; "" for
// the others, whose errors say it themselves.
func expected(f *flag.Flag) string {
	if f == nil {
		return ""
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return ""
	}
	switch g.Get().(type) {
	case bool:
		return "true or false"
	case int, int64:
		return "a whole number"
	case uint, uint64:
		return "a whole number, 0 or more"
	case float64:
		return "a number"
	case time.Duration:
		return "a duration such as 500ms, 10s or 2m"
	}
	return ""
}

// defineHelp is the help command: its argument names the command.
func defineHelp(fs *flag.FlagSet) runner {
	return func(ctx context.Context, _ given, env environment, stdout, stderr io.Writer) int {
		o := commands()[0]
		if name := fs.Arg(0); name != "" && name != "serve" {
			if o = lookup(name); o == nil {
				lookup("help").usageError(stderr, fmt.Sprintf("no command %q", name))
				return exitUsage
			}
		}
		return o.main(ctx, []string{"--help"}, env, stdout, stderr)
	}
}
