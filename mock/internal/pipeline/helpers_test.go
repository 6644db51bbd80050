package pipeline

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/plantmock/plantmock"
	"github.com/plantmock/plantmock/mock/internal/answer"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/openapi"
	"github.com/plantmock/plantmock/mock/internal/scenario"
	"github.com/plantmock/plantmock/mock/internal/session"
	"github.com/plantmock/plantmock/mock/internal/state"
)

var (
	validBody   = []byte(`{"id":7,"name":"Monstera","tag":"aroid"}`)
	invalidBody = []byte(`{"id":"7","name":3}`)
)

// plantEngine returns an engine serving the embedded Plant Store, its
// plans made, with its state in memory: what the stages need, without
// the facade's scenarios, webhooks and listeners.
func plantEngine(tb testing.TB) *Engine { return engineOf(tb, []byte(plantmock.OpenAPI)) }

// engineOf returns an engine serving spec alone, as plantEngine does.
func engineOf(tb testing.TB, spec []byte) *Engine {
	tb.Helper()
	doc, err := openapi.Load(spec)
	if err != nil {
		tb.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	sv := &Served{Doc: doc, Plans: map[*openapi.Operation]*answer.Plan{}, Scenarios: &scenario.Set{}, Secrets: journal.NewSecrets(doc), Log: log}
	if err := sv.BuildPlans(); err != nil {
		tb.Fatal(err)
	}
	b, err := state.Open(context.Background(), state.Options[journal.Entry]{
		Timeout: time.Second, MaxResources: 1000, JournalSize: 1000, JournalBytes: 1 << 20,
		MaxSessions: 10, Idle: time.Hour, Codec: journal.EntryCodec{},
	})
	if err != nil {
		tb.Fatal(err)
	}
	e := &Engine{MaxBody: 1 << 20, Timeouts: DefaultTimeouts}
	e.MaxResources, e.Log = 1000, log
	m, err := NewMounts([]*Served{sv})
	if err != nil {
		tb.Fatal(err)
	}
	e.Docs.Store(m)
	e.Store, e.Sessions = b.Store(), session.NewSessions(b, 10, time.Hour)
	return e
}
