package mock

import (
	"context"
	"log/slog"
)

// logExchange writes one log line for an exchange. Tokens are not logged.
func (s *Server) logExchange(e *Entry) {
	attrs := []slog.Attr{
		slog.String("method", e.Method), slog.String("path", e.Path),
		slog.Int("status", e.Status), slog.Duration("duration", e.Duration),
	}
	if e.Session != "" {
		attrs = append(attrs, slog.String("session", e.Session))
	}
	if e.Scenario != "" {
		attrs = append(attrs, slog.String("scenario", e.Scenario), slog.Int("rule", e.Rule))
	}
	if e.Code != 0 {
		attrs = append(attrs, slog.Int("error", int(e.Code)))
	}
	if len(e.Violations) > 0 {
		vs := make([]string, len(e.Violations))
		for i, v := range e.Violations {
			vs[i] = v.String()
		}
		attrs = append(attrs, slog.Any("violations", vs))
	}
	s.log.LogAttrs(context.Background(), slog.LevelInfo, "request", attrs...)
}
