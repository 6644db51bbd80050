package scenario

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	cliptext "github.com/plantmock/plantmock/internal/clip"
	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/state"
)

// maxDelay is the longest delay a rule may script.
const maxDelay = 5 * time.Minute

// Compiled is a Scenario checked against the document and compiled, ready
// to match requests.
type Compiled struct {
	Name  string
	Def   *Scenario // as it was given
	rules []*Script
}

// Script is a Rule compiled: plain data the request path reads. Its
// counters live in each session.
type Script struct {
	count state.Rule // how sessions count the rule's matches and answers
	Index int        // 0-based position in the scenario
	Name  string     // "scenario NAME, rule N", for answers and logs

	ops     map[*openapi.Operation]bool // nil matches every operation
	headers []headerMatch
	params  []paramMatch
	token   *matcher
	body    any // the body pattern (see compilePattern); nil when absent
	hasBody bool
	times   int64
	every   int64

	status      int // 0: the operation's success status
	RespHeaders []headerTemplate
	RespBody    any // JSON values and *valueTemplate; nil when absent
	HasRespBody bool
	Delay       time.Duration
	Fault       *faultKind
	OffContract bool
	Webhooks    []RuleWebhook
	Stream      *StreamScript // the rule's stream; nil when it scripts none
}

// RuleWebhook is a webhook a rule sends after its answer.
type RuleWebhook struct {
	Hooks   []*openapi.Hook
	Body    any // JSON values and *valueTemplate
	HasBody bool
	Delay   time.Duration
}

// paramMatch matches the path parameter at index i of the route.
type paramMatch struct {
	i int
	m matcher
}

type headerMatch struct {
	name string
	m    matcher
}

type headerTemplate struct {
	Name string
	T    *valueTemplate
}

// Set is the loaded scenarios of a mock, compiled.
type Set struct {
	ByName  map[string]*Compiled
	Initial *Compiled // active in new sessions
	// Doc is the name of the document whose scenarios these are, under
	// which a session keeps its active scenario and rule counters apart
	// from other documents'; "" for a mock of one document.
	Doc   string
	rules *state.RuleSet // the rules of every scenario, counted together
}

// Compiling is what compiling scenarios takes of the document: its
// operations and webhooks, each operation's success status, and where
// to say which shipped scenarios do not fit.
type Compiling struct {
	Doc *openapi.Document
	// Name names the document in a mock of several (Set.Doc); "" for a
	// mock of one.
	Name    string
	Success func(*openapi.Operation) int
	Log     *slog.Logger
}

// CompileScenarios checks the scenarios against the document and compiles
// them. Shipped scenarios that do not fit a custom document are left out;
// user scenarios that do not fit are errors, every problem listed.
func CompileScenarios(sv Compiling, shipped, user []*Scenario, active string) (*Set, error) {
	set := &Set{ByName: map[string]*Compiled{}, Doc: sv.Name}
	var errs []error
	for _, sc := range shipped {
		c, err := sv.compileScenario(sc)
		if err != nil {
			sv.Log.Debug("shipped scenario does not fit this document; left out", "scenario", sc.Name, "why", err.Error())
			continue
		}
		set.ByName[sc.Name] = c
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
		c, err := sv.compileScenario(sc)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		set.ByName[sc.Name] = c
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if err := set.Activate(active, false); err != nil {
		return nil, err
	}
	set.rules = state.NewRuleSet(sv.Name)
	for _, sc := range set.ByName {
		for _, r := range sc.rules {
			r.count = set.rules.Add(r.Name, r.every)
		}
	}
	return set, nil
}

// Activate makes the scenarios active names (one, or several with
// commas, their rules in that order; a name ending in * stands for every
// name it starts, sorted) active in new sessions. A name the set does
// not have is an error, unless lenient (a mock serving several
// documents, whose other documents may have it); none of the names
// leaves no scenario active.
func (set *Set) Activate(active string, lenient bool) error {
	if active == "" {
		return nil
	}
	// One name, or several with commas: their rules in that order.
	// A name ending in * stands for every name it starts, sorted.
	initial, found := &Compiled{Name: active}, false
	for _, n := range strings.Split(active, ",") {
		names := []string{n}
		if prefix, ok := strings.CutSuffix(n, "*"); ok {
			names = nil
			for m := range set.ByName {
				if strings.HasPrefix(m, prefix) {
					names = append(names, m)
				}
			}
			sort.Strings(names)
		}
		if len(names) == 0 && !lenient {
			return fmt.Errorf("no scenario name starts with %q; known: %s", strings.TrimSuffix(n, "*"), set.Names())
		}
		for _, m := range names {
			sc := set.ByName[m]
			if sc == nil && lenient {
				continue // another document's
			}
			if sc == nil {
				return fmt.Errorf("no scenario is named %q; known: %s", m, set.Names())
			}
			initial.rules, found = append(initial.rules, sc.rules...), true
		}
	}
	if sc := set.ByName[active]; sc != nil {
		initial = sc
	}
	if found {
		set.Initial = initial
	}
	return nil
}

// Named returns the scenario called name: a loaded one, or the initial
// one when it is several active together ("a,b"); nil for none.
func (set *Set) Named(name string) *Compiled {
	if sc := set.ByName[name]; sc != nil {
		return sc
	}
	if set.Initial != nil && set.Initial.Name == name {
		return set.Initial
	}
	return nil
}

// Sorted returns the names of the loaded scenarios, sorted.
func (set *Set) Sorted() []string {
	names := make([]string, 0, len(set.ByName))
	for n := range set.ByName {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Names lists the loaded scenarios, for messages: "(none)" when there
// are none.
func (set *Set) Names() string {
	if len(set.ByName) == 0 {
		return "(none)"
	}
	return strings.Join(set.Sorted(), ", ")
}

func (sv Compiling) compileScenario(sc *Scenario) (*Compiled, error) {
	if sc.Name == "" {
		return nil, fmt.Errorf("%s: the scenario has no name", sc.where(-1))
	}
	if strings.ContainsAny(sc.Name, " \t\r\n,") {
		return nil, fmt.Errorf("%s: scenario name %q has spaces or commas", sc.where(-1), sc.Name)
	}
	c := &Compiled{Name: sc.Name, Def: sc}
	var errs []error
	for i := range sc.Rules {
		r, problems := sv.compileRule(sc, i)
		for _, p := range problems {
			errs = append(errs, fmt.Errorf("%s: rule %d: %w", sc.where(i), i+1, p))
		}
		c.rules = append(c.rules, r)
	}
	return c, errors.Join(errs...)
}

// compileRule compiles rule i of sc and returns every problem it has.
func (sv Compiling) compileRule(sc *Scenario, i int) (*Script, []error) {
	def := &sc.Rules[i]
	b := &ruleBuild{sv: sv, def: def, r: &Script{
		Index: i,
		Name:  fmt.Sprintf("scenario %s, rule %d", sc.Name, i+1),
		times: int64(def.Times), every: int64(def.Every),
		status: def.Respond.Status, Delay: def.Respond.Delay, OffContract: def.OffContract,
	}}
	b.limits()
	b.operation()
	b.matchers()
	b.respHeaders()
	b.respBody()
	b.stream()
	b.webhooks()
	b.declared()
	return b.r, b.errs
}

// ruleBuild is a rule being compiled: the rule so far, the operations it
// applies to, and its problems.
type ruleBuild struct {
	sv   Compiling
	def  *Rule
	r    *Script
	ops  []*openapi.Operation // those when.operation leaves: all but one at most
	errs []error
}

// fail notes a problem of the rule.
func (b *ruleBuild) fail(format string, args ...any) {
	b.errs = append(b.errs, fmt.Errorf(format, args...))
}

// limits checks the rule's counts, delay, fault and status.
func (b *ruleBuild) limits() {
	if b.def.Times < 0 || b.def.Every < 0 {
		b.fail("times and every may not be negative")
	}
	if b.def.Respond.Delay < 0 || b.def.Respond.Delay > maxDelay {
		b.fail("delay %s is not between 0 and %s", b.def.Respond.Delay, maxDelay)
	}
	if b.def.Respond.Fault != "" {
		f, err := lookupFault(b.def.Respond.Fault)
		if err != nil {
			b.errs = append(b.errs, err)
		}
		b.r.Fault = f
	}
	if b.def.Respond.Status != 0 && (b.def.Respond.Status < 100 || b.def.Respond.Status > 599) {
		b.fail("status %d is not an HTTP status", b.def.Respond.Status)
	}
}

// operation finds the operation when.operation names.
func (b *ruleBuild) operation() {
	b.ops = b.sv.Doc.Operations
	if b.def.When.Operation != "" {
		op := FindOperation(b.sv.Doc, b.def.When.Operation)
		if op == nil {
			b.fail("operation %q is not in the document (write it as METHOD /path/{template})", b.def.When.Operation)
			b.ops = nil
		} else {
			b.ops = []*openapi.Operation{op}
			b.r.ops = map[*openapi.Operation]bool{op: true}
		}
	}
}

// matchers compiles what the rule matches in a request: headers, path
// parameters, token and body.
func (b *ruleBuild) matchers() {
	for _, n := range sortedKeys(b.def.When.Headers) {
		m, err := newMatcher(b.def.When.Headers[n])
		if err != nil {
			b.fail("when.headers.%s: %v", n, err)
		}
		b.r.headers = append(b.r.headers, headerMatch{name: http.CanonicalHeaderKey(n), m: m})
	}
	for _, n := range sortedKeys(b.def.When.Params) {
		if len(b.ops) != 1 || b.def.When.Operation == "" {
			b.fail("when.params needs when.operation")
			break
		}
		i := slices.Index(b.sv.Doc.Router().Route(b.ops[0].Path).Params, n)
		if i < 0 {
			b.fail("when.params.%s: %s has no such path parameter", n, b.ops[0].Path)
			continue
		}
		m, err := newMatcher(b.def.When.Params[n])
		if err != nil {
			b.fail("when.params.%s: %v", n, err)
		}
		b.r.params = append(b.r.params, paramMatch{i: i, m: m})
	}
	if b.def.When.Token != "" {
		m, err := newMatcher(b.def.When.Token)
		if err != nil {
			b.fail("when.token: %v", err)
		}
		b.r.token = &m
	}
	if b.def.When.Body != nil {
		pat, err := NormalizedPattern(b.def.When.Body, "when.body")
		if err != nil {
			b.errs = append(b.errs, err)
		}
		b.r.body, b.r.hasBody = pat, true
	}
}

// respHeaders compiles the templates of the headers the rule answers with.
func (b *ruleBuild) respHeaders() {
	for _, n := range sortedKeys(b.def.Respond.Headers) {
		if !validHeaderName(n) {
			b.fail("respond.headers: %q is not a header name", n)
			continue
		}
		t, err := CompileTemplate(b.def.Respond.Headers[n], "respond.headers."+n)
		if err != nil {
			b.errs = append(b.errs, err)
			continue
		}
		b.r.RespHeaders = append(b.r.RespHeaders, headerTemplate{Name: http.CanonicalHeaderKey(n), T: t})
	}
}

// respBody compiles the body the rule answers with, checked against each
// operation's answer when it has no templates.
func (b *ruleBuild) respBody() {
	if b.def.Respond.Body != nil {
		b.r.HasRespBody = true
		v, err := jsonx.Normalize(b.def.Respond.Body)
		if err != nil {
			b.fail("respond.body: %v", err)
		} else if tree, static, err := compileBody(v, "respond.body"); err != nil {
			b.errs = append(b.errs, err)
		} else {
			b.r.RespBody = tree
			if static && !b.def.OffContract && b.r.Fault == nil {
				for _, op := range b.ops {
					if err := CheckAnswer(op, b.r.StatusFor(b.sv.Success(op)), tree); err != nil {
						b.fail("%s: %v", op.Name, err)
					}
				}
			}
		}
	}
}

// webhooks compiles the webhooks the rule sends, and their bodies.
func (b *ruleBuild) webhooks() {
	for i, c := range b.def.Respond.Webhooks {
		at := fmt.Sprintf("respond.webhooks[%d]", i)
		hooks := b.sv.Doc.Webhook(c.Name)
		if hooks == nil {
			b.fail("%s: %q is not a webhook of the document (declared: %s)", at, cliptext.To(c.Name, 60), b.sv.Doc.WebhookNames())
			continue
		}
		if c.Delay < 0 {
			b.fail("%s.delay: must not be negative", at)
		}
		rw := RuleWebhook{Hooks: hooks, Delay: c.Delay}
		if c.Body != nil {
			rw.HasBody = true
			v, err := jsonx.Normalize(c.Body)
			if err != nil {
				b.fail("%s.body: %v", at, err)
				continue
			}
			tree, static, err := compileBody(v, at+".body")
			if err != nil {
				b.errs = append(b.errs, err)
				continue
			}
			rw.Body = tree
			if static {
				for _, h := range hooks {
					if vs := HookViolations(h, tree); len(vs) > 0 {
						b.fail("%s.body does not match the schema of %s: %s", at, h.Op.Name, journal.Quote(vs, len(vs)))
					}
				}
			}
		}
		b.r.Webhooks = append(b.r.Webhooks, rw)
	}
}

// declared checks that the rule's status is declared by each operation,
// unless the rule is off contract.
func (b *ruleBuild) declared() {
	if !b.def.OffContract && b.def.Respond.Fault == "" && b.def.Respond.Status >= 100 && b.def.Respond.Status <= 599 {
		for _, op := range b.ops {
			if op.Response(b.def.Respond.Status) == nil {
				b.fail("status %d is not declared for %s (declared: %s); set off_contract: true to send it anyway",
					b.def.Respond.Status, op.Name, DeclaredStatuses(op))
			}
		}
	}
}

// FindOperation finds the operation of doc "METHOD /path/template"
// names, or nil.
func FindOperation(doc *openapi.Document, name string) *openapi.Operation {
	method, p, _ := strings.Cut(strings.TrimSpace(name), " ")
	if rt := doc.Router().Route(strings.TrimSpace(p)); rt != nil {
		return rt.Operation(strings.ToUpper(method))
	}
	return nil
}

// NormalizedPattern compiles a body pattern given as YAML or Go values.
func NormalizedPattern(v any, at string) (any, error) {
	n, err := jsonx.Normalize(v)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", at, err)
	}
	return compilePattern(n, at)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// StatusFor returns the status the rule answers with for an operation
// whose success status is success.
func (r *Script) StatusFor(success int) int {
	if r.status != 0 {
		return r.status
	}
	return success
}

// CheckAnswer validates a body against what op declares for status.
func CheckAnswer(op *openapi.Operation, status int, body any) error {
	resp := op.Response(status)
	if resp == nil {
		return fmt.Errorf("status %d is not declared (declared: %s)", status, DeclaredStatuses(op))
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

// DeclaredStatuses lists the statuses op declares, for messages.
func DeclaredStatuses(op *openapi.Operation) string {
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

// HookSchema returns the schema of a hook's JSON body, or nil.
func HookSchema(h *openapi.Hook) *openapi.Schema {
	if h.Op.Body == nil {
		return nil
	}
	if m := h.Op.Body.JSON(); m != nil {
		return m.Schema
	}
	return nil
}

// HookViolations checks a body against a hook's declared request body.
func HookViolations(h *openapi.Hook, body any) []journal.Violation {
	sc := HookSchema(h)
	if sc == nil {
		return nil
	}
	return journal.Violations(sc.Validate(body), "request")
}
