package verify

import (
	"bytes"
	"fmt"
	"mime"
	"slices"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/exercise"
	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// Against a previous version of the document (Options.Previous): each
// failure is judged again, on the same exchange, by OLD, so that a
// report can tell the failures that come with the new version from
// those the service had already.

// What a failure is against the previous version of the document
// (Failure.AgainstPrevious).
const (
	// Introduced: the service keeps OLD on this point, only the
	// document's new version is broken: the failure comes with the
	// change (or OLD lacks the operation).
	Introduced = "new"
	// Inherited: the service breaks OLD the same way.
	Inherited = "old"
)

// Previous is how the failures of a run stand against the previous
// version of the document (Options.Previous).
type Previous struct {
	// Title and Version are the previous version's.
	Title   string `json:"title"`
	Version string `json:"version"`
	// Failures is how many failures the run found; New how many of them
	// come with the new version (Introduced).
	Failures int `json:"failures"`
	New      int `json:"new"`
}

// String is the summary's line: "1 of 2 failures is new against the
// previous version (Shop 1.0.0)".
func (p *Previous) String() string {
	verb := "are"
	if p.New == 1 {
		verb = "is"
	}
	return fmt.Sprintf("%d of %s %s new against the previous version (%s %s)", p.New, plural(p.Failures, "failure"), verb, p.Title, p.Version)
}

// against is OLD, loaded, with its operations by Key.
type against struct {
	doc    *openapi.Document
	ops    map[string]*openapi.Operation
	prefix string // the target's path, as the runner's
}

// loadPrevious loads OLD; nil when data is empty.
func loadPrevious(data []byte, prefix string) (*against, error) {
	if len(data) == 0 {
		return nil, nil
	}
	doc, err := openapi.Load(data)
	if err != nil {
		return nil, fmt.Errorf("verify: the previous document: %w", err)
	}
	a := &against{doc: doc, ops: map[string]*openapi.Operation{}, prefix: prefix}
	for _, op := range doc.Operations {
		a.ops[op.Key()] = op
	}
	return a, nil
}

// judge marks each failure of fs (not advice: a writeOnly property
// answered is always advice), seen on the exchange s with op of the new
// version, Inherited where OLD refuses the exchange the same way, else
// Introduced.
func (a *against) judge(op *openapi.Operation, s *sent, fs []*Failure) {
	old := a.ops[op.Key()]
	for _, f := range fs {
		if f.Strength != Fail {
			continue
		}
		f.AgainstPrevious, f.previousLacks = Introduced, old == nil
		if old != nil && a.breaks(op, old, s, f) {
			f.AgainstPrevious = Inherited
		}
	}
}

// breaks reports whether OLD's operation old is broken by exchange s
// the way f says the new version's op is: the same rule, and for a body
// or header the same value wrong in the same way.
func (a *against) breaks(op, old *openapi.Operation, s *sent, f *Failure) bool {
	if s.req.Method != op.Method {
		// A method the path does not declare (see unsupported): OLD may
		// declare it.
		return a.ops[openapi.OperationKey(s.req.Method, op.Path)] == nil
	}
	switch f.Rule {
	case "timeout", "no answer", "state":
		// No answer breaks any version; what a sequence finds (an item
		// not kept as created) is the service's, whatever the version.
		return true
	case "valid input refused":
		return succeeds(old) && !a.invalid(old, s, f)
	case "accepted invalid input":
		return a.invalid(old, s, f)
	case "error status":
		return a.invalid(old, s, f) && old.Response(s.resp.StatusCode) == nil && refuses(old)
	}
	if slices.Contains(s.items, f) {
		// A stream's items are judged as they come, and not kept: OLD is
		// broken where it streams the same answer.
		return old.Stream(s.resp.StatusCode, s.resp.Header.Get("Content-Type")) != nil
	}
	if f.Rule == "error shape" && !a.invalid(old, s, f) {
		return false
	}
	for _, p := range exercise.Judge(a.doc, old, s.resp, s.answer) {
		switch f.Rule {
		case "body", "header":
			if p.Kind == f.Rule && p.Text == f.Text {
				return true
			}
		case "error shape": // a refusal's body or Content-Type
			if p.Kind != "header" && p.Text == f.Text {
				return true
			}
		default: // 5xx, status, content-type: of the answer, not a schema
			if p.Kind == f.Rule {
				return true
			}
		}
	}
	return false
}

// invalid reports whether OLD calls the request of s invalid where the
// new version does (f being the failure of its answer): it lacks the
// credentials of a scheme OLD's operation asks, or its parameters or
// body break OLD's operation, its body read as the mock reads it (JSON,
// a form, a sequence of items). Another body with a schema (XML, say)
// counts as invalid, as verify cannot tell.
func (a *against) invalid(old *openapi.Operation, s *sent, f *Failure) bool {
	if scheme, ok := strings.CutPrefix(f.Schema, "#/components/securitySchemes/"); ok {
		scheme, _, _ = strings.Cut(scheme, "/")
		return slices.ContainsFunc(old.Security, func(alt openapi.Requirement) bool {
			return slices.ContainsFunc(alt, func(s *openapi.SecurityScheme) bool { return s.Name == scheme })
		})
	}
	route, raw := a.doc.Router().FindFor(strings.TrimPrefix(s.req.URL.EscapedPath(), a.prefix), s.req.Method)
	if route == nil || route.Operation(s.req.Method) != old {
		return true
	}
	if len(old.ValidateParams(s.req, raw)) > 0 {
		return true
	}
	if len(s.body) == 0 {
		return old.Body != nil && old.Body.Required
	}
	if old.Body == nil {
		return false // a body OLD does not read
	}
	ct := s.req.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return true
	}
	m := old.Body.Media(mt)
	switch {
	case m == nil:
		return true
	case m.Itemized():
		vs, err := m.CheckItems(bytes.NewReader(s.body), ct, true)
		return err != nil || len(vs) > 0
	case m.IsForm():
		v, vs := m.DecodeForm(s.body, ct)
		return len(vs) > 0 || m.Schema != nil && len(m.Schema.ValidateRequest(v)) > 0
	case !openapi.IsJSON(mt) || m.Schema == nil:
		return m.Schema != nil
	}
	v := decode(s.body)
	return v == nil || len(m.Schema.ValidateRequest(v)) > 0
}

// marked is the line that says where a failure stands against the
// previous version, "" when the run had none.
func (f *Failure) marked() string {
	switch {
	case f.previousLacks:
		return "new with this version of the document: the previous version lacks " + f.Operation
	case f.AgainstPrevious == Introduced:
		return "new with this version of the document"
	case f.AgainstPrevious == Inherited:
		return "already failing against the previous version"
	}
	return ""
}

// countPrevious sets the report's Previous from its failures, those
// judged on no answer (a workflow's) Introduced.
func (r *Report) countPrevious(a *against) {
	if a == nil {
		return
	}
	r.Previous = &Previous{Title: a.doc.Title, Version: a.doc.Version, Failures: len(r.Failures)}
	for _, f := range r.Failures {
		if f.AgainstPrevious == "" {
			f.AgainstPrevious = Introduced
		}
		if f.AgainstPrevious == Introduced {
			r.Previous.New++
		}
	}
}
