package pipeline

import (
	"context"
	"log/slog"

	"github.com/plantmock/plantmock/mock/internal/event"
	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/problem"
)

// The log line of an exchange has a budget: what it quotes of the request
// is clipped, and its violations are quoted up to maxQuotedViolations
// and logViolationBytes, so that a line is at most about 6 KiB whatever
// the request (maxLogLine in the tests).
const (
	logMethodBytes    = 20
	logPathBytes      = 512
	logNameBytes      = 128 // a session's or a scenario's name
	logViolationBytes = 4 << 10
)

// logAnswered logs an exchange when Options.LogRequests says so.
func (s *Engine) logAnswered(a *event.Answered) {
	if s.LogAll {
		s.logExchange(&a.E)
	}
}

// logAttempt logs an attempt of a webhook or callback when
// Options.LogRequests says so, or when it failed.
func (s *Engine) logAttempt(t *journal.Attempt) {
	if e := &t.E; s.LogAll || e.Error != "" || len(e.Violations) > 0 {
		s.logDelivery(e)
	}
}

// logExchange writes one log line for an exchange. Tokens are not logged.
// The record goes to the handler directly, without the caller's program
// counter, which the Logger would look up on every request for a source
// location no handler of the mock's shows.
func (s *Engine) logExchange(e *journal.Entry) {
	h := s.Log.Handler()
	if !h.Enabled(context.Background(), slog.LevelInfo) {
		return
	}
	var room [8]slog.Attr
	attrs := append(room[:0],
		slog.String("method", Clip(e.Method, logMethodBytes)), slog.String("path", Clip(e.Path, logPathBytes)),
		slog.Int("status", e.Status), slog.Duration("duration", e.Duration),
	)
	if e.Session != "" {
		attrs = append(attrs, slog.String("session", Clip(e.Session, logNameBytes)))
	}
	if e.Scenario != "" {
		attrs = append(attrs, slog.String("scenario", Clip(e.Scenario, logNameBytes)), slog.Int("rule", e.Rule))
	}
	if e.Code != 0 {
		attrs = append(attrs, slog.Int("error", int(e.Code)))
	}
	if len(e.Violations) > 0 {
		vs := make([]string, 0, min(len(e.Violations), problem.MaxQuotedViolations)+1)
		room := logViolationBytes
		for _, v := range e.Violations {
			q := v.String()
			if len(vs) == problem.MaxQuotedViolations || len(q) > room {
				vs = append(vs, problem.MoreViolations(e.ViolationCount(), len(vs), e.Clipped != nil && e.Clipped.Unchecked))
				break
			}
			room -= len(q)
			vs = append(vs, q)
		}
		attrs = append(attrs, slog.Any("violations", vs))
	}
	if e.Drift != "" {
		attrs = append(attrs, slog.String("drift", e.Drift)) // at most maxDrift bytes
	}
	r := slog.NewRecord(e.Time.Add(e.Duration), slog.LevelInfo, "request", 0) // where the journal's duration ends
	r.AddAttrs(attrs...)
	h.Handle(context.Background(), r)
}

// logDelivery logs one attempt of a webhook or callback: at info level
// when answered with no violations, else as a warning.
func (s *Engine) logDelivery(e *journal.Entry) {
	attrs := []slog.Attr{
		slog.String("webhook", e.Operation), slog.String("method", e.Method), slog.String("url", Clip(e.URL, 200)),
		slog.Int("attempt", e.Attempt), slog.Uint64("trigger", e.Trigger),
	}
	if e.Session != "" {
		attrs = append(attrs, slog.String("session", e.Session))
	}
	level := slog.LevelInfo
	if e.Error != "" {
		attrs = append(attrs, slog.String("error", e.Error))
		level = slog.LevelWarn
	} else {
		attrs = append(attrs, slog.Int("status", e.Status), slog.Duration("duration", e.Duration))
	}
	if len(e.Violations) > 0 {
		attrs = append(attrs, slog.String("violations", journal.Quote(e.Violations, e.ViolationCount())))
		level = slog.LevelWarn
	}
	s.Log.LogAttrs(context.Background(), level, "outbound", attrs...)
}
