package mock

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	cliptext "github.com/plantmock/plantmock/internal/clip"

	"github.com/plantmock/plantmock/mock/internal/event"
	"github.com/plantmock/plantmock/mock/internal/journal"
)

// Subscribe sets the default session's subscriber of the webhook called
// name, as PUT /__admin/webhooks/NAME does; a Subscriber without a URL
// leaves the webhook without one. The URL must fit Options.Webhooks.Allow,
// as a callback's does.
func (s *Server) Subscribe(name string, sub Subscriber) error {
	if sv := s.e.Mounted().Declaring(name); sv.Hooks.ByName[name] == nil {
		return fmt.Errorf("webhook %q is not declared by the document (declared: %s)", cliptext.To(name, 60), sv.Doc.WebhookNames())
	}
	if sub.URL != "" {
		if err := s.sender.CheckSubscriber(sub.URL); err != nil {
			return err
		}
	}
	return s.e.Sessions.Def.Subscribe(context.Background(), name, sub)
}

// SeedData loads JSON seed data ({"/plants": [...], ...}) into the default
// session, validating each resource like a create.
func (s *Server) SeedData(data []byte) error {
	return s.e.SeedData(s.e.Mounted().Owner(), s.e.Sessions.Def, data)
}

// told returns the facade's listeners: the metrics, the recording,
// Options.Observe, the dashboard's events, and last the webhooks and
// callbacks an answer sends.
func (s *Server) told(observe func(Entry)) []event.Listener {
	out := []event.Listener{s.metrics.Told()}
	if s.recording != nil {
		out = append(out, event.Listener{Answered: s.recording.Told})
	}
	if observe != nil {
		out = append(out, event.Listener{
			Answered:  func(a *event.Answered) { observe(a.E) },
			Attempted: func(t *journal.Attempt) { observe(t.E) },
		})
	}
	return append(out, event.Listener{
		Answered:  func(a *event.Answered) { s.events.Publish(a.E) },
		Attempted: func(t *journal.Attempt) { s.events.Publish(t.E) },
	}, event.Listener{Answered: s.sender.AfterAnswer})
}

// ScenarioNames returns the names of the loaded scenarios, sorted; none
// when no scenario is loaded.
func (s *Server) ScenarioNames() []string {
	m := s.e.Mounted()
	if !m.Several() {
		return m.Docs[0].Scenarios.Sorted()
	}
	var names []string
	for _, sv := range m.Docs {
		names = append(names, sv.Scenarios.Sorted()...)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// CheckTraffic judges the traffic recorded in the files at paths (HAR,
// the journal, a recording: see docs/service.md) as the mock checks
// requests and a proxy answers, adds it to the contract report and
// returns the report, its Traffic naming each exchange that broke it.
func (s *Server) CheckTraffic(paths ...string) (*ContractReport, error) {
	t, err := s.e.CheckTraffic(paths)
	if err != nil {
		return nil, err
	}
	r := s.Contract()
	r.Traffic = t
	return r, nil
}

// ServeHTTP answers one request: the admin API's calls (see Admin),
// unless Options.Admin.Disabled keeps them off but for the health call,
// and the document's requests, checked against it (route, security,
// parameters, body, then the mock's own headers), answered as decided
// (Prefer, a scenario's rule, the operation's behaviour, or the real
// service) and recorded in the journal.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, AdminPrefix) && (!s.noAdmin || r.URL.Path == healthPath) {
		s.admin.ServeHTTP(w, r) // under rules of its own for browsers (see admin's guard)
		return
	}
	s.e.ServeHTTP(w, r)
}
