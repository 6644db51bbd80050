package mock

import (
	"context"
	"errors"
	"net/url"
	"time"

	"github.com/plantmock/plantmock/mock/internal/journal"
	"github.com/plantmock/plantmock/mock/internal/state"
	"github.com/plantmock/plantmock/mock/internal/store"
)

// StoreError is New's error when the store in Options.Store.URL cannot be
// used: a malformed URL, or a Redis that did not answer within
// Options.Store.Wait.
type StoreError struct {
	URL string // Options.Store.URL, without its password
	Err error
}

func (e *StoreError) Error() string { return "store " + e.URL + ": " + e.Err.Error() }
func (e *StoreError) Unwrap() error { return e.Err }

// openState opens the state Options.Store.URL names, resources and sessions:
// in memory by default, else in Redis, waited for up to Store.Wait.
func (s *Server) openState(opts Options) (state.Backend[Entry], error) {
	so := state.Options[Entry]{
		URL: opts.Store.URL, Prefix: opts.Store.Prefix, Timeout: orDefault(opts.Store.Timeout, DefaultStoreTimeout),
		MaxResources: s.e.MaxResources, JournalSize: orDefault(opts.Journal.Size, DefaultJournalSize),
		JournalBytes: orDefault(opts.Journal.Bytes, DefaultJournalBytes),
		MaxSessions:  orDefault(opts.Limits.MaxSessions, DefaultMaxSessions), Idle: orDefault(opts.Limits.SessionIdle, DefaultSessionIdle),
		Codec: journal.EntryCodec{},
	}
	if opts.Journal.Size < 0 {
		so.JournalSize = -1
	}
	if len(opts.Documents) > 0 {
		// In Redis, each document's resources under a prefix of its own.
		so.Space = func(col string) string {
			if sv, _ := s.e.Mounted().Find(col); sv != nil {
				return sv.Name
			}
			return ""
		}
	}
	if so.Prefix == "" {
		so.Prefix = "plantmock:" + s.Title() + ":"
	}
	deadline := time.Now().Add(opts.Store.Wait)
	for {
		b, err := state.Open(context.Background(), so)
		if err == nil {
			return b, nil
		}
		if !errors.Is(err, store.ErrUnavailable) || time.Now().After(deadline) {
			return nil, &StoreError{URL: redacted(opts.Store.URL), Err: err}
		}
		s.e.Log.Info("waiting for the store", "store", redacted(opts.Store.URL), "error", err.Error())
		time.Sleep(min(250*time.Millisecond, time.Until(deadline)+time.Millisecond))
	}
}

// redacted returns a store URL without its password.
func redacted(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(a URL that does not parse)"
	}
	return u.Redacted()
}

// Close waits for the webhooks and callbacks under way, up to
// Options.ShutdownTimeout (dropping the rest, with a log line), and
// releases the connections to a shared store; what it holds stays there.
// With Options.Proxy.Record it writes the recording (see there). A
// Server that sends nothing, records nothing and keeps its state in
// memory needs no Close.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), s.shutdown)
	defer cancel()
	s.e.CloseLate(ctx) // the listeners told of every answer, webhooks queued
	s.sender.CloseDeliveries(ctx)
	s.events.Close()
	err := s.writeRecording()
	return errors.Join(err, s.e.Sessions.Backend.Close())
}
