package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// envPrefix starts the name of every variable that sets a flag.
const envPrefix = "PLANTMOCK_"

// environment is the process's environment variables, by name.
type environment map[string]string

// newEnvironment reads os.Environ's form: NAME=VALUE.
func newEnvironment(environ []string) environment {
	env := environment{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	return env
}

// envName is the variable that sets a flag: PLANTMOCK_MAX_BODY for
// --max-body.
func envName(flagName string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// fromEnv sets every flag not in set that has a variable, and adds it to
// set under the variable's name. A variable of several values (--token)
// holds them with commas between.
func fromEnv(fs *flag.FlagSet, env environment, set given) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		name := envName(f.Name)
		v := env[name]
		if v == "" || err != nil || set[f.Name] != "" {
			return
		}
		vals := []string{v}
		if _, many := f.Value.(*tokens); many {
			vals = strings.Split(v, ",")
		}
		for _, x := range vals {
			if e := f.Value.Set(strings.TrimSpace(x)); e != nil {
				err = fmt.Errorf("%s=%q: %s", name, v, valueProblem(f, e.Error()))
				return
			}
		}
		set[f.Name] = name
	})
	return err
}

// otherVariables are the PLANTMOCK_ variables that set no flag: the
// project's tests and CI scripts read them, never the binary.
var otherVariables = []string{"PLANTMOCK_JSONSCHEMA_SUITE", "PLANTMOCK_OAS32_SCHEMA", "PLANTMOCK_GITHUB_SPEC", "PLANTMOCK_GITHUB_SPEC_PREVIOUS", "PLANTMOCK_CACHE", "PLANTMOCK_SCREENSHOT", "PLANTMOCK_LOAD_DURATION", "PLANTMOCK_IMAGE"}

// warnUnknown writes a warning for each PLANTMOCK_ variable that sets no
// flag of any command: a misspelt name would otherwise be ignored
// without a word.
func warnUnknown(env environment, stderr io.Writer) {
	known := map[string]bool{}
	for _, c := range commands() {
		fs := c.flagSet()
		c.define(fs)
		fs.VisitAll(func(f *flag.Flag) { known[envName(f.Name)] = true })
	}
	var unknown []string
	for name := range env {
		if strings.HasPrefix(name, envPrefix) && !known[name] && !slices.Contains(otherVariables, name) {
			unknown = append(unknown, name)
		}
	}
	slices.Sort(unknown)
	for _, name := range unknown {
		fmt.Fprintf(stderr, "plantmock: warning: %s sets no flag of plantmock (see plantmock --help); it is ignored\n", name)
	}
}
