package mock

import (
	"context"
	"net/http"
	"strings"

	"github.com/plantmock/plantmock/mock/internal/admin"
	"github.com/plantmock/plantmock/mock/internal/pipeline"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/store"
)

// Documents lists the documents the mock serves, in their order.
func (v adminView) Documents() []admin.Document {
	docs := v.s.e.Mounted().Docs
	out := make([]admin.Document, len(docs))
	for i, sv := range docs {
		out[i] = documentInfo(sv)
	}
	return out
}

// documentInfo is a document as GET /__admin/documents lists it.
func documentInfo(sv *pipeline.Served) admin.Document {
	d := admin.Document{Name: sv.Name, Title: sv.Doc.Title, Version: sv.Doc.Version, Base: sv.Base(),
		Operations: len(sv.Doc.Operations), Scenarios: len(sv.Scenarios.ByName), Webhooks: len(sv.Hooks.ByName)}
	for _, pl := range sv.Plans {
		d.Exchanges += pl.Seen.Load()
	}
	return d
}

// Document returns the admin API's view of one document of a mock of
// several; a mock of one has no name for it but its own, "".
func (v adminView) Document(name string) (admin.Mock, bool) {
	m := v.s.e.Mounted()
	if !m.Several() {
		return v, name == ""
	}
	sv := m.Named(name)
	if sv == nil {
		return nil, false
	}
	return docView{v, sv}, true
}

// docView is the mock as one of its documents shows it, for admin calls
// that name it (?document=): that document's operations, scenarios,
// webhooks and contract report, and in each session its resources and
// journal entries.
type docView struct {
	all adminView
	sv  *pipeline.Served
}

var _ admin.Mock = docView{}

func (d docView) Health(ctx context.Context) admin.Health {
	h := d.all.Health(ctx)
	h.Spec = strings.TrimSpace(d.sv.Doc.Title + " " + d.sv.Doc.Version)
	return h
}

func (d docView) Session(ctx context.Context, name string) (admin.Session, *problem.Problem) {
	ss, p := d.all.s.e.Sessions.Get(ctx, name, true)
	if p != nil {
		return nil, p
	}
	return docSession{adminSession{d.all.s, ss}, d.sv}, nil
}

func (d docView) Match(m Match) (func(Entry) bool, error) {
	m.Document = d.sv.Name
	return d.all.Match(m)
}

func (d docView) Contract() admin.Report {
	d.all.s.e.Settled(context.Background())
	return d.all.s.contractOf([]string{d.sv.Name}, d.sv)
}

func (d docView) Scenarios() []*Scenario { return labelled(true, d.sv) }

func (d docView) Operations() []string       { return operationsOf(d.sv) }
func (d docView) Webhooks() []admin.Webhook  { return webhooksOf(map[string]bool{}, d.sv) }
func (d docView) Recording() admin.Recording { return d.all.Recording() }
func (d docView) Reloads() any               { return d.all.Reloads() }
func (d docView) Raw() []byte                { return d.sv.Raw }
func (d docView) OperationExamples() any     { return d.all.s.e.Mounted().Operations(d.sv) }
func (d docView) Explain(r *http.Request) any {
	return d.all.Explain(r)
}
func (d docView) Documents() []admin.Document {
	return []admin.Document{documentInfo(d.sv)}
}

func (d docView) Document(name string) (admin.Mock, bool) { return d, name == d.sv.Name }

// docSession is a session as one document shows it: its resources and
// its journal entries, and its active scenario. The journal is the
// documents' together, so it is reset without a document, and with it
// every document's rule counters.
type docSession struct {
	adminSession
	sv *pipeline.Served
}

func (a docSession) Entries(ctx context.Context) ([]Entry, error) {
	all, err := a.adminSession.Entries(ctx)
	var out []Entry
	for _, e := range all {
		if e.Document == a.sv.Name {
			out = append(out, e)
		}
	}
	return out, err
}

// shared is the problem of a call that would reset what the documents
// share.
func (a docSession) shared(call string) error {
	return problem.Invalid(problem.CodeSession, problem.ClassRequest,
		"the journal is the documents' together: %s without document= resets it; DELETE /__admin/store?document=%s empties this document's resources", call, a.sv.Name)
}

func (a docSession) ResetJournal(context.Context) error { return a.shared("DELETE /__admin/requests") }
func (a docSession) Reset(context.Context) error        { return a.shared("POST /__admin/reset") }

// own returns the session's collections that the document keeps.
func (a docSession) own(ctx context.Context) ([]store.Collection, error) {
	all, err := a.adminSession.Resources(ctx)
	m := a.s.e.Mounted()
	var out []store.Collection
	for _, c := range all {
		if sv, _ := m.Find(c.Name); sv == a.sv {
			out = append(out, c)
		}
	}
	return out, err
}

func (a docSession) Resources(ctx context.Context) ([]store.Collection, error) { return a.own(ctx) }

func (a docSession) ResetResources(ctx context.Context) error {
	cols, err := a.own(ctx)
	for _, c := range cols {
		if err != nil {
			break
		}
		_, err = a.s.e.Store.Fill(ctx, a.ss.Name, c.Name, nil)
	}
	return err
}

// Seed fills a collection of the document, named by its path within it.
func (a docSession) Seed(ctx context.Context, col string, v any) (int, *problem.Problem) {
	return a.s.e.SeedCollection(ctx, a.sv.Doc, a.sv.Plans, a.ss, "/"+strings.Trim(col, "/"), v)
}

// Active names the session's active scenario of the document.
func (a docSession) Active(ctx context.Context) (string, bool, error) {
	return a.s.e.Sessions.ActiveName(ctx, a.ss, a.sv.Scenarios)
}

// Activate makes a scenario of the document its active one, or none for
// nil; other documents' stay as they are.
func (a docSession) Activate(ctx context.Context, name *string) error {
	if found, err := a.ss.ActivateIn(ctx, name, a.sv.Scenarios); found || err != nil {
		return err
	}
	return problem.Invalid(problem.CodeScenario, problem.ClassRequest, "no scenario of document %s is named %q; known: %s", a.sv.Name, *name, a.sv.Scenarios.Names())
}
