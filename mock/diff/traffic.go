package diff

import (
	"cmp"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/journal"
)

// Traffic is what recorded traffic showed when judged against OLD and
// against NEW (see Report.Weigh).
type Traffic struct {
	// Exchanges counts the recorded exchanges judged.
	Exchanges int `json:"exchanges"`
	// Accepted counts the exchanges OLD accepted: the others broke OLD
	// already, and are not the new version's doing.
	Accepted int `json:"accepted"`
	// Broken lists, in the order recorded, the exchanges that OLD
	// accepted and NEW does not: a request NEW refuses, or an answer it
	// forbids.
	Broken []Broken `json:"broken"`
}

// Broken is one recorded exchange that OLD accepted and NEW does not,
// with its violations as judged against NEW.
type Broken struct {
	journal.Judged
	// Rules names the rules of the changes that explain it, each once,
	// in the report's order; empty when none does: a break the
	// comparison of the documents alone does not show.
	Rules []string `json:"rules"`
}

// Evidence is what recorded traffic showed of one change that breaks
// clients or providers.
type Evidence struct {
	// Reached counts the recorded exchanges of the change's operation
	// (all of them for a change to the document as a whole).
	Reached int `json:"reached"`
	// Broken counts those that OLD accepted, NEW does not, and the change
	// explains.
	Broken int `json:"broken"`
}

// Weigh joins the report with recorded traffic, judged against OLD in
// old and against NEW in new (contract reports of the same traffic, as
// mock.Server.CheckTraffic returns them). The exchanges NEW breaks that
// OLD accepted are listed, each with the changes that explain it (see
// Change.explains). Each change that breaks either side, but for a
// webhook's or a callback's, is told how many exchanges reached its
// operation, and how many of them it explains. A change with none is a
// break no recorded exchange shows; an exchange with no change, one the
// documents alone do not show.
func (r *Report) Weigh(old, new *journal.ContractReport) {
	none := &journal.Traffic{}
	ot, nt := cmp.Or(old.Traffic, none), cmp.Or(new.Traffic, none)
	t := &Traffic{Broken: []Broken{}}
	for i := range r.Changes {
		c := &r.Changes[i]
		switch {
		case c.Level == Compatible || c.hook:
			c.Traffic = nil
		case c.Operation == "":
			c.Traffic = &Evidence{Reached: nt.Exchanges}
		default:
			c.Traffic = &Evidence{Reached: max(reached(old, c.Operation), reached(new, c.Operation))}
		}
	}
	brokeOld := map[string]bool{}
	for _, j := range ot.Broken {
		brokeOld[j.Source] = true
	}
	t.Accepted = ot.Exchanges - len(ot.Broken)
	t.Exchanges = nt.Exchanges
	for _, j := range nt.Broken {
		if brokeOld[j.Source] {
			continue
		}
		b := Broken{Judged: j, Rules: []string{}}
		for _, i := range r.explain(&j) {
			if rule := r.Changes[i].Rule; !slices.Contains(b.Rules, rule) {
				b.Rules = append(b.Rules, rule) // each once, though several changes of a rule explain it
			}
			r.Changes[i].Traffic.Broken++
		}
		t.Broken = append(t.Broken, b)
	}
	r.Traffic = t
}

// reached counts the exchanges of operation op in a contract report.
func reached(cr *journal.ContractReport, op string) int {
	n := 0
	for _, o := range cr.Operations {
		if o.Operation == op {
			n += o.Exchanges
		}
	}
	return n
}

// explain returns the indices of the changes that explain the ways an
// exchange broke NEW (see Weigh), each once, in the report's order.
func (r *Report) explain(j *journal.Judged) []int {
	var out []int
	routed := r.routed(j)
	for _, v := range j.Violations {
		side := Request
		if v.Direction == "response" {
			side = Response
		}
		for i := range r.Changes {
			c := &r.Changes[i]
			if c.Level != Compatible && c.explains(j, v, side, routed) && !slices.Contains(out, i) {
				out = append(out, i)
			}
		}
	}
	slices.Sort(out)
	return out
}

// routed is the operation of OLD exchange j went to, as OLD's router
// finds it ("" for none): where NEW routes it nowhere, its removal
// explains it.
func (r *Report) routed(j *journal.Judged) string {
	if r.old == nil {
		return ""
	}
	route, _, _ := r.old.Find((&url.URL{Path: j.Path}).EscapedPath(), j.Method)
	if route == nil || route.Operation(j.Method) == nil {
		return ""
	}
	return route.Operation(j.Method).Name
}

// explains reports whether the change could be why exchange j broke NEW
// with violation v on side: the removal of routed, the operation of OLD
// the request went to, where NEW routes it nowhere; a change at the
// schema keyword v names, of
// j's operation and side; else a change of j's operation and side (of
// the document, for credentials) of the kind of what v names: its
// security, a parameter, its body, or the answer's status, media type,
// a header or its body.
func (c *Change) explains(j *journal.Judged, v journal.Violation, side Side, routed string) bool {
	switch {
	case c.hook:
		return false // a webhook's or a callback's: no recorded request is one
	case v.Path == "route":
		return c.Rule == "operation-removed" && c.Operation == routed
	case v.Schema != "":
		return c.Operation == j.Operation && c.Side == side && (c.at(v.Schema) || c.inside(v, side, j.Status))
	case v.Path == "security" && c.Operation == "":
		return c.Side == Document && strings.HasPrefix(c.Rule, "security-")
	case c.Operation != j.Operation || c.Side != side:
		return false
	case c.of != "" && !names(v.Path, c.of):
		return false // another parameter's, another header's
	case side == Response && !c.answers(j.Status):
		return false // another status's
	}
	for _, prefix := range kinds(v, side) {
		if strings.HasPrefix(c.Rule, prefix) {
			return true
		}
	}
	return false
}

// kinds are the starts of the rules of the changes that may explain a
// violation of no schema on side, by what it names.
func kinds(v journal.Violation, side Side) []string {
	param := strings.HasPrefix(v.Path, "query.") || strings.HasPrefix(v.Path, "path.") || strings.HasPrefix(v.Path, "cookie.")
	switch {
	case v.Path == "security":
		return []string{"security-"}
	case side == Request && v.Path == "header.Content-Type":
		return []string{"request-media-type-", "request-body-"}
	case side == Request && (param || strings.HasPrefix(v.Path, "header.")):
		return []string{"request-parameter-"}
	case side == Request:
		return []string{"request-body-", "request-property-", "request-required-property-"}
	case v.Path == "response":
		return []string{"response-status-", "response-success-status-", "response-media-type-"}
	case strings.HasPrefix(v.Path, "header."):
		return []string{"response-header-", "response-required-header-"}
	}
	return []string{"response-body-", "response-property-"}
}

// at reports whether the change is at the value a schema violation names
// (a fragment, "#/components/schemas/Plant/properties/name/maxLength"),
// or at a value that holds it or that it holds, in either document.
func (c *Change) at(schema string) bool {
	p := strings.TrimPrefix(schema, "#")
	for _, l := range []*Location{c.Old, c.New} {
		if l != nil && (below(p, l.Pointer) || below(l.Pointer, p)) {
			return true
		}
	}
	return c.found.also != "" && p == c.found.also
}

// inside reports whether the change is to a schema under the value v
// finds matching none of its anyOf or oneOf alternatives, in a body of
// side (an answer's of status): such a violation names no keyword in
// them, and the change may be why none matches. The value is known by
// its path, as the alternatives may be anywhere in the document.
func (c *Change) inside(v journal.Violation, side Side, status int) bool {
	if !c.found.body || !strings.HasSuffix(v.Schema, "/anyOf") && !strings.HasSuffix(v.Schema, "/oneOf") ||
		side == Response && !c.answers(status) {
		return false
	}
	p := items.ReplaceAllString(v.Path, "[]")
	return p == "" || c.found.path == p || strings.HasPrefix(c.found.path, p+".") || strings.HasPrefix(c.found.path, p+"[")
}

// items matches an item's index in a violation's path.
var items = regexp.MustCompile(`\[[0-9]+\]`)

// below reports whether pointer p is q or below it.
func below(p, q string) bool {
	return p == q || strings.HasPrefix(p, q+"/")
}

// answers reports whether the change may concern an answer of status:
// it is under a response of that status, its class or default, or under
// none that a pointer names (a response of the components).
func (c *Change) answers(status int) bool {
	named := false
	for _, l := range []*Location{c.Old, c.New} {
		if l == nil {
			continue
		}
		_, rest, ok := strings.Cut(l.Pointer, "/responses/")
		if !ok || strings.HasPrefix(l.Pointer, "/components/responses/") {
			continue
		}
		code, _, _ := strings.Cut(rest, "/")
		named = true
		if code == "default" || code == strconv.Itoa(status) || len(code) == 3 && code[1:] == "XX" && int(code[0]-'0') == status/100 {
			return true
		}
	}
	return !named
}

// names reports whether a violation's path is of value of ("query.limit",
// "header.ETag", a header's in any case) or of a part of it.
func names(path, of string) bool {
	if len(path) > len(of) && (path[len(of)] == '.' || path[len(of)] == '[') {
		path = path[:len(of)]
	}
	if strings.HasPrefix(of, "header.") {
		return strings.EqualFold(path, of)
	}
	return path == of
}

// words says what the traffic showed of a change of operation op (""
// for the document as a whole): "2 of 5 recorded exchanges of POST
// /plants break on it".
func (e *Evidence) words(op string) string {
	of := ""
	if op != "" {
		of = " of " + op
	}
	switch {
	case e.Reached == 0 && op != "":
		return "no recorded exchange reaches " + op
	case e.Reached == 0:
		return "no exchange was recorded"
	case e.Broken == 0:
		return fmt.Sprintf("none of %s%s breaks on it", plural(e.Reached, "recorded exchange"), of)
	}
	return fmt.Sprintf("%d of %s%s %s on it", e.Broken, plural(e.Reached, "recorded exchange"), of, verb(e.Broken))
}

// summary counts what the traffic showed: "of 6 recorded exchanges OLD
// accepted 5; NEW breaks 2 of them (1 explained by no change)".
func (t *Traffic) summary() string {
	s := fmt.Sprintf("of %s OLD accepted %d; NEW breaks %d of them", plural(t.Exchanges, "recorded exchange"), t.Accepted, len(t.Broken))
	if n := t.unexplained(); n > 0 {
		s += fmt.Sprintf(" (%d explained by no change)", n)
	}
	return s
}

// unexplained counts the exchanges listed that no change explains.
func (t *Traffic) unexplained() int {
	n := 0
	for _, b := range t.Broken {
		if len(b.Rules) == 0 {
			n++
		}
	}
	return n
}

// why names the changes that explain an exchange, or says none does.
func (b *Broken) why() string {
	if len(b.Rules) == 0 {
		return "explained by no change"
	}
	return strings.Join(b.Rules, ", ")
}

// exchange names the exchange: "requests.json: seq 3: POST /plants ->
// 201".
func (b *Broken) exchange() string {
	s := b.Source + ": " + b.Method + " " + b.Path
	if b.Status != 0 {
		s += fmt.Sprintf(" -> %d", b.Status)
	}
	return s
}
