package pipeline

import (
	"fmt"
	"strings"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/scenario"
)

// CompileMatch returns the predicate of m.
func (s *Engine) CompileMatch(m journal.Match) (func(journal.Entry) bool, error) {
	var pat any
	if m.Body != nil {
		var err error
		if pat, err = scenario.NormalizedPattern(m.Body, "body"); err != nil {
			return nil, err
		}
	}
	docs := s.Mounted()
	sv := docs.Docs[0]
	if m.Document != "" {
		if sv = docs.Named(m.Document); sv == nil || !docs.Several() {
			return nil, fmt.Errorf("document %q is not served (documents: %s)", Clip(m.Document, 60), strings.Join(docs.Names(), ", "))
		}
	}
	var name string
	if m.Operation != "" {
		if name = sv.nameOf(m.Operation); name == "" && m.Document == "" {
			for _, o := range docs.Docs[1:] {
				if name = o.nameOf(m.Operation); name != "" {
					break
				}
			}
		}
		if name == "" {
			form := "METHOD /path/{template}"
			if sv.Hooks.Any() {
				form += ", webhook NAME or callback NAME"
			}
			return nil, fmt.Errorf("operation %q is not in the document (write it as %s; declared: %s)", m.Operation, form, sv.operationNames())
		}
	}
	var outbound bool
	switch m.Direction {
	case "", "inbound":
	case "outbound":
		outbound = true
	default:
		return nil, fmt.Errorf("direction %q is neither inbound nor outbound", Clip(m.Direction, 20))
	}
	return func(e journal.Entry) bool {
		if name != "" && e.Operation != name || m.Status != 0 && e.Status != m.Status || m.Document != "" && e.Document != m.Document {
			return false
		}
		if m.Direction != "" && (e.Direction == "outbound") != outbound {
			return false
		}
		if pat != nil {
			v, err := jsonx.Decode(e.Body)
			if err != nil || !scenario.MatchPattern(pat, v) {
				return false
			}
		}
		return m.Func == nil || m.Func(e)
	}, nil
}

// nameOf returns the journal's name of the operation, webhook or
// callback name gives, or "" when sv declares none of that name.
func (sv *Served) nameOf(name string) string {
	if op := sv.operation(name); op != nil {
		return op.Name
	}
	return sv.hookName(name)
}

// hookName returns the journal's name of the webhook or callback name
// gives ("webhook /plant/webhook", "callback onEvent"), or "".
func (sv *Served) hookName(name string) string {
	kind, rest, _ := strings.Cut(strings.TrimSpace(name), " ")
	var hooks []*openapi.Hook
	switch kind {
	case "webhook":
		hooks = sv.Doc.Webhooks
	case "callback":
		for _, op := range sv.Doc.Operations {
			hooks = append(hooks, op.Callbacks...)
		}
	}
	for _, h := range hooks {
		if h.Op.Name == kind+" "+rest {
			return h.Op.Name
		}
	}
	return ""
}

// operationNames lists the document's operations, for messages.
func (sv *Served) operationNames() string {
	names := make([]string, len(sv.Doc.Operations))
	for i, op := range sv.Doc.Operations {
		names[i] = op.Name
	}
	return Clip(strings.Join(names, ", "), 300)
}
