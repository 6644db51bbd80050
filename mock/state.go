package mock

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/plantmock/plantmock/mock/internal/answer"
)

// The Server's Go API to the default session's state, for tests that hold
// the Server itself; other sessions are reached through the admin API.

// Journal returns the exchanges the default session's journal keeps,
// oldest first.
func (s *Server) Journal() []Entry {
	es, err := s.e.Entries(context.Background(), s.e.Sessions.Def)
	if err != nil {
		s.e.Log.Error("reading the journal", "error", err.Error())
	}
	return handOut(es)
}

// handOut gives the caller answer bodies of its own: the journal shares
// them with the answers.
func handOut(es []Entry) []Entry {
	for i := range es {
		es[i].Response = bytes.Clone(es[i].Response)
	}
	return es
}

// Resources returns the resources stored in a collection of the default
// session, oldest first, as JSON. A collection is named by its path: "/plants".
func (s *Server) Resources(collection string) []json.RawMessage {
	docs, err := s.e.Store.List(context.Background(), "", collection, -1)
	if err != nil {
		s.e.Log.Error("reading the store", "collection", collection, "error", err.Error())
	}
	out := make([]json.RawMessage, len(docs))
	for i, d := range docs {
		out[i] = json.RawMessage(d)
	}
	return out
}

// Resource returns the resource stored in a collection under an
// identifier, written as in a path ("7" for the plant with id 7).
func (s *Server) Resource(collection, id string) (json.RawMessage, bool) {
	doc, err := s.e.Store.Get(context.Background(), "", collection, id)
	return json.RawMessage(doc), err == nil
}

// Collections returns the paths of the collections that hold resources,
// sorted.
func (s *Server) Collections() []string {
	cols, err := s.e.Store.Dump(context.Background(), "")
	if err != nil {
		s.e.Log.Error("reading the store", "error", err.Error())
	}
	cols = answer.Resources(cols)
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return names
}

// Reset empties the default session's store and journal and starts its
// rule counters (times, every, .seq) again, as if the mock had just started.
func (s *Server) Reset() {
	if err := s.e.Reset(context.Background(), s.e.Sessions.Def); err != nil {
		s.e.Log.Error("resetting the store", "error", err.Error())
	}
}
