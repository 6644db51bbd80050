package mock

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"text/template"
	"text/template/parse"
	"time"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/mock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// MaxDelay is the longest delay a rule may script.
const MaxDelay = 5 * time.Minute

// script is a scenario checked against the document and ready to match.
type script struct {
	name  string
	rules []*scriptRule
}

// scriptRule is a compiled Rule with its counters.
type scriptRule struct {
	id    int    // index of the rule's counters in a session
	index int    // 0-based position in the scenario
	where string // file:line: rule N
	name  string // scenario name, rule N: for answers and logs

	ops     map[*openapi.Operation]bool // nil matches every operation
	headers []headerMatch
	token   *matcher
	body    any // the pattern: JSON values, *regexp.Regexp for /regex/ strings
	hasBody bool
	times   int64
	every   int64

	status      int // 0: the operation's success status
	respHeaders []headerTemplate
	respBody    any // JSON values and *valueTemplate; nil when absent
	hasRespBody bool
	delay       time.Duration
	fault       Fault
	offContract bool
}

type headerMatch struct {
	name string
	m    matcher
}

type headerTemplate struct {
	name string
	t    *valueTemplate
}

// matcher is an exact string or a regular expression.
type matcher struct {
	exact string
	re    *regexp.Regexp
}

func (m *matcher) match(s string) bool {
	if m.re != nil {
		return m.re.MatchString(s)
	}
	return m.exact == s
}

// newMatcher compiles "/regex/" or keeps an exact string.
func newMatcher(s string) (matcher, error) {
	if re, ok, err := slashRegex(s); ok {
		return matcher{re: re}, err
	}
	return matcher{exact: s}, nil
}

func slashRegex(s string) (*regexp.Regexp, bool, error) {
	if len(s) < 2 || s[0] != '/' || s[len(s)-1] != '/' {
		return nil, false, nil
	}
	re, err := regexp.Compile(s[1 : len(s)-1])
	if err != nil {
		return nil, true, fmt.Errorf("bad regular expression %s: %v", s, err)
	}
	return re, true, nil
}

// valueTemplate is a templated string value of an answer.
type valueTemplate struct {
	t *template.Template
	// typed is true when the string is a single {{ }} action, whose output
	// becomes a JSON number, true, false or null when it reads as one.
	typed bool
}

// compileScripts checks the scenarios against the document and compiles
// them. Shipped scenarios that do not fit a custom document are left out.
func (s *Server) compileScripts(shipped, user []*Scenario, active string) error {
	s.scripts = map[string]*script{}
	s.defs = map[string]*Scenario{}
	var errs []error
	for _, sc := range shipped {
		sp, err := s.compileScenario(sc)
		if err != nil {
			s.log.Debug("shipped scenario does not fit this document; left out", "scenario", sc.Name, "why", err.Error())
			continue
		}
		s.scripts[sc.Name], s.defs[sc.Name] = sp, sc
	}
	seen := map[string]string{}
	for _, sc := range user {
		if sc == nil {
			continue
		}
		if prev, ok := seen[sc.Name]; ok {
			errs = append(errs, fmt.Errorf("%s: scenario name %q is already used by %s", sc.where(-1), sc.Name, prev))
			continue
		}
		seen[sc.Name] = sc.where(-1)
		sp, err := s.compileScenario(sc)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		s.scripts[sc.Name], s.defs[sc.Name] = sp, sc
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, sp := range s.scripts {
		for _, r := range sp.rules {
			s.maxDelay = max(s.maxDelay, r.delay)
		}
	}
	if active != "" && s.scripts[active] == nil {
		return fmt.Errorf("no scenario is named %q; known: %s", active, s.scriptNames())
	}
	s.initial = s.scripts[active]
	for _, sp := range s.scripts {
		for _, r := range sp.rules {
			r.id = s.nrules
			s.nrules++
		}
	}
	return nil
}

func (s *Server) scriptNames() string {
	names := make([]string, 0, len(s.scripts))
	for n := range s.scripts {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}

func (s *Server) compileScenario(sc *Scenario) (*script, error) {
	if sc.Name == "" {
		return nil, fmt.Errorf("%s: the scenario has no name", sc.where(-1))
	}
	if strings.ContainsAny(sc.Name, " \t\r\n,") {
		return nil, fmt.Errorf("%s: scenario name %q has spaces or commas", sc.where(-1), sc.Name)
	}
	sp := &script{name: sc.Name}
	var errs []error
	for i := range sc.Rules {
		r, err := s.compileRule(sc, i)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: rule %d: %w", sc.where(i), i+1, err))
			continue
		}
		sp.rules = append(sp.rules, r)
	}
	return sp, errors.Join(errs...)
}

func (s *Server) compileRule(sc *Scenario, i int) (*scriptRule, error) {
	rule := &sc.Rules[i]
	r := &scriptRule{
		index: i,
		where: fmt.Sprintf("%s: rule %d", sc.where(i), i+1),
		name:  fmt.Sprintf("scenario %s, rule %d", sc.Name, i+1),
		times: int64(rule.Times), every: int64(rule.Every),
		status: rule.Respond.Status, delay: rule.Respond.Delay,
		fault: rule.Respond.Fault, offContract: rule.OffContract,
	}
	w, resp := &rule.When, &rule.Respond
	if rule.Times < 0 || rule.Every < 0 {
		return nil, errors.New("times and every may not be negative")
	}
	if resp.Delay < 0 || resp.Delay > MaxDelay {
		return nil, fmt.Errorf("delay %s is not between 0 and %s", resp.Delay, MaxDelay)
	}
	switch resp.Fault {
	case "", FaultConnectionReset, FaultEmptyResponse, FaultMalformedBody, FaultRandomDataThenClose:
	default:
		return nil, fmt.Errorf("unknown fault %q; use connection_reset, empty_response, malformed_body or random_data_then_close", resp.Fault)
	}
	ops := s.doc.Operations
	if w.Operation != "" {
		method, p, _ := strings.Cut(strings.TrimSpace(w.Operation), " ")
		method = strings.ToUpper(method)
		var op *openapi.Operation
		if rt := s.doc.Router().Route(strings.TrimSpace(p)); rt != nil {
			op = rt.Operation(method)
		}
		if op == nil {
			return nil, fmt.Errorf("operation %q is not in the document (write it as METHOD /path/{template})", w.Operation)
		}
		ops = []*openapi.Operation{op}
		r.ops = map[*openapi.Operation]bool{op: true}
	}
	names := make([]string, 0, len(w.Headers))
	for n := range w.Headers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		m, err := newMatcher(w.Headers[n])
		if err != nil {
			return nil, fmt.Errorf("when.headers.%s: %v", n, err)
		}
		r.headers = append(r.headers, headerMatch{name: http.CanonicalHeaderKey(n), m: m})
	}
	if w.Token != "" {
		m, err := newMatcher(w.Token)
		if err != nil {
			return nil, fmt.Errorf("when.token: %v", err)
		}
		r.token = &m
	}
	if w.Body != nil {
		v, err := jsonx.Normalize(w.Body)
		if err != nil {
			return nil, fmt.Errorf("when.body: %v", err)
		}
		pat, err := compilePattern(v, "when.body")
		if err != nil {
			return nil, err
		}
		r.body, r.hasBody = pat, true
	}
	for n, v := range resp.Headers {
		if !validHeaderName(n) {
			return nil, fmt.Errorf("respond.headers: %q is not a header name", n)
		}
		t, err := s.compileTemplate(v, "respond.headers."+n)
		if err != nil {
			return nil, err
		}
		r.respHeaders = append(r.respHeaders, headerTemplate{name: http.CanonicalHeaderKey(n), t: t})
	}
	sort.Slice(r.respHeaders, func(a, b int) bool { return r.respHeaders[a].name < r.respHeaders[b].name })
	if resp.Body != nil {
		v, err := jsonx.Normalize(resp.Body)
		if err != nil {
			return nil, fmt.Errorf("respond.body: %v", err)
		}
		tree, static, err := s.compileBody(v, "respond.body")
		if err != nil {
			return nil, err
		}
		r.respBody, r.hasRespBody = tree, true
		if static && !rule.OffContract && resp.Fault == "" {
			for _, op := range ops {
				if err := checkAnswer(op, r.statusFor(s.plans[op]), tree); err != nil {
					return nil, fmt.Errorf("%s %s: %v", op.Method, op.Path, err)
				}
			}
		}
	}
	if !rule.OffContract && resp.Fault == "" && resp.Status != 0 {
		for _, op := range ops {
			if op.Response(resp.Status) == nil {
				return nil, fmt.Errorf("status %d is not declared for %s %s (declared: %s); set off_contract: true to send it anyway",
					resp.Status, op.Method, op.Path, declaredStatuses(op))
			}
		}
	}
	if resp.Status != 0 && (resp.Status < 100 || resp.Status > 599) {
		return nil, fmt.Errorf("status %d is not an HTTP status", resp.Status)
	}
	return r, nil
}

func (r *scriptRule) statusFor(pl *plan) int {
	if r.status != 0 {
		return r.status
	}
	return pl.success
}

// checkAnswer validates a body against what op declares for status.
func checkAnswer(op *openapi.Operation, status int, body any) error {
	resp := op.Response(status)
	if resp == nil {
		return fmt.Errorf("status %d is not declared (declared: %s)", status, declaredStatuses(op))
	}
	m := resp.JSON()
	if m == nil {
		return fmt.Errorf("status %d declares no JSON body", status)
	}
	if vs := m.Schema.Validate(body); len(vs) > 0 {
		return fmt.Errorf("body does not match the schema of status %d: %s", status, joinViolations(vs))
	}
	return nil
}

func joinViolations(vs []openapi.Violation) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.String()
	}
	return strings.Join(parts, "; ")
}

func declaredStatuses(op *openapi.Operation) string {
	var out []string
	for _, r := range op.Responses {
		out = append(out, r.Status)
	}
	if op.Default != nil {
		out = append(out, "default")
	}
	return strings.Join(out, ", ")
}

func validHeaderName(n string) bool {
	if n == "" {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// compilePattern replaces /regex/ strings of a body pattern by compiled
// expressions.
func compilePattern(v any, at string) (any, error) {
	switch x := v.(type) {
	case string:
		if re, ok, err := slashRegex(x); ok {
			if err != nil {
				return nil, fmt.Errorf("%s: %v", at, err)
			}
			return re, nil
		}
		return x, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			c, err := compilePattern(e, at+"."+k)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			c, err := compilePattern(e, fmt.Sprintf("%s[%d]", at, i))
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	return v, nil
}

// matchPattern reports whether v contains the pattern.
func matchPattern(pat, v any) bool {
	switch p := pat.(type) {
	case *regexp.Regexp:
		switch x := v.(type) {
		case string:
			return p.MatchString(x)
		case json.Number:
			return p.MatchString(string(x))
		case bool:
			return p.MatchString(fmt.Sprint(x))
		}
		return false
	case map[string]any:
		obj, ok := v.(map[string]any)
		if !ok {
			return false
		}
		for k, pe := range p {
			e, ok := obj[k]
			if !ok || !matchPattern(pe, e) {
				return false
			}
		}
		return true
	case []any:
		arr, ok := v.([]any)
		if !ok || len(arr) != len(p) {
			return false
		}
		for i := range p {
			if !matchPattern(p[i], arr[i]) {
				return false
			}
		}
		return true
	case json.Number:
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		a, okA := new(big.Rat).SetString(string(p))
		b, okB := new(big.Rat).SetString(string(n))
		return okA && okB && a.Cmp(b) == 0
	}
	return pat == v
}

// compileBody turns the string values of an answer body into templates.
// static is true when there are none.
func (s *Server) compileBody(v any, at string) (tree any, static bool, err error) {
	switch x := v.(type) {
	case string:
		if !strings.Contains(x, "{{") {
			return x, true, nil
		}
		t, err := s.compileTemplate(x, at)
		return t, false, err
	case map[string]any:
		out := make(map[string]any, len(x))
		static = true
		for k, e := range x {
			c, st, err := s.compileBody(e, at+"."+k)
			if err != nil {
				return nil, false, err
			}
			out[k], static = c, static && st
		}
		return out, static, nil
	case []any:
		out := make([]any, len(x))
		static = true
		for i, e := range x {
			c, st, err := s.compileBody(e, fmt.Sprintf("%s[%d]", at, i))
			if err != nil {
				return nil, false, err
			}
			out[i], static = c, static && st
		}
		return out, static, nil
	}
	return v, true, nil
}

// templateFuncs are the only functions templates may call besides Go's
// template builtins: nothing reads files, the environment or the network.
// fake is replaced per request by one bound to the request's faker.
var templateFuncs = template.FuncMap{"fake": func(string) (string, error) { return "", nil }}

func (s *Server) compileTemplate(text, at string) (*valueTemplate, error) {
	t, err := template.New(at).Funcs(templateFuncs).Option("missingkey=zero").Parse(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", at, strings.TrimPrefix(err.Error(), "template: "))
	}
	if err := checkFakes(t.Tree.Root); err != nil {
		return nil, fmt.Errorf("%s: %v", at, err)
	}
	nodes := t.Tree.Root.Nodes
	return &valueTemplate{t: t, typed: len(nodes) == 1 && nodes[0].Type() == parse.NodeAction}, nil
}

// checkFakes makes sure every fake "name" call names a gofakeit function.
func checkFakes(n parse.Node) error {
	var err error
	var walk func(parse.Node)
	walk = func(n parse.Node) {
		if n == nil || err != nil {
			return
		}
		switch x := n.(type) {
		case *parse.ListNode:
			if x == nil { // an absent else branch
				return
			}
			for _, c := range x.Nodes {
				walk(c)
			}
		case *parse.ActionNode:
			walk(x.Pipe)
		case *parse.PipeNode:
			for _, c := range x.Cmds {
				walk(c)
			}
		case *parse.CommandNode:
			if len(x.Args) > 0 {
				if id, ok := x.Args[0].(*parse.IdentifierNode); ok && id.Ident == "fake" {
					if len(x.Args) != 2 {
						err = errors.New(`fake takes one quoted gofakeit function name, e.g. fake "name"`)
						return
					}
					if str, ok := x.Args[1].(*parse.StringNode); ok && gofakeit.GetFuncLookup(strings.ToLower(str.Text)) == nil {
						err = fmt.Errorf("fake %q: gofakeit has no such function", str.Text)
						return
					}
				}
			}
			for _, c := range x.Args {
				walk(c)
			}
		case *parse.IfNode:
			walk(x.Pipe)
			walk(x.List)
			walk(x.ElseList)
		case *parse.RangeNode:
			walk(x.Pipe)
			walk(x.List)
			walk(x.ElseList)
		case *parse.WithNode:
			walk(x.Pipe)
			walk(x.List)
			walk(x.ElseList)
		}
	}
	walk(n)
	return err
}

// ScenarioNames returns the names of the loaded scenarios, sorted and
// separated by commas.
func (s *Server) ScenarioNames() string { return s.scriptNames() }
