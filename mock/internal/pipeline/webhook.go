package pipeline

import (
	"context"

	"github.com/brianvoe/gofakeit/v6"

	"github.com/plantmock/plantmock/mock/internal/gen"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/session"
	"github.com/plantmock/plantmock/mock/internal/webhook"
)

// sendsAfter reports whether anything is sent after an answer of status
// to x, as the document's webhook.Set says; record then flushes the
// answer before its listeners are told.
func (x *exchange) sendsAfter(status int) bool {
	if x.Plan == nil || x.problem != nil || x.proxied {
		return false
	}
	return x.Sv.Hooks.SendsAfter(x.Plan, x.Created != nil, x.rule, status)
}

// flushes reports whether an answer of status to x is flushed before
// the handler returns: when something is sent after it (sendsAfter), or
// when its journal entry is written out of the process (exchange.remote)
// and a create has not written it already. Such an answer carries its
// Content-Length (setLength).
func (x *exchange) flushes(status int) bool { return x.flushesIf(x.sendsAfter(status)) }

// flushesIf is flushes for an answer that sends something after it or
// not (sends, from sendsAfter).
func (x *exchange) flushesIf(sends bool) bool { return sends || x.remote && x.Journaled == 0 }

// The Engine is the webhook sender's Host.
var _ webhook.Host = (*Engine)(nil)

// Document returns the document of that name the mock serves now, the
// first when none has it (webhook.Host).
func (s *Engine) Document(name string) webhook.Doc {
	m := s.Mounted()
	sv := m.Named(name)
	if sv == nil {
		sv = m.Docs[0]
	}
	return hooksOf(sv)
}

// Declaring returns the document that declares the webhook called name,
// the first when none does (webhook.Host).
func (s *Engine) Declaring(name string) webhook.Doc { return hooksOf(s.Mounted().Declaring(name)) }

// hooksOf is what sv says the mock sends.
func hooksOf(sv *Served) webhook.Doc {
	return webhook.Doc{Name: sv.Name, Hooks: &sv.Hooks, Secrets: sv.Secrets}
}

// Subscribers returns the subscribers set in the session of that name
// (webhook.Host); none when it is no longer alive.
func (s *Engine) Subscribers(ctx context.Context, name string) (map[string]session.Subscriber, error) {
	ss, p := s.Sessions.Get(ctx, name, false)
	if p != nil {
		return nil, p
	}
	if ss == nil {
		return nil, nil
	}
	return ss.Subscribers(ctx)
}

// Attempted tells the listeners of an attempt of a webhook or callback
// (webhook.Host).
func (s *Engine) Attempted(t *journal.Attempt) { s.Emitter.EmitAttempt(t) }

// Faker returns a faker of the mock's sequence (webhook.Host).
func (s *Engine) Faker() *gofakeit.Faker { return gen.Faker(s.Seed, s.Seq.Add(1)) }
