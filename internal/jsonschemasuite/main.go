package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/plantmock/plantmock/internal/jsonschemasuite/cases"
)

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1 // a disagreement not in deviations, a stale deviation or an error
	exitUsage = 2 // no suite, bad flags, or a suite that cannot be read
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(cli(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

// cli reads the flags and the environment, runs the suite and returns the
// exit code.
func cli(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("jsonschemasuite", flag.ContinueOnError)
	fs.SetOutput(stderr)
	suite := fs.String("suite", "", "`DIR`ectory of a JSON Schema Test Suite checkout (default $"+cases.Env+")")
	verbose := fs.Bool("v", false, "list every skipped group; with -generate, every failure")
	generation := fs.Bool("generate", false, "check generated values instead of validation: generate a value of each schema with a valid instance and check it")
	seeds := fs.Int("seeds", defaultSeeds, "with -generate, generate with seeds 1..`N`")
	floor := fs.Float64("floor", 0, "with -generate, fail when a dialect's share of schemas whose every value is valid is under `P` percent")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "jsonschemasuite: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	dir := *suite
	if dir == "" {
		dir = getenv(cases.Env)
	}
	if dir == "" {
		fmt.Fprintln(stderr, "usage: jsonschemasuite -suite DIR, or set "+cases.Env+"=DIR, DIR a checkout of github.com/json-schema-org/JSON-Schema-Test-Suite")
		return exitUsage
	}
	if *generation {
		if *seeds < 1 {
			fmt.Fprintln(stderr, "jsonschemasuite: -seeds must be at least 1")
			return exitUsage
		}
		rep, err := generate(ctx, genConfig{suite: dir, seeds: *seeds, floor: *floor, verbose: *verbose}, stdout)
		if err != nil {
			fmt.Fprintln(stderr, "jsonschemasuite:", err)
			if ctx.Err() != nil {
				return exitFail
			}
			return exitUsage
		}
		if !rep.ok(*floor) {
			return exitFail
		}
		return exitOK
	}
	rep, err := run(ctx, config{suite: dir, deviations: deviations, verbose: *verbose}, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "jsonschemasuite:", err)
		if ctx.Err() != nil {
			return exitFail // interrupted
		}
		return exitUsage
	}
	if !rep.ok() {
		return exitFail
	}
	return exitOK
}
