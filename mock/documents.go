package mock

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/plantmock/plantmock"
	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/mount"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/pipeline"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/webhook"
)

// Document is one of several documents a Server serves side by side
// (Options.Documents).
type Document struct {
	// Spec is the document, OpenAPI 3.0 or 3.1, YAML or JSON.
	Spec []byte
	// Base is the base path it is mounted at, such as /billing: a
	// request whose path starts with it goes to this document, with the
	// rest of its path. Empty (the default) means the path of the
	// document's first server URL (server variables at their defaults),
	// else /.
	Base string
	// Name names the document in the journal, the admin API and scenario
	// files (a scenario's document). Empty (the default) means its base
	// path without the leading /, or its title for a document at /.
	Name string
	// Source says where the document was read from (its file) in
	// messages that name it; empty for none.
	Source string
}

// SplitSpec splits a --spec value into the name and base path it mounts
// its document at ("" for none) and the document's file: FILE,
// BASE=FILE where BASE starts with "/" (New checks it), or
// NAME:BASE=FILE. A file whose name holds "=" is named as itself unless
// what comes before the first "=" is BASE or NAME:BASE.
func SplitSpec(v string) (name, base, file string, err error) { return mount.SplitSpec(v) }

// build loads the documents of c and works out what serving them takes,
// with the scenarios and webhooks of c: what New starts with, and what
// Reload swaps in. Of several documents, one whose bytes are those of a
// document of prev (what is served now; nil at start) is not read
// again. It does not read c.SeedData.
func (s *Server) build(c Content, prev *pipeline.Mounts) (*pipeline.Mounts, error) {
	// The shipped scenarios are parsed beside the documents: they do not
	// depend on them, and on a second core that takes them off the
	// start-up.
	var shippedc chan []*Scenario
	if !c.NoShippedScenarios {
		shippedc = make(chan []*Scenario, 1)
		go func() { shippedc <- scenario.ShippedScenarios() }()
	}
	docs := c.Documents
	several := len(docs) > 0
	if several && len(c.Spec) > 0 {
		return nil, &OptionError{Name: "spec", Err: errors.New("give Spec or Documents, not both")}
	}
	if !several {
		spec := c.Spec
		if len(spec) == 0 {
			spec = []byte(plantmock.OpenAPI)
		}
		docs = []Document{{Spec: spec}}
	}
	served := make([]*pipeline.Served, len(docs))
	for i, d := range docs {
		digest := d.digest(c.Strict)
		if old := prev.Digested(digest); several && old != nil {
			// Unchanged since the mock last read it: what it worked out
			// is kept, and only the webhooks' options and the scenarios
			// are taken anew.
			sv := *old
			sv.Read = false
			hs, err := webhook.NewSet(sv.Doc, sv.Plans, c.Webhooks, c.WebhookAllow)
			if err != nil {
				return nil, err
			}
			sv.Hooks = *hs
			served[i] = &sv
			continue
		}
		doc, err := openapi.Load(d.Spec)
		if err != nil {
			if several {
				err = fmt.Errorf("%s: %w", d.label(i), err)
			}
			return nil, &SpecError{Err: err}
		}
		if several {
			if d, err = d.mounted(doc); err != nil {
				return nil, &SpecError{Err: fmt.Errorf("%s: %w", d.label(i), err)}
			}
		}
		if served[i], err = s.load(c, d, doc); err != nil {
			return nil, err
		}
		served[i].Digest, served[i].Read = digest, true
		if several {
			served[i].Plans.Generate(valuesOf(prev, s.e.Seed, served[i].Name))
		}
	}
	m, err := pipeline.NewMounts(served)
	if err != nil {
		return nil, &SpecError{Err: err}
	}
	var shipped []*Scenario
	if shippedc != nil {
		shipped = <-shippedc
	}
	own, err := scenariosOf(m, c.Scenarios)
	if err != nil {
		return nil, &ScenarioError{Err: err}
	}
	for i, sv := range served {
		scripted := scenario.Compiling{Doc: sv.Doc, Name: sv.Name, Success: func(op *openapi.Operation) int { return sv.Plans[op].Success }, Log: s.e.Log}
		active := c.Scenario
		if several {
			active = ""
		}
		if sv.Scenarios, err = scenario.CompileScenarios(scripted, shipped, own[i], active); err != nil {
			if several {
				err = fmt.Errorf("document %s: %w", sv.Name, err)
			}
			return nil, &ScenarioError{Err: err}
		}
	}
	if several && c.Scenario != "" {
		if err := activate(m, c.Scenario); err != nil {
			return nil, &ScenarioError{Err: err}
		}
	}
	return m, nil
}

// valuesOf returns the generated values of the document called name, of
// several: those it had in prev, before a reload, else its own sequence
// from the mock's seed, so that it generates what it would alone, and
// does not depend on the other documents' requests.
func valuesOf(prev *pipeline.Mounts, seed uint64, name string) *answer.Values {
	if prev != nil {
		if sv := prev.Named(name); sv != nil {
			if v := sv.Plans.Values(); v != nil {
				return v
			}
		}
	}
	return &answer.Values{Seed: seed}
}

// label names the i-th document (from 0) in messages: its source, else
// its number.
func (d Document) label(i int) string {
	if d.Source != "" {
		return d.Source
	}
	return fmt.Sprint("document ", i+1)
}

// digest tells a document from another: its bytes, its base path and
// name as given, and whether mistakes refuse it.
func (d Document) digest(strict bool) [sha256.Size]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%t %d:%s %d:%s ", strict, len(d.Base), d.Base, len(d.Name), d.Name)
	h.Write(d.Spec)
	return [sha256.Size]byte(h.Sum(nil))
}

// mounted returns d with its base path and name worked out: the base
// path given, else the path of doc's first server URL, else /; the name
// given, else the base path without its /, else doc's title. Base is ""
// for /.
func (d Document) mounted(doc *openapi.Document) (Document, error) {
	base := d.Base
	if base == "" {
		base = doc.ServerPath
	}
	if base == "" {
		base = "/"
	}
	clean, err := mount.CleanBase(base)
	if err != nil {
		return d, err
	}
	if d.Name == "" {
		d.Name = strings.TrimPrefix(clean, "/")
		if d.Name == "" {
			d.Name = strings.TrimSpace(doc.Title)
		}
	}
	d.Base = ""
	if clean != "/" {
		d.Base = clean
	}
	return d, nil
}

// scenariosOf gives each document of m the scenarios that are its own:
// those whose document names it (by name or title), and those that name
// none whose operations it alone declares. A scenario whose document is
// none of m's, or whose operations more than one declares, is refused.
func scenariosOf(m *pipeline.Mounts, all []*Scenario) ([][]*Scenario, error) {
	own := make([][]*Scenario, len(m.Docs))
	if !m.Several() {
		own[0] = all
		return own, nil
	}
	var errs []string
	for _, sc := range all {
		if sc == nil {
			continue
		}
		var at []int
		for i, sv := range m.Docs {
			switch {
			case sc.Document != "":
				if sc.Document == sv.Name || sc.Document == strings.TrimSpace(sv.Doc.Title) {
					at = append(at, i)
				}
			case declaresAll(sv.Doc, sc):
				at = append(at, i)
			}
		}
		switch {
		case len(at) == 1:
			own[at[0]] = append(own[at[0]], sc)
		case sc.Document != "" && len(at) == 0:
			errs = append(errs, fmt.Sprintf("scenario %q: document %q is none of the documents served (%s)", sc.Name, sc.Document, strings.Join(m.Names(), ", ")))
		case sc.Document != "":
			errs = append(errs, fmt.Sprintf("scenario %q: document %q is the title of more than one document; name one of %s", sc.Name, sc.Document, strings.Join(m.Names(), ", ")))
		case len(at) == 0:
			errs = append(errs, fmt.Sprintf("scenario %q: no document served declares all its operations; say which it is for with document: (one of %s)", sc.Name, strings.Join(m.Names(), ", ")))
		default:
			names := make([]string, len(at))
			for k, i := range at {
				names[k] = m.Docs[i].Name
			}
			errs = append(errs, fmt.Sprintf("scenario %q: its operations are declared by more than one document (%s); say which it is for with document:", sc.Name, strings.Join(names, ", ")))
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return own, nil
}

// declaresAll reports whether doc declares every operation and webhook
// sc's rules name.
func declaresAll(doc *openapi.Document, sc *Scenario) bool {
	for _, r := range sc.Rules {
		if r.When.Operation != "" && scenario.FindOperation(doc, r.When.Operation) == nil {
			return false
		}
	}
	return true
}

// activate makes the scenarios of names active in new sessions in each
// document that has them; a name no document has is an error.
func activate(m *pipeline.Mounts, names string) error {
	for _, sv := range m.Docs {
		if err := sv.Scenarios.Activate(names, true); err != nil {
			return err
		}
	}
	for _, n := range strings.Split(names, ",") {
		prefix, wild := strings.CutSuffix(n, "*")
		if !slices.ContainsFunc(m.Docs, func(sv *pipeline.Served) bool {
			if !wild {
				return sv.Scenarios.ByName[n] != nil
			}
			return slices.ContainsFunc(sv.Scenarios.Sorted(), func(k string) bool { return strings.HasPrefix(k, prefix) })
		}) {
			return fmt.Errorf("no document has a scenario named %q", n)
		}
	}
	return nil
}

// load works out what serving document d of c takes, with the webhooks
// of c; its scenarios come after (see build). d.Base is "" for /.
func (s *Server) load(c Content, d Document, doc *openapi.Document) (*pipeline.Served, error) {
	if c.Strict && len(doc.Mistakes) > 0 {
		return nil, &SpecError{Err: strictRefusal(doc.Mistakes, "mistakes")}
	}
	for _, f := range doc.Mistakes {
		s.e.Log.Warn("the document has a mistake: the piece at fault is left out", "mistake", f)
	}
	answers := gen.AnswerRoots(doc)
	oversized, over := gen.Oversized(answers, gen.Budget{})
	doc.Warnings = append(doc.Warnings, oversized...)
	doc.Warnings = append(doc.Warnings, gen.Unmatched(answers)...)
	for _, op := range doc.Operations {
		if strings.HasPrefix(d.Base+op.Path+"/", AdminPrefix) {
			return nil, &SpecError{Err: fmt.Errorf("path %s is under %s, which plantmock keeps for its admin API", d.Base+op.Path, AdminPrefix)}
		}
	}
	sv := &pipeline.Served{Doc: doc, Name: d.Name, Mount: d.Base, Source: d.Source, Secrets: journal.NewSecrets(doc), Log: s.e.Log, Over: over, Raw: d.Spec}
	if err := sv.BuildPlans(); err != nil { // adds the plans' caveats
		return nil, &SpecError{Err: err}
	}
	if c.Strict && len(doc.Warnings) > 0 {
		return nil, &SpecError{Err: strictRefusal(doc.Warnings, "caveats")}
	}
	for _, w := range doc.Warnings {
		s.e.Log.Warn("the document is served with a caveat", "caveat", w)
	}
	hs, err := webhook.NewSet(sv.Doc, sv.Plans, c.Webhooks, c.WebhookAllow)
	if err != nil {
		return nil, err
	}
	sv.Hooks = *hs
	return sv, nil
}
