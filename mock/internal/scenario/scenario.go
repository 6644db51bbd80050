package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v4"

	"github.com/plantmock/plantmock/internal/files"
	"github.com/plantmock/plantmock/scenarios"
)

// Scenario scripts answers: the first rule that matches a request answers
// it; when none matches, the mock behaves as usual. Scenarios are written
// in YAML (see ParseScenario) or built in Go, and are checked against the
// document when a Server is made. Their JSON form, which the admin API
// shows, uses the YAML keys.
type Scenario struct {
	// Name is unique among the loaded scenarios and selects this one.
	Name        string `yaml:"name" json:"name"`
	Description string `yaml:"description,omitempty" json:"description,omitempty"`
	// Document names the document the scenario is for, by its name or
	// title, where a mock serves several; empty for the one whose
	// operations the rules name.
	Document string `yaml:"document,omitempty" json:"document,omitempty"`
	Rules    []Rule `yaml:"rules" json:"rules"`

	// File is where the scenario was read from, for messages; empty for
	// scenarios built in Go.
	File string `yaml:"-" json:"file,omitempty"`
	// lines holds the line of each rule in File.
	lines []int
}

// Rule is one scripted answer and the requests it applies to.
type Rule struct {
	When When `yaml:"when,omitempty" json:"when"`
	// Times, if above zero, limits the rule to that many answers; later
	// matching requests fall through to the next rules.
	Times int `yaml:"times,omitempty" json:"times,omitempty"`
	// Every, if above one, makes the rule answer only every Every-th
	// matching request (the 3rd, 6th, ... for 3); the others fall through.
	Every   int     `yaml:"every,omitempty" json:"every,omitempty"`
	Respond Respond `yaml:"respond" json:"respond"`
	// OffContract lets the answer break the document (an undeclared status
	// or a body that does not match its schema), to test a client against a
	// deliberately wrong answer.
	OffContract bool `yaml:"off_contract,omitempty" json:"off_contract,omitempty"`
}

// When says which requests a rule applies to. Every condition given must
// hold; an empty When matches every request.
type When struct {
	// Operation is a method and a path template of the document, such as
	// "POST /plants".
	Operation string `yaml:"operation,omitempty" json:"operation,omitempty"`
	// Headers must be present with these values: exact, or a regular
	// expression between slashes ("/^abc/"). The first value counts.
	Headers map[string]string `yaml:"headers,omitempty" json:"headers,omitempty"`
	// Token is the bearer token (or API key), exact or /regex/.
	Token string `yaml:"token,omitempty" json:"token,omitempty"`
	// Params are path parameters of Operation (which they need), by
	// name: exact values, or /regex/.
	Params map[string]string `yaml:"params,omitempty" json:"params,omitempty"`
	// Body is a JSON subset the request body must contain: objects match
	// when every given key matches, arrays element by element with the same
	// length, strings exactly or by /regex/ (which also tests the text of
	// numbers and booleans), other values by equality.
	Body any `yaml:"body,omitempty" json:"body,omitempty"`
}

// Respond is a scripted answer. String values, in headers and anywhere in
// the body, are Go templates; see the package documentation.
type Respond struct {
	// Status defaults to the operation's success status.
	Status int `yaml:"status,omitempty" json:"status,omitempty"`
	// Headers are added to the answer.
	Headers map[string]string `yaml:"headers,omitempty" json:"headers,omitempty"`
	// Body is the answer's JSON body. When it is absent, the success status
	// gets the usual answer (a create still creates) and any other status a
	// body generated from its schema.
	Body any `yaml:"body,omitempty" json:"body,omitempty"`
	// Delay is waited before answering, at most 5 minutes. In YAML and
	// JSON it is written as a duration: 250ms, 1.5s.
	Delay time.Duration `yaml:"delay,omitempty" json:"-"`
	// Fault breaks the answer instead; see Fault.
	Fault Fault `yaml:"fault,omitempty" json:"fault,omitempty"`
	// Stream scripts a streamed answer; see Stream.
	Stream *Stream `yaml:"stream,omitempty" json:"stream,omitempty"`
	// Webhooks are sent after the answer, to the session's subscribers.
	Webhooks []WebhookCall `yaml:"webhooks,omitempty" json:"webhooks,omitempty"`
}

// WebhookCall names a webhook of the document a rule sends. In YAML it
// is the webhook's name alone, or an object with name, body and delay.
type WebhookCall struct {
	Name string `yaml:"name" json:"name"`
	// Body is the webhook's body, a template as Respond.Body is; absent,
	// the body is the resource the request created (projected onto the
	// webhook's schema), else one generated from the schema.
	Body any `yaml:"body,omitempty" json:"body,omitempty"`
	// Delay is waited after the answer before sending.
	Delay time.Duration `yaml:"delay,omitempty" json:"-"`
}

// UnmarshalYAML reads a webhook's name alone, or the whole object.
func (c *WebhookCall) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		c.Name = n.Value
		return nil
	}
	type plain WebhookCall
	return n.Load((*plain)(c), yaml.WithKnownFields())
}

// MarshalJSON writes Delay as a duration ("1.5s"), as in YAML.
func (c WebhookCall) MarshalJSON() ([]byte, error) {
	type plain WebhookCall
	return withDuration(plain(c), "delay", c.Delay)
}

// MarshalJSON writes Delay as a duration ("1.5s"), as in YAML.
func (r Respond) MarshalJSON() ([]byte, error) {
	type plain Respond
	return withDuration(plain(r), "delay", r.Delay)
}

// withDuration writes v, a struct that leaves its duration out of JSON
// (json:"-"), with the duration d after its other fields under key, as
// YAML writes it ("1.5s"); without it when d is 0.
func withDuration(v any, key string, d time.Duration) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil || d == 0 || len(b) < 2 || b[len(b)-1] != '}' {
		return b, err
	}
	b = b[:len(b)-1]
	if len(b) > 1 {
		b = append(b, ',')
	}
	return append(b, `"`+key+`":"`+d.String()+`"}`...), nil
}

// ParseScenario reads one scenario from YAML. Unknown and duplicate keys
// and values of the wrong type are errors, one line each, all of them:
// "file:line: rule N: why" within a rule, "file:line: why" outside. The
// scenario is checked against a document only when given to New.
func ParseScenario(file string, data []byte) (*Scenario, error) {
	var root yaml.Node
	if err := yaml.Load(data, &root); err != nil {
		return nil, fmt.Errorf("%s: %s", file, yamlSyntax(err))
	}
	p := &yamlProblems{file: file, root: &root}
	p.rules = ruleLines(&root)
	p.duplicates(&root)
	sc := &Scenario{File: file}
	// Duplicate keys are reported above, all of them; the decoder would stop
	// at the first.
	if err := root.Load(sc, yaml.WithKnownFields(), yaml.WithUniqueKeys(false)); err != nil {
		p.add(err)
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	sc.lines = p.rules
	return sc, nil
}

// yamlProblems collects what is wrong with a scenario file, with lines.
type yamlProblems struct {
	file  string
	root  *yaml.Node
	rules []int // the line of each rule
	list  []yamlProblem
}

type yamlProblem struct {
	line int
	why  string
}

// rule returns the 0-based rule holding line, or -1.
func (p *yamlProblems) rule(line int) int {
	r := -1
	for i, l := range p.rules {
		if l <= line {
			r = i
		}
	}
	return r
}

func (p *yamlProblems) err() error {
	if len(p.list) == 0 {
		return nil
	}
	sort.SliceStable(p.list, func(i, j int) bool { return p.list[i].line < p.list[j].line })
	errs := make([]error, len(p.list))
	for i, y := range p.list {
		if y.line == 0 {
			errs[i] = fmt.Errorf("%s: %s", p.file, y.why)
		} else if r := p.rule(y.line); r >= 0 {
			errs[i] = fmt.Errorf("%s:%d: rule %d: %s", p.file, y.line, r+1, y.why)
		} else {
			errs[i] = fmt.Errorf("%s:%d: %s", p.file, y.line, y.why)
		}
	}
	return errors.Join(errs...)
}

// duplicates reports every key written twice in a mapping.
func (p *yamlProblems) duplicates(n *yaml.Node) {
	if n.Kind == yaml.MappingNode {
		seen := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if first, ok := seen[k.Value]; ok {
				p.list = append(p.list, yamlProblem{k.Line, fmt.Sprintf("key %q is written twice (first at line %d)", k.Value, first)})
			} else {
				seen[k.Value] = k.Line
			}
		}
	}
	for _, c := range n.Content {
		p.duplicates(c)
	}
}

var (
	unknownField = regexp.MustCompile(`^field (\S+) not found in type (\S+)$`)
	wrongType    = regexp.MustCompile("^cannot (?:construct|unmarshal) !!(\\w+) `(.*)` into (\\S+)$")
)

// add turns the decoder's errors into problems in the scenario format's
// own words: keys, not Go field and type names.
func (p *yamlProblems) add(err error) {
	var les *yaml.LoadErrors
	if !errors.As(err, &les) {
		p.list = append(p.list, yamlProblem{0, yamlSyntax(err)})
		return
	}
	for _, e := range les.Errors {
		why := e.Message
		if m := unknownField.FindStringSubmatch(why); m != nil {
			why = fmt.Sprintf("unknown key %q%s", m[1], knownKeys(m[2]))
		} else if m := wrongType.FindStringSubmatch(why); m != nil {
			why = fmt.Sprintf("%s must be %s, not %q", p.keyAt(e.Mark.Line, e.Mark.Column), yamlTypeWords(m[3]), m[2])
		}
		p.list = append(p.list, yamlProblem{e.Mark.Line, why})
	}
}

// keyAt names the key whose value starts at line and column, as a path
// ("respond.status"), or "the value" when there is none.
func (p *yamlProblems) keyAt(line, col int) string {
	var find func(n *yaml.Node, at string) string
	find = func(n *yaml.Node, at string) string {
		switch n.Kind {
		case yaml.DocumentNode, yaml.SequenceNode:
			for _, c := range n.Content {
				if k := find(c, at); k != "" {
					return k
				}
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				name := k.Value
				if at != "" {
					name = at + "." + k.Value
				}
				if v.Line == line && v.Column == col {
					return name
				}
				if found := find(v, name); found != "" {
					return found
				}
			}
		}
		return ""
	}
	if k := find(p.root, ""); k != "" {
		if i := strings.Index(k, "rules."); i == 0 {
			k = k[len("rules."):]
		}
		return k
	}
	return "the value"
}

// scenarioTypes are the types of the format, by the name the decoder
// gives them, for the keys each knows.
var scenarioTypes = func() map[string]reflect.Type {
	m := map[string]reflect.Type{}
	for _, t := range []reflect.Type{reflect.TypeFor[Scenario](), reflect.TypeFor[Rule](), reflect.TypeFor[When](), reflect.TypeFor[Respond]()} {
		m[t.String()] = t
	}
	return m
}()

// knownKeys lists the keys of a type of the format: " (known: a, b)".
func knownKeys(typeName string) string {
	t, ok := scenarioTypes[typeName]
	if !ok {
		return ""
	}
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		if k, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); k != "" && k != "-" {
			keys = append(keys, k)
		}
	}
	return " (known: " + strings.Join(keys, ", ") + ")"
}

// yamlTypeWords says in words what a Go type wants.
func yamlTypeWords(goType string) string {
	switch goType {
	case "int", "int64":
		return "an integer"
	case "time.Duration":
		return "a duration such as 250ms or 1.5s"
	case "bool":
		return "true or false"
	case "string", "scenario.Fault":
		return "a string"
	case "map[string]string":
		return "a mapping of names to strings"
	case "[]scenario.Rule":
		return "a list of rules"
	}
	if strings.HasPrefix(goType, "scenario.") {
		return "a mapping"
	}
	return goType
}

// yamlSyntax makes a YAML syntax error one line.
func yamlSyntax(err error) string {
	var le *yaml.LoadError
	if errors.As(err, &le) && le.Mark.Line > 0 {
		return fmt.Sprintf("line %d: %s", le.Mark.Line, le.Message)
	}
	s := strings.Join(strings.Fields(err.Error()), " ")
	return strings.TrimPrefix(s, "yaml: ")
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
// name for scenarios built in Go; rule -1 names the scenario.
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
		data, err := files.Read(fsys, p, MaxScenarioFile)
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

// MaxScenarioFile is the largest scenario file LoadScenarios reads.
const MaxScenarioFile = 1 << 20

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
