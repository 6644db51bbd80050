package mock

import (
	"context"
	"errors"
	"net/http"
	"sort"
	"strings"

	cliptext "github.com/plantmock/plantmock/internal/clip"

	"github.com/plantmock/plantmock/mock/internal/admin"
	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/pipeline"
	"github.com/plantmock/plantmock/mock/internal/problem"
	"github.com/plantmock/plantmock/mock/internal/record"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/session"
	"github.com/plantmock/plantmock/mock/internal/store"
	"github.com/plantmock/plantmock/mock/internal/webhook"
)

// AdminPrefix is where the admin API lives.
const AdminPrefix = admin.Prefix

// healthPath is the admin API's health call. The mock's handler answers it
// even when the rest of the admin API is off (Options.Admin.Disabled), so that
// container health checks work whatever the flags.
const healthPath = admin.HealthPath

// Version is plantmock's version, reported by the admin health call and
// by plantmock version. A release build sets it to the release's version
// with the linker (-X, .goreleaser.yaml), the only thing that changes it.
var Version = "0.1.0"

// Admin returns the admin API handler: JSON calls under /__admin/ that
// inspect and drive the mock, described by the OpenAPI document it serves
// at GET /__admin/openapi.yaml. The mock serves it itself unless
// Options.Admin.Disabled is set; serve it on another listener then.
func (s *Server) Admin() http.Handler { return s.admin }

// newAdmin builds the admin API over the server (see adminView).
func newAdmin(s *Server, opts AdminOptions) (http.Handler, error) {
	h, err := admin.New(adminView{s}, &s.events, admin.Options{Token: opts.Token, CORS: opts.CORS, AllowedHosts: opts.AllowedHosts,
		MCP: mcpHandler(s, opts.MCP), Metrics: s.metrics})
	var bad *admin.BadOption
	if errors.As(err, &bad) {
		return nil, &pipeline.OptionError{Name: bad.Name, Err: bad.Err}
	}
	return h, err
}

// adminView is the server as the admin API reads and drives it.
type adminView struct{ s *Server }

var _ admin.Mock = adminView{}

func (v adminView) Health(ctx context.Context) admin.Health {
	s := v.s
	return admin.Health{Version: Version, Spec: s.Title(), Store: s.e.Sessions.Backend.Kind(), Err: s.e.Sessions.Backend.Health(ctx)}
}

func (v adminView) Session(ctx context.Context, name string) (admin.Session, *problem.Problem) {
	ss, p := v.s.e.Sessions.Get(ctx, name, true)
	if p != nil {
		return nil, p
	}
	return adminSession{v.s, ss}, nil
}

func (v adminView) Match(m Match) (func(Entry) bool, error) {
	return v.s.e.CompileMatch(m)
}

func (v adminView) Contract() admin.Report { return v.s.Contract() }

func (v adminView) Scenarios() []*Scenario {
	m := v.s.e.Mounted()
	return labelled(m.Several(), m.Docs...)
}

// labelled lists the scenarios of docs by name; those of a mock of
// several documents (several) labelled with their document's name.
func labelled(several bool, docs ...*pipeline.Served) []*Scenario {
	out := []*Scenario{}
	for _, sv := range docs {
		for _, sc := range sv.Scenarios.ByName {
			def := sc.Def
			if several {
				def = new(*def)
				def.Document = sv.Name
			}
			out = append(out, def)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Name < out[j].Name || out[i].Name == out[j].Name && out[i].Document < out[j].Document
	})
	return out
}

// Operations lists the operations of every document, "METHOD /path" with
// the base path a document is mounted at in front.
func (v adminView) Operations() []string {
	var ops []string
	for _, sv := range v.s.e.Mounted().Docs {
		ops = append(ops, operationsOf(sv)...)
	}
	return ops
}

// operationsOf names the operations of a document, with the base path it
// is mounted at in front.
func operationsOf(sv *pipeline.Served) []string {
	ops := make([]string, len(sv.Doc.Operations))
	for i, op := range sv.Doc.Operations {
		ops[i] = sv.OperationName(op)
	}
	return ops
}

func (v adminView) Webhooks() []admin.Webhook {
	var out []admin.Webhook
	seen := map[string]bool{}
	for _, sv := range v.s.e.Mounted().Docs {
		out = append(out, webhooksOf(seen, sv)...)
	}
	return out
}

// webhooksOf lists the webhooks of a document that seen does not have,
// and adds them to it.
func webhooksOf(seen map[string]bool, sv *pipeline.Served) []admin.Webhook {
	var out []admin.Webhook
	for _, h := range sv.Doc.Webhooks {
		if seen[h.Name] {
			continue
		}
		seen[h.Name] = true
		wh := admin.Webhook{Name: h.Name}
		for _, h := range sv.Hooks.ByName[h.Name] {
			wh.Methods = append(wh.Methods, h.Op.Method)
		}
		out = append(out, wh)
	}
	return out
}

func (v adminView) Recording() admin.Recording {
	if v.s.recording == nil {
		return nil // not a nil recording in the interface
	}
	return adminRecording{v.s.recording}
}

// adminRecording is the recording as the admin API reads it.
type adminRecording struct{ r *record.Recording }

func (a adminRecording) Status() admin.RecordStatus { return admin.RecordStatus(a.r.Status()) }

func (a adminRecording) Snapshot() ([]string, error) { return a.r.Snapshot() }

func (v adminView) Reloads() any { return v.s.reloads.get() }

func (v adminView) Raw() []byte {
	if m := v.s.e.Mounted(); !m.Several() {
		return m.Docs[0].Raw
	}
	return nil
}

func (v adminView) OperationExamples() any { return v.s.e.Mounted().Operations(nil) }

func (v adminView) Explain(r *http.Request) any { return v.s.e.Explain(r) }

// adminSession is one session as the admin API reads and changes it.
type adminSession struct {
	s  *Server
	ss *session.Session
}

var _ admin.Session = adminSession{}

func (a adminSession) Entries(ctx context.Context) ([]Entry, error) { return a.s.e.Entries(ctx, a.ss) }

func (a adminSession) ResetJournal(ctx context.Context) error { return a.s.e.ResetJournal(ctx, a.ss) }

func (a adminSession) Resources(ctx context.Context) ([]store.Collection, error) {
	dump, err := a.s.e.Store.Dump(ctx, a.ss.Name)
	return answer.Resources(dump), err
}

func (a adminSession) ResetResources(ctx context.Context) error {
	return a.s.e.Store.Reset(ctx, a.ss.Name)
}

func (a adminSession) Seed(ctx context.Context, col string, v any) (int, *problem.Problem) {
	sv, rest := a.s.e.Mounted().Find("/" + strings.Trim(col, "/"))
	if sv == nil {
		return 0, problem.Invalid(problem.CodeNoRoute, problem.ClassRequest, "%s is under no document's base path", col)
	}
	return a.s.e.SeedCollection(ctx, sv.Doc, sv.Plans, a.ss, rest, v)
}

func (a adminSession) Reset(ctx context.Context) error { return a.s.e.Reset(ctx, a.ss) }

// Active names the session's active scenario: with several documents,
// that of the first document, in their order, that has one.
func (a adminSession) Active(ctx context.Context) (string, bool, error) {
	for _, sv := range a.s.e.Mounted().Docs {
		if name, ok, err := a.s.e.Sessions.ActiveName(ctx, a.ss, sv.Scenarios); ok || err != nil {
			return name, ok, err
		}
	}
	return "", false, nil
}

// Activate makes the scenario called *name active in every document that
// loads one of that name, the others keeping theirs; nil makes none
// active in every document.
func (a adminSession) Activate(ctx context.Context, name *string) error {
	var sets []*scenario.Set
	for _, sv := range a.s.e.Mounted().Docs {
		sets = append(sets, sv.Scenarios)
	}
	if found, err := a.ss.ActivateIn(ctx, name, sets...); found || err != nil {
		return err
	}
	known := "(none)"
	if names := a.s.ScenarioNames(); len(names) > 0 {
		known = strings.Join(names, ", ")
	}
	return problem.Invalid(problem.CodeScenario, problem.ClassRequest, "no scenario is named %q; known: %s", cliptext.To(*name, 60), known)
}

func (a adminSession) Subscriber(ctx context.Context, webhook string) (admin.Subscriber, bool, error) {
	sub, ok, err := a.s.sender.Subscriber(ctx, a.ss.Name, webhook)
	if !ok {
		return admin.Subscriber{}, false, err
	}
	sec := a.s.e.Mounted().Declaring(webhook).Secrets
	return admin.Subscriber{URL: a.s.sender.ShownURL(sec, sub.URL), Token: sub.Token}, true, err
}

func (a adminSession) Subscribe(ctx context.Context, webhook string, sub admin.Subscriber) error {
	if sub.URL != "" {
		if err := a.s.sender.CheckSubscriber(sub.URL); err != nil {
			return problem.Invalid(problem.CodeSchema, problem.ClassRequest, "url: %s", err.Error())
		}
	}
	return a.ss.Subscribe(ctx, webhook, Subscriber(sub))
}

func (a adminSession) Send(ctx context.Context, name string, body any) (int, string, error) {
	n, url, err := a.s.sender.Send(ctx, webhook.Session{Name: a.ss.Name, Journal: a.ss.State}, name, body)
	if errors.Is(err, webhook.ErrNoSubscriber) {
		err = admin.ErrNoSubscriber
	}
	return n, url, err
}

// writeRecording writes what the recording holds (see snapshot), at
// shutdown, and logs what it wrote or why it could not.
func (s *Server) writeRecording() error {
	if s.recording == nil {
		return nil
	}
	written, err := s.recording.Snapshot()
	st := s.recording.Status()
	if err != nil {
		s.e.Log.Error("the recording was not written whole", "folder", st.Folder, "written", written, "error", err.Error())
		return err
	}
	if st.Dropped > 0 {
		s.e.Log.Warn("the recording was full: exchanges were not recorded", "folder", st.Folder, "dropped", st.Dropped, "bound_bytes", st.Bound)
	}
	if len(written) > 0 {
		s.e.Log.Info("recording written", "folder", st.Folder, "files", written, "exchanges", st.Exchanges)
	}
	return nil
}
