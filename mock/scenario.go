package mock

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v4"

	"github.com/plantmock/plantmock/scenarios"
)

// Scenario scripts answers: the first rule that matches a request answers
// it; when none matches, the mock behaves as usual. Scenarios are written
// in YAML (see ParseScenario) or built in Go, and are checked against the
// document when a Server is made.
type Scenario struct {
	// Name is unique among the loaded scenarios and selects this one.
	Name        string `yaml:"name"`
	Description string `yaml:"description,omitempty"`
	Rules       []Rule `yaml:"rules"`

	// File is where the scenario was read from, for messages; empty for
	// scenarios built in Go.
	File string `yaml:"-"`
	// lines holds the line of each rule in File.
	lines []int
}

// Rule is one scripted answer and the requests it applies to.
type Rule struct {
	When When `yaml:"when,omitempty"`
	// Times, if above zero, limits the rule to that many answers; later
	// matching requests fall through to the next rules.
	Times int `yaml:"times,omitempty"`
	// Every, if above one, makes the rule answer only every Every-th
	// matching request (the 3rd, 6th, ... for 3); the others fall through.
	Every   int     `yaml:"every,omitempty"`
	Respond Respond `yaml:"respond"`
	// OffContract lets the answer break the document (an undeclared status
	// or a body that does not match its schema), to test a client against a
	// deliberately wrong answer.
	OffContract bool `yaml:"off_contract,omitempty"`
}

// When says which requests a rule applies to. Every condition given must
// hold; an empty When matches every request.
type When struct {
	// Operation is a method and a path template of the document, such as
	// "POST /plants".
	Operation string `yaml:"operation,omitempty"`
	// Headers must be present with these values: exact, or a regular
	// expression between slashes ("/^abc/"). The first value counts.
	Headers map[string]string `yaml:"headers,omitempty"`
	// Token is the bearer token (or API key), exact or /regex/.
	Token string `yaml:"token,omitempty"`
	// Body is a JSON subset the request body must contain: objects match
	// when every given key matches, arrays element by element with the same
	// length, strings exactly or by /regex/ (which also tests the text of
	// numbers and booleans), other values by equality.
	Body any `yaml:"body,omitempty"`
}

// Respond is a scripted answer. String values, in headers and anywhere in
// the body, are Go templates; see the package documentation.
type Respond struct {
	// Status defaults to the operation's success status.
	Status int `yaml:"status,omitempty"`
	// Headers are added to the answer.
	Headers map[string]string `yaml:"headers,omitempty"`
	// Body is the answer's JSON body. When it is absent, the success status
	// gets the usual answer (a create still creates) and any other status a
	// body generated from its schema.
	Body any `yaml:"body,omitempty"`
	// Delay is waited before answering.
	Delay time.Duration `yaml:"delay,omitempty"`
	// Fault breaks the answer instead; see Fault.
	Fault Fault `yaml:"fault,omitempty"`
}

// Fault is a way of not answering properly.
type Fault string

// The faults a rule can script.
const (
	// FaultConnectionReset closes the connection with a TCP reset, without
	// an answer: the client's read fails with "connection reset by peer".
	FaultConnectionReset Fault = "connection_reset"
	// FaultEmptyResponse closes the connection without an answer: the
	// client reads EOF before a status line.
	FaultEmptyResponse Fault = "empty_response"
	// FaultMalformedBody answers with the status and a JSON Content-Type,
	// but a body that is not JSON.
	FaultMalformedBody Fault = "malformed_body"
	// FaultRandomDataThenClose writes bytes that are not HTTP and closes.
	FaultRandomDataThenClose Fault = "random_data_then_close"
)

// ParseScenario reads one scenario from YAML. Unknown keys, duplicate keys
// and values of the wrong type are errors that name file and line. The
// scenario is checked against a document only when given to New.
func ParseScenario(file string, data []byte) (*Scenario, error) {
	var root yaml.Node
	if err := yaml.Load(data, &root); err != nil {
		return nil, fmt.Errorf("%s: %s", file, yamlError(err))
	}
	sc := &Scenario{File: file}
	if err := yaml.Load(data, sc, yaml.WithKnownFields(), yaml.WithUniqueKeys(true)); err != nil {
		return nil, fmt.Errorf("%s: %s", file, yamlError(err))
	}
	sc.lines = ruleLines(&root)
	return sc, nil
}

// yamlError makes a YAML error one line: "line 3: field x not found ...".
func yamlError(err error) string {
	s := strings.Join(strings.Fields(err.Error()), " ")
	s = strings.TrimPrefix(s, "yaml: ")
	s = strings.TrimPrefix(s, "unmarshal errors: ")
	s = strings.TrimPrefix(s, "construct errors: ")
	return strings.ReplaceAll(s, " in type mock.", " in ")
}

// ruleLines finds the line of each item of the top-level rules list.
func ruleLines(root *yaml.Node) []int {
	n := root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "rules" && n.Content[i+1].Kind == yaml.SequenceNode {
			var lines []int
			for _, item := range n.Content[i+1].Content {
				lines = append(lines, item.Line)
			}
			return lines
		}
	}
	return nil
}

// where names a rule's place for messages: file:line, or the scenario's
// name for scenarios built in Go.
func (sc *Scenario) where(rule int) string {
	if sc.File == "" {
		return "scenario " + sc.Name
	}
	if rule >= 0 && rule < len(sc.lines) {
		return fmt.Sprintf("%s:%d", sc.File, sc.lines[rule])
	}
	return sc.File
}

// LoadScenarios parses every *.yaml and *.yml file in dir of fsys, in name
// order. It reports every broken file, not just the first.
func LoadScenarios(fsys fs.FS, dir string) ([]*Scenario, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if !e.IsDir() && (strings.HasSuffix(e.Name(), ".yaml") || strings.HasSuffix(e.Name(), ".yml")) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var out []*Scenario
	var errs []error
	for _, name := range names {
		p := path.Join(dir, name)
		data, err := readLimited(fsys, p, maxScenarioFile)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		sc, err := ParseScenario(p, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, sc)
	}
	return out, errors.Join(errs...)
}

// maxScenarioFile bounds the size of a scenario file.
const maxScenarioFile = 1 << 20

// readLimited reads a file that may not be larger than max bytes, without
// reading more than that.
func readLimited(fsys fs.FS, name string, max int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > max {
		return nil, fmt.Errorf("%s: file of %d bytes is over the limit of %d bytes", name, st.Size(), max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: file is over the limit of %d bytes", name, max)
	}
	return data, nil
}

// ShippedScenarios returns the scenarios that ship with plantmock, written
// for the Plant Store document.
func ShippedScenarios() []*Scenario {
	scs, err := LoadScenarios(scenarios.FS, ".")
	if err != nil {
		panic("mock: a shipped scenario is broken: " + err.Error())
	}
	for _, sc := range scs {
		sc.File = "scenarios/" + sc.File
	}
	return scs
}
