package mock

import (
	"context"
	"errors"
	"net/url"
	"time"

	"github.com/plantmock/plantmock/mock/internal/store"
	"github.com/plantmock/plantmock/mock/internal/store/redisstore"
)

// DefaultStoreTimeout bounds each call to a shared store (Redis) when
// Options.StoreTimeout is zero.
const DefaultStoreTimeout = time.Second

// StoreError is New's error when the store in Options.Store cannot be
// used: a malformed URL, or a Redis that did not answer within
// Options.StoreWait.
type StoreError struct {
	URL string // Options.Store, without its password
	Err error
}

func (e *StoreError) Error() string { return "store " + e.URL + ": " + e.Err.Error() }
func (e *StoreError) Unwrap() error { return e.Err }

// openStore makes the store Options.Store names: memory by default, else
// Redis, waited for up to StoreWait.
func (s *Server) openStore(opts Options) error {
	if opts.Store == "" {
		s.store = store.NewMemory(s.maxResources)
		return nil
	}
	prefix := opts.StorePrefix
	if prefix == "" {
		prefix = "plantmock:" + s.Title() + ":"
	}
	ro := redisstore.Options{URL: opts.Store, Prefix: prefix, Max: s.maxResources, Timeout: orDefault(opts.StoreTimeout, DefaultStoreTimeout)}
	deadline := time.Now().Add(opts.StoreWait)
	for {
		rs, err := redisstore.New(context.Background(), ro)
		if err == nil {
			s.store, s.shared = rs, rs
			return nil
		}
		if !errors.Is(err, store.ErrUnavailable) || time.Now().After(deadline) {
			return &StoreError{URL: redacted(opts.Store), Err: err}
		}
		s.log.Info("waiting for the store", "store", redacted(opts.Store), "error", err.Error())
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
// With Options.Record it writes the recording (see Options.Record). A
// Server that sends nothing, records nothing and keeps its state in
// memory needs no Close.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), s.shutdown)
	defer cancel()
	s.deliveries.close(ctx)
	s.events.close()
	err := s.writeRecording()
	if s.shared != nil {
		return errors.Join(err, s.shared.Close())
	}
	return err
}

// healthy reports why the mock cannot serve, or nil.
func (s *Server) healthy(ctx context.Context) error {
	if s.shared != nil {
		return s.shared.Ping(ctx)
	}
	return nil
}
